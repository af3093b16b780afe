#!/usr/bin/env bash
# The window benchmark quoted in the README: frame times of the 24-fighter brawl and of a
# 60 x 60 map with 200 fighters (bench/gurps-200.ron), the AI playing every side, at
# 1280 x 720, with software rendering (Debian's mesa-vulkan-drivers, no GPU needed).
#
# Two displays, each started here and stopped afterwards:
#   x11      Xvfb (package xvfb). Xvfb has no DRI3, so Mesa's software Vulkan sends every
#            frame to it through the X socket (3.7 MB a frame at 1280 x 720).
#   wayland  Weston's headless compositor (1600 x 900, so that the whole window and its
#            decorations are on screen) with its pixman renderer (package weston), which
#            takes frames in shared memory, as a desktop compositor does. The flags are
#            Weston 10's (Debian 12); later Weston spells them --backend=headless
#            --renderer=pixman.
# Usage: bash bench/gui.sh [x11|wayland|both] (default both). Builds with the `wayland`
# feature, so that one binary serves both displays. Prints, per scenario and display, the
# mean, median, p95 and max frame time over 300 frames (the first ten left out) and the
# time from start to the first frame. Not a test: timings depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-both}"
case "$which" in
    x11 | wayland | both) ;;
    *)
        echo "usage: bash bench/gui.sh [x11|wayland|both]" >&2
        exit 2
        ;;
esac
cargo build --release --quiet --features wayland
bin="${CARGO_TARGET_DIR:-target}/release/skirmish"
scenarios=(scenarios/gurps-brawl.ron bench/gurps-200.ron)
args=(--seed 1 --autoplay --frame-stats --frames 300)

if [ "$which" = x11 ] || [ "$which" = both ]; then
    if command -v xvfb-run > /dev/null; then
        for scenario in "${scenarios[@]}"; do
            printf 'x11 (Xvfb)       %s: ' "$scenario"
            env -u WAYLAND_DISPLAY xvfb-run -a -s '-screen 0 1280x720x24' \
                "$bin" --scenario "$scenario" "${args[@]}" 2> /dev/null | grep frames
        done
    else
        echo "x11: xvfb-run not found (apt-get install -y xvfb xauth mesa-vulkan-drivers)"
    fi
fi

if [ "$which" = wayland ] || [ "$which" = both ]; then
    if command -v weston > /dev/null; then
        runtime="$(mktemp -d)"
        chmod 700 "$runtime"
        socket="skirmish-bench-$$"
        XDG_RUNTIME_DIR="$runtime" weston --backend=headless-backend.so --use-pixman \
            --width=1600 --height=900 --idle-time=0 \
            --socket="$socket" > "$runtime/weston.log" 2>&1 &
        weston_pid=$!
        trap 'kill "$weston_pid" 2> /dev/null || true; wait "$weston_pid" 2> /dev/null || true; rm -rf "$runtime"' EXIT
        for _ in $(seq 50); do
            [ -S "$runtime/$socket" ] && break
            sleep 0.1
        done
        if [ ! -S "$runtime/$socket" ]; then
            echo "wayland: Weston did not start:" >&2
            cat "$runtime/weston.log" >&2
            exit 1
        fi
        for scenario in "${scenarios[@]}"; do
            printf 'wayland (Weston) %s: ' "$scenario"
            env -u DISPLAY XDG_RUNTIME_DIR="$runtime" WAYLAND_DISPLAY="$socket" \
                "$bin" --scenario "$scenario" "${args[@]}" 2> /dev/null | grep frames
        done
    else
        echo "wayland: weston not found (apt-get install -y weston mesa-vulkan-drivers)"
    fi
fi
