#!/bin/sh
# Hostile: leaves a daemon in a new session (setsid) that, after the
# grader has written its results, keeps rewriting the results file, the
# other student's scheduler and the gradebook with a score of 1000.
setsid sh -c 'course_hostile_daemon=1; sleep 1; while :; do
  printf "{\"score\": 1000, \"tests\": []}\n" > "@RESULTS@" 2>/dev/null
  printf "echo forged\n" > "@SIBLING@/sched.sh" 2>/dev/null
  sleep 0.1; done' >/dev/null 2>&1 < /dev/null &
echo "a 0"
