#!/bin/sh
# Honest (finding 9): a correct scheduler whose folder holds a large data
# file (the test adds 40 MiB of it): graded as any other.
sh sequential.sh "$1"
