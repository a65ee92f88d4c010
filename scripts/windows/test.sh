#!/usr/bin/env bash
# Tests the Windows build of gddls under Wine, and cross-compiles macOS.
#
#   bash scripts/windows/test.sh
#
# On a Debian bookworm machine with Go (run as root, or with sudo, when
# Wine is missing) it installs Wine and mingw-w64 from Debian, prepares a
# private Wine prefix, and then:
#
#   1. builds gddls.exe and compares `gddls.exe check` with the Linux
#      binary's report on the demo and the docs repository;
#   2. runs `GOOS=windows go test ./...` under Wine (go test -exec), the
#      check goldens and the LSP end-to-end tests included;
#   3. runs the editor session of lsp/editor_session_test.go from Linux
#      against gddls.exe, with the URIs VS Code sends on Windows
#      (file:///c%3A/users/designer/...) and CRLF buffers;
#   4. builds and vets darwin/amd64 and darwin/arm64, which cannot run
#      here.
#
# Bookworm's Wine 8 lacks bcryptprimitives.dll, from which Go's runtime
# (Go 1.22 and later) loads ProcessPrng before main; the script builds a
# stand-in from scripts/windows/bcryptprimitives.c into the prefix.
#
# GDDLS_WINE_HOME (default ~/.cache/gddls/wine) keeps the prefix between
# runs; a second run reuses it. docs/WINDOWS.md says more.
set -euo pipefail
cd "$(dirname "$0")/../.."
here="$PWD/scripts/windows"

start=$SECONDS
step() { printf '\n-- windows (%ds): %s\n' $((SECONDS - start)) "$*"; }

step "install Wine and mingw-w64 when missing"
wine=$(command -v wine64 || true)
[ -z "$wine" ] && [ -x /usr/lib/wine/wine64 ] && wine=/usr/lib/wine/wine64
need=()
[ -n "$wine" ] || need+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64)
if [ ${#need[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
  echo "installing ${need[*]}"
  if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 \
    install -y -qq --no-install-recommends "${need[@]}" >/tmp/gddls-wine-apt.log 2>&1; then
    tail -30 /tmp/gddls-wine-apt.log
    exit 1
  fi
  wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
fi
wineserver=$(command -v wineserver || echo "$(dirname "$wine")/wineserver")
"$wine" --version

step "Wine prefix"
home="${GDDLS_WINE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/gddls/wine}"
mkdir -p "$home"
export WINEPREFIX="$home/prefix" WINEDEBUG=-all DISPLAY= WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  # No display: wineboot runs headless; mscoree and mshtml are off so that
  # it does not offer to install Mono and Gecko.
  timeout 300 "$wine" wineboot -i >/dev/null 2>&1 || true
  "$wineserver" -w
  [ -f "$WINEPREFIX/system.reg" ] || { echo "wineboot did not create $WINEPREFIX"; exit 1; }
fi
echo "$WINEPREFIX"
trap '"$wineserver" -k >/dev/null 2>&1 || true' EXIT

step "bcryptprimitives.dll (ProcessPrng, which Go's runtime needs and Wine 8 lacks)"
dll="$home/bcryptprimitives.dll"
if [ ! -f "$dll" ] || [ "$here/bcryptprimitives.c" -nt "$dll" ]; then
  x86_64-w64-mingw32-gcc -O2 -shared -s -o "$dll" "$here/bcryptprimitives.c" -ladvapi32
fi
for d in system32 syswow64; do
  if [ -d "$WINEPREFIX/drive_c/windows/$d" ]; then
    cmp -s "$dll" "$WINEPREFIX/drive_c/windows/$d/bcryptprimitives.dll" ||
      cp "$dll" "$WINEPREFIX/drive_c/windows/$d/bcryptprimitives.dll"
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"; "$wineserver" -k >/dev/null 2>&1 || true' EXIT
exe="$work/gddls.exe"
run() { "$here/wine-exec" "$@"; }

step "gddls.exe check gives the Linux binary's report"
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$exe" ./cmd/gddls
go build -o "$work/gddls" ./cmd/gddls
run "$exe" version
for pkg in testdata/demo testdata/docs-repo; do
  for format in text json sarif; do
    status=0
    (cd "$pkg" && "$work/gddls" check --format "$format" . >"$work/linux.out" 2>&1) || status=$?
    echo "exit status $status" >>"$work/linux.out"
    status=0
    (cd "$pkg" && run "$exe" check --format "$format" . >"$work/windows.out" 2>&1) || status=$?
    echo "exit status $status" >>"$work/windows.out"
    if ! diff -u "$work/linux.out" "$work/windows.out" >"$work/diff"; then
      echo "gddls.exe check --format $format $pkg differs from the Linux binary:"
      head -40 "$work/diff"
      exit 1
    fi
  done
  echo "$pkg: same report in text, json and sarif"
done

step "GOOS=windows go test ./... under Wine"
# Go 1.25 and later delete a file with FileDispositionInformationEx, which
# Wine 8 answers "not implemented"; Go falls back to the older call only on
# other answers, so every t.TempDir cleanup would fail. The tests are built
# with a copy of that standard-library file that also falls back on Wine's
# answer (gddls deletes no file; gddls.exe above is built as it ships).
overlay=()
at="$(go env GOROOT)/src/internal/syscall/windows/at_windows.go"
fallback=$'^\tcase STATUS_INVALID_INFO_CLASS, // the operating system'
if [ -f "$at" ] && grep -q "$fallback" "$at"; then
  sed "s|$fallback|\tcase NTStatus(0xC0000002), // STATUS_NOT_IMPLEMENTED, Wine's answer\n\t\tSTATUS_INVALID_INFO_CLASS, // the operating system|" \
    "$at" >"$work/at_windows.go"
  printf '{"Replace":{"%s":"%s"}}\n' "$at" "$work/at_windows.go" >"$work/overlay.json"
  overlay=(-overlay "$work/overlay.json")
  echo "tests built with $at falling back on Wine's answer"
else
  echo "$at has changed: no overlay, so t.TempDir cleanups may fail under Wine"
fi
# The sweeps that ask every query at every offset, replay hundreds of
# random edits, send oversized or malformed messages by the hundred or
# generate large repositories take minutes under Wine and test nothing of
# the OS: the Linux run has them.
slow='^(TestHostileQueries|TestQueriesSurviveBrokenFiles|TestQueriesEveryOffset|TestClockQueriesEveryOffset|TestWorkspaceMatchesLoadRandomEdits'
slow+='|TestOversizeMessageRefused|TestAbuseEditStorm|TestAbuseMalformedParams|TestDefaultSizes|TestPackageDeterministic|TestPrefilterChangesNothing)$'
# The lsp tests start the server TestMain would build with the go command,
# which Wine does not have: they get gddls.exe, by its path on Wine's Z:.
winexe="Z:${exe//\//\\}"
# The wineserver and Wine's own services (services.exe, explorer.exe…)
# outlive the program that started them and keep its output open: started
# by the first test binary, go test would wait a minute for that output to
# close after the test ends ("Test I/O incomplete"). Start them first, with
# their output elsewhere, in place of any the steps above left, and keep
# them to the end (the trap ends them).
"$wineserver" -k >/dev/null 2>&1 || true
"$wineserver" -w >/dev/null 2>&1 || true
"$wineserver" -p </dev/null >/dev/null 2>&1
run "$exe" version </dev/null >/dev/null 2>&1
# GDDLS_TEST_UNDER_WINE: Wine 8 sometimes never finishes tearing down a
# process that has exited; the lsp tests then kill a server that logged its
# exit, after a grace, and take the status it logged (docs/WINDOWS.md).
GDDLS_TEST_UNDER_WINE=1 GOOS=windows GOARCH=amd64 CGO_ENABLED=0 GDDLS_TEST_BINARY="$winexe" \
  timeout 900 go test "${overlay[@]}" -count=1 -skip "$slow" -exec "$here/wine-exec" ./...

step "an editor session from Linux against gddls.exe, with VS Code's Windows URIs and CRLF buffers"
GDDLS_TEST_UNDER_WINE=1 GDDLS_TEST_WINE="$here/wine-exec" GDDLS_TEST_WINDOWS_BINARY="$exe" \
  timeout 300 go test -count=1 -run '^TestEditorSession$' -v ./lsp

step "macOS: build and vet (scripts/release.sh builds the other targets)"
for target in darwin/amd64 darwin/arm64; do
  GOOS=${target%/*} GOARCH=${target#*/} CGO_ENABLED=0 go build ./...
  GOOS=${target%/*} GOARCH=${target#*/} CGO_ENABLED=0 go vet ./...
  echo "$target: builds and vets"
done
step "done"
