#!/bin/sh
# `make demo`: the main job on the bundled data.
set -eu
build=${1:-build}
sh "$(dirname "$0")/fig2.sh" "$build" results/fig2
cat results/fig2/fig2_summary.md
