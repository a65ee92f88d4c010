#!/usr/bin/env bash
# compare.sh times `gddls check` against two peer link checkers on the
# generated Markdown tree (1,000 files, about 10,000 links, 6 broken):
#
#   remark-cli + remark-validate-links  (remark --use remark-validate-links --quiet --frail)
#   vscode-markdown-languageserver      (driven over stdio by mdls-validate.mjs)
#
# Usage: scripts/peers/compare.sh   (from anywhere; RUNS=5 by default)
# Env:   RUNS      number of timed runs of each tool (default 5)
#        WORK      folder for the tools, the tree and the binary (default: a new temp folder)
#        GDDLS     a built gddls to use instead of building ./cmd/gddls
#
# It prints, for each tool, the median wall time with min-max over RUNS
# runs (the tools take turns), the number of findings it reported, and its
# median's ratio to gddls's. Every time is a whole process run, start-up
# included.
set -euo pipefail

RUNS=${RUNS:-5}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
npmdir="$work/npm"

echo "installing peers into $npmdir" >&2
npm install --prefix "$npmdir" --no-audit --no-fund --loglevel=error \
  remark-cli@12.0.1 remark-validate-links@13.1.0 \
  vscode-markdown-languageserver@0.5.0 markdown-it@14.1.0 >&2

gddls=${GDDLS:-}
if [ -z "$gddls" ]; then
  gddls="$work/gddls"
  (cd "$repo" && go build -o "$gddls" ./cmd/gddls)
fi
docs="$work/docs"
rm -rf "$docs"
(cd "$repo" && go run ./cmd/gddls-gen -kind docs "$docs") >&2

remark="$npmdir/node_modules/.bin/remark"
plugin="$npmdir/node_modules/remark-validate-links/index.js"

# now_ms prints a monotonic-enough wall clock in milliseconds.
now_ms() { date +%s%3N; }

# run_once NAME CMD...: runs CMD once in $docs, adds the wall time to
# $work/NAME.times and keeps the output in $work/NAME.out.
run_once() {
  local name=$1; shift
  local t0 t1
  t0=$(now_ms)
  (cd "$docs" && "$@") > "$work/$name.out" 2>&1 || true
  t1=$(now_ms)
  echo $((t1 - t0)) >> "$work/$name.times"
}

# stats FILE: prints "median min max" of the numbers in FILE.
stats() {
  sort -n "$1" | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; print m, a[1], a[NR]}'
}

# The tools take turns, run after run, so that a change in the machine's
# load during the measurement falls on all of them alike.
for t in gddls remark mdls; do : > "$work/$t.times"; done
for _ in $(seq "$RUNS"); do
  run_once gddls "$gddls" check .
  run_once remark "$remark" --use "$plugin=repository:false" --quiet --frail .
  run_once mdls node "$here/mdls-validate.mjs" "$npmdir/node_modules" "$docs"
done

found_gddls=$(grep -c 'DOC_LINK_' "$work/gddls.out" || true)
found_remark=$(grep -c 'remark-validate-links:' "$work/remark.out" || true)
found_mdls=$(sed -n 's/.*"diagnostics":\([0-9]*\).*/\1/p' "$work/mdls.out")

read -r gm gmin gmax < <(stats "$work/gddls.times")
printf '%s\n' "tree: $(find "$docs" -name '*.md' | wc -l) Markdown files; $RUNS runs each; $(nproc) CPUs; node $(node --version)"
printf '%-34s %10s %14s %9s %8s\n' tool median_ms min-max_ms findings ratio
for t in gddls remark mdls; do
  read -r m mn mx < <(stats "$work/$t.times")
  case $t in
    gddls) label="gddls check"; f=$found_gddls ;;
    remark) label="remark + remark-validate-links"; f=$found_remark ;;
    mdls) label="vscode-markdown-languageserver"; f=$found_mdls ;;
  esac
  ratio=$(awk -v a="$m" -v b="$gm" 'BEGIN { printf "%.1fx", a / b }')
  printf '%-34s %10s %14s %9s %8s\n' "$label" "$m" "$mn-$mx" "$f" "$ratio"
done
