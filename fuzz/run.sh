#!/usr/bin/env bash
# Runs every fuzz target, in one of two modes.
#
#   fuzz/run.sh ci              what CI runs; the same verdict for the same commit
#   fuzz/run.sh build           ci's build alone (.ci/prebuild.sh: CI builds it early)
#   fuzz/run.sh explore [SECS]  for people: random seeds, SECS (300) per target
#
# ci: first replays each committed seed in fuzz/corpus/<target> as a
# regression test (every file once), then runs FUZZ_RUNS (30000; a tenth
# for the slow `large`) inputs per target from the fixed seed FUZZ_SEED.
# libFuzzer with a fixed seed, a fixed run count and a fixed starting corpus
# executes the same inputs in the same order on any machine, whatever its
# speed, provided nothing else in the process differs from run to run:
#   - no timer: -reload=0 (the corpus is not re-read on one);
#   - no chance and no clock in the code: the verifier's secrets for
#     unknown keys are a fixed text in a fuzzing build (`--cfg fuzzing`,
#     which cargo-fuzz sets; a random generator's rejection sampling runs a
#     random number of rounds), and `verify` keeps its nonces in a store of
#     its own (`MemoryNonceStore` reads `Instant::now`). libFuzzer keeps an
#     input for the new coverage it shows and mutates with the values the
#     code compared: `verify` kept 985, 1,003 and 997 inputs in three runs
#     of one binary before;
#   - no addresses that move: libFuzzer's compare tables are indexed by code
#     address and fill with the values compared, stack addresses among them,
#     so ASLR is off (setarch -R); the targets are built through one fixed
#     path (below), so that their code is laid out alike in any checkout;
#     and each runs as a copy in the temporary folder with relative paths
#     and a fixed environment (`ci_run`), so that its stack starts at the
#     same address. (`url` kept 467 inputs under `cargo fuzz run`, whose
#     environment names the checkout, in one clone and 495 in another, and
#     483 in a third whose code cargo had laid out in another order.)
# Two runs of one commit keep the same inputs, in any checkout.
#
# explore: time-bounded and seeded at random, to find new crashes. What it
# finds is for a person to minimise and commit, never for CI to stumble on:
#   RUSTC_BOOTSTRAP=1 cargo fuzz tmin <target> <crash-file>
# then add the minimised input to fuzz/make_corpus.py (so the ci mode replays
# it) and a regression test beside the code it broke.
#
# Both modes fuzz from a temporary copy of the seeds (fuzz/corpus is never
# written to), with inputs up to FUZZ_MAX_LEN bytes (64 KiB; libFuzzer's
# default is 4 KiB), and exit non-zero if any target crashes, saying where
# its input is.
#
# The sanitizer (FUZZ_SANITIZER): none in ci, AddressSanitizer in explore.
# The crates fuzzed forbid `unsafe` (Cargo.toml's lints), so what ci looks
# for is a panic, an overflow or a hang, which every build catches; ASan
# would add a check of the dependencies' own unsafe code at a cost of about
# three minutes of CI (an ASan build, and runs four times slower: measured
# 287 s against 98 s for the eight targets, BENCHMARKS.md), which explore
# keeps for the people who run it.
#
# Only a stable toolchain is needed: cargo-fuzz passes nightly-only flags
# (-Zsanitizer=address), which RUSTC_BOOTSTRAP=1 allows.
set -euo pipefail
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
mode=${1:-ci}
# ci and build compile and run through one fixed path, a link to this
# checkout (held under a lock, so two checkouts on one machine take turns):
# cargo hashes the absolute path of the crates outside fuzz/'s own
# workspace (the library, the CLI) into every symbol, code is laid out in
# symbol order, and libFuzzer's tables are indexed by code address, so
# clones at other paths mutated differently from one seed. The fixed path
# and cargo's home are also remapped to short names in what the binaries
# keep of their sources (panic locations).
fixed=/tmp/oauth1-signer-fuzz
if [ "$mode" = ci ] || [ "$mode" = build ]; then
    exec 9>"$fixed.lock"
    flock 9
    ln -sfn "$(cd .. && pwd)" "$fixed"
    fuzz_dir=(--fuzz-dir "$fixed/fuzz")
    root=$fixed
else
    fuzz_dir=()
    root=$(cd .. && pwd)
fi
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }--remap-path-prefix=$root=/oauth1-signer --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
max_len=${FUZZ_MAX_LEN:-65536}
case "$mode" in
ci | build)
    seed=${FUZZ_SEED:-5849}
    sanitizer=${FUZZ_SANITIZER:-none}
    runs=${FUZZ_RUNS:-30000}
    # Address-space randomisation off: libFuzzer indexes its comparison
    # tables by code address, so under ASLR the same seed mutates
    # differently from one run to the next (seen: two runs of one binary
    # kept 1134 and 1120 inputs; without ASLR, 1047 both times).
    norandom=(setarch "$(uname -m)" -R)
    if ! "${norandom[@]}" true; then
        echo "fuzz/run.sh ci: setarch -R (util-linux) cannot turn off ASLR here; without it the runs are not repeatable" >&2
        exit 1
    fi
    ;;
explore)
    seconds=${2:-300}
    sanitizer=${FUZZ_SANITIZER:-address}
    budget=(-max_total_time="$seconds")
    norandom=()
    ;;
*)
    echo "usage: fuzz/run.sh ci | fuzz/run.sh build | fuzz/run.sh explore [SECONDS]" >&2
    exit 2
    ;;
esac

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked --debug

work=$(mktemp -d "${TMPDIR:-/tmp}/oauth1-fuzz.XXXXXX")
failed=()
# The temporary copies go; a crash's input is kept until you have read it.
trap '[ ${#failed[@]} -eq 0 ] && rm -rf "$work"' EXIT

# -timeout is a hang detector only: no input of these targets takes a
# second, so no machine is slow enough for a correct target to reach it.
common=(-max_len="$max_len" -timeout=60 -rss_limit_mb=2048 -print_final_stats=1)

sanitizer=(--sanitizer "$sanitizer")
cargo fuzz build "${fuzz_dir[@]}" "${sanitizer[@]}"
if [ "$mode" = build ]; then
    exit 0
fi
targets=$(cargo fuzz list "${fuzz_dir[@]}")
host=$(rustc -vV | sed -n 's/^host: //p')
mkdir -p "$work/bin"

# ci runs a target's binary as a copy in the temporary folder, from there,
# with paths relative to it and a fixed environment: nothing of this
# checkout's path or of the caller's environment is in its arguments or
# environment, so its stack starts at the same address in any checkout.
ci_run() {
    local target=$1
    shift
    (cd "$work" && "${norandom[@]}" env -i RUST_BACKTRACE=1 "./bin/$target" "$@")
}

printf '\n%-14s %8s %12s %10s  %s\n' target seeds runs corpus result
for target in $targets; do
    mkdir -p "$work/corpus/$target" "$work/artifacts/$target"
    seeds=0
    if [ -d "corpus/$target" ]; then
        cp -R "corpus/$target/." "$work/corpus/$target/"
        seeds=$(find "corpus/$target" -type f | wc -l)
    fi
    log="$work/$target.log"
    result=ok
    if [ "$mode" = ci ]; then
        cp "target/$host/release/$target" "$work/bin/$target"
        # `large` builds inputs of up to 256 KiB from each one: a tenth of the runs.
        target_runs=$runs
        [ "$target" = large ] && target_runs=$((runs / 10))
        artifacts=(-artifact_prefix="artifacts/$target/")
        # The committed seeds first, as files (not a directory): libFuzzer
        # runs each once. Then the seeded run from them.
        if [ "$seeds" -gt 0 ] &&
            ! ci_run "$target" $(cd "$work" && find "corpus/$target" -type f | sort) \
                "${common[@]}" "${artifacts[@]}" >"$work/$target.replay.log" 2>&1; then
            result="CRASH replaying a committed seed"
            log="$work/$target.replay.log"
        elif ! ci_run "$target" "corpus/$target" -seed="$seed" -runs="$target_runs" -reload=0 \
            "${common[@]}" "${artifacts[@]}" >"$log" 2>&1; then
            result="CRASH: $(ls "$work/artifacts/$target/"* 2>/dev/null | head -n 1 || true)"
        fi
    elif ! cargo fuzz run "${sanitizer[@]}" "$target" "$work/corpus/$target" -- \
        "${budget[@]}" "${common[@]}" -artifact_prefix="$work/artifacts/$target/" >"$log" 2>&1; then
        result="CRASH: $(ls "$work/artifacts/$target/"* 2>/dev/null | head -n 1 || true)"
    fi
    [ "$result" = ok ] || failed+=("$target:$log")
    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    printf '%-14s %8s %12s %10s  %s\n' "$target" "$seeds" "${executed:-?}" \
        "$(ls "$work/corpus/$target" | wc -l)" "$result"
done

if [ ${#failed[@]} -gt 0 ]; then
    for entry in "${failed[@]}"; do
        printf '\n=== %s: the end of its log ===\n' "${entry%%:*}"
        grep -v '^#[0-9]' "${entry#*:}" | tail -n 40
    done
    printf '\nInputs and logs are in %s\n' "$work"
    printf 'Minimise one with: RUSTC_BOOTSTRAP=1 cargo fuzz tmin <target> <input>\n'
    exit 1
fi
