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

# On a loaded machine the fuzzing engine itself sometimes stops with
# "context deadline exceeded" as the time runs out, without a failing input
# (a known limit of go test -fuzz). Such a run is tried once more; any other
# failure, or the same one twice, fails.
log=$(mktemp)
trap 'rm -f "$out" "$log"' EXIT
echo "$list" | while read -r pkg name; do
	for try in 1 2; do
		echo "== $pkg $name ($fuzztime)"
		if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg" >"$log" 2>&1; then
			cat "$log"
			break
		fi
		cat "$log"
		if [ "$try" = 1 ] && grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
			echo "fuzz.sh: the fuzzing engine timed out without a failing input; trying $name once more"
			continue
		fi
		# Print the failing input itself, so that a report of a run on
		# another machine (CI) is enough to reproduce it.
		dir=$(go list -f '{{.Dir}}' "$pkg")
		for input in $(sed -n 's/.*Failing input written to \(testdata\/fuzz\/[^ ]*\).*/\1/p' "$log"); do
			echo "fuzz.sh: the failing input $input:" >&2
			cat "$dir/$input" >&2
		done
		echo "fuzz.sh: $name in $pkg failed; the input is under its testdata/fuzz/$name/" >&2
		exit 1
	done
done
echo "fuzz.sh: every target ran for $fuzztime without a failure"
