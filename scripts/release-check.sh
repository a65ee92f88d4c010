#!/usr/bin/env bash
# Verifies a release built by scripts/release.sh:
#   bash scripts/release-check.sh OUT
# Checks that OUT holds the 6 archives and 7 .vsix packages of one version
# and a checksums.txt that sha256sum -c accepts and that covers exactly
# them; that each archive holds the binary, LICENSE and README.md; that
# each platform .vsix carries only its own server under bin/<target>/ and
# the universal one none, each with the license; that the linux/amd64
# binary runs (version, and the demo check's exit status 1); that building
# the linux/amd64 archive again gives the same bytes; and that the GitHub
# Action's script (scripts/action/action.sh) installs from OUT and runs
# gddls check, with a tampered archive refused. Needs Go, tar and
# sha256sum; run from any folder.
set -euo pipefail
export LC_ALL=C # sort order of the listings below

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: bash scripts/release-check.sh OUT" >&2
  exit 2
fi
out=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failed=0
fail() {
  echo "release-check: FAIL: $*" >&2
  failed=1
}
go build -o "$tmp/archive" ./scripts/archive
list() { "$tmp/archive" list "$1" | sort | tr '\n' ' ' | sed 's/ $//'; }

[ -f "$out/checksums.txt" ] || { echo "release-check: FAIL: no checksums.txt in $out" >&2; exit 1; }
version=$(sed -n 's/.*gddls_\(.*\)_linux_amd64\.tar\.gz$/\1/p' "$out/checksums.txt")
[ -n "$version" ] || { echo "release-check: FAIL: checksums.txt lists no linux/amd64 archive" >&2; exit 1; }
echo "release-check: version $version"

# The expected files, and nothing else in checksums.txt.
want=()
for t in linux_amd64 linux_arm64 darwin_amd64 darwin_arm64; do want+=("gddls_${version}_$t.tar.gz"); done
for t in windows_amd64 windows_arm64; do want+=("gddls_${version}_$t.zip"); done
targets=(linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64)
for t in "${targets[@]}"; do want+=("gddls-$version@$t.vsix"); done
want+=("gddls-$version.vsix")
listed=$(awk '{ sub(/^\*/, "", $2); print $2 }' "$out/checksums.txt" | sort | tr '\n' ' ')
expected=$(printf '%s\n' "${want[@]}" | sort | tr '\n' ' ')
[ "$listed" = "$expected" ] || fail "checksums.txt lists [$listed], want [$expected]"
for f in "${want[@]}"; do
  [ -f "$out/$f" ] || fail "missing $f"
done
(cd "$out" && sha256sum -c --quiet checksums.txt) || fail "sha256sum -c checksums.txt"

# Archives: binary, LICENSE and README.md, nothing else.
for f in "${want[@]}"; do
  case "$f" in
    *.zip) exe=gddls.exe ;;
    *.tar.gz) exe=gddls ;;
    *) continue ;;
  esac
  got=$(list "$out/$f")
  [ "$got" = "LICENSE README.md $exe" ] || fail "$f holds [$got], want [LICENSE README.md $exe]"
done

# Extensions: the platform ones carry only their own server.
for t in "${targets[@]}" universal; do
  if [ "$t" = universal ]; then
    f=gddls-$version.vsix
    server=""
  else
    f=gddls-$version@$t.vsix
    server=extension/bin/$t/gddls
    [[ $t == win32-* ]] && server=$server.exe
  fi
  entries=$("$tmp/archive" list "$out/$f")
  bins=$(grep '^extension/bin/' <<<"$entries" || true)
  [ "$bins" = "$server" ] || fail "$f carries the servers [$bins], want [$server]"
  grep -qx 'extension/LICENSE.txt' <<<"$entries" || fail "$f has no extension/LICENSE.txt"
  grep -qx 'extension/dist/extension.js' <<<"$entries" || fail "$f has no extension/dist/extension.js"
done

# The linux/amd64 binary runs where CI runs.
if [ "$(go env GOHOSTOS)/$(go env GOHOSTARCH)" = linux/amd64 ]; then
  mkdir -p "$tmp/linux"
  tar -xzf "$out/gddls_${version}_linux_amd64.tar.gz" -C "$tmp/linux"
  "$tmp/linux/gddls" version >"$tmp/version.txt"
  head -n 1 "$tmp/version.txt" | grep -q "^gddls v\{0,1\}$version\$" || fail "gddls version printed $(head -n 1 "$tmp/version.txt"), want gddls $version"
  grep -q "^commit: $(git rev-parse HEAD)" "$tmp/version.txt" || fail "gddls version printed no commit $(git rev-parse HEAD): $(cat "$tmp/version.txt")"
  status=0
  "$tmp/linux/gddls" check testdata/demo >/dev/null || status=$?
  [ "$status" -eq 1 ] || fail "the released binary's demo check exited $status, want 1"

  # Reproducible: the same archive, byte for byte, from a second build.
  GDDLS_VERSION=$("$tmp/linux/gddls" version | sed -n '1s/^gddls //p') \
    bash scripts/release.sh --archive linux amd64 "$tmp/again" >/dev/null
  cmp -s "$out/gddls_${version}_linux_amd64.tar.gz" "$tmp/again/gddls_${version}_linux_amd64.tar.gz" ||
    fail "a second build of gddls_${version}_linux_amd64.tar.gz differs from the first"

  # The GitHub Action's script, against this release.
  status=0
  GDDLS_RELEASE_DIR=$out GDDLS_INSTALL_DIR=$tmp/action GDDLS_PATHS=testdata/demo GDDLS_FORMAT=sarif \
    GDDLS_OUTPUT=$tmp/report.sarif RUNNER_OS=Linux RUNNER_ARCH=X64 bash scripts/action/action.sh >"$tmp/action.log" 2>&1 || status=$?
  [ "$status" -eq 1 ] || fail "the action's script exited $status on the demo, want 1: $(cat "$tmp/action.log")"
  grep -q '"version": "2.1.0"' "$tmp/report.sarif" || fail "the action's script wrote no SARIF report"
  [ -x "$tmp/action/gddls" ] || fail "the action's script installed no $tmp/action/gddls"
  # A tampered archive is refused.
  mkdir -p "$tmp/bad"
  cp "$out"/checksums.txt "$out/gddls_${version}_linux_amd64.tar.gz" "$tmp/bad/"
  printf x >>"$tmp/bad/gddls_${version}_linux_amd64.tar.gz"
  status=0
  GDDLS_RELEASE_DIR=$tmp/bad GDDLS_INSTALL_DIR=$tmp/action-bad GDDLS_PATHS=testdata/demo \
    RUNNER_OS=Linux RUNNER_ARCH=X64 bash scripts/action/action.sh >"$tmp/action-bad.log" 2>&1 || status=$?
  [ "$status" -eq 3 ] && grep -q 'does not match' "$tmp/action-bad.log" ||
    fail "the action's script accepted a tampered archive (exit $status): $(cat "$tmp/action-bad.log")"
fi

# The pre-commit hooks, where pre-commit is installed (CI does not install
# it; Debian's pre-commit package works): gddls-check builds gddls from
# this repository with Go, gddls-check-system runs the released binary.
if command -v pre-commit >/dev/null 2>&1 && [ -x "$tmp/linux/gddls" ]; then
  mkdir -p "$tmp/precommit"
  cp -r testdata/demo/. "$tmp/precommit/"
  (cd "$tmp/precommit" && git init -q && git add -A && git -c user.name=ci -c user.email=ci@localhost commit -qm demo)
  for hook in gddls-check gddls-check-system; do
    status=0
    (cd "$tmp/precommit" && PATH=$tmp/linux:$PATH PRE_COMMIT_HOME=$tmp/pre-commit-home \
      pre-commit try-repo "$root" "$hook" --all-files) >"$tmp/$hook.log" 2>&1 || status=$?
    # The demo has planted mistakes: the hook must fail, with findings.
    [ "$status" -eq 1 ] && grep -q 'COMMERCE_SPLIT' "$tmp/$hook.log" ||
      fail "pre-commit try-repo $hook exited $status without the demo's findings: $(tail -n 20 "$tmp/$hook.log")"
  done
else
  echo "release-check: pre-commit is not installed; the hooks were not tried"
fi

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "release-check: $out is a complete release of $version"
