#!/bin/sh
# Hostile: starts 200 children that sleep for days; only if all start
# does it print a valid schedule.
i=0
while [ $i -lt 200 ]; do
  sleep 987654 || exit 1 &
  i=$((i + 1))
done
sleep 0.2
[ "$(jobs -p | wc -l)" -ge 200 ] || exit 1
sh sequential.sh "$1"
