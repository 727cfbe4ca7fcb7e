#!/bin/sh
# Reliability figures of the gsfw CLI (docs/reliability.md): tests/reliability.sh, which
# `make test` runs too, plus ROUNDS signals sent at random times into runs.
#
#   scripts/reliability.sh [BUILD_DIR] [ROUNDS]     (defaults: build, 50)
#   GSFW=/path/to/other/gsfw scripts/reliability.sh  # check another build's tool
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
hook=$(ls "$build"/libgsfw_move_hook.so 2>/dev/null || true)
if [ -z "$hook" ]; then
    echo "reliability: $build/libgsfw_move_hook.so is missing; build first:" >&2
    echo "  cmake -S . -B $build && cmake --build $build" >&2
    exit 2
fi
ROUNDS=${2:-50} OPENBLAS_NUM_THREADS=1 sh "$root/tests/reliability.sh" \
    "${GSFW:-$(cd "$build" && pwd)/gsfw}" "$(cd "$build" && pwd)/libgsfw_move_hook.so" "$root"
