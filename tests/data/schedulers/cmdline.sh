#!/bin/sh
# Hostile (finding 10): prints every command line it can read (the
# keeper's, the grader's) and the folder it runs in, for its feedback to
# quote the grader's paths back; its first line is no schedule.
echo "paths:"
for f in /proc/[0-9]*/cmdline; do tr '\0' ' ' < "$f" 2>/dev/null; echo; done
pwd
echo "$TMPDIR $HOME $1"
