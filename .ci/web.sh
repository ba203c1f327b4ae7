#!/usr/bin/env bash
# The web page's CI (issue 17): installs what building the page and its
# browser tests need, each only when missing, on a fresh Debian machine as
# root, then builds the page (web/build.sh) and runs its tests in headless
# Chromium (web/tests). Idempotent: a second run installs nothing.
#
#   - the wasm32-unknown-unknown target (rustup);
#   - wasm-bindgen-cli from crates.io at exactly the wasm-bindgen version in
#     Cargo.lock (the CLI and the crate must agree);
#   - Debian's chromium (the browser the tests drive; never a downloaded
#     one) and binaryen (wasm-opt, to shrink the .wasm); curl (a test runs
#     the page's curl command) and a Devanagari font (fonts-lohit-deva: the
#     Hindi interface in the screenshots);
#   - playwright-core and axe-core from npm (web/tests/package-lock.json).
#
# `.ci/web.sh tools` installs only the first two, the target and
# wasm-bindgen-cli, the one build here (.ci/prebuild.sh: CI builds it early,
# in the background).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s ===\n' "$*"; }

step "web: the wasm32-unknown-unknown target"
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

step "web: wasm-bindgen-cli at the version of wasm-bindgen in Cargo.lock"
want=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ -z "$want" ]; then
    echo "no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
    # --locked first; a registry that lacks one of the CLI's locked
    # dependencies (seen here: webpki-roots 1.0.11) gets the same CLI
    # version with its dependencies resolved afresh. --debug: built in 51 s
    # instead of 107, and it writes the same files, byte for byte, in 0.2 s.
    cargo install wasm-bindgen-cli --locked --debug --version "$want" ||
        cargo install wasm-bindgen-cli --debug --version "$want"
fi
wasm-bindgen --version
if [ "${1:-}" = tools ]; then
    exit 0
fi

step "web: Debian's chromium, binaryen, curl and a Devanagari font (.ci/packages.sh)"
bash .ci/packages.sh web
/usr/bin/chromium --version 2>/dev/null || true

step "web: playwright-core and axe-core for the browser tests (npm ci)"
if [ ! -f web/tests/node_modules/playwright-core/package.json ] ||
    [ ! -f web/tests/node_modules/axe-core/axe.min.js ] ||
    ! cmp -s web/tests/package-lock.json web/tests/node_modules/.package-lock-copy.json; then
    npm ci --prefix web/tests --no-audit --no-fund --loglevel=error
    cp web/tests/package-lock.json web/tests/node_modules/.package-lock-copy.json
fi

step "web: build the page (the library for wasm32-unknown-unknown)"
bash web/build.sh

step "web: the page in headless Chromium"
npm test --prefix web/tests
