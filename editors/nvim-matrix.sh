#!/usr/bin/env bash
# The Neovim matrix of CI: the plugin's unit and end-to-end tests on
#   0.7  bookworm's neovim package (installed with apt-get if nvim is missing),
#   0.10 Debian trixie's and 0.12 Debian sid's neovim packages, fetched into
#        a private folder by nvim/test/install-nvim.sh (the system untouched),
# and on 0.12 also the end-to-end test through vim.lsp.enable('gddls') with
# no setup(). Every run fails on a call of vim.deprecate.
#   editors/nvim-matrix.sh PATH_TO_GDDLS
# GDDLS_NVIM_DIR is where the private Neovims go (default editors/nvim/.matrix).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PATH_TO_GDDLS (an executable)" >&2
  exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=${GDDLS_NVIM_DIR:-$here/nvim/.matrix}
start=$SECONDS

if ! command -v nvim >/dev/null 2>&1; then
  echo "== installing neovim (bookworm)"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq neovim >/dev/null
fi

declare -a names nvims modes
names+=("bookworm"); nvims+=("$(command -v nvim)"); modes+=("setup")
for suite in trixie sid; do
  echo "== fetching Debian $suite's neovim into $dir/$suite"
  t=$SECONDS
  w=$(bash "$here/nvim/test/install-nvim.sh" "$suite" "$dir")
  echo "   ready in $((SECONDS - t)) s: $w"
  names+=("$suite"); nvims+=("$w")
  if [ "$suite" = sid ]; then modes+=("setup enable"); else modes+=("setup"); fi
done

for i in "${!names[@]}"; do
  nv=${nvims[$i]}
  t=$SECONDS
  echo "== nvim ${names[$i]}: $("$nv" --version | head -n 1)"
  "$nv" --headless -u NONE -i NONE -n --cmd "set rtp^=$here/nvim" -c "luafile $here/nvim/test/unit.lua" </dev/null
  echo
  for mode in ${modes[$i]}; do
    NVIM=$nv GDDLS_E2E_MODE=$mode bash "$here/nvim/test/run.sh" "$bin"
  done
  echo "   ${names[$i]} took $((SECONDS - t)) s"
done
echo "== Neovim matrix passed in $((SECONDS - start)) s"
