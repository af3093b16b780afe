#!/usr/bin/env bash
# The preview benchmark quoted in the README ("Preview speed"): for every shipped scenario
# (or those named), `skirmish preview` in release mode on one thread and on every core, and
# a table of battles a second, microseconds per unit turn (one thread: the preview's own
# seconds over its battles times their mean unit turns) and the peak memory of the
# one-thread run. Not a test: timings depend on the machine.
#
#   bench/preview.sh                          every shipped scenario, 2,000 battles each
#   bench/preview.sh gurps-brawl gurps-duel   these scenarios (names in scenarios/)
#   RUNS=10000 bench/preview.sh               more battles a run
#   SKIRMISH_BIN=path bench/preview.sh        a binary to time instead of building one
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-2000}
if [ -z "${SKIRMISH_BIN:-}" ]; then
    cargo build --release --quiet
    SKIRMISH_BIN="${CARGO_TARGET_DIR:-target}/release/skirmish"
fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for f in scenarios/*.ron; do names+=("$(basename "$f" .ron)"); done
fi
cores=$(nproc)
rss=$(mktemp)
trap 'rm -f "$rss"' EXIT

# A top-level number of the preview's JSON.
field() { grep -m1 "^  \"$1\":" | sed 's/.*: *\([0-9.e+-]*\).*/\1/'; }

printf '%-28s %7s %12s %12s %12s %9s\n' scenario battles "1 thread/s" "${cores} cores/s" "us/unit-turn" "peak MB"
for name in "${names[@]}"; do
    file="scenarios/$name.ron"
    one=$(/usr/bin/time -f '%M' -o "$rss" "$SKIRMISH_BIN" preview "$file" --runs "$runs" --seed 1 --threads 1 --json 2>/dev/null)
    peak_kb=$(tail -1 "$rss")
    all=$("$SKIRMISH_BIN" preview "$file" --runs "$runs" --seed 1 --threads "$cores" --json 2>/dev/null)
    s1=$(field seconds <<<"$one")
    turns=$(field unit_turns <<<"$one")
    sn=$(field seconds <<<"$all")
    awk -v n="$name" -v r="$runs" -v s1="$s1" -v sn="$sn" -v t="$turns" -v kb="$peak_kb" 'BEGIN {
        per = (t > 0) ? sprintf("%.2f", s1 * 1e6 / (r * t)) : "-";
        printf "%-28s %7d %12.0f %12.0f %12s %9.1f\n", n, r, r / s1, r / sn, per, kb / 1024
    }'
done
