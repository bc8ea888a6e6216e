#!/bin/sh
# Hostile: asks the grader's own `course` for the reference schedule,
# by the grader's path, on the PATH, or through /proc.
for c in "@COURSE@" course /proc/$PPID/exe /proc/1/exe; do
  if "$c" schedule "$1" --format json > out.json 2>/dev/null; then
    awk '/^  "ii": [0-9]/ { v = $2; sub(/,$/, "", v); print "ii " v }
      /^  "schedule": [{]/ { on = 1; next }
      on && /^  [}]/ { on = 0 }
      on { l = $1; gsub(/[":]/, "", l); c = $2; sub(/,$/, "", c); print l " " c }' out.json
    exit 0
  fi
done
exit 1
