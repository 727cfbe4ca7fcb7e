/* PCSF tests: hand-checked instances, the Goemans-Williamson guarantee against brute
 * force, input validation, the livelock instance and workspace reuse. The outputs of
 * pcst_fast itself are checked in test_pcsf_reference.c, the pairing heap in
 * test_pcsf_heap.c, the event queue in test_pcsf_queue.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsfw.h"
#include "graph/graph_internal.h" /* the graph's fields */
#include "util/splitmix.h"
#include "oracles/pcsf/pcsf_internal.h"

/* ------------------------------------------------------------------ helpers */

static uint64_t rng_next(uint64_t *s) { return gsfw_splitmix64(s); }
static double rng_unif(uint64_t *s) { return gsfw_splitmix_uniform(s); }
static int rng_int(uint64_t *s, int n) { return (int)(rng_next(s) % (uint64_t)n); }

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

typedef struct {
    int n, m;
    int u[64], v[64];
    double cost[64];
    double prize[32];
    int root, target;
    gsfw_pruning pruning;
} inst;

typedef struct {
    int nodes[64], edges[64];
    int nn, ne;
} result;

static gsfw_error run_inst(gsfw_pcsf *ws, const inst *I, result *R, gsfw_err *err)
{
    gsfw_error rc = gsfw_pcsf_run(ws, I->n, I->m, I->u, I->v, I->prize, I->cost, I->root,
                                  I->target, I->pruning, R->nodes, &R->nn, R->edges, &R->ne, err);
    qsort(R->nodes, (size_t)R->nn, sizeof(int), cmp_int);
    qsort(R->edges, (size_t)R->ne, sizeof(int), cmp_int);
    return rc;
}

static void expect_ids(const int *got, int ngot, const int *want, int nwant, const char *what)
{
    int ok = ngot == nwant;
    for (int i = 0; ok && i < ngot; i++) ok = got[i] == want[i];
    if (!ok) {
        fprintf(stderr, "%s: got", what);
        for (int i = 0; i < ngot; i++) fprintf(stderr, " %d", got[i]);
        fprintf(stderr, "; expected");
        for (int i = 0; i < nwant; i++) fprintf(stderr, " %d", want[i]);
        fprintf(stderr, "\n");
    }
    assert_true(ok);
}

/* ------------------------------------------------------- hand-checked */

static void check_all_prunings(gsfw_pcsf *ws, inst *I, const int *wn, int nwn, const int *we,
                               int nwe, int skip_none)
{
    for (int p = skip_none ? 1 : 0; p <= GSFW_PRUNING_STRONG; p++) {
        result R;
        gsfw_err err;
        I->pruning = (gsfw_pruning)p;
        assert_int_equal(run_inst(ws, I, &R, &err), GSFW_OK);
        expect_ids(R.nodes, R.nn, wn, nwn, "nodes");
        expect_ids(R.edges, R.ne, we, nwe, "edges");
    }
}

static void test_hand_checked(void **state)
{
    (void)state;
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);

    /* All prizes 0 on the path 0-1-2-3: every singleton deactivates at t = 0 in id order
     * (deactivations win ties, smaller ids first), the last one survives. */
    inst I = {.n = 4, .m = 3, .u = {0, 1, 2}, .v = {1, 2, 3}, .cost = {1, 1, 1},
              .prize = {0, 0, 0, 0}, .root = -1, .target = 1};
    check_all_prunings(ws, &I, (int[]){3}, 1, NULL, 0, 0);

    /* Two identical components {0,1}, {2,3} (prizes 5, cost 1), g = 1: both pairs merge
     * at t = 0.5 into clusters 4 and 5, both deactivate at 9.5, cluster 4 goes first. */
    inst T = {.n = 4, .m = 2, .u = {0, 2}, .v = {1, 3}, .cost = {1, 1},
              .prize = {5, 5, 5, 5}, .root = -1, .target = 1};
    check_all_prunings(ws, &T, (int[]){2, 3}, 2, (int[]){1}, 1, 1);
    T.pruning = GSFW_PRUNING_NONE; /* none keeps the dead tree's edge */
    result R;
    assert_int_equal(run_inst(ws, &T, &R, NULL), GSFW_OK);
    expect_ids(R.nodes, R.nn, (int[]){0, 1, 2, 3}, 4, "none nodes");
    expect_ids(R.edges, R.ne, (int[]){0, 1}, 2, "none edges");
    /* g = 3: the first edge event (cluster 0 wins the tie at 0.5) merges {0,1}. */
    T.target = 3;
    check_all_prunings(ws, &T, (int[]){0, 1, 2, 3}, 4, (int[]){0}, 1, 0);
    /* g >= n: nothing happens, all nodes, no edges. */
    T.target = 4;
    check_all_prunings(ws, &T, (int[]){0, 1, 2, 3}, 4, NULL, 0, 0);
    T.target = 9;
    check_all_prunings(ws, &T, (int[]){0, 1, 2, 3}, 4, NULL, 0, 0);
    /* g = 0 unrooted: everything dies, empty output after pruning. */
    T.target = 0;
    check_all_prunings(ws, &T, NULL, 0, NULL, 0, 1);

    /* No edges: the g singletons that deactivate last (largest prizes; ties -> larger id). */
    inst S = {.n = 5, .m = 0, .prize = {3, 1, 4, 1, 4}, .root = -1, .target = 2};
    check_all_prunings(ws, &S, (int[]){2, 4}, 2, NULL, 0, 0);

    /* Rooted path 0(root) - 1 - 2, prizes (0, 1, 10), costs (5, 1): {1,2} merge at 0.5,
     * reach the root at t = 5 < deactivation 10.5: everything is kept by every pruning. */
    inst P = {.n = 3, .m = 2, .u = {0, 1}, .v = {1, 2}, .cost = {5, 1}, .prize = {0, 1, 10},
              .root = 0, .target = 0};
    check_all_prunings(ws, &P, (int[]){0, 1, 2}, 3, (int[]){0, 1}, 2, 0);

    /* Rooted 0(root) - 1 (cost 2), 1 - 2 (cost 4), prizes (0, 3, 1): node 2 dies at t = 1,
     * node 1 reaches the root at t = 2 (its edge to 2 fires first at t = 2 by the heap
     * tie rule and is re-scheduled to t = 3). */
    inst Q = {.n = 3, .m = 2, .u = {0, 1}, .v = {1, 2}, .cost = {2, 4}, .prize = {0, 3, 1},
              .root = 0, .target = 0};
    check_all_prunings(ws, &Q, (int[]){0, 1}, 2, (int[]){0}, 1, 0);

    /* Strong pruning removes a subtree of net value exactly 0, GW keeps it when it was
     * needed: star centre 0 (prize 10), leaves 1 (prize 2, cost 2) and 2 (prize 20,
     * cost 1), unrooted g = 1. */
    inst Z = {.n = 3, .m = 2, .u = {0, 0}, .v = {1, 2}, .cost = {2, 1}, .prize = {10, 2, 20},
              .root = -1, .target = 1, .pruning = GSFW_PRUNING_STRONG};
    assert_int_equal(run_inst(ws, &Z, &R, NULL), GSFW_OK);
    expect_ids(R.nodes, R.nn, (int[]){0, 2}, 2, "strong zero-net nodes");
    expect_ids(R.edges, R.ne, (int[]){1}, 1, "strong zero-net edges");

    /* Self-loops and parallel edges are harmless; zero-cost edges merge at once. */
    inst L = {.n = 3, .m = 4, .u = {0, 0, 0, 1}, .v = {0, 1, 1, 2}, .cost = {1, 3, 2, 0},
              .prize = {4, 4, 0}, .root = -1, .target = 1, .pruning = GSFW_PRUNING_GW};
    assert_int_equal(run_inst(ws, &L, &R, NULL), GSFW_OK);
    expect_ids(R.nodes, R.nn, (int[]){0, 1}, 2, "multigraph nodes");
    expect_ids(R.edges, R.ne, (int[]){2}, 1, "multigraph edges");
    gsfw_pcsf_free(ws);
}

/* ------------------------------------------- GW guarantee vs brute force */

/* Minimum spanning tree cost of the subgraph induced by mask (Prim, tiny graphs);
 * INFINITY when disconnected. */
static double mst_cost(const inst *I, unsigned mask)
{
    double best[32];
    int in[32] = {0};
    int first = -1, k = 0;
    for (int i = 0; i < I->n; i++) {
        best[i] = INFINITY;
        if (mask >> i & 1) {
            k++;
            if (first < 0) first = i;
        }
    }
    if (k <= 1) return 0.0;
    best[first] = 0.0;
    double total = 0.0;
    for (int it = 0; it < k; it++) {
        int x = -1;
        for (int i = 0; i < I->n; i++)
            if ((mask >> i & 1) && !in[i] && (x < 0 || best[i] < best[x])) x = i;
        if (!isfinite(best[x])) return INFINITY;
        in[x] = 1;
        total += best[x];
        for (int e = 0; e < I->m; e++) {
            int y = I->u[e] == x ? I->v[e] : I->v[e] == x ? I->u[e] : -1;
            if (y >= 0 && (mask >> y & 1) && !in[y] && I->cost[e] < best[y]) best[y] = I->cost[e];
        }
    }
    return total;
}

static void test_gw_guarantee(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    for (int trial = 0; trial < 400; trial++) {
        inst I;
        memset(&I, 0, sizeof I);
        I.n = 2 + rng_int(&seed, 7); /* 2..8 nodes */
        I.root = rng_int(&seed, I.n);
        I.target = 0;
        I.pruning = GSFW_PRUNING_GW;
        for (int i = 0; i < I.n; i++)
            I.prize[i] = rng_int(&seed, 4) == 0 ? 0.0 : floor(10 * rng_unif(&seed) * 4) / 4;
        int m = 0;
        for (int a = 0; a < I.n; a++)
            for (int b = a + 1; b < I.n; b++)
                if (rng_unif(&seed) < 0.5) {
                    I.u[m] = a;
                    I.v[m] = b;
                    I.cost[m] = rng_int(&seed, 8) == 0 ? 0.0 : floor(1 + 12 * rng_unif(&seed)) / 2;
                    m++;
                }
        I.m = m;
        result R;
        gsfw_err err;
        assert_int_equal(run_inst(ws, &I, &R, &err), GSFW_OK);
        /* output: a tree containing the root */
        unsigned out = 0;
        double value = 0.0, total_prize = 0.0;
        for (int i = 0; i < R.nn; i++) out |= 1u << R.nodes[i];
        assert_true(out >> I.root & 1);
        assert_int_equal(R.ne, R.nn - 1);
        for (int i = 0; i < R.ne; i++) {
            value += I.cost[R.edges[i]];
            assert_true(out >> I.u[R.edges[i]] & 1);
            assert_true(out >> I.v[R.edges[i]] & 1);
        }
        for (int i = 0; i < I.n; i++) {
            total_prize += I.prize[i];
            if (!(out >> i & 1)) value += I.prize[i];
        }
        double opt = INFINITY;
        for (unsigned mask = 0; mask < (1u << I.n); mask++) {
            if (!(mask >> I.root & 1)) continue;
            double c = mst_cost(&I, mask);
            if (!isfinite(c)) continue;
            for (int i = 0; i < I.n; i++)
                if (!(mask >> i & 1)) c += I.prize[i];
            if (c < opt) opt = c;
        }
        assert_true(opt <= total_prize + 1e-12);
        if (value > 2 * opt + 1e-9) {
            fprintf(stderr, "trial %d: GW value %g > 2 x optimum %g\n", trial, value, opt);
            fail();
        }
    }
    gsfw_pcsf_free(ws);
}

/* Unrooted outputs of simple / gw / strong have at most g trees and are forests. */
static void test_unrooted_forest_shape(void **state)
{
    (void)state;
    uint64_t seed = 777;
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    for (int trial = 0; trial < 300; trial++) {
        inst I;
        memset(&I, 0, sizeof I);
        I.n = 1 + rng_int(&seed, 12);
        I.root = -1;
        I.target = 1 + rng_int(&seed, 3);
        I.pruning = (gsfw_pruning)(1 + rng_int(&seed, 3));
        for (int i = 0; i < I.n; i++) I.prize[i] = rng_int(&seed, 5) ? 4 * rng_unif(&seed) : 0;
        for (int e = 0; e < 20 && I.n > 1; e++) {
            I.u[I.m] = rng_int(&seed, I.n);
            I.v[I.m] = rng_int(&seed, I.n);
            I.cost[I.m] = rng_int(&seed, 6) ? 2 * rng_unif(&seed) : 0.0;
            I.m++;
        }
        result R;
        assert_int_equal(run_inst(ws, &I, &R, NULL), GSFW_OK);
        int trees = R.nn - R.ne;
        assert_true(R.nn <= I.n);
        assert_true(trees >= 0 && trees <= I.target);
        if (I.target <= I.n) assert_true(R.nn >= (I.target < I.n ? 1 : I.n));
    }
    gsfw_pcsf_free(ws);
}

/* -------------------------------------------------------- validation */

static void expect_error(gsfw_pcsf *ws, const inst *I, gsfw_error code, const char *needle)
{
    result R;
    gsfw_err err;
    gsfw_error rc = gsfw_pcsf_run(ws, I->n, I->m, I->u, I->v, I->prize, I->cost, I->root,
                                  I->target, I->pruning, R.nodes, &R.nn, R.edges, &R.ne, &err);
    if (rc != code || !strstr(err.message, needle))
        fprintf(stderr, "expected %d '%s', got %d '%s'\n", code, needle, rc, err.message);
    assert_int_equal(rc, code);
    assert_non_null(strstr(err.message, needle));
}

static void test_validation(void **state)
{
    (void)state;
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    const inst base = {.n = 3, .m = 2, .u = {0, 1}, .v = {1, 2}, .cost = {3, 4},
                       .prize = {0, 5, 6}, .root = -1, .target = 1, .pruning = GSFW_PRUNING_GW};
    inst I = base;
    I.prize[1] = NAN;
    expect_error(ws, &I, GSFW_ERR_NONFINITE, "prize of node 1");
    I = base;
    I.prize[2] = INFINITY;
    expect_error(ws, &I, GSFW_ERR_NONFINITE, "prize of node 2");
    I = base;
    I.prize[0] = -1;
    expect_error(ws, &I, GSFW_ERR_INVALID_ARG, ">= 0");
    I = base;
    I.cost[1] = NAN;
    expect_error(ws, &I, GSFW_ERR_NONFINITE, "cost of edge 1");
    I = base;
    I.cost[0] = -0.5;
    expect_error(ws, &I, GSFW_ERR_INVALID_ARG, "cost of edge 0");
    I = base;
    I.v[1] = 3;
    expect_error(ws, &I, GSFW_ERR_GRAPH, "edge 1 (1, 3)");
    I = base;
    I.u[0] = -1;
    expect_error(ws, &I, GSFW_ERR_GRAPH, "outside");
    I = base;
    I.root = 3;
    expect_error(ws, &I, GSFW_ERR_INVALID_ARG, "root 3 is out of range");
    I = base;
    I.root = -2;
    expect_error(ws, &I, GSFW_ERR_INVALID_ARG, "root -2");
    I = base;
    I.root = 0;
    I.target = 1;
    expect_error(ws, &I, GSFW_ERR_INVALID_ARG, "target clusters = 0");
    I = base;
    I.target = -1;
    expect_error(ws, &I, GSFW_ERR_INVALID_ARG, "negative");
    I = base;
    I.pruning = (gsfw_pruning)7;
    expect_error(ws, &I, GSFW_ERR_INVALID_ARG, "pruning");
    I = base;
    I.n = -1;
    expect_error(ws, &I, GSFW_ERR_INVALID_ARG, "negative");
    /* pruning names */
    assert_int_equal(gsfw_pruning_parse("none"), GSFW_PRUNING_NONE);
    assert_int_equal(gsfw_pruning_parse("simple"), GSFW_PRUNING_SIMPLE);
    assert_int_equal(gsfw_pruning_parse("GW"), GSFW_PRUNING_GW);
    assert_int_equal(gsfw_pruning_parse("Strong"), GSFW_PRUNING_STRONG);
    assert_int_equal(gsfw_pruning_parse("strongest"), -1);
    assert_int_equal(gsfw_pruning_parse(""), -1);
    assert_int_equal(gsfw_pruning_parse(NULL), -1);
    /* an empty instance is fine */
    int nn = 7, ne = 7;
    assert_int_equal(gsfw_pcsf_run(ws, 0, 0, NULL, NULL, NULL, NULL, -1, 1, GSFW_PRUNING_GW,
                                   NULL, &nn, NULL, &ne, NULL), GSFW_OK);
    assert_int_equal(nn, 0);
    assert_int_equal(ne, 0);
    gsfw_pcsf_free(ws);
}

/* ------------------------------------------------------------ livelock */

static void test_livelock_instance_terminates(void **state)
{
    (void)state;
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    /* pcst_fast loops forever here: event times ~2e12 make now + r round to now */
    inst I = {.n = 4, .m = 2, .u = {0, 1}, .v = {1, 2}, .cost = {2e12, 3.6e-4},
              .prize = {1e13, 0, 0, 1e13}, .root = -1, .target = 1};
    for (int p = 0; p <= GSFW_PRUNING_STRONG; p++) {
        I.pruning = (gsfw_pruning)p;
        result R;
        gsfw_err err;
        gsfw_error rc = run_inst(ws, &I, &R, &err);
        assert_int_equal(rc, GSFW_OK);
        gsfw_pcsf_stats st;
        gsfw_pcsf_get_stats(ws, &st);
        assert_true(st.edge_events < 100);
        assert_true(st.livelocks >= 1); /* the rule of docs/pcsf.md, "Livelock" */
        assert_true(R.nn >= 1);
    }
    /* scaled variants (what head/tail searches do) terminate as well */
    for (int s = -6; s <= 6; s += 3) {
        inst J = I;
        for (int e = 0; e < J.m; e++) J.cost[e] *= pow(10.0, s);
        J.pruning = GSFW_PRUNING_STRONG;
        result R;
        assert_int_equal(run_inst(ws, &J, &R, NULL), GSFW_OK);
    }
    gsfw_pcsf_free(ws);
}

/* A star with many leaves: the root's child list is long (the C port overflowed its
 * static delete_min buffer at 100 000 children). */
static void test_big_star(void **state)
{
    (void)state;
    int leaves = 150000;
    int n = leaves + 1, m = leaves;
    int *u = malloc((size_t)m * sizeof *u), *v = malloc((size_t)m * sizeof *v);
    double *prize = malloc((size_t)n * sizeof *prize);
    int *on = malloc((size_t)n * sizeof *on), *oe = malloc((size_t)m * sizeof *oe);
    assert_true(u && v && prize && on && oe);
    prize[0] = 1e6;
    for (int i = 0; i < leaves; i++) {
        u[i] = 0;
        v[i] = i + 1;
        prize[i + 1] = 1.0;
    }
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    int nn, ne;
    assert_int_equal(gsfw_pcsf_run(ws, n, m, u, v, prize, NULL, -1, 0, GSFW_PRUNING_GW, on, &nn,
                                   oe, &ne, NULL), GSFW_OK);
    assert_int_equal(nn, 0);
    assert_int_equal(gsfw_pcsf_run(ws, n, m, u, v, prize, NULL, -1, 1, GSFW_PRUNING_STRONG, on,
                                   &nn, oe, &ne, NULL), GSFW_OK);
    assert_true(nn >= 1);
    gsfw_pcsf_free(ws);
    free(u);
    free(v);
    free(prize);
    free(on);
    free(oe);
}

/* ---------------------------------------------------- workspace reuse */

static void test_workspace_reuse(void **state)
{
    (void)state;
    gsfw_pcsf *shared = NULL;
    assert_int_equal(gsfw_pcsf_create(&shared, NULL), GSFW_OK);
    uint64_t seed = 4242;
    int sizes[] = {12, 3, 25, 7, 25, 1, 18};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int pr = 0; pr <= GSFW_PRUNING_STRONG; pr++) {
            int h = sizes[k];
            gsfw_graph *g = NULL;
            assert_int_equal(gsfw_graph_grid(h, h + 1, &g, NULL), GSFW_OK);
            double *prize = malloc((size_t)g->n * sizeof *prize);
            double *cost = malloc(((size_t)g->m + 1) * sizeof *cost);
            for (int i = 0; i < g->n; i++) prize[i] = rng_int(&seed, 3) ? 3 * rng_unif(&seed) : 0;
            for (int e = 0; e < g->m; e++) cost[e] = 0.25 * (1 + rng_int(&seed, 6));
            int root = rng_int(&seed, 2) ? -1 : rng_int(&seed, g->n);
            int target = root >= 0 ? 0 : 1 + rng_int(&seed, 3);
            int *n1 = malloc((size_t)g->n * sizeof(int)), *n2 = malloc((size_t)g->n * sizeof(int));
            int *e1 = malloc(((size_t)g->m + 1) * sizeof(int)),
                *e2 = malloc(((size_t)g->m + 1) * sizeof(int));
            int nn1, ne1, nn2, ne2;
            assert_int_equal(gsfw_pcsf_run(shared, g->n, g->m, g->edge_u, g->edge_v, prize, cost,
                                           root, target, (gsfw_pruning)pr, n1, &nn1, e1, &ne1,
                                           NULL), GSFW_OK);
            gsfw_pcsf *fresh = NULL;
            assert_int_equal(gsfw_pcsf_create(&fresh, NULL), GSFW_OK);
            assert_int_equal(gsfw_pcsf_run(fresh, g->n, g->m, g->edge_u, g->edge_v, prize, cost,
                                           root, target, (gsfw_pruning)pr, n2, &nn2, e2, &ne2,
                                           NULL), GSFW_OK);
            gsfw_pcsf_free(fresh);
            /* identical, in the same order */
            assert_int_equal(nn1, nn2);
            assert_int_equal(ne1, ne2);
            assert_memory_equal(n1, n2, (size_t)nn1 * sizeof(int));
            if (ne1) assert_memory_equal(e1, e2, (size_t)ne1 * sizeof(int));
            free(n1);
            free(n2);
            free(e1);
            free(e2);
            free(prize);
            free(cost);
            gsfw_graph_free(g);
        }
    }
    /* no allocation growth after the largest instance */
    size_t bytes = gsfw_pcsf_bytes(shared);
    inst I = {.n = 3, .m = 2, .u = {0, 1}, .v = {1, 2}, .cost = {3, 4}, .prize = {0, 5, 6},
              .root = -1, .target = 1, .pruning = GSFW_PRUNING_STRONG};
    result R;
    assert_int_equal(run_inst(shared, &I, &R, NULL), GSFW_OK);
    assert_true(gsfw_pcsf_bytes(shared) == bytes);
    gsfw_pcsf_free(shared);
}

/* A fresh workspace on an instance without edges (regression: the first run with m = 0
 * must not touch edge storage): the g singletons with the largest prizes survive, ties
 * to the larger id, for every pruning. */
static void test_no_edges_fresh_workspace(void **state)
{
    (void)state;
    const double prizes[5] = {0.5, 3.0, 1.0, 3.0, 2.0};
    for (int pr = GSFW_PRUNING_NONE; pr <= GSFW_PRUNING_STRONG; pr++) {
        gsfw_pcsf *ws = NULL;
        assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
        int nodes[5], edges[1], nn = -1, ne = -1;
        assert_int_equal(gsfw_pcsf_run(ws, 5, 0, NULL, NULL, prizes, NULL, -1, 2,
                                       (gsfw_pruning)pr, nodes, &nn, edges, &ne, NULL), GSFW_OK);
        assert_int_equal(ne, 0);
        assert_int_equal(nn, 2);
        int has1 = 0, has3 = 0;
        for (int i = 0; i < nn; i++) {
            has1 |= nodes[i] == 1;
            has3 |= nodes[i] == 3;
        }
        assert_true(has1 && has3);
        gsfw_pcsf_free(ws);
    }
}

/* Without edges every node deactivates at its prize, in (prize, id) order, until the
 * target number of clusters is active: those nodes are the output. Ties must go to the
 * smaller id, and -0.0 is the prize 0. */
static void test_deactivation_order(void **state)
{
    (void)state;
    const double prizes[6] = {1.0, 2.0, 0.0, 1.0, -0.0, 2.0};
    const int order[6] = {2, 4, 0, 3, 1, 5}; /* (prize, id) */
    for (int target = 1; target <= 5; target++) {
        for (int pr = GSFW_PRUNING_NONE; pr <= GSFW_PRUNING_STRONG; pr++) {
            gsfw_pcsf *ws = NULL;
            assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
            int nodes[6], edges[1], nn = -1, ne = -1;
            assert_int_equal(gsfw_pcsf_run(ws, 6, 0, NULL, NULL, prizes, NULL, -1, target,
                                           (gsfw_pruning)pr, nodes, &nn, edges, &ne, NULL),
                             GSFW_OK);
            assert_int_equal(ne, 0);
            assert_int_equal(nn, target);
            qsort(nodes, (size_t)nn, sizeof(int), cmp_int);
            int want[6];
            memcpy(want, order + 6 - target, (size_t)target * sizeof(int));
            qsort(want, (size_t)target, sizeof(int), cmp_int);
            for (int i = 0; i < nn; i++) assert_int_equal(nodes[i], want[i]);
            gsfw_pcsf_free(ws);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_checked),
        cmocka_unit_test(test_gw_guarantee),
        cmocka_unit_test(test_unrooted_forest_shape),
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_livelock_instance_terminates),
        cmocka_unit_test(test_big_star),
        cmocka_unit_test(test_workspace_reuse),
        cmocka_unit_test(test_no_edges_fresh_workspace),
        cmocka_unit_test(test_deactivation_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
