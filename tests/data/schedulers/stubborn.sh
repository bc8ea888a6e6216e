#!/bin/sh
# Hostile: ignores SIGTERM and SIGINT, leaves a double-forked sleeper
# behind, and never answers.
trap '' TERM INT HUP
( ( trap '' TERM; sleep 987654 ) & ) &
while :; do :; done
