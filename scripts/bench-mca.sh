#!/usr/bin/env bash
# `course mca` against llvm-mca-14 on every kernel of the differential
# corpus (tests/data/mca-corpus/), whole processes, CPU time (user + system)
# of the same command at ITERATIONS iterations, each the faster of RUNS runs;
# then course's own time at 10^3 and 10^7 iterations on one kernel. The
# course command reads the same .s file llvm-mca reads.
# Usage: scripts/bench-mca.sh [COURSE] [ITERATIONS] [RUNS]
set -euo pipefail
COURSE=${1:-target/release/course}
N=${2:-1000000}
RUNS=${3:-2}
LLVM=${COURSE_LLVM_MCA:-llvm-mca-14}
root=tests/data/mca-corpus
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cpu() { # the least user+system seconds of RUNS runs of "$@"
  local best=""
  for _ in $(seq "$RUNS"); do
    local t
    /usr/bin/time -o "$tmp" -f "%U %S" "$@" >/dev/null 2>&1 || true
    t=$(tail -1 "$tmp" | awk '{ print $1 + $2 }')
    if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
  done
  echo "$best"
}
printf '%-34s %10s %10s %8s\n' kernel llvm-mca course ratio
for dir in skylake-llvm14:x86_64-unknown-linux-gnu:skylake apple-m1:aarch64-unknown-linux-gnu:apple-m1 cortex-a57:aarch64-unknown-linux-gnu:cortex-a57; do
  IFS=: read -r model triple mcpu <<<"$dir"
  machine=$model
  [ -f "$root/$model.yaml" ] && machine=$root/$model.yaml
  for s in "$root/$model"/*.s; do
    l=$(cpu "$LLVM" -mtriple="$triple" -mcpu="$mcpu" -iterations="$N" "$s")
    c=$(cpu "$COURSE" mca --machine "$machine" --iterations "$N" "$s")
    printf '%-34s %9.2fs %9.2fs %7.1fx\n' "$model/$(basename "$s" .s)" "$l" "$c" "$(awk "BEGIN { print $l / ($c > 0.005 ? $c : 0.005) }")"
  done
done
k=$root/skylake-llvm14/dot.s
for n in 1000 10000000; do
  echo "course mca dot.s at $n iterations: $(cpu "$COURSE" mca --machine skylake-llvm14 --iterations "$n" "$k") s CPU"
done
