#!/usr/bin/env bash
# The gddls extension in a real VS Code: installs the .vsix into code-server
# 4.100.3 (VS Code 1.100.3) listening on 127.0.0.1, opens testdata/demo in
# Debian's Chromium driven by playwright-core, and checks what the page
# shows (vscode/test-e2e/e2e.test.mjs). Screenshots and logs go to
# $ARTIFACTS/vscode-e2e (default editors/vscode/e2e-artifacts).
#   editors/vscode-e2e.sh [PATH_TO_VSIX]     (default: the one in editors/vscode)
# Installs what it needs: Debian's chromium and ripgrep (apt-get), code-server
# and playwright-core (npm ci --ignore-scripts in vscode/test-e2e, then
# test-e2e/prepare-code-server.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
e2e=$here/vscode/test-e2e
start=$SECONDS

vsix=${1:-}
if [ -z "$vsix" ]; then
  vsix=$(ls -t "$here"/vscode/gddls-*.vsix 2>/dev/null | head -n 1 || true)
fi
if [ -z "$vsix" ] || [ ! -f "$vsix" ]; then
  echo "vscode-e2e: FAIL: no .vsix (run npm run package in editors/vscode, or pass its path)" >&2
  exit 1
fi
vsix=$(cd "$(dirname "$vsix")" && pwd)/$(basename "$vsix")

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== vscode-e2e: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "== vscode-e2e: code-server and playwright-core"
# npm ci wipes node_modules, and with it the rebuilt code-server: skip it
# when node_modules was installed from this very lockfile.
lock=$(sha256sum "$e2e/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$e2e/node_modules/.gddls-lock" 2>/dev/null || true)" != "$lock" ]; then
  (cd "$e2e" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "$lock" >"$e2e/node_modules/.gddls-lock"
fi
bash "$e2e/prepare-code-server.sh"
echo "   ready after $((SECONDS - start)) s"

artifacts=${ARTIFACTS:-$here/vscode/e2e-artifacts}
artifacts=$artifacts/vscode-e2e
rm -rf "$artifacts"
mkdir -p "$artifacts"
echo "== vscode-e2e: $(basename "$vsix") in code-server + Chromium (screenshots: $artifacts)"
t=$SECONDS
# Whatever happens to the test process, end code-server's process group.
cleanup() {
  local pgid
  pgid=$(cat "$artifacts/code-server.pgid" 2>/dev/null || true)
  if [ -n "$pgid" ] && kill -0 -- "-$pgid" 2>/dev/null; then
    echo "vscode-e2e: ending code-server's leftover process group $pgid"
    kill -KILL -- "-$pgid" 2>/dev/null || true
  fi
}
trap cleanup EXIT
rc=0
# The test run is bounded as a whole as well as per test; the harness kills
# code-server's process group and the browser when it ends.
GDDLS_VSIX=$vsix GDDLS_DEMO=$here/../testdata/demo GDDLS_ARTIFACTS=$artifacts CHROMIUM=/usr/bin/chromium \
  timeout --kill-after=20 480 node --test --test-concurrency=1 --test-reporter=spec "$e2e/e2e.test.mjs" || rc=$?
echo "   tests took $((SECONDS - t)) s; vscode-e2e took $((SECONDS - start)) s in all"
if [ "$rc" -ne 0 ]; then
  [ "$rc" -eq 124 ] && echo "vscode-e2e: FAIL: the tests did not finish within 480 s"
  echo "vscode-e2e: FAIL (status $rc); screenshots and logs are in $artifacts"
  exit 1
fi
