#!/usr/bin/env bash
# Builds scripts/mca-models/dump.cpp against one LLVM release:
#   build-dump.sh 22 target/mca-dump/dump22   (needs llvm-22-dev)
#   build-dump.sh 14 target/mca-dump/dump14   (needs llvm-14-dev)
# (the paths generate.py and labyaml.py use by default)
set -euo pipefail
v=${1:?LLVM major version}; out=${2:?output path}
cfg=/usr/lib/llvm-$v/bin/llvm-config
[ -x "$cfg" ] || { echo "build-dump.sh: $cfg missing (apt-get install llvm-$v-dev)" >&2; exit 2; }
here=$(dirname "${BASH_SOURCE[0]}")
# shellcheck disable=SC2046
g++ -O1 -g0 $($cfg --cxxflags) -fexceptions "$here/dump.cpp" -o "$out" \
  $($cfg --ldflags) $($cfg --libs all) -Wl,-rpath,"$($cfg --libdir)"
