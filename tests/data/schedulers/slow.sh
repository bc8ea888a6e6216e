#!/bin/sh
# Honest and slow: a correct scheduler that takes half a second, so that
# a classmate graded beside it (--jobs 2) runs while it does.
sleep 0.5
sh sequential.sh "$1"
