#!/usr/bin/env bash
# Builds the gddls server into bin/linux-x64/gddls for packaging in the .vsix.
# Run from anywhere; paths are relative to the extension folder.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bin/linux-x64/gddls
if ! command -v go >/dev/null 2>&1; then
  echo "build-server: the Go toolchain (go) is not on PATH; cannot build $out" >&2
  exit 1
fi
if [ ! -d ../../cmd/gddls ]; then
  echo "build-server: ../../cmd/gddls does not exist yet; cannot build $out (the server has to be written first)" >&2
  exit 1
fi
mkdir -p "$(dirname "$out")"
if ! GOOS=linux GOARCH=amd64 CGO_ENABLED=0 go build -trimpath -o "$out" ../../cmd/gddls; then
  echo "build-server: go build of ../../cmd/gddls failed; $out was not built" >&2
  exit 1
fi
echo "build-server: built $out"
