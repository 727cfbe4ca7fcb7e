#!/bin/sh
# Per-iteration cost of gsfw-mpi solve split into local products, the reduction and the
# oracle, at 1 and 2 ranks, for the oracle on every rank (--oracle all) and on rank 0
# with the support broadcast (--oracle root). docs/mpi.md quotes its output.
#   usage: sh bench/mpi_scaling.sh [BUILD_DIR] [N] [SIDE] [ITERS]
# A is N x SIDE^2 (N(0, 1/N) entries, streamed to a .npy in a temporary directory); the
# graph model is the SIDE x SIDE grid. Needs mpirun (Debian: openmpi-bin).
set -eu
BUILD=${1:-build}
N=${2:-6000}
SIDE=${3:-64}
ITERS=${4:-100}
D=$((SIDE * SIDE))
BUILD=$(cd "$BUILD" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
"$BUILD/mpi_test_tool" gen-big "$N" "$D" 11 "$tmp/A.npy" "$tmp/y.npy"
echo "A: $N x $D ($(($N * $D * 8 / 1000000)) MB), fw, $ITERS iterations, s = 50"
printf '%-8s %-6s %-6s %10s %10s %10s %10s %10s\n' model ranks oracle "iter_ms" \
    "local_ms" "reduce_ms" "oracle_ms" "other_ms"
for model in topk head; do
    for K in 1 2; do
        for where in all root; do
            line=$(mpirun --allow-run-as-root --oversubscribe -np $K "$BUILD/gsfw-mpi" solve \
                --A "$tmp/A.npy" --y "$tmp/y.npy" --model $model --s 50 --g 1 \
                $( [ $model = head ] && echo "--graph grid:${SIDE}x${SIDE}" ) --C 5 \
                --method fw --iters "$ITERS" --oracle $where)
            echo "$line" | awk -v m=$model -v k=$K -v w=$where '{
                for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                it = v["iters"] + 1
                t = v["time_s"] * 1000 / it; g = v["gradient_s"] * 1000 / it
                r = v["reduce_s"] * 1000 / it; o = v["oracle_s"] * 1000 / it
                printf "%-8s %-6s %-6s %10.3f %10.3f %10.3f %10.3f %10.3f\n", m, k, w, t, g - r, r, o, t - g - o }'
        done
    done
done
