#!/bin/sh
# A student scheduler that writes 100 MB of output.
yes "a 1" | head -c 100000000
