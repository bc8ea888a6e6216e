#!/bin/sh
# Hostile (finding 11): prints one bad line for each line of its input,
# so that a count in its feedback would tell the hidden input's size.
while IFS= read -r l; do echo "zz 0"; done < "$1"
