#!/usr/bin/env bash
# Preview speed of two revisions, for a change that must not slow the simulation: builds
# both in release mode (git worktrees under $TMPDIR sharing one target directory, so the
# dependencies build once), then for every shipped scenario runs `preview --threads 1`
# with the old and the new binary alternately, three times each, and prints the median
# wall time of each and the change.
# Usage: bash bench/compare.sh OLD_REV [NEW_REV] [RUNS] (defaults: HEAD, 300 battles).
# Set CARGO_TARGET_DIR to reuse a release build, or SKIRMISH_OLD_BIN and SKIRMISH_NEW_BIN to
# time two binaries built already (the revisions are then only labels). Not a test: timings
# depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
old_rev="${1:?usage: bash bench/compare.sh OLD_REV [NEW_REV] [RUNS]}"
new_rev="${2:-HEAD}"
runs="${3:-300}"
root="${TMPDIR:-/tmp}/skirmish-compare"
target="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$root"
build() {
    local rev="$1" name="$2"
    rm -rf "${root:?}/$name"
    git worktree prune
    git worktree add --detach --force "$root/$name" "$rev" > /dev/null
    (cd "$root/$name" && CARGO_TARGET_DIR="$target" cargo build --release --quiet)
    cp "$target/release/skirmish" "$root/skirmish-$name"
    echo "$root/skirmish-$name"
}
old_bin="${SKIRMISH_OLD_BIN:-}"
new_bin="${SKIRMISH_NEW_BIN:-}"
[ -n "$old_bin" ] || old_bin=$(build "$old_rev" old)
[ -n "$new_bin" ] || new_bin=$(build "$new_rev" new)
time_ms() {
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
}
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
printf '%-36s %10s %10s %8s\n' "scenario ($runs battles)" "old ms" "new ms" "change"
for scenario in scenarios/*.ron; do
    olds=() news=()
    for _ in 1 2 3; do
        olds+=("$(time_ms "$old_bin" preview "$scenario" --runs "$runs" --seed 1 --threads 1)")
        news+=("$(time_ms "$new_bin" preview "$scenario" --runs "$runs" --seed 1 --threads 1)")
    done
    o=$(median "${olds[@]}")
    n=$(median "${news[@]}")
    awk -v s="$(basename "$scenario")" -v o="$o" -v n="$n" \
        'BEGIN { printf "%-36s %10d %10d %+7.1f%%\n", s, o, n, (n - o) * 100 / o }'
done
