#!/usr/bin/env bash
# Runs every fuzz target briefly (FUZZ_SECONDS each, 25 by default), from a
# temporary copy of its seed corpus (fuzz/corpus/<target>, never written to),
# with inputs up to FUZZ_MAX_LEN bytes (64 KiB; libFuzzer's default is 4 KiB).
# Exits non-zero if any target crashes, and says where its input is.
#
# Only a stable toolchain is needed: cargo-fuzz passes nightly-only flags
# (-Zsanitizer=address), which RUSTC_BOOTSTRAP=1 allows.
set -euo pipefail
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
seconds=${FUZZ_SECONDS:-25}
max_len=${FUZZ_MAX_LEN:-65536}

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

work=$(mktemp -d "${TMPDIR:-/tmp}/oauth1-fuzz.XXXXXX")
failed=()
# The temporary copies go; a crash's input is kept until you have read it.
trap '[ ${#failed[@]} -eq 0 ] && rm -rf "$work"' EXIT

cargo fuzz build
targets=$(cargo fuzz list)
printf '\n%-14s %12s %8s %10s  %s\n' target runs exec/s corpus result
for target in $targets; do
    mkdir -p "$work/corpus/$target" "$work/artifacts/$target"
    if [ -d "corpus/$target" ]; then
        cp -R "corpus/$target/." "$work/corpus/$target/"
    fi
    log="$work/$target.log"
    if cargo fuzz run "$target" "$work/corpus/$target" -- \
        -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$target/" >"$log" 2>&1; then
        result=ok
    else
        result="CRASH: $(ls "$work/artifacts/$target/"* 2>/dev/null | head -n 1 || true)"
        failed+=("$target")
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    printf '%-14s %12s %8s %10s  %s\n' "$target" "${runs:-?}" "${speed:-?}" \
        "$(ls "$work/corpus/$target" | wc -l)" "$result"
done

if [ ${#failed[@]} -gt 0 ]; then
    for target in "${failed[@]}"; do
        printf '\n=== %s: the end of its log ===\n' "$target"
        grep -v '^#[0-9]' "$work/$target.log" | tail -n 40
    done
    printf '\nInputs and logs are in %s\n' "$work"
    printf 'Minimise one with: RUSTC_BOOTSTRAP=1 cargo fuzz tmin <target> <input>\n'
    exit 1
fi
