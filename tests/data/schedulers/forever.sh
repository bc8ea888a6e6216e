#!/bin/sh
# A student scheduler that never answers: it loops forever (and leaves a
# sleeping child behind, which must be killed with it).
sleep 1000 &
while :; do :; done
