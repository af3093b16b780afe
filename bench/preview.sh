#!/usr/bin/env bash
# The preview benchmark quoted in the README: 10,000 battles of the 3-vs-3 demo in release
# mode, using every core. Prints the wall time of each of three runs (hyperfine is used if
# installed). Not a test: timings depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/skirmish"
args=(preview scenarios/gurps-skirmish-3v3.ron --runs 10000 --seed 1)
if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --warmup 1 --runs 5 "$bin ${args[*]}"
else
    for i in 1 2 3; do
        start=$(date +%s%N)
        "$bin" "${args[@]}" > /dev/null
        end=$(date +%s%N)
        ms=$(( (end - start) / 1000000 ))
        printf 'run %d: %d.%03d s wall\n' "$i" $((ms / 1000)) $((ms % 1000))
    done
fi
"$bin" "${args[@]}" | head -1
