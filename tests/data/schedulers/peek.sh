#!/bin/sh
# Hostile (finding 2): while its classmates run beside it (--jobs 2),
# looks for their copies in the temporary folders and through /proc, for
# about a second; answers (validly) only if it read one, else exits 1.
i=0
while [ $i -lt 15 ]; do
  i=$((i + 1))
  for f in /tmp/course-*/*/home/mark.txt /tmp/course-*/home/mark.txt \
           /var/tmp/course-*/*/home/mark.txt /proc/[0-9]*/cwd/mark.txt \
           /proc/[0-9]*/root/tmp/course-*/*/home/mark.txt; do
    if grep -q "@MARK@" "$f" 2>/dev/null; then
      sh sequential.sh "$1"
      exit 0
    fi
  done
  sleep 0.05
done
exit 1
