#!/usr/bin/env bash
# Puts the `neovim` package of a Debian suite into a private folder, without
# touching the system, and prints the path of a wrapper that starts it:
#   editors/nvim/test/install-nvim.sh SUITE DIR     # SUITE: trixie, sid, ...
#
# The package, its dependency closure and the suite's own libc are fetched
# with `apt-get download` through a private sources list and private apt
# state folders, unpacked with `dpkg -x` into DIR/SUITE/root, and started
# through that libc's ld-linux-x86-64.so.2 --library-path ..., so the
# system's libc, apt state and /usr/share/nvim stay as they are. A second
# run reuses the unpacked tree.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 SUITE DIR" >&2
  exit 2
fi
suite=$1
base=$(mkdir -p "$2" && cd "$2" && pwd)/$suite
root=$base/root
wrapper=$base/nvim

if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
  echo "$wrapper"
  exit 0
fi

rm -rf "$base"
mkdir -p "$base/lists/partial" "$base/cache/archives/partial" "$base/debs" "$root"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" >"$base/sources.list"
: >"$base/status"
apt_opts=(
  -o "Dir::Etc::sourcelist=$base/sources.list"
  -o "Dir::Etc::sourceparts=-"
  -o "Dir::State::Lists=$base/lists"
  -o "Dir::Cache=$base/cache"
  -o "Dir::State::status=$base/status"
  -o "Acquire::Languages=none"
  -o "APT::Sandbox::User=root"
)
if ! timeout 300 apt-get "${apt_opts[@]}" -qq update >"$base/update.log" 2>&1; then
  echo "install-nvim: FAIL: apt-get update of Debian $suite failed (log: $base/update.log):" >&2
  tail -n 20 "$base/update.log" >&2
  exit 1
fi
# The dependency closure of neovim (libc6 included), as nothing counts as
# installed in the private status file.
mapfile -t pkgs < <(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests \
  --no-conflicts --no-breaks --no-replaces --no-enhances neovim | grep '^[a-z0-9]' | sort -u)
if [ "${#pkgs[@]}" -eq 0 ]; then
  echo "install-nvim: FAIL: Debian $suite has no neovim package" >&2
  exit 1
fi
if ! (cd "$base/debs" && timeout 300 apt-get "${apt_opts[@]}" -qq download "${pkgs[@]}") >"$base/download.log" 2>&1; then
  echo "install-nvim: FAIL: apt-get download from Debian $suite failed (log: $base/download.log):" >&2
  tail -n 20 "$base/download.log" >&2
  exit 1
fi
for deb in "$base"/debs/*.deb; do
  dpkg -x "$deb" "$root"
done
rm -rf "$base/debs" "$base/cache"

loader=$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
if [ ! -e "$loader" ]; then
  loader=$root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
fi
if [ ! -e "$loader" ] || [ ! -x "$root/usr/bin/nvim" ]; then
  echo "install-nvim: FAIL: the unpacked Debian $suite tree has no nvim or no ld-linux-x86-64.so.2 (in $root)" >&2
  exit 1
fi
libs=$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu
cat >"$wrapper" <<EOF
#!/bin/sh
# Neovim of Debian $suite, started with the suite's own libc (see install-nvim.sh).
VIMRUNTIME='$root/usr/share/nvim/runtime'
LUA_CPATH='$root/usr/lib/x86_64-linux-gnu/lua/5.1/?.so;;'
export VIMRUNTIME LUA_CPATH
exec '$loader' --library-path '$libs' '$root/usr/bin/nvim' "\$@"
EOF
chmod +x "$wrapper"
if ! "$wrapper" --version >/dev/null 2>"$base/version.log"; then
  echo "install-nvim: FAIL: the Neovim of Debian $suite does not start:" >&2
  cat "$base/version.log" >&2
  exit 1
fi
echo "$wrapper"
