#!/usr/bin/env bash
# CI for the editor clients:
#   editors/ci.sh PATH_TO_GDDLS
# Runs the Neovim matrix (nvim-matrix.sh: unit and end-to-end tests on
# Neovim 0.7, 0.10 and 0.12) against the given server binary, then installs,
# builds, tests and packages the VS Code extension (the package step builds
# its own server into editors/vscode/bin/linux-x64), then runs the extension
# in a real VS Code (vscode-e2e.sh: code-server driven through Chromium).
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

echo "== Neovim matrix (0.7, 0.10, 0.12)"
t=$SECONDS
bash "$here/nvim-matrix.sh" "$bin"
echo "== Neovim matrix took $((SECONDS - t)) s"

echo "== vscode extension"
cd "$here/vscode"
npm ci --no-audit --no-fund
npm run build
npm test
npm run package
ls -l ./*.vsix

echo "== VS Code end-to-end (code-server + Chromium)"
t=$SECONDS
bash "$here/vscode-e2e.sh" "$(ls -t "$here"/vscode/gddls-*.vsix | head -n 1)"
echo "== VS Code end-to-end took $((SECONDS - t)) s"
