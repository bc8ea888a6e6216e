#!/bin/sh
# Hostile (finding 8): makes empty files (no blocks, only kernel memory)
# in every folder it may write until it is stopped; exits 1 if it lives.
i=0
while [ $i -lt 200000 ]; do
  for d in /tmp /dev/shm "$TMPDIR" .; do : > "$d/i$$-$i" 2>/dev/null; done
  i=$((i + 1))
done
exit 1
