#!/usr/bin/env bash
# Untrusted input as processes (README, "Untrusted input"): writes the fuzz test's mutated
# scenarios and saves to a directory, then runs every one through the program's commands
# (check, run, preview and replay) with a time limit and a memory cap, and counts what
# happened: a clean exit or a reported error is fine; a panic, a crash, a run over the
# time limit or one killed for memory is listed with the command that reproduces it.
# Not part of `cargo test` (it takes minutes).
#
#   bench/fuzz-sweep.sh                     about a thousand scenarios and 240 saves
#   SKIRMISH_FUZZ_CASES=10 bench/fuzz-sweep.sh   ten times as many
#   SWEEP_TIMEOUT=10 SWEEP_MEMORY_MB=4096   the limits (these are the defaults)
#   SWEEP_DIR=/tmp/sweep                    where the files go (default: target/fuzz-sweep)
#   SKIRMISH_BIN=path                       a binary to run instead of building one
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${SWEEP_DIR:-target/fuzz-sweep}
limit=${SWEEP_TIMEOUT:-10}
memory_mb=${SWEEP_MEMORY_MB:-4096}
if [ -z "${SKIRMISH_BIN:-}" ]; then
    cargo build --release --quiet
    SKIRMISH_BIN="${CARGO_TARGET_DIR:-target}/release/skirmish"
fi
rm -rf "$dir"
mkdir -p "$dir"
echo "writing the mutated files to $dir"
SKIRMISH_FUZZ_KEEP="$dir" cargo test --quiet --test integration fuzz > /dev/null

declare -A seen=()
bad=0
total=0
# Runs one command on one file; exit 0 or the program's error exit (1, 2) is fine.
try() {
    local status=0
    (ulimit -v $((memory_mb * 1024)); timeout "$limit" "$SKIRMISH_BIN" "$@" > /dev/null 2>&1) || status=$?
    total=$((total + 1))
    local kind
    case $status in
        0 | 1 | 2) seen[fine]=$(( ${seen[fine]:-0} + 1 )); return ;;
        124) kind="over ${limit} s" ;;
        101) kind="panic" ;;
        134) kind="abort (memory?)" ;;
        137) kind="killed" ;;
        *) kind="exit $status" ;;
    esac
    seen[$kind]=$(( ${seen[$kind]:-0} + 1 ))
    bad=$((bad + 1))
    echo "$kind: $SKIRMISH_BIN $*"
}

for f in "$dir"/scenario-*.ron; do
    try check "$f"
    try run "$f" --seed 1
    try preview "$f" --runs 5 --seed 1 --threads 1
done
for f in "$dir"/save-*.ron; do
    try replay "$f"
    try replay "$f" --finish
done
echo
echo "$total runs, limits ${limit} s and ${memory_mb} MB:"
for k in "${!seen[@]}"; do
    echo "  $k: ${seen[$k]}"
done
[ "$bad" -eq 0 ]
