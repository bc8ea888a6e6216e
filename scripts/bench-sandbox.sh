#!/usr/bin/env bash
# Whole-process figures of the `grade --run` sandbox (BENCHMARKS.md):
#   1. the cost of one run: `course grade --run true` on one student (8 lab
#      inputs, 8 runs) and on four (32 runs), 100 times each, in MODE; the
#      median difference / 24 is what one run costs, and the one-student
#      median minus 8 runs is the start-up (the probe, the preflight);
#   2. a class of STUDENTS students, 12 inputs each (8 + --hidden 4), whose
#      program sleeps SLEEP seconds per input, with --jobs JOBS, in MODE.
# MODE: namespaces, uid (as root), or unsandboxed.
# Usage: scripts/bench-sandbox.sh [COURSE] [STUDENTS] [SLEEP] [JOBS] [MODE]
set -euo pipefail
COURSE=${1:-target/release/course}
STUDENTS=${2:-300}
SLEEP=${3:-1}
JOBS=${4:-32}
MODE=${5:-namespaces}
case $MODE in
  unsandboxed) flags=(--unsandboxed) ;;
  *) flags=(--sandbox "$MODE") ;;
esac
tmp=$(mktemp -d)
chmod 700 "$tmp"
trap 'rm -rf "$tmp"' EXIT
for s in a b c d; do mkdir -p "$tmp/four/$s"; done
mkdir -p "$tmp/one/a"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for set in one four; do
  for _ in $(seq 100); do
    s=$(date +%s%N)
    "$COURSE" grade --lab ch23-sched --run true "${flags[@]}" --jobs 1 "$tmp/$set" >/dev/null 2>&1 || true
    e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median > "$tmp/$set.t"
done
one=$(cat "$tmp/one.t"); four=$(cat "$tmp/four.t")
per=$(( (four - one) / 24 ))
echo "$MODE: one student (8 runs) median $one µs, four (32 runs) $four µs"
echo "$MODE: per run $per µs; start-up $(( one - 8 * per )) µs"
for i in $(seq "$STUDENTS"); do
  mkdir -p "$tmp/class/s$i"
  printf '#!/bin/sh\nsleep %s\nawk '\''/^[ \\t]*[A-Za-z_][A-Za-z0-9_]*:/ { l = $1; sub(/:.*/, "", l); print l, 8 * n; n++ } /^[ \\t]*loop[ \\t]/ { loop = 1 } END { if (loop) print "ii", 8 * n }'\'' "$1"\n' "$SLEEP" > "$tmp/class/s$i/sched"
  chmod +x "$tmp/class/s$i/sched"
done
echo "class: $STUDENTS students × 12 inputs, ${SLEEP} s each, --jobs $JOBS, $MODE (ideal $(echo "$STUDENTS * 12 * $SLEEP / $JOBS" | bc -l | cut -c1-6) s)"
/usr/bin/time -f "wall %e s, user %U s, sys %S s, peak RSS %M KiB" \
  env COURSE_SECRET_SEED=bench "$COURSE" grade --lab ch23-sched --run './sched {input}' \
  "${flags[@]}" --hidden 4 --jobs "$JOBS" --format csv "$tmp/class" > "$tmp/grades.csv" 2>"$tmp/err" || true
tail -1 "$tmp/err"
echo "rows: $(( $(wc -l < "$tmp/grades.csv") - 1 )), invalid inputs: $(grep -c ',0,' "$tmp/grades.csv" || true)"
