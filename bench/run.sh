#!/bin/sh
# Run every benchmark (not tests: they report timings measured side by side in one run).
set -eu
build=${1:-build}
for b in "$build"/bench_*; do
    [ -x "$b" ] || continue
    echo "== $(basename "$b")"
    "$b"
done
