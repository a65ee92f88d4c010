#!/usr/bin/env bash
# Runs the headless Neovim end-to-end test against a built gddls binary:
#   editors/nvim/test/run.sh PATH_TO_GDDLS
# NVIM names the Neovim to run (default: nvim on PATH); GDDLS_E2E_MODE
# (setup or enable) is passed on to e2e.lua.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plugin=$(dirname "$here")

if [ $# -lt 1 ] || [ -z "$1" ]; then
  echo "usage: $0 PATH_TO_GDDLS" >&2
  exit 2
fi
if [ ! -f "$1" ] || [ ! -x "$1" ]; then
  echo "nvim e2e: FAIL: gddls binary not found or not executable: $1" >&2
  exit 1
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
nvim=${NVIM:-nvim}
if ! command -v "$nvim" >/dev/null 2>&1; then
  echo "nvim e2e: FAIL: $nvim is not installed (apt-get install -y neovim)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$here/fixture" "$work/pkg"
# The demo package (testdata/demo) for art direction and collections.
cp -R "$here/../../../testdata/demo" "$work/demo"
mkdir -p "$work/xdg"

rc=0
XDG_CACHE_HOME="$work/xdg" XDG_STATE_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" XDG_CONFIG_HOME="$work/xdg" \
  GDDLS_BIN="$bin" GDDLS_PACKAGE="$work/pkg" GDDLS_DEMO="$work/demo" \
  timeout 120 "$nvim" --headless -u NONE -i NONE -n --cmd "set rtp^=$plugin" -c "luafile $here/e2e.lua" </dev/null || rc=$?
if [ "$rc" -ne 0 ]; then
  if [ "$rc" -eq 124 ]; then
    echo "nvim e2e: FAIL: nvim did not finish within 120 s"
  fi
  log=$(find "$work/xdg" -name lsp.log 2>/dev/null | head -n 1)
  if [ -n "$log" ]; then
    echo "--- last lines of the Neovim LSP log ($log) ---"
    tail -n 40 "$log"
  fi
  exit 1
fi
