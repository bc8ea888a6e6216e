#!/bin/sh
# Hostile (finding 7): 16 processes that spin, to take the CPU from
# whoever is graded beside it; gives up (status 1) after 1.5 s, leaving
# them to the sandbox to kill.
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
  ( while :; do :; done ) &
done
sleep 1.5
exit 1
