#!/usr/bin/env bash
# `course mca` against llvm-mca-14 on every kernel of the differential
# corpus (tests/data/mca-corpus/), whole processes, CPU time (user + system)
# of the same command at ITERATIONS iterations, each the least of RUNS runs,
# the two commands run one after the other per kernel; then course's own
# time on the kernel at 10^3 and 10^7 iterations. The course command reads
# the same .s file llvm-mca reads. CPU time is perf's task-clock when perf
# can count it (to the microsecond), else /usr/bin/time's (to 10 ms; a
# course time below that counts as 5 ms in the ratio).
# Usage: scripts/bench-mca.sh [COURSE] [ITERATIONS] [RUNS]
set -euo pipefail
COURSE=${1:-target/release/course}
N=${2:-1000000}
RUNS=${3:-2}
LLVM=${COURSE_LLVM_MCA:-llvm-mca-14}
root=tests/data/mca-corpus
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
use_perf=0
if command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock -o "$tmp" true 2>/dev/null \
  && grep -q task-clock "$tmp"; then
  use_perf=1
fi
once() { # the user+system seconds of one run of "$@"
  if [ "$use_perf" = 1 ]; then
    perf stat -x, -e task-clock -o "$tmp" "$@" >/dev/null 2>&1 || true
    # perf writes `<not counted>` (or `<not supported>`) when the counter
    # did not run: that run is timed again by /usr/bin/time.
    local t
    t=$(awk -F, '/task-clock/ && $1 ~ /^[0-9.]+$/ { printf "%.4f\n", $1 / 1000 }' "$tmp")
    if [ -n "$t" ]; then
      echo "$t"
      return
    fi
  fi
  /usr/bin/time -o "$tmp" -f "%U %S" "$@" >/dev/null 2>&1 || true
  tail -1 "$tmp" | awk '{ print $1 + $2 }'
}
cpu() { # the least of RUNS runs of "$@"
  local best=""
  for _ in $(seq "$RUNS"); do
    local t
    t=$(once "$@")
    if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
  done
  echo "$best"
}
echo "CPU time: $([ "$use_perf" = 1 ] && echo "perf task-clock" || echo "/usr/bin/time"), least of $RUNS runs"
printf '%-34s %10s %10s %9s %11s %11s\n' kernel llvm-mca course ratio "course 1e3" "course 1e7"
for dir in skylake-llvm14:x86_64-unknown-linux-gnu:skylake apple-m1:aarch64-unknown-linux-gnu:apple-m1 cortex-a57:aarch64-unknown-linux-gnu:cortex-a57; do
  IFS=: read -r model triple mcpu <<<"$dir"
  machine=$model
  [ -f "$root/$model.yaml" ] && machine=$root/$model.yaml
  for s in "$root/$model"/*.s; do
    l=$(cpu "$LLVM" -mtriple="$triple" -mcpu="$mcpu" -iterations="$N" "$s")
    c=$(cpu "$COURSE" mca --machine "$machine" --iterations "$N" "$s")
    small=$(cpu "$COURSE" mca --machine "$machine" --iterations 1000 "$s")
    big=$(cpu "$COURSE" mca --machine "$machine" --iterations 10000000 "$s")
    printf '%-34s %9.3fs %9.4fs %8.0fx %10.4fs %10.4fs\n' "$model/$(basename "$s" .s)" "$l" "$c" \
      "$(awk "BEGIN { d = $use_perf ? $c : ($c > 0.005 ? $c : 0.005); print $l / (d > 0 ? d : 0.0001) }")" "$small" "$big"
  done
done
