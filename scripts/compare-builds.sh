#!/bin/bash
# Whole-process figures of two `course` builds on the same inputs, runs
# alternating between the builds: wall time and peak RSS (/usr/bin/time)
# of the 10^6-operation block (schedule as text and JSON, analyze as JSON)
# and the 10^5-operation loop, and drill start-up (51 runs, wall per run).
#
#   scripts/compare-builds.sh OLD/course NEW/course [RUNS]
#
# Prints one line per run: BUILD WORKLOAD SECONDS PEAK_KIB.
set -euo pipefail
old=$1 new=$2 runs=${3:-5}
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$new" gen block --ops 1000000 --seed 1 > "$dir/block.txt"
"$new" gen loop --ops 100000 --seed 1 > "$dir/loop.txt"
cmp -s <("$old" gen block --ops 1000000 --seed 1) "$dir/block.txt" || echo "note: the builds generate different blocks" >&2
cmp -s <("$old" gen loop --ops 100000 --seed 1) "$dir/loop.txt" || echo "note: the builds generate different loops" >&2
one() { # build workload exe args...
  local build=$1 workload=$2 exe=$3
  shift 3
  /usr/bin/time -f "%e %M" -o "$dir/time" "$exe" "$@" > /dev/null
  echo "$build $workload $(cat "$dir/time")"
}
for _ in $(seq "$runs"); do
  for build in old new; do
    exe=$old
    [ "$build" = new ] && exe=$new
    one "$build" schedule-text-1e6 "$exe" schedule "$dir/block.txt"
    one "$build" schedule-json-1e6 "$exe" schedule "$dir/block.txt" --format json
    one "$build" analyze-json-1e6 "$exe" analyze "$dir/block.txt" --format json
    one "$build" schedule-loop-1e5 "$exe" schedule "$dir/loop.txt"
  done
done
for build in old new; do
  exe=$old
  [ "$build" = new ] && exe=$new
  start=$(date +%s%N)
  for _ in $(seq 51); do "$exe" drill list-schedule --seed 4 --solution > /dev/null; done
  end=$(date +%s%N)
  echo "$build drill-start-up $(( (end - start) / 51000 ))us"
done
