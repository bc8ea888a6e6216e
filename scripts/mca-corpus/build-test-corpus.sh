#!/usr/bin/env bash
# Rebuilds the mca-real test corpus (tests/data/mca-real/): innermost loops
# of C files of Debian bookworm source packages (loop_sources.py) compiled
# by clang-14, clang-22 and gcc-12, and basic blocks of Debian bookworm
# binaries (amd64 and arm64), each region checked with every model's llvm-mca.
#
#   scripts/mca-corpus/build-test-corpus.sh [OUT]      (OUT defaults to tests/data/mca-real)
#
# Needs: clang-14, clang-22, gcc-12, gcc-12-aarch64-linux-gnu +
# libc6-dev-arm64-cross (apt), llvm-mca-14, llvm-mca-22, llvm-objdump-22,
# dpkg-deb, dpkg-source (dpkg-dev), python3 (3.11, stdlib only),
# `dpkg --add-architecture arm64`, deb-src lines for bookworm in the apt
# sources (`Types: deb deb-src`) and `apt-get update` done: the script runs
# `apt-get source PKG` for the loop packages and `apt-get download PKG:amd64
# PKG:arm64` for the block packages. Every source comes from the Debian
# archive; nothing else is downloaded.
#
# Scratch goes to WORK (default /work/corpus-work/test-build): WORK/src
# (source packages), WORK/debs, WORK/asm, ... JOBS (default 2) bounds
# parallel jobs; LOOPS_BUDGET (default 60) is the number of compilations
# per loop package and architecture. The script renices itself to 10.
#
# Deterministic for the same archive state: every choice is sorted or
# seeded. The Debian packages whose binaries give the blocks (none of them,
# and none of the loop packages, is used by gather-forms.sh, which builds the
# disjoint forms corpus):
A_PKGS="zlib1g libpng16-16 libjpeg62-turbo libssl3 python3.11-minimal coreutils libavcodec59 libbz2-1.0 liblzma5 libgmp10 libxml2 libexpat1 libpcre2-8-0 libfftw3-double3 libflac12 libwebp7 libopenblas0-pthread libvorbis0a libsqlite3-0"
set -euo pipefail
renice -n "${NICE:-10}" -p $$ >/dev/null 2>&1 || true
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
OUT=${1:-$root/tests/data/mca-real}
WORK=${WORK:-/work/corpus-work/test-build}
export JOBS=${JOBS:-2}
COUNT=${COUNT:-600}

for t in clang-14 clang-22 gcc-12 aarch64-linux-gnu-gcc-12 llvm-mca-14 llvm-mca-22 /usr/lib/llvm-22/bin/llvm-objdump dpkg-deb dpkg-source apt-get python3; do
  command -v "$t" >/dev/null 2>&1 || { echo "build-test-corpus: $t not found" >&2; exit 2; }
done
# the Debian source packages of the loops (loop_sources.py)
L_PKGS=$(python3 "$here/loop_sources.py")
mkdir -p "$WORK/src" "$WORK/debs" "$OUT/x86-64" "$OUT/aarch64"

echo "== downloading the loop source packages (apt-get source)" >&2
(cd "$WORK/src" && for p in $L_PKGS; do
  ls "${p}"_*.dsc >/dev/null 2>&1 || apt-get source "$p" >/dev/null
done)

echo "== compiling the loop packages (LOOPS_BUDGET compilations per package and arch)" >&2
python3 "$here/loops.py" compile "$WORK/src" "$WORK"

echo "== downloading the block packages" >&2
(cd "$WORK/debs" && for p in $A_PKGS; do
  ls "${p}"_*_amd64.deb >/dev/null 2>&1 || apt-get download "$p:amd64" >/dev/null
  ls "${p}"_*_arm64.deb >/dev/null 2>&1 || apt-get download "$p:arm64" >/dev/null
done)

for arch in x86-64 aarch64; do
  echo "== $arch: candidates" >&2
  python3 "$here/loops.py" extract "$WORK" "$arch" >"$WORK/loops-$arch.jsonl"
  # shellcheck disable=SC2086
  python3 "$here/blocks.py" "$WORK/debs" "$WORK" "$arch" $A_PKGS >"$WORK/blocks-$arch.jsonl"
  echo "== $arch: checking and writing" >&2
  printf 'id\tkind\tsource\tcompiler\tmodels\n' >"$OUT/$arch/index.tsv"
  python3 "$here/select_regions.py" "$arch" loop "$WORK/loops-$arch.jsonl" "$OUT/$arch/loops.s" "$OUT/$arch/index.tsv" "$COUNT"
  python3 "$here/select_regions.py" "$arch" block "$WORK/blocks-$arch.jsonl" "$OUT/$arch/blocks.s" "$OUT/$arch/index.tsv" "$COUNT"
done

echo "== whole-file check: every region reported by llvm-mca-14 and llvm-mca-22" >&2
python3 "$here/check_files.py" "$OUT"
