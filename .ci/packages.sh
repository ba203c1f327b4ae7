#!/usr/bin/env bash
# Debian's packages CI needs, each list in this one place, installed where
# missing (idempotent: nothing is installed when all are present):
#   redis   redis-server and redis-cli, by .ci/redis.sh (the nonce-store and
#           `oauth1 serve` tests start their own servers on 127.0.0.1);
#   tools   curl (the printed curl commands, run by the tests) and valgrind
#           (the instruction counts);
#   web     chromium, binaryen, curl and a Devanagari font (the page's build
#           and browser tests, .ci/web.sh).
# With no argument, all three. `.ci/run` starts this in the background at its
# first step, so that the downloads overlap the first builds, and waits for it
# before the first step that uses a package.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
updated=
install() {
    # $1: extra apt-get options ("" or --no-install-recommends); the rest: packages.
    local options=$1
    shift
    [ "$#" -gt 0 ] || return 0
    if [ -z "$updated" ]; then
        apt-get update -qq
        updated=1
    fi
    # shellcheck disable=SC2086
    apt-get install -y -qq $options "$@"
}
want=${*:-redis tools web}
for part in $want; do
    case "$part" in
    redis)
        bash .ci/redis.sh
        ;;
    tools)
        missing=()
        command -v curl >/dev/null || missing+=(curl)
        command -v valgrind >/dev/null || missing+=(valgrind)
        install "" "${missing[@]}"
        ;;
    web)
        missing=()
        command -v chromium >/dev/null || missing+=(chromium)
        command -v wasm-opt >/dev/null || missing+=(binaryen)
        command -v curl >/dev/null || missing+=(curl)
        [ -f /usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf ] || missing+=(fonts-lohit-deva)
        install "" "${missing[@]}"
        ;;
    *)
        echo "usage: .ci/packages.sh [redis] [tools] [web]" >&2
        exit 2
        ;;
    esac
done
