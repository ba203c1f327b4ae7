#!/bin/bash
# Issue 40's many-core figures, prepared here and run in one call on a many-core machine (the
# device tool, when this task is lent one; CI never runs it). `../shared/bench/` packs the servers,
# wrk and their libraries into target/devpack and runs alternating rounds under wrk at 1, 4 and 8
# server cores (its README); this script names what to pack and how each server starts.
#
#   bash cli/benches/many_core.sh pack   # here: release builds, stripped, packed into target/devpack
#   bash cli/benches/many_core.sh run    # there, with target/devpack carried; the figures in $OUT
#
# The four servers, each a fresh process for every round (so each nonce is new to its store), all
# on 127.0.0.1:PORT and answering the GETs ../shared/bench/gen.py signs (ck-bench, tk-bench):
#   floor  the serve bench's bare hyper server on serve's runtime settings (`--floor PORT`)
#   serve  `oauth1 serve`, memory store
#   bare   the axum bench's route without the layer (`--server bare - PORT`)
#   layer  the same route behind VerifyLayer, memory store (`--server memory - PORT`)
# Read serve against floor, layer against bare, within one configuration and round. Each server
# answers on one thread for each core `taskset` gives it. A run of the defaults takes about
# 4 × 3 configurations × 3 rounds × (SECS + 1) s: about three minutes at SECS=4.
# Locally, to try the pack on two cores: CONFIGS=0:1:1:32 N=100000 SECS=2 ROUNDS=1 ... run
set -eu
cd "$(dirname "$0")/../.."
pack=target/devpack
case "${1:-}" in
pack)
    cargo build --release -q --locked -p oauth1-cli --bin oauth1
    mkdir -p target/devpack-bin
    strip -o target/devpack-bin/serve target/release/oauth1
    # The bench binaries, by the names cargo reports for them.
    cargo bench -q --locked -p oauth1-cli --bench serve --bench axum_layer --no-run \
        --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["bench"]:
        print(m["target"]["name"], m["executable"])' | while read -r name exe; do
        case $name in
        serve) strip -o target/devpack-bin/floor "$exe" ;;
        axum_layer)
            strip -o target/devpack-bin/bare "$exe"
            cp target/devpack-bin/bare target/devpack-bin/layer
            ;;
        esac
    done
    for b in floor serve bare layer; do
        [ -x target/devpack-bin/$b ] || { echo "many_core.sh: no $b built" >&2; exit 1; }
    done
    bash ../shared/bench/pack.sh "$pack" floor=target/devpack-bin/floor \
        serve=target/devpack-bin/serve bare=target/devpack-bin/bare layer=target/devpack-bin/layer
    ;;
run)
    [ -x "$pack/run.sh" ] || { echo "many_core.sh: no $pack (run 'pack' first, and carry it)" >&2; exit 1; }
    export OAUTH_CONSUMER_SECRET=cs-bench OAUTH_TOKEN_SECRET=ts-bench
    # run.sh keeps each server's standard error, and serve's is a log line a request (millions
    # at 8 cores): those stay in a folder of their own, and only the figures, with the last
    # lines of each server's log, go to $OUT (the device tool brings back what is there).
    results=${OUT:-target/many_core}
    mkdir -p "$results"
    logs=$(mktemp -d)
    OUT=$logs bash "$pack/run.sh" \
        'floor --floor PORT' \
        'serve serve --listen 127.0.0.1:PORT --consumer-key ck-bench --token tk-bench --nonce-capacity 8000000' \
        'bare --server bare - PORT' \
        'layer --server memory - PORT' | tee "$results/many_core.txt"
    for log in "$logs"/*.err; do
        [ -f "$log" ] && tail -n 5 "$log" >"$results/$(basename "$log").tail"
    done
    rm -rf "$logs"
    ;;
*)
    echo "usage: bash cli/benches/many_core.sh pack|run" >&2
    exit 2
    ;;
esac
