#!/usr/bin/env bash
# Builds the page into web/dist, a folder any static host serves: the
# library compiled to WebAssembly (profile `web`: opt-level "z", LTO), bound
# to JavaScript by wasm-bindgen (shrunk first by wasm-opt where Debian's
# binaryen is installed), twice (pkg/, the first download, without the
# explainer, the capture readers and RSA; pkg-full/ with them), and the static files
# beside them. Prints each .wasm's size, raw and gzipped.
#
#   bash web/build.sh          build
#   bash web/build.sh serve    build, then serve it on http://127.0.0.1:8000/ (PORT=... to change)
#
# Needs: rustup target wasm32-unknown-unknown, and wasm-bindgen-cli at the
# version of wasm-bindgen in Cargo.lock (.ci/web.sh installs both).
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir="${CARGO_TARGET_DIR:-target}"
out=web/dist
wasm="$target_dir/wasm32-unknown-unknown/web/oauth1_web.wasm"

rm -rf "$out"
mkdir -p "$out"
# The page's module twice, from the one crate: pkg/ without the explainer,
# the capture readers and RSA (the first download), pkg-full/ with them,
# which app.js loads when the Explain panel is first given something or an
# RSA method is first chosen (issue 42.4).
for module in pkg pkg-full; do
    if [ "$module" = pkg ]; then features=(--no-default-features); else features=(); fi
    cargo build --locked -p oauth1-web --target wasm32-unknown-unknown --profile web "${features[@]}"
    mkdir -p "$out/$module"
    input="$wasm"
    if command -v wasm-opt >/dev/null; then
        # Before wasm-bindgen, not after: Debian's binaryen (108) breaks the
        # externref table that wasm-bindgen writes. The features rustc enables by
        # default for wasm32 must be allowed.
        opt="$target_dir/wasm32-unknown-unknown/web/opt"
        mkdir -p "$opt"
        wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
            --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types \
            "$wasm" -o "$opt/oauth1_web.wasm"
        input="$opt/oauth1_web.wasm"
    else
        echo "wasm-opt not found (Debian's binaryen): the .wasm is left as rustc and wasm-bindgen wrote it"
    fi
    wasm-bindgen --target web --no-typescript --out-dir "$out/$module" "$input"
    bg="$out/$module/oauth1_web_bg.wasm"
    raw=$(wc -c <"$bg")
    gz=$(gzip -9 -c "$bg" | wc -c)
    echo "built $out/$module: oauth1_web_bg.wasm $raw bytes raw, $gz bytes gzipped (gzip -9)"
done
cp web/static/*.html web/static/*.js web/static/*.css "$out/"

if [ "${1:-}" = serve ]; then
    port="${PORT:-8000}"
    echo "serving $out on http://127.0.0.1:$port/ (Ctrl-C stops)"
    exec python3 -m http.server --bind 127.0.0.1 --directory "$out" "$port"
fi
