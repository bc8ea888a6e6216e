#!/usr/bin/env bash
# Builds the web page into OUT-DIR (default: target/web): the `course`
# library compiled to WebAssembly (web/wasm, profile `wasm`), gzipped and
# inlined as base64 into course-wasm.js so that index.html works from
# file:// as well as from any static host (engine.js inflates it with the
# browser's DecompressionStream; gzip first because a server's gzip gets
# far less out of base64 than out of the module). No network access at
# run time.
#
# The tables of the built-in processor models (crates/course-content/mca/
# NAME.z) are left out of the WebAssembly (course-content's feature
# `lazy-mca`): each becomes a script of its own, mca/NAME.js, setting
# COURSE_MCA_TABLES[NAME] to its base64, which engine.js loads with a
# <script> tag (file:// refuses fetch()) when the llvm-mca view first runs
# assembly on a model that needs it.
#
#   web/build.sh [OUT-DIR]
set -euo pipefail
web="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$web")"
out="${1:-$root/target/web}"

target=wasm32-unknown-unknown
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx "$target"; then
  rustup target add "$target"
fi
cargo build --quiet --manifest-path "$root/Cargo.toml" -p course-web \
  --profile wasm --target "$target" --locked
# Where cargo put it: CARGO_TARGET_DIR if set (relative to the current
# directory, as cargo takes it), else the workspace's target/.
target_dir="${CARGO_TARGET_DIR:-$root/target}"
[[ "$target_dir" = /* ]] || target_dir="$PWD/$target_dir"
wasm="$target_dir/$target/wasm/course_web.wasm"

mkdir -p "$out"
cp "$web/index.html" "$web/style.css" "$web/engine.js" "$web/app.js" "$out/"
{
  printf '// The course engine as WebAssembly (built by web/build.sh from web/wasm).\n'
  printf 'globalThis.COURSE_WASM_BASE64 = "'
  gzip -9 -n -c "$wasm" | base64 -w0
  printf '";\n'
} >"$out/course-wasm.js"
# The same module as a file, which the page fetches (and compiles as it
# streams) when served over http(s), where a server's gzip applies; the
# base64 copy above is then never loaded.
cp "$wasm" "$out/course.wasm"

rm -rf "$out/mca"
mkdir -p "$out/mca"
for z in "$root"/crates/course-content/mca/*.z; do
  name="$(basename "$z" .z)"
  {
    printf '// The table %s of the built-in processor models (web/build.sh).\n' "$name"
    printf 'globalThis.COURSE_MCA_TABLES = globalThis.COURSE_MCA_TABLES || {};\n'
    printf 'globalThis.COURSE_MCA_TABLES["%s"] = "' "$name"
    base64 -w0 "$z"
    printf '";\n'
  } >"$out/mca/$name.js"
done

bytes=$(cat "$out"/*.js "$out"/*.html "$out"/*.css | wc -c)
gz=$(for f in "$out"/*.js "$out"/*.html "$out"/*.css "$out"/mca/*.js; do gzip -9 -n -c "$f"; done | wc -c)
tables=$(cat "$out"/mca/*.js | wc -c)
echo "web page in $out ($(wc -c <"$wasm") bytes of WebAssembly from $wasm; $bytes bytes loaded at first," \
  "$tables more in the processor models' tables under mca/, each loaded when needed;" \
  "$gz bytes gzipped, file by file, without course.wasm)"
