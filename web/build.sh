#!/usr/bin/env bash
# Builds the web page into OUT-DIR (default: target/web): the `course`
# library compiled to WebAssembly (web/wasm, profile `wasm`), inlined as
# base64 into course-wasm.js so that index.html works from file:// as well
# as from any static host. No network access at run time.
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
wasm="$root/target/$target/wasm/course_web.wasm"

mkdir -p "$out"
cp "$web/index.html" "$web/style.css" "$web/engine.js" "$web/app.js" "$out/"
{
  printf '// The course engine as WebAssembly (built by web/build.sh from web/wasm).\n'
  printf 'globalThis.COURSE_WASM_BASE64 = "'
  base64 -w0 "$wasm"
  printf '";\n'
} >"$out/course-wasm.js"
bytes=$(cat "$out"/*.js "$out"/*.html "$out"/*.css | wc -c)
echo "web page in $out ($(wc -c <"$wasm") bytes of WebAssembly; $bytes bytes in all)"
