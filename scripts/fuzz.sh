#!/bin/sh
# fuzz.sh runs every fuzz target of the module, one after another, for
# $FUZZTIME each (default 20s), and stops at the first failure. A crash
# leaves its input under the package's testdata/fuzz/<FuzzName>/, where
# `go test ./...` replays it from then on.
#
# Usage: scripts/fuzz.sh            (from anywhere inside the module)
#        FUZZTIME=2m scripts/fuzz.sh
set -eu

cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-20s}"

# `go test -list` prints the matching names of each package, then a line
# "ok <import path> <time>"; pair every name with the package after it.
# A package that does not build fails the run rather than being skipped.
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! go test -list '^Fuzz' ./... >"$out"; then
	cat "$out" >&2
	echo "fuzz.sh: listing the fuzz targets failed" >&2
	exit 1
fi
list=$(awk '
	/^Fuzz/ { names[n++] = $1; next }
	/^ok[ \t]/ { for (i = 0; i < n; i++) print $2, names[i]; n = 0 }
' "$out")
if [ -z "$list" ]; then
	echo "fuzz.sh: no fuzz targets found" >&2
	exit 1
fi

echo "$list" | while read -r pkg name; do
	echo "== $pkg $name ($fuzztime)"
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg"; then
		echo "fuzz.sh: $name in $pkg failed; the input is under its testdata/fuzz/$name/" >&2
		exit 1
	fi
done
echo "fuzz.sh: every target ran for $fuzztime without a failure"
