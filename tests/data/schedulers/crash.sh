#!/bin/sh
# A student scheduler that crashes: it prints half a schedule, then dies of
# a segmentation fault.
echo "a 0"
kill -SEGV $$
