#!/bin/sh
# Hostile: allocates 3 GB (and touches it); only if that works does it
# print a valid schedule.
python3 -c "b = bytearray(3 << 30)" || exit 1
sh sequential.sh "$1"
