#!/usr/bin/env bash
# CI for the editor clients:
#   editors/ci.sh PATH_TO_GDDLS
# Runs the Neovim unit and end-to-end tests against the given server binary,
# then installs, builds, tests and packages the VS Code extension (the
# package step builds its own server into editors/vscode/bin/linux-x64).
set -euo pipefail

if [ $# -lt 1 ] || [ -z "$1" ]; then
  echo "usage: $0 PATH_TO_GDDLS" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$1" ]; then
  echo "editors/ci.sh: gddls binary not found or not executable: $1" >&2
  exit 1
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

if ! command -v nvim >/dev/null 2>&1; then
  echo "== installing neovim"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq neovim >/dev/null
fi
nvim --version | head -n 1

echo "== nvim unit tests"
nvim --headless -u NONE -i NONE -n --cmd "set rtp^=$here/nvim" -c "luafile $here/nvim/test/unit.lua" </dev/null

echo "== nvim e2e test"
bash "$here/nvim/test/run.sh" "$bin"

echo "== vscode extension"
cd "$here/vscode"
npm ci --no-audit --no-fund
npm run build
npm test
npm run package
ls -l ./*.vsix
