#!/bin/sh
# A student scheduler that attacks the others: it overwrites the input file
# $1 and removes every input beside it, then prints nothing useful.
printf 'block junk\n' > "$1"
rm -f "$(dirname "$1")"/*.txt
echo "vandal 0"
