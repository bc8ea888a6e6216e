#!/usr/bin/env bash
# The hostile class folder of issue 12, graded and measured: symbolic links
# (to a file outside, to a sibling's file, to a folder), a FIFO, a mode-000
# file graded by an unprivileged user, __MACOSX/ and .git/, two names that
# are not UTF-8, 100 students with a 1 MiB junk submission, and a stray
# .sched at the top. Figures go to BENCHMARKS.md ("Grading a hostile class").
#
#   scripts/hostile-class.sh [COURSE-BINARY] [DIR]
#
# COURSE-BINARY defaults to target/release/course, DIR to a fresh folder
# under /tmp. Run as root, it grades as `nobody` through setpriv (so the
# mode-000 file is really unreadable); as anyone else, as that user.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
course=$(realpath "${1:-target/release/course}")
dir=${2:-$(mktemp -d /tmp/hostile-class.XXXXXX)}
class="$dir/class"
rm -rf "$class"
mkdir -p "$class"

student() { mkdir -p "$class/$1"; cp solutions/ch23-sched/*.sched "$class/$1/"; }

student alice
student bob
# Links: to a file outside, to a sibling's file, a student folder that is a link.
student link-out;     ln -sf /etc/shadow "$class/link-out/running.sched"
student link-sibling; ln -sf ../alice/running.sched "$class/link-sibling/running.sched"
ln -s alice "$class/link-folder"
# A FIFO nobody writes to.
student fifo; rm "$class/fifo/running.sched"; mkfifo "$class/fifo/running.sched"
# A file the grader may not read.
student locked; chmod 000 "$class/locked/running.sched"
# Not students.
student __MACOSX; student .git
# Two names that are not UTF-8.
student "$(printf 'st\377')"; student "$(printf 'st\376')"
# 100 students with a 1 MiB junk running.sched.
junk="$dir/junk.sched"
python3 - "$junk" <<'PY'
import random, sys
random.seed(12)
lines, size = [], 0
words = ["a 1", "zz 7", "%%", "c -3", "ii x", "b 99999999999999999999", "\x01\x02 junk"]
while size < (1 << 20) - 64:
    l = random.choice(words) + "\n"
    lines.append(l); size += len(l)
open(sys.argv[1], "w").write("".join(lines))
PY
for i in $(seq -w 1 100); do student "junk$i"; cp "$junk" "$class/junk$i/running.sched"; done
# A stray .sched at the top.
cp solutions/ch23-sched/running.sched "$class/running.sched"

find "$class" -type d -exec chmod 755 {} +
chmod 755 "$dir"

as_grader=()
if [ "$(id -u)" = 0 ]; then
  as_grader=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi

echo "== detection: a stray .sched at the top is an error naming it"
set +e
"${as_grader[@]}" "$course" grade --lab ch23-sched "$class" > /dev/null 2> "$dir/detect.err"
echo "exit $?: $(cat "$dir/detect.err")"
echo
echo "== --class, each format (wall time, CPU time, peak RSS, exit status, output size)"
for format in json text csv csv-long gradescope; do
  /usr/bin/time -f "%e s wall  %U s user  %M KiB peak" -o "$dir/time.$format" \
    timeout 120 "${as_grader[@]}" "$course" grade --lab ch23-sched --class --format "$format" "$class" \
    > "$dir/out.$format" 2> "$dir/err.$format"
  code=$?
  printf '%-10s %s  exit %s  %s bytes\n' "$format" "$(grep -v '^Command exited' "$dir/time.$format")" "$code" "$(stat -c %s "$dir/out.$format")"
done
set -e
echo
echo "== checks"
students=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["students"]))' "$dir/out.json")
echo "students graded: $students (expected 109: alice, bob, 5 traps, 2 non-UTF-8 names, 100 junk)"
if grep -l 'root:' "$dir"/out.* >/dev/null 2>&1; then echo "LEAK: an outside file's content is in a report"; exit 1; fi
echo "no outside file's content in any report"
grep -c '' "$dir/out.csv" | sed 's/^/gradebook lines (header + students): /'
grep -h 'grading error' "$dir/err.json" || true
