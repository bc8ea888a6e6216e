#!/bin/sh
# Hostile (finding 1): looks for any copy of the reference it may read or
# run on the machine (the course checkout, a built `course`, the lab's
# solutions) and answers with it; exits 1 when it finds none.
for c in "@CHECKOUT@/target/debug/course" "@CHECKOUT@/target/release/course" \
         "@CHECKOUT@/course" $(find / -xdev -name course -type f 2>/dev/null | head -20); do
  if "$c" schedule "$1" --format json > out.json 2>/dev/null; then
    awk '/^  "ii": [0-9]/ { v = $2; sub(/,$/, "", v); print "ii " v }
      /^  "schedule": [{]/ { on = 1; next }
      on && /^  [}]/ { on = 0 }
      on { l = $1; gsub(/[":]/, "", l); c = $2; sub(/,$/, "", c); print l " " c }' out.json
    exit 0
  fi
done
stem=$(basename "$1" .txt)
for s in "@CHECKOUT@/solutions/ch23-sched/$stem.sched" \
         $(find / -xdev -path "*solutions/*/$stem.sched" 2>/dev/null | head -5); do
  if cat "$s" 2>/dev/null; then exit 0; fi
done
exit 1
