#!/usr/bin/env bash
# targets.sh measures every target of issues 16 and 26 in one run and
# prints each with its threshold and whether this run met it
# (docs/PERFORMANCE.md):
#
#   peer     cold check of the 1,000-file Markdown tree against
#            vscode-markdown-languageserver (scripts/peers/compare.sh)
#   cold     cold `gddls check` of the 200-adoption package, and of ten
#            times that package (time and peak RSS)
#   docs10   cold check of ten times the Markdown tree (time and peak RSS)
#   server   the load harness on the package: keystroke and completion
#            latency, peak RSS; the same on ten times the package
#   edit10   the analysis layer's cost of an edit at 10x against 1x
#            (BenchmarkEditAdoption, cpu-ns/op, runs of 2,000 edits)
#   real     issue 26: the same cold, server and edit10 measures on the
#            package built from the published example adoptions
#            (gddls-gen -real), when shared/reference/contracts is found
#            beside the repository or REFERENCE names it
#
# Usage: scripts/perf/targets.sh   (from anywhere)
# Env:   RUNS   timed runs of each cold check, alternating (default 7)
#        LOADS  runs of the load harness at each size (default 3)
#        WORK   folder for binaries and generated repositories (default: a
#               new temp folder; reused between runs when given)
#        SKIP   space-separated parts to skip: peer cold docs10 server
#               edit10 real real-cold real-server real-edit10
#        REFERENCE  folder of the published contracts (default: found in an
#               ancestor of the repository as shared/reference/contracts)
#
# Needs GNU time (/usr/bin/time) for the RSS of a check, and Node and npm for
# the peer. Medians are printed; the machine's load average is printed
# before and after, since wall times on a shared machine depend on it.
set -euo pipefail

RUNS=${RUNS:-7}
LOADS=${LOADS:-3}
SKIP=${SKIP:-}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"

skip() { [[ " $SKIP " == *" $1 "* ]]; }

echo "building into $work" >&2
(cd "$repo" && go build -o "$work/gddls" ./cmd/gddls &&
  go build -o "$work/gddls-gen" ./cmd/gddls-gen &&
  go build -o "$work/gddls-load" ./cmd/gddls-load)

gen() { # gen DIR ARGS...: generates once into DIR
  local dir=$1; shift
  [ -d "$dir" ] || "$work/gddls-gen" "$@" "$dir" >/dev/null
}
gen "$work/p1"
gen "$work/p10" -scale 10
gen "$work/d1" -kind docs
gen "$work/d10" -kind docs -scale 10
reference=${REFERENCE:-}
if [ -z "$reference" ]; then
  d=$repo
  while [ "$d" != / ]; do
    d=$(dirname "$d")
    if [ -d "$d/shared/reference/contracts" ]; then reference=$d/shared/reference/contracts; break; fi
  done
fi
if [ -z "$reference" ] && ! skip real; then
  echo "no published contracts (shared/reference/contracts) beside the repository: skipping the real-content targets" >&2
  SKIP="$SKIP real"
fi
if ! skip real; then
  gen "$work/r1" -real "$reference"
  gen "$work/r10" -real "$reference" -scale 10
fi

# median prints the median of the numbers on standard input.
median() {
  sort -g | awk '{a[NR]=$1} END {if (NR == 0) {print "nan"; exit} m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; print m}'
}

# timed DIR: runs gddls check on DIR once and prints "seconds kilobytes".
# The wall time is taken around GNU time, whose own is in centiseconds.
timed() {
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$work/time.out" "$work/gddls" check "$1" >/dev/null 2>&1 || true
  t1=$(date +%s%N)
  # GNU time puts a line about the exit status first.
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}') $(tail -1 "$work/time.out")"
}

# cold NAME DIR...: times RUNS checks of each DIR, taking turns, and
# writes NAME.DIR-basename.{s,kb} with one number a line.
cold() {
  local name=$1; shift
  for d in "$@"; do : >"$work/$name.$(basename "$d").s"; : >"$work/$name.$(basename "$d").kb"; done
  for _ in $(seq "$RUNS"); do
    for d in "$@"; do
      read -r s kb < <(timed "$d")
      echo "$s" >>"$work/$name.$(basename "$d").s"
      echo "$kb" >>"$work/$name.$(basename "$d").kb"
    done
  done
}

rows=()
# row TARGET MEASURED THRESHOLD OK: one line of the final table.
row() { rows+=("$(printf '%-66s %-30s %-12s %s' "$1" "$2" "$3" "$4")"); }
# verdict A OP B: "met" when the comparison holds.
verdict() { awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {ok = a ~ /^[0-9.]+$/ && ((op == "<=") ? a + 0 <= b + 0 : a + 0 >= b + 0); print ok ? "met" : "NOT met"}'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
start_load=$(cut -d' ' -f1-3 /proc/loadavg)

if ! skip peer; then
  out=$(RUNS=9 GDDLS="$work/gddls" WORK="$work/peer" "$repo/scripts/peers/compare.sh" 2>/dev/null)
  echo "$out" >&2
  ratio=$(echo "$out" | awk '/^vscode-markdown-languageserver/ {sub("x", "", $NF); print $NF}')
  row "1,000-file tree: peer time / gddls time" "${ratio}x" ">= 30x" "$(verdict "$ratio" '>=' 30)"
fi

# tenfold NAME SMALL LARGE LABEL RSS_MB: times the checks of SMALL and
# LARGE (cold) and adds the rows of the time ratio and of LARGE's peak RSS;
# it leaves SMALL's median in $s1.
tenfold() {
  local name=$1 small=$2 large=$3 label=$4 limit=$5 s10 kb10 r mb
  cold "$name" "$small" "$large"
  s1=$(median <"$work/$name.$(basename "$small").s")
  kb1=$(sort -n "$work/$name.$(basename "$small").kb" | tail -1)
  s10=$(median <"$work/$name.$(basename "$large").s")
  kb10=$(sort -n "$work/$name.$(basename "$large").kb" | tail -1)
  r=$(awk -v a="$s10" -v b="$s1" 'BEGIN {printf "%.1f", a / b}')
  row "cold check, $label: 10x / 1x" "${r}x (${s10} s / ${s1} s)" "<= 10x" "$(verdict "$r" '<=' 10)"
  mb=$(awk -v k="$kb10" 'BEGIN {printf "%.0f", k / 1024}')
  row "cold check, $label at 10x: peak RSS (max of $RUNS)" "${mb} MB" "<= $limit MB" "$(verdict "$mb" '<=' "$limit")"
}

if ! skip cold; then
  tenfold pkg "$work/p1" "$work/p10" "package (200 adoptions)" 400
  row "cold check, 200-adoption package" "${s1} s" "<= 0.3 s" "$(verdict "$s1" '<=' 0.3)"
fi

if ! skip real && ! skip real-cold; then
  tenfold real "$work/r1" "$work/r10" "real-content package" 400
  row "cold check, 200-adoption real-content package" "${s1} s" "<= 0.3 s" "$(verdict "$s1" '<=' 0.3)"
  mb=$(awk -v k="$kb1" 'BEGIN {printf "%.0f", k / 1024}')
  row "cold check, real-content package: peak RSS (max of $RUNS)" "${mb} MB" "<= 150 MB" "$(verdict "$mb" '<=' 150)"
fi

if ! skip docs10; then
  tenfold docs "$work/d1" "$work/d10" "Markdown tree (1,000 files)" 250
fi

# field JSON NAME: a number from the load harness's JSON.
field() { sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" "$1" | head -1; }
# nested JSON OBJECT NAME: a number inside one of its objects.
nested() { awk -v o="\"$2\"" -v f="\"$3\"" '$1 == o":" {in_o = 1} in_o && $1 == f":" {gsub(",", "", $2); print $2; exit}' "$1"; }

# server NAME SMALL LARGE: the load harness LOADS times on each package and
# the rows of its targets.
server() {
  local name=$1 small=$2 large=$3 scale p95 c95 rss a b r
  for scale in 1 10; do
    local dir=$small
    [ "$scale" = 10 ] && dir=$large
    : >"$work/$name$scale.p50"; : >"$work/$name$scale.p95"; : >"$work/$name$scale.c95"; : >"$work/$name$scale.rss"
    for i in $(seq "$LOADS"); do
      j="$work/$name$scale.$i.json"
      "$work/gddls-load" -server "$work/gddls" -repo "$dir" -edits 300 -delay 0 -json >"$j" ||
        echo "gddls-load on $dir failed; its numbers are missing" >&2
      nested "$j" edit_to_diagnostics p50_ms >>"$work/$name$scale.p50"
      nested "$j" edit_to_diagnostics p95_ms >>"$work/$name$scale.p95"
      nested "$j" completion p95_ms >>"$work/$name$scale.c95"
      field "$j" peak_rss_mb >>"$work/$name$scale.rss"
    done
  done
  p95=$(median <"$work/${name}1.p95")
  row "$name server: keystroke -> diagnostics p95 (median of $LOADS)" "${p95} ms (p50 $(median <"$work/${name}1.p50") ms)" "<= 5 ms" "$(verdict "$p95" '<=' 5)"
  c95=$(median <"$work/${name}1.c95")
  row "$name server: completion p95 (median of $LOADS)" "${c95} ms" "<= 2 ms" "$(verdict "$c95" '<=' 2)"
  rss=$(sort -g "$work/${name}1.rss" | tail -1)
  row "$name server: peak RSS (max of $LOADS)" "$(printf '%.0f' "$rss") MB" "<= 100 MB" "$(verdict "$rss" '<=' 100)"
  rss=$(sort -g "$work/${name}10.rss" | tail -1)
  row "$name server, 10x: peak RSS (max of $LOADS)" "$(printf '%.0f' "$rss") MB" "<= 400 MB" "$(verdict "$rss" '<=' 400)"
  a=$(median <"$work/${name}1.p50")
  b=$(median <"$work/${name}10.p50")
  r=$(awk -v a="$b" -v b="$a" 'BEGIN {printf "%.1f", a / b}')
  row "$name server, 10x: keystroke p50 / 1x p50" "${r}x (${b} ms / ${a} ms)" "(see edit10)" "-"
}

if ! skip server; then
  server load "$work/p1" "$work/p10"
fi
if ! skip real && ! skip real-server; then
  server real "$work/r1" "$work/r10"
fi

# edit10 BENCHMARK: the rows of an edit's CPU at 10x against 1x. Runs of
# 2,000 edits, the sizes taking turns; the benchmark measures keystrokes
# once the heap is in its steady state (it collects the initial load's
# garbage, then edits until the next collection before it starts).
edit10() {
  local name=$1 c1 c10 r
  bench() { # bench SCALE: cpu-ns/op of one run of the benchmark
    (cd "$repo" && GDDLS_BENCH_SCALE=$1 go test -run '^$' -bench "^Benchmark$name\$" -benchtime 2000x -count 1 ./analysis/ 2>/dev/null) |
      awk -v b="Benchmark$name" '$1 ~ "^" b "(-[0-9]+)?$" {for (i = 1; i <= NF; i++) if ($(i+1) == "cpu-ns/op") print $i}'
  }
  : >"$work/$name.1" && : >"$work/$name.10"
  for _ in 1 2 3; do
    bench 1 >>"$work/$name.1"
    bench 10 >>"$work/$name.10"
  done
  c1=$(median <"$work/$name.1")
  c10=$(median <"$work/$name.10")
  r=$(awk -v a="$c10" -v b="$c1" 'BEGIN {printf "%.2f", a / b}')
  row "edit at 10x / edit at 1x ($name CPU, median of 3)" "${r}x ($(awk -v a="$c10" 'BEGIN {printf "%.2f", a / 1e6}') / $(awk -v a="$c1" 'BEGIN {printf "%.2f", a / 1e6}') ms)" "<= 1.5x" "$(verdict "$r" '<=' 1.5)"
}

if ! skip edit10; then
  edit10 EditAdoption
fi
if ! skip real && ! skip real-edit10; then
  export GDDLS_REFERENCE_CONTRACTS=$reference
  edit10 RealEditAdoption
fi

echo
echo "issue 16 and 26 targets; $(nproc) CPUs; load average $start_load before, $(cut -d' ' -f1-3 /proc/loadavg) after"
printf '%-66s %-30s %-12s %s\n' target measured threshold status
printf '%s\n' "${rows[@]}"
