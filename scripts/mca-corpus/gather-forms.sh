#!/usr/bin/env bash
# Regenerates the forms corpus (not committed): every instruction form that
# compilers emit for the six processor models, one instruction per line,
# from (i) C files of Debian bookworm source packages (forms_sources.py) and
# of extra/ (written for this project), compiled by clang-14, clang-22 and
# gcc-12 at -O1/-O2/-O3/-Os for many -march/-mcpu (see TARGETS in forms.py),
# and (ii) the disassembly of Debian bookworm binaries (amd64, arm64). Its
# packages are disjoint from those of the mca-real test corpus
# (build-test-corpus.sh: loop_sources.py and the block packages).
#
#   scripts/mca-corpus/gather-forms.sh OUTDIR        (e.g. /work/forms)
#
# Writes OUTDIR/{x86-64,aarch64}.s (a `.Ltarget:` line, then the sorted,
# deduplicated lines that llvm-mc-22 assembles with the -mattr of forms.py),
# OUTDIR/{x86-64,aarch64}.lines.tsv (line, count, one provenance) and
# OUTDIR/rejected-{x86-64,aarch64}.txt (line, llvm-mc-22's reason, count,
# provenance).
#
# Needs what build-test-corpus.sh needs (deb-src lines in the apt sources,
# `dpkg --add-architecture arm64`, `apt-get update`), plus llvm-mc-22. Every
# source comes from the Debian archive (`apt-get source`, `apt-get
# download`) or from extra/. Scratch goes to WORK (default
# /work/corpus-work/forms-build): WORK/src, WORK/debs, WORK/fasm, ... JOBS
# (default 2) bounds parallel jobs; FORMS_BUDGET (default 80) is the number
# of compilations per source package and architecture. The script renices
# itself to 10. Deterministic for the same archive state.
#
# The Debian packages whose binaries are disassembled:
B_PKGS="libc6 libstdc++6 libgcc-s1 libgomp1 libx264-164 libx265-199 libvpx7 libdav1d6 libaom3 libgcrypt20 libnettle8 libblis4-pthread libopus0 libspeexdsp1 libgsl27 libsodium23 libzstd1 liblz4-1 libbrotli1 libjxl0.7 libopenjp2-7 libsimdjson14 libxxhash0 libsvtav1enc1 libsnappy1v5 libmpfr6 libsoxr0 libsamplerate0"
set -euo pipefail
renice -n "${NICE:-10}" -p $$ >/dev/null 2>&1 || true
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: gather-forms.sh OUTDIR}
WORK=${WORK:-/work/corpus-work/forms-build}
export JOBS=${JOBS:-2}
export FORMS_BUDGET=${FORMS_BUDGET:-80}

for t in clang-14 clang-22 gcc-12 aarch64-linux-gnu-gcc-12 llvm-mc-22 /usr/lib/llvm-22/bin/llvm-objdump dpkg-deb dpkg-source apt-get python3; do
  command -v "$t" >/dev/null 2>&1 || { echo "gather-forms: $t not found" >&2; exit 2; }
done
# the Debian source packages compiled (forms_sources.py), none of them a
# loop package of the test corpus
F_PKGS=$(python3 "$here/forms_sources.py")
python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import loop_sources as l, forms_sources as f
both = sorted(set(l.SOURCES) & set(f.SOURCES))
sys.exit(f"gather-forms: packages of both corpora: {both}" if both else 0)' "$here"
mkdir -p "$WORK/src" "$WORK/debs" "$OUT"

echo "== downloading the source packages (apt-get source)" >&2
(cd "$WORK/src" && for p in $F_PKGS; do
  ls "${p}"_*.dsc >/dev/null 2>&1 || apt-get source "$p" >/dev/null
done)

echo "== compiling" >&2
python3 "$here/forms.py" compile "$WORK/src" "$WORK"

echo "== downloading the binary packages" >&2
(cd "$WORK/debs" && for p in $B_PKGS; do
  ls "${p}"_*_amd64.deb >/dev/null 2>&1 || apt-get download "$p:amd64" >/dev/null
  ls "${p}"_*_arm64.deb >/dev/null 2>&1 || apt-get download "$p:arm64" >/dev/null
done)

echo "== collecting, checking with llvm-mc-22, writing $OUT" >&2
# shellcheck disable=SC2086
python3 "$here/forms.py" collect "$WORK" "$WORK/debs" "$OUT" $B_PKGS
wc -l "$OUT"/*.s "$OUT"/rejected-*.txt >&2
