#!/bin/sh
# Honest and CPU-bound: spends 1 s of CPU time (measured by itself), then
# prints a valid schedule. Beside a spinning classmate it must still be
# graded valid within its time limit.
python3 -c "
import time
t = time.process_time()
while time.process_time() - t < 1.0:
    pass
" || exit 1
sh sequential.sh "$1"
