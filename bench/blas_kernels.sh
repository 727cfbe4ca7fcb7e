#!/bin/sh
# How much OpenBLAS's kernel choice costs: the paper's workload (angio, 1555 x 10000
# Gaussian A, AccFW with the head model, 50 iterations) and a gemv-bound run of it (FW
# with the top-s model, whose oracle is cheap, 200 iterations), each under the kernel
# OpenBLAS picks on this CPU and under Prescott, the generic kernel it falls back to on a
# CPU it does not know (or under the kernels named). Runs alternate between the kernels;
# one BLAS thread; the table gives medians of the solve time (time_s) and of its gradient
# part (gradient_s, the products with A and A^T), and their ratios to the default's.
#
#   usage: bench/blas_kernels.sh [BUILD_DIR [RUNS [KERNEL...]]]
#          (default: build, 5 runs, Prescott; e.g. `... build 5 Prescott SkylakeX`)
set -eu
build=${1:-build}
runs=${2:-5}
shift $(($# < 2 ? $# : 2))
others=${*:-Prescott}
root=$(cd "$(dirname "$0")/.." && pwd)
gsfw="$build/gsfw"
work=$(mktemp -d "${TMPDIR:-/tmp}/gsfw-kernels-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export OPENBLAS_NUM_THREADS=1

default=$(OPENBLAS_VERBOSE=2 "$gsfw" --version 2>&1 | sed -n 's/^Core: //p' | head -n 1)
if [ -z "$default" ]; then
    echo "blas_kernels: this OpenBLAS cannot switch kernels at run time"; exit 0
fi
echo "OpenBLAS picks $default here; against $others. $(uptime | sed 's/.*load/load/')"

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run_case() { # NAME ARGS...
    name=$1
    shift
    for r in $(seq "$runs"); do
        for k in "$default" $others; do
            out=$(OPENBLAS_CORETYPE=$k "$gsfw" recover --image "$root/data/angio.npy" \
                --ratio 2.5 --out-dir "$work/o" --no-plot "$@")
            echo "$out" | field time_s >>"$work/$name.$k.time"
            echo "$out" | field gradient_s >>"$work/$name.$k.grad"
            rm -rf "$work/o"
        done
    done
    td=$(median <"$work/$name.$default.time")
    gd=$(median <"$work/$name.$default.grad")
    label=$name
    for k in "$default" $others; do
        tk=$(median <"$work/$name.$k.time")
        gk=$(median <"$work/$name.$k.grad")
        awk -v n="$label" -v k="$k" -v t="$tk" -v g="$gk" -v td="$td" -v gd="$gd" 'BEGIN {
            printf "%-34s %-9s time_s %7.3f (x%.2f)  gradient_s %7.3f (x%.2f)\n", n, k, t,
                t / td, g, g / gd }'
        label=""
    done
}

echo "case (median of $runs alternated runs)  kernel"
run_case "angio accfw head, 50 iterations" --iters 50
run_case "angio fw topk, 200 iterations" --method fw --model topk --iters 200 --polish off
