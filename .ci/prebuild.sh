#!/usr/bin/env bash
# What CI builds for its last two steps that shares nothing with the steps
# in between: the two tools it installs from crates.io when they are missing
# (wasm-bindgen-cli, cargo-fuzz: debug builds, each in a temporary target
# dir) and the fuzz targets (fuzz/target). `.ci/run` starts this in the
# background under SCHED_IDLE once the test build is done, so that these
# builds take a core only when the steps' own work leaves one idle: the test
# binaries and the browser tests keep about one of two cores busy
# (BENCHMARKS.md, "CI on a fresh machine"). Nothing is built differently:
# the same commands, in the same environment, as the steps ran them before;
# each step that needs one waits for it, and runs its own command again (a
# no-op when this built it).
#
# The tools are debug builds because their work here is small: wasm-bindgen
# writes the page's files in 0.2 s, byte for byte what its release build
# writes (51 s to build instead of 107).
#
# Built in the order the steps need them; each done marks a file in $1, and a
# failure marks `failed` there (the step that waits prints this script's log).
set -uo pipefail
cd "$(dirname "$0")/.."
done_dir=$1
mark() { touch "$done_dir/$1"; }
# What the kernel schedules it at (SCHED_IDLE, in .ci/run's autogroup).
echo "prebuild: $(chrt -p $$ 2>/dev/null | sed -n 's/.*scheduling policy: //p'), nice $(nice), autogroup $(cat /proc/self/autogroup 2>/dev/null || echo none)"
{
    bash .ci/web.sh tools && mark wasm-bindgen &&
        fuzz/run.sh build && mark fuzz
} || mark failed
