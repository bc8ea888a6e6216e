#!/usr/bin/env bash
# Whole-process times of the exact references, as a user runs them:
# `course schedule` of `course gen KIND --ops N --seed S` for seeds 1..SEEDS,
# one process each (wall clock, GNU time), then the median and the worst
# per size, with the peak resident memory of the worst.
#
#   scripts/exact-process.sh target/release/course loop 40,56,72,80 20
#   scripts/exact-process.sh target/release/course block 30,40,50,60 20
set -euo pipefail
course=${1:?usage: exact-process.sh COURSE loop|block SIZES [SEEDS]}
kind=${2:?loop or block}
sizes=${3:?comma-separated sizes}
seeds=${4:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| ops | proven | median | worst | peak RSS (worst) |"
echo "|----:|-------:|-------:|------:|-----------------:|"
for n in ${sizes//,/ }; do
  : > "$tmp/times"
  proven=0
  for s in $(seq 1 "$seeds"); do
    "$course" gen "$kind" --ops "$n" --seed "$s" > "$tmp/in.txt"
    start=$(date +%s.%N)
    /usr/bin/time -f "%M" -o "$tmp/t" "$course" schedule "$tmp/in.txt" > "$tmp/out.txt"
    end=$(date +%s.%N)
    echo "$(echo "$end - $start" | bc) $(cat "$tmp/t")" >> "$tmp/times"
    # A loop: "the minimum" (MII reached or every II below refuted); a
    # block: "optimum … proven" or the list schedule proven optimal.
    words=$(tr -s ' \n' '  ' < "$tmp/out.txt")
    if grep -Eq "the minimum|proven" <<< "$words" && ! grep -q "not proven" <<< "$words"; then
      proven=$((proven + 1))
    fi
  done
  sort -n "$tmp/times" > "$tmp/sorted"
  median=$(awk -v n="$seeds" 'NR == int((n + 1) / 2) { printf "%.0f", $1 * 1000 }' "$tmp/sorted")
  worst=$(tail -1 "$tmp/sorted")
  worst_ms=$(awk '{ printf "%.0f", $1 * 1000 }' <<< "$worst")
  echo "| $n | $proven/$seeds | ${median} ms | ${worst_ms} ms | $(( ${worst#* } / 1024 )) MiB |"
done
