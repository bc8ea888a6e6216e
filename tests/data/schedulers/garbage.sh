#!/bin/sh
# A student scheduler that prints garbage on standard output and a message
# on standard error that must never reach any report.
echo "STDERR-MARKER: debugging output of this student" >&2
echo "Scheduling $1 ..."
echo "done! = 42"
echo "=cmd|' /C calc'!A0"
