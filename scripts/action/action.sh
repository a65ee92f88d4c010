#!/usr/bin/env bash
# The GitHub Action of gddls (action.yml at the repository root): installs
# the release binary for the runner's OS and architecture and runs
# `gddls check`. Inputs come as environment variables:
#   GDDLS_VERSION      release to install: 1.2.3, v1.2.3 or latest (default)
#   GDDLS_PATHS        whitespace-separated paths to check (default .)
#   GDDLS_FORMAT       text, json or sarif (default text)
#   GDDLS_ARGS         more arguments for gddls check (e.g. --review)
#   GDDLS_OUTPUT       file to write the report to instead of the log
#   GDDLS_RELEASE_DIR  take the archives and checksums.txt from this folder
#                      instead of downloading them from GitHub (for tests:
#                      the OUT folder of scripts/release.sh)
#   GDDLS_INSTALL_DIR  where to put the binary (default $RUNNER_TEMP/gddls)
#   GDDLS_REPO_URL     the repository whose releases to download from
#                      (default https://github.com/gddls/gddls)
# The exit status is gddls check's: 0 no error, 1 errors found, 2 usage.
# Installing fails with status 3 (no release for the platform, a checksum
# that does not match, a failed download).
set -euo pipefail

repo=${GDDLS_REPO_URL:-https://github.com/gddls/gddls}
version=${GDDLS_VERSION:-latest}
format=${GDDLS_FORMAT:-text}
paths=${GDDLS_PATHS:-.}

fail() {
  echo "gddls action: $*" >&2
  exit 3
}

case "$format" in
  text | json | sarif) ;;
  *) fail "format must be text, json or sarif, not \"$format\"" ;;
esac

# The runner's platform, as the archives name it.
os=${RUNNER_OS:-$(uname -s)}
case "$os" in
  Linux | linux) os=linux ;;
  macOS | Darwin) os=darwin ;;
  Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) fail "no gddls release for the operating system $os" ;;
esac
arch=${RUNNER_ARCH:-$(uname -m)}
case "$arch" in
  X64 | x86_64 | amd64) arch=amd64 ;;
  ARM64 | arm64 | aarch64) arch=arm64 ;;
  *) fail "no gddls release for the architecture $arch" ;;
esac

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fetch NAME: copies or downloads the release file NAME into $tmp.
fetch() {
  if [ -n "${GDDLS_RELEASE_DIR:-}" ]; then
    cp "$GDDLS_RELEASE_DIR/$1" "$tmp/$1" || fail "$1 is not in $GDDLS_RELEASE_DIR"
  else
    curl -fsSL --retry 3 -o "$tmp/$1" "$repo/releases/download/v$version/$1" || fail "cannot download $repo/releases/download/v$version/$1"
  fi
}

version=${version#v}
if [ "$version" = latest ]; then
  if [ -n "${GDDLS_RELEASE_DIR:-}" ]; then
    # The folder holds one release: read its version off checksums.txt.
    version=$(sed -n 's/.*gddls_\(.*\)_linux_amd64\.tar\.gz$/\1/p' "$GDDLS_RELEASE_DIR/checksums.txt")
  else
    # github.com/OWNER/REPO/releases/latest redirects to .../tag/vX.Y.Z.
    url=$(curl -fsSLI -o /dev/null -w '%{url_effective}' "$repo/releases/latest") || fail "cannot find the latest release at $repo/releases/latest"
    version=${url##*/v}
  fi
  [ -n "$version" ] || fail "cannot tell the latest release's version"
fi

ext=tar.gz
exe=gddls
if [ "$os" = windows ]; then
  ext=zip
  exe=gddls.exe
fi
archive=gddls_${version}_${os}_${arch}.$ext
fetch checksums.txt
fetch "$archive"
want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
[ -n "$want" ] || fail "checksums.txt has no line for $archive"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] || fail "$archive: SHA-256 $got does not match checksums.txt ($want)"

dir=${GDDLS_INSTALL_DIR:-${RUNNER_TEMP:-$tmp}/gddls}
mkdir -p "$dir"
if [ "$ext" = zip ]; then
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o "$tmp/$archive" "$exe" -d "$dir"
  else
    powershell -NoProfile -Command "Expand-Archive -Force -Path '$tmp/$archive' -DestinationPath '$dir'"
  fi
else
  tar -xzf "$tmp/$archive" -C "$dir" "$exe"
fi
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dir" >>"$GITHUB_PATH"
fi
"$dir/$exe" version

# shellcheck disable=SC2086 # paths and args are whitespace-separated lists
set -- check --format "$format" ${GDDLS_ARGS:-} $paths
echo "gddls $*" >&2
status=0
if [ -n "${GDDLS_OUTPUT:-}" ]; then
  "$dir/$exe" "$@" >"$GDDLS_OUTPUT" || status=$?
else
  "$dir/$exe" "$@" || status=$?
fi
exit "$status"
