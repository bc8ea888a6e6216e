#!/usr/bin/env bash
# Whole-process figures of the `grade --run` sandbox (BENCHMARKS.md):
#   1. the per-run cost: `course grade --run true` on one student (8 lab
#      inputs, so 8 runs), 100 times, sandboxed and --unsandboxed; the
#      median difference / 8 is what the sandbox adds to one run;
#   2. a class of STUDENTS students, 12 inputs each (8 + --hidden 4), whose
#      program sleeps SLEEP seconds per input, with --jobs JOBS.
# Usage: scripts/bench-sandbox.sh [COURSE] [STUDENTS] [SLEEP] [JOBS]
set -euo pipefail
COURSE=${1:-target/release/course}
STUDENTS=${2:-300}
SLEEP=${3:-1}
JOBS=${4:-32}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/one/amy"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for mode in sandboxed unsandboxed; do
  flag=""; [ $mode = unsandboxed ] && flag="--unsandboxed"
  for _ in $(seq 100); do
    s=$(date +%s%N)
    "$COURSE" grade --lab ch23-sched --run true $flag "$tmp/one/amy" >/dev/null 2>&1 || true
    e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median > "$tmp/$mode"
  echo "$mode: median $(cat "$tmp/$mode") µs for 8 runs (whole process)"
done
echo "sandbox cost per run: $(( ($(cat "$tmp/sandboxed") - $(cat "$tmp/unsandboxed")) / 8 )) µs"
for i in $(seq "$STUDENTS"); do
  mkdir -p "$tmp/class/s$i"
  printf '#!/bin/sh\nsleep %s\nawk '\''/^[ \\t]*[A-Za-z_][A-Za-z0-9_]*:/ { l = $1; sub(/:.*/, "", l); print l, 8 * n; n++ } /^[ \\t]*loop[ \\t]/ { loop = 1 } END { if (loop) print "ii", 8 * n }'\'' "$1"\n' "$SLEEP" > "$tmp/class/s$i/sched"
  chmod +x "$tmp/class/s$i/sched"
done
echo "class: $STUDENTS students × 12 inputs, ${SLEEP} s each, --jobs $JOBS (ideal $(echo "$STUDENTS * 12 * $SLEEP / $JOBS" | bc -l | cut -c1-6) s)"
/usr/bin/time -f "wall %e s, user %U s, sys %S s, peak RSS %M KiB" \
  env COURSE_SECRET_SEED=bench "$COURSE" grade --lab ch23-sched --run './sched {input}' \
  --hidden 4 --jobs "$JOBS" --format csv "$tmp/class" > "$tmp/grades.csv" 2>"$tmp/err" || true
tail -1 "$tmp/err"
echo "rows: $(( $(wc -l < "$tmp/grades.csv") - 1 ))"
