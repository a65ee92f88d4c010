#!/usr/bin/env bash
# Makes the code-server that `npm ci --ignore-scripts` put in
# test-e2e/node_modules runnable, without its postinstall (which downloads
# ripgrep): installs VS Code's own dependencies with scripts off, rebuilds
# the native modules with node-gyp against the local Node headers, and
# points @vscode/ripgrep at Debian's rg. Idempotent: a second run only checks.
#   test-e2e/prepare-code-server.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cs=$here/node_modules/code-server
vsc=$cs/lib/vscode
stamp=$cs/.gddls-prepared
if [ ! -d "$cs" ]; then
  echo "prepare-code-server: FAIL: $cs is missing; run npm ci --ignore-scripts in $here" >&2
  exit 1
fi
# code-server writes a default config file where it finds none: keep it
# out of the home folder.
cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
version() { XDG_CONFIG_HOME=$cfg node "$cs/out/node/entry.js" --config "$cfg/config.yaml" --version; }
if [ -f "$stamp" ] && version >/dev/null 2>&1; then
  exit 0
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then
  echo "prepare-code-server: FAIL: code-server 4.100.3 needs Node 20, this is $(node --version)" >&2
  exit 1
fi
rg=$(command -v rg || true)
if [ -z "$rg" ]; then
  echo "prepare-code-server: FAIL: rg is missing (apt-get install ripgrep)" >&2
  exit 1
fi
# node-gyp ships with npm; the headers come with Node (include/node).
gyp=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js
nodedir=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
if [ ! -f "$gyp" ] || [ ! -f "$nodedir/include/node/common.gypi" ]; then
  echo "prepare-code-server: FAIL: need npm's node-gyp ($gyp) and Node's headers ($nodedir/include/node)" >&2
  exit 1
fi
log=$cfg/log
rebuild() { # DIR [node-gyp args...]
  local dir=$1
  shift
  if ! (cd "$dir" && node "$gyp" rebuild --nodedir="$nodedir" -j 2 "$@") >"$log" 2>&1; then
    echo "prepare-code-server: FAIL: node-gyp rebuild in $dir:" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
}

echo "prepare-code-server: VS Code's dependencies (scripts off)"
(cd "$vsc" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
(cd "$vsc/extensions" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)

echo "prepare-code-server: native modules (node-gyp, local headers)"
rebuild "$here/node_modules/argon2" --module_name=argon2 --module_path="$here/node_modules/argon2/lib/binding/napi-v3" --napi_build_version=3
# kerberos (proxy authentication) and the Windows-only modules are not needed.
for m in @parcel/watcher @vscode/spdlog native-watchdog node-pty @vscode/deviceid; do
  rebuild "$vsc/node_modules/$m"
done

echo "prepare-code-server: Debian's rg for @vscode/ripgrep, and postinstall's links"
mkdir -p "$vsc/node_modules/@vscode/ripgrep/bin"
ln -sfn "$rg" "$vsc/node_modules/@vscode/ripgrep/bin/rg"
ln -sfn node_modules "$vsc/node_modules.asar"
ln -sfn code-linux.sh "$vsc/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$vsc/bin/helpers/browser.sh"

if ! version >"$log" 2>&1; then
  echo "prepare-code-server: FAIL: code-server does not start:" >&2
  cat "$log" >&2
  exit 1
fi
touch "$stamp"
echo "prepare-code-server: code-server $(tail -n 1 "$log")"
