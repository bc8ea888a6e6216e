#!/usr/bin/env bash
# The clang corpus of `course mca` (tests/data/clang/): every C kernel of
# tests/data/clang/src/ compiled by clang-14 at -O2 and -O3 for x86-64
# (Skylake) and AArch64 (Apple M1, Cortex-A57); the innermost loop of each
# (the labelled block that branches back to itself) is written as
# tests/data/clang/MODEL/KERNEL-OPT.s inside an LLVM-MCA-BEGIN/END region,
# and llvm-mca-14's answer on it next to it as KERNEL-OPT.expect (the
# summary at 100 iterations, the timeline at 3). tests/it/mca_clang.rs
# compares `course mca` with these recordings.
#
#   scripts/clang-corpus.sh            regenerate every file (needs clang-14, llvm-mca-14)
#   scripts/clang-corpus.sh --check    regenerate into a temporary folder and diff
#
# Review the diff (git diff tests/data/clang) before committing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

CLANG=${CLANG:-clang-14}
MCA=${LLVM_MCA:-llvm-mca-14}
for t in "$CLANG" "$MCA" python3; do
  command -v "$t" >/dev/null 2>&1 || { echo "clang-corpus: $t not found" >&2; exit 2; }
done

check=0
[ "${1:-}" = "--check" ] && check=1
src=tests/data/clang/src
out=tests/data/clang
[ $check -eq 1 ] && out=$(mktemp -d)

# model folder | clang target flags | llvm-mca triple | llvm-mca cpu
MODELS=(
  "skylake-llvm14|--target=x86_64-unknown-linux-gnu -march=skylake|x86_64-unknown-linux-gnu|skylake"
  "apple-m1|--target=aarch64-linux-gnu -mcpu=apple-m1|aarch64-unknown-linux-gnu|apple-m1"
  "cortex-a57|--target=aarch64-linux-gnu -mcpu=cortex-a57|aarch64-unknown-linux-gnu|cortex-a57"
)

tmp=$(mktemp -d)
# The --check folder goes too, however the script ends.
trap 'rm -rf "$tmp"; [ $check -eq 0 ] || rm -rf "$out"' EXIT
for entry in "${MODELS[@]}"; do
  IFS='|' read -r model flags triple cpu <<<"$entry"
  mkdir -p "$out/$model"
  rm -f "$out/$model"/*.s "$out/$model"/*.expect
  for c in "$src"/*.c; do
    k=$(basename "$c" .c)
    for opt in O2 O3; do
      # shellcheck disable=SC2086
      "$CLANG" -$opt -S $flags -fno-asynchronous-unwind-tables -o "$tmp/full.s" "$c"
      name="$k-$opt"
      if ! python3 scripts/innermost-loop.py "$tmp/full.s" "$name" "$c" "$opt" "$flags" >"$out/$model/$name.s"; then
        rm -f "$out/$model/$name.s"
        echo "clang-corpus: $model/$name: no single-block innermost loop" >&2
        continue
      fi
      {
        echo "# $MCA -mtriple=$triple -mcpu=$cpu -iterations=100"
        "$MCA" -mtriple="$triple" -mcpu="$cpu" -iterations=100 "$out/$model/$name.s" |
          sed -n '/^Iterations:/,/^Block RThroughput:/p'
        echo
        echo "# $MCA -mtriple=$triple -mcpu=$cpu -iterations=3 -timeline -timeline-max-iterations=3"
        "$MCA" -mtriple="$triple" -mcpu="$cpu" -iterations=3 -timeline -timeline-max-iterations=3 \
          "$out/$model/$name.s" | sed -n '/^Timeline view:/,$p' | sed -e '/^Average Wait times/,$d'
      } >"$out/$model/$name.expect"
    done
  done
done

if [ $check -eq 1 ]; then
  status=0
  for entry in "${MODELS[@]}"; do
    model=${entry%%|*}
    diff -r -u "tests/data/clang/$model" "$out/$model" || status=1
  done
  [ $status -eq 0 ] && echo "clang-corpus: the recordings are up to date"
  exit $status
fi
echo "clang-corpus: wrote $(ls "$out"/*/*.s | wc -l) loops under $out"
