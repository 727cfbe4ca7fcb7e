/* The preferential-attachment networks of bench_pcsf --graph network, shared with the
 * test that checks the PCSF against pcst_fast's outputs on one of them
 * (tests/test_pcsf_reference.c), so that both run the same instance. */
#ifndef GSFW_BENCH_PA_NETWORK_H
#define GSFW_BENCH_PA_NETWORK_H

#include <stddef.h>
#include <stdint.h>

#include "util/splitmix.h"

/* Edges of a network on n >= 3 nodes, m = 2n - 3: the triangle 0-1, 0-2, 1-2, then each
 * node v = 3..n-1 joins two distinct earlier nodes, each drawn with probability
 * proportional to its degree (a uniform draw from the list of edge endpoints so far,
 * splitmix64 seed 20220103, a repeated pick drawn again), as edges (target, v) in the
 * order drawn. Costs 0.5 + U[0,1) in edge order (splitmix64 seed 20220102). ends:
 * scratch of 2m ints. */
static inline void gsfw_pa_network(int n, int *eu, int *ev, double *costs, int *ends)
{
    uint64_t st = 20220103ULL;
    const int tri[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    int e = 0;
    size_t len = 0;
    for (int k = 0; k < 3; k++) {
        eu[e] = tri[k][0];
        ev[e++] = tri[k][1];
        ends[len++] = tri[k][0];
        ends[len++] = tri[k][1];
    }
    for (int v = 3; v < n; v++) {
        int first = -1;
        for (int k = 0; k < 2; k++) {
            int t;
            do {
                t = ends[(size_t)(gsfw_splitmix_uniform(&st) * (double)len)];
            } while (t == first);
            first = t;
            eu[e] = t;
            ev[e++] = v;
        }
        for (int k = e - 2; k < e; k++) {
            ends[len++] = eu[k];
            ends[len++] = ev[k];
        }
    }
    uint64_t sc = 20220102ULL;
    for (int k = 0; k < e; k++) costs[k] = 0.5 + gsfw_splitmix_uniform(&sc);
}

#endif
