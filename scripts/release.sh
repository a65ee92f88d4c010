#!/usr/bin/env bash
# Builds every artifact of a gddls release into the folder OUT:
#   bash scripts/release.sh OUT
#   bash scripts/release.sh --archive GOOS GOARCH OUT   (one archive only)
# Run it in a clean checkout of the commit to release (CI runs it on every
# commit). It needs Go, Node and npm; the only network it uses is the Go
# module proxy and the npm registry (npm ci in editors/vscode). It
# publishes nothing. OUT receives:
#   gddls_<version>_<os>_<arch>.tar.gz (.zip for windows) for linux, darwin
#     and windows on amd64 and arm64: the binary, LICENSE and README.md;
#   gddls-<version>@<target>.vsix for linux-x64, linux-arm64, darwin-x64,
#     darwin-arm64, win32-x64 and win32-arm64: the VS Code extension with
#     only that target's server, under bin/<target>/;
#   gddls-<version>.vsix: the universal extension, with no server;
#   checksums.txt: the SHA-256 of each of the above, for sha256sum -c.
# <version> is `git describe --tags --always --dirty` without a leading v:
# 1.2.3 on the tag v1.2.3, 1.2.3-4-gabcdef0 four commits later, the short
# commit hash before the first tag. GDDLS_VERSION=v1.2.3 overrides it.
# The binaries print the full describe output (v1.2.3) as their version.
#
# The extension's own version (package.json) must be MAJOR.MINOR.PATCH for
# the Marketplace: on a release tag vX.Y.Z it is X.Y.Z; any other build
# keeps the version in editors/vscode/package.json (a development build;
# its file name still carries the full <version>).
#
# Builds are reproducible: CGO_ENABLED=0, -trimpath, no build id, no VCS
# stamp, and every archive entry and .vsix entry dated at the commit's time
# (SOURCE_DATE_EPOCH), so two runs on one commit give the same bytes.
set -euo pipefail

usage() {
  echo "usage: bash scripts/release.sh OUT | bash scripts/release.sh --archive GOOS GOARCH OUT" >&2
  exit 2
}
only=""
if [ "${1:-}" = --archive ]; then
  [ $# -eq 4 ] || usage
  only="$2/$3"
  shift 3
fi
if [ $# -ne 1 ] || [ -z "$1" ]; then
  usage
fi
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$root"

tag=${GDDLS_VERSION:-$(git describe --tags --always --dirty)}
version=${tag#v}
commit=$(git rev-parse HEAD)
if ! git diff --quiet HEAD --; then
  commit="$commit-dirty"
  echo "release: warning: the working tree has uncommitted changes; version $tag" >&2
fi
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct HEAD)
export SOURCE_DATE_EPOCH
ext_version=$(node -p 'require("./editors/vscode/package.json").version')
if [[ $tag =~ ^v?([0-9]+\.[0-9]+\.[0-9]+)$ ]]; then
  ext_version=${BASH_REMATCH[1]}
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The archive writer (scripts/archive): tar.gz and zip with fixed times,
# sorted entries and owner 0, without depending on the system's tar or zip.
go build -o "$work/archive" ./scripts/archive

artifacts=()
ldflags="-s -w -buildid= -X main.version=$tag -X main.commit=$commit"

# build_archive GOOS GOARCH: builds the binary into $work/GOOS-GOARCH and
# its archive into $out; sets exe to the binary's path.
build_archive() {
  local goos=$1 goarch=$2 name=gddls archive=gddls_${version}_$1_$2.tar.gz
  if [ "$goos" = windows ]; then
    name=gddls.exe
    archive=gddls_${version}_$1_$2.zip
  fi
  mkdir -p "$work/$goos-$goarch"
  exe=$work/$goos-$goarch/$name
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch GOFLAGS= \
    go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$exe" ./cmd/gddls
  "$work/archive" create -mtime "$SOURCE_DATE_EPOCH" "$out/$archive" "$exe" LICENSE README.md
  artifacts+=("$archive")
  echo "release: $archive"
}

if [ -n "$only" ]; then
  # --archive: one archive, exactly as a full release builds it (for the
  # reproducibility check in scripts/release-check.sh).
  build_archive "${only%/*}" "${only#*/}"
  exit 0
fi

echo "release: version $version (binaries: $tag, extension: $ext_version), commit $commit, into $out"

# The VS Code extension's bundle, built once for all seven packages.
ext=$root/editors/vscode
(cd "$ext" && npm ci --no-audit --no-fund --loglevel=error && npm run build)

# stage_extension DIR: the files of the extension package, with the
# release's version and no scripts (vsce would run vscode:prepublish).
stage_extension() {
  mkdir -p "$1/dist"
  cp "$ext/dist/extension.js" "$1/dist/"
  cp "$ext/README.md" "$ext/.vscodeignore" "$1/"
  cp "$root/LICENSE" "$1/LICENSE"
  node -e '
    const fs = require("fs");
    const [src, dst, version] = process.argv.slice(1);
    const pkg = JSON.parse(fs.readFileSync(src, "utf8"));
    pkg.version = version;
    delete pkg.scripts;
    fs.writeFileSync(dst, JSON.stringify(pkg, null, 2) + "\n");
  ' "$ext/package.json" "$1/package.json" "$ext_version"
}

# package_extension DIR OUTFILE [TARGET]
package_extension() {
  local args=(package --no-dependencies --baseContentUrl https://github.com/gddls/gddls/blob/HEAD/editors/vscode -o "$2")
  if [ -n "${3:-}" ]; then
    args+=(--target "$3")
  fi
  (cd "$1" && "$ext/node_modules/.bin/vsce" "${args[@]}" </dev/null >/dev/null)
  artifacts+=("$(basename "$2")")
  echo "release: $(basename "$2")"
}

for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
  goos=${target%/*}
  goarch=${target#*/}
  build_archive "$goos" "$goarch"

  vsos=$goos
  [ "$goos" = windows ] && vsos=win32
  vsarch=x64
  [ "$goarch" = arm64 ] && vsarch=arm64
  vstarget=$vsos-$vsarch
  stage=$work/vsix-$vstarget
  stage_extension "$stage"
  mkdir -p "$stage/bin/$vstarget"
  cp "$exe" "$stage/bin/$vstarget/"
  package_extension "$stage" "$out/gddls-$version@$vstarget.vsix" "$vstarget"
done

stage_extension "$work/vsix-universal"
package_extension "$work/vsix-universal" "$out/gddls-$version.vsix"

cd "$out"
if command -v sha256sum >/dev/null 2>&1; then
  sha256sum "${artifacts[@]}" >checksums.txt
else
  shasum -a 256 "${artifacts[@]}" >checksums.txt
fi
echo "release: checksums.txt"
