#!/bin/sh
# Reliability figures of the gsfw CLI: memory refusals, signals during the solve and at
# every step of the final output move, SIGKILL leftovers, concurrent runs, hostile-input
# messages, plus ROUNDS signals sent at random times (docs/reliability.md).
#
#   scripts/reliability.sh [BUILD_DIR] [ROUNDS]     (defaults: build, 50)
#   GSFW_RELIABILITY_BIN=/path/to/other/gsfw scripts/reliability.sh   # check another build
#
# The cases without random rounds also run in `make test` (ctest test_reliability).
set -eu
build=${1:-build}
rounds=${2:-50}
if [ ! -x "$build/test_reliability" ]; then
    echo "reliability: $build/test_reliability is missing; build first:" >&2
    echo "  cmake -S . -B $build && cmake --build $build" >&2
    exit 2
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
GSFW_RELIABILITY_ROUNDS=$rounds OPENBLAS_NUM_THREADS=1 "$build/test_reliability" >"$log" 2>&1 || status=$?
# failures in full, then the figures
grep -E '^(ERROR|round [0-9]+:)|\[  (FAILED|ERROR)   \]' "$log" || true
grep -E '^(random signals|reliability figures)' "$log"
exit $status
