#!/bin/sh
# A correct, slow student scheduler written without the course's tools:
# each operation gets 8 cycles of its own, in program order (no latency or
# reservation of the lab's machine is longer), and a loop's II is 8 per
# operation, so every dependence, across iterations too, is met.
awk '/^[ \t]*loop[ \t]/ { loop = 1 }
     /^[ \t]*[A-Za-z_][A-Za-z0-9_]*:/ { l = $1; sub(/:.*/, "", l); print l, 8 * n; n++ }
     END { if (loop) print "ii", 8 * n }' "$1"
