#!/usr/bin/env bash
# The window benchmark quoted in the README: frame times of the 24-fighter brawl and of a
# 60 x 60 map with 200 fighters (bench/gurps-200.ron), the AI playing every side, at
# 1280 x 720. Without a display it runs under xvfb-run (software rendering with Debian's
# mesa-vulkan-drivers). Prints mean, p95 and max frame time over 300 frames (the first ten
# left out) and the time from start to the first frame. Not a test: timings depend on the
# machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/skirmish"
run() {
    if [ -z "${DISPLAY:-}" ]; then
        xvfb-run -a -s '-screen 0 1280x720x24' "$bin" "$@"
    else
        "$bin" "$@"
    fi
}
for scenario in scenarios/gurps-brawl.ron bench/gurps-200.ron; do
    printf '%s: ' "$scenario"
    run --scenario "$scenario" --seed 1 --autoplay --frame-stats --frames 300 2>/dev/null | grep frames
done
