#!/bin/sh
# Per-iteration time of gsfw-mpi solve (fw) on K ranks predicted from measured terms:
#   T(K) = gemv * n * d / K                      local products (one gemv-sized pass)
#        + 2 ceil(log2 K) alpha + 2 * 8 d / beta  reduction of the d-vector (reduce + bcast)
#        + oracle                                 the DMO, same time on every rank
#   usage: sh bench/mpi_cost_model.sh GEMV_NS_PER_ENTRY ORACLE_MS D N...
# The networks: 10 Gb/s Ethernet (alpha = 20 us, beta = 1.25 GB/s) and 100 Gb/s
# (alpha = 2 us, beta = 12.5 GB/s). Prints the K where the oracle overtakes the products.
set -eu
GEMV=$1
ORACLE=$2
D=$3
shift 3
for N in "$@"; do
    echo "n = $N, d = $D, gemv $GEMV ns/entry, oracle $ORACLE ms"
    printf '%6s %12s %14s %14s %12s %12s\n' K local_ms red10_ms red100_ms iter10_ms iter100_ms
    for K in 16 32 64 128 256; do
        awk -v g="$GEMV" -v o="$ORACLE" -v d="$D" -v n="$N" -v k="$K" 'BEGIN {
            l = 0; for (p = 1; p < k; p *= 2) l++
            loc = g * 1e-6 * n * d / k
            r10 = 2 * l * 0.020 + 2 * 8 * d / 1.25e9 * 1e3
            r100 = 2 * l * 0.002 + 2 * 8 * d / 12.5e9 * 1e3
            printf "%6d %12.3f %14.3f %14.3f %12.3f %12.3f\n", k, loc, r10, r100, loc + r10 + o, loc + r100 + o }'
    done
    awk -v g="$GEMV" -v o="$ORACLE" -v d="$D" -v n="$N" 'BEGIN {
        printf "the oracle exceeds the local products from K = %.0f\n\n", g * 1e-6 * n * d / o }'
done
