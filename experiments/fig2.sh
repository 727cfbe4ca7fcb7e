#!/bin/sh
# Reproduce the paper's Fig. 2 (k-support-norm delta experiment): CSV, summary table, PNG.
#   usage: experiments/fig2.sh [BUILD_DIR] [OUT_DIR] [extra fig2_ksupport flags]
set -eu
build=${1:-build}
out=${2:-results/fig2}
[ $# -ge 2 ] && shift 2 || shift $#
mkdir -p "$out"
"$build/fig2_ksupport" --out-dir "$out" "$@"
gnuplot -e "dir='$out'" "$(dirname "$0")/fig2.gp"
echo "wrote $out/fig2.png"
