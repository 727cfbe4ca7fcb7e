/* "No allocation inside iteration loops": a solve allocates what it needs before its
 * first iteration (and an oracle on its first call), so the number of allocations of a
 * run does not depend on its number of iterations. Counted for every solver with every
 * oracle it is used with, by this executable's own malloc, calloc, realloc,
 * aligned_alloc, posix_memalign and memalign, which the library (linked statically) and
 * glibc's own functions (strdup, ...) call instead of the allocator's public entry
 * points, and which pass each request on to glibc. The library allocates through these
 * only. Also: the head / tail projections after their first call, the graph subspace
 * pursuit and its pyramid (first mode, full searches, and the switch between them), and
 * the PCSF workspace once grown (and after its arena grew mid-run).
 *
 * The sanitizer builds replace the allocator themselves, so there the tests are skipped
 * (they run in the release build of `make test`), except the PCSF workspace's, which
 * run there without their counts, for memory safety. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"
#include "counted_dmo.h"
#include "support/oracle_factory.h"
#include "support/planted.h"
#include "oracles/pcsf/pcsf_ws.h" /* the workspace's pruning block */
#include "util/rng.h"

#include "support/alloc_counter.h"

/* more than 128 nodes: glibc's qsort sorts up to 1 KB on the stack and allocates above */
enum { SIDE = 12, D = SIDE * SIDE, N = 70 };

static gsfw_graph *grid;
static planted_problem prob;
/* prob.y with noise: no exact fit ends a pursuit's run early */
static double noisy_y[N];

/* Allocations made inside gsfw_solve (gsfw_baseline_solve for the baselines) for a run
 * of max_iter iterations, with fresh objects (so that oracles and objectives start from
 * the same state every time). */
static long allocations_of_solve(gsfw_method method, gsfw_option option, gsfw_step step,
                                 const char *model, const char *tail_model, int max_iter,
                                 int *iterations)
{
    gsfw_objective *obj = NULL;
    const double *y = method == GSFW_METHOD_GRAPH_SP ? noisy_y : prob.y;
    assert_int_equal(gsfw_objective_least_squares(N, D, prob.A, GSFW_ROW_MAJOR, y, &obj, NULL),
                     GSFW_OK);
    gsfw_dmo *dmo = test_oracle(model, grid, 6);
    gsfw_dmo *tail = tail_model ? test_oracle(tail_model, grid, 6) : NULL;
    assert_true(dmo && (!tail_model || tail));
    gsfw_settings st;
    gsfw_settings_default(&st);
    st.method = method;
    st.option = option;
    st.step = step;
    st.C = 1.0;
    st.max_iter = max_iter;
    st.x_true = prob.x_star;
    gsfw_baseline_settings bst;
    gsfw_baseline_settings_default(&bst);
    bst.method = method;
    bst.C = 1.0;
    bst.max_iter = max_iter;
    bst.x_true = prob.x_star;
    const int baseline = gsfw_method_is_baseline(method);
    assert_true(baseline || !tail); /* only the baselines take a tail projection */
    double x_best[D], x_last[D];
    gsfw_iterate trace[64];
    gsfw_result res = {.x_best = x_best, .x_last = x_last, .trace = trace, .trace_capacity = 64, .trace_len = 0};
    gsfw_info info;
    gsfw_err err;
#if COUNTING
    long before = allocations;
#endif
    gsfw_error e = baseline ? gsfw_baseline_solve(obj, dmo, tail, &bst, &res, &info, &err)
                            : gsfw_solve(obj, dmo, &st, &res, &info, &err);
#if COUNTING
    long made = allocations - before;
#else
    long made = 0;
#endif
    if (e) fail_msg("solve failed: %s", err.message);
    *iterations = info.iterations;
    gsfw_objective_free(obj);
    gsfw_dmo_free(dmo);
    gsfw_dmo_free(tail);
    return made;
}

static void test_allocations_do_not_grow_with_iterations(void **state)
{
    (void)state;
    if (!COUNTING) skip();
    static const struct {
        gsfw_method method;
        gsfw_option option;
        const char *model, *tail;
        gsfw_step step;
    } runs[] = {
        {GSFW_METHOD_FW, GSFW_OPTION_I, "topk", NULL, GSFW_STEP_AUTO},
        {GSFW_METHOD_ACCFW, GSFW_OPTION_II, "topk-approx", NULL, GSFW_STEP_AUTO},
        {GSFW_METHOD_FW, GSFW_OPTION_II, "l1", NULL, GSFW_STEP_AUTO},
        {GSFW_METHOD_FW, GSFW_OPTION_I, "subgraph", NULL, GSFW_STEP_AUTO},
        {GSFW_METHOD_ACCFW, GSFW_OPTION_I, "head", NULL, GSFW_STEP_AUTO},
        {GSFW_METHOD_FW, GSFW_OPTION_II, "head", NULL, GSFW_STEP_AUTO},
        {GSFW_METHOD_IHT, GSFW_OPTION_I, "topk", NULL, GSFW_STEP_AUTO},
        {GSFW_METHOD_COSAMP, GSFW_OPTION_I, "topk", NULL, GSFW_STEP_AUTO},
        {GSFW_METHOD_GRAPH_IHT, GSFW_OPTION_I, "head", "tail", GSFW_STEP_AUTO},
        {GSFW_METHOD_GRAPH_COSAMP, GSFW_OPTION_I, "head", "tail", GSFW_STEP_AUTO},
        {GSFW_METHOD_GEN_MP, GSFW_OPTION_I, "head", "tail", GSFW_STEP_AUTO},
        {GSFW_METHOD_GRAPH_SP, GSFW_OPTION_I, "head", "tail", GSFW_STEP_AUTO}, /* noisy y */
        {GSFW_METHOD_FW, GSFW_OPTION_I, "topk", NULL, GSFW_STEP_SHORT},
        {GSFW_METHOD_FW, GSFW_OPTION_I, "subgraph", NULL, GSFW_STEP_ADAPTIVE},
        {GSFW_METHOD_ACCFW, GSFW_OPTION_I, "topk", NULL, GSFW_STEP_LINE},
        {GSFW_METHOD_AFW, GSFW_OPTION_I, "topk", NULL, GSFW_STEP_LINE},
        {GSFW_METHOD_AFW, GSFW_OPTION_I, "subgraph", NULL, GSFW_STEP_AGNOSTIC},
        {GSFW_METHOD_PFW, GSFW_OPTION_I, "head", NULL, GSFW_STEP_ADAPTIVE},
        {GSFW_METHOD_PFW, GSFW_OPTION_II, "topk-approx", NULL, GSFW_STEP_SHORT},
        {GSFW_METHOD_BPCG, GSFW_OPTION_I, "topk", NULL, GSFW_STEP_LINE},
        {GSFW_METHOD_BPCG, GSFW_OPTION_II, "topk-approx", NULL, GSFW_STEP_AUTO},
    };
    int problems = 0, warm_up;
    /* one solve first, so that any lazy one-time set-up of the C library or OpenBLAS
     * falls outside the comparisons */
    allocations_of_solve(GSFW_METHOD_GRAPH_COSAMP, GSFW_OPTION_I, GSFW_STEP_AUTO, "head", "tail",
                         2, &warm_up);
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        int it_short = 0, it_long = 0;
        long a_short = allocations_of_solve(runs[r].method, runs[r].option, runs[r].step,
                                            runs[r].model, runs[r].tail, 2, &it_short);
        long a_long = allocations_of_solve(runs[r].method, runs[r].option, runs[r].step,
                                           runs[r].model, runs[r].tail, 40, &it_long);
        /* the long run really iterated more (no early stop hides the loop); graph-sp ends
         * by its stall rule, which the baseline settings do not reach: its best iterate
         * (the first) and `patience` = 6 more */
        const int min_long = runs[r].method == GSFW_METHOD_GRAPH_SP ? 7 : 20;
        assert_int_equal(it_short, 2);
        if (it_long < min_long)
            fail_msg("%s with %s: only %d iterations", gsfw_method_name(runs[r].method),
                     runs[r].model, it_long);
        if (a_short != a_long) {
            fprintf(stderr, "%s (option %d) with %s%s%s: %ld allocations in %d iterations, "
                    "%ld in %d\n", gsfw_method_name(runs[r].method), (int)runs[r].option,
                    runs[r].model, runs[r].tail ? " / " : "", runs[r].tail ? runs[r].tail : "",
                    a_short, it_short, a_long, it_long);
            problems++;
        }
        assert_true(a_short > 0); /* the counting reaches the library */
    }
    assert_int_equal(problems, 0);
}

/* A head or tail projection allocates on its first call at most (the PCSF workspace
 * grows to its size): not on later calls, nor on the cold start after a reset (a restart
 * round), with supports of more than 256 nodes (sorting them must not allocate either),
 * for each search: the warm one, the reference's cold one, the theory head and tail. */
static void test_projections_allocate_nothing_after_the_first_call(void **state)
{
    (void)state;
#if !COUNTING
    skip(); /* the sanitizers own malloc: nothing is counted */
#else
    enum { H = 24, W = 25, NN = H * W, S = 300 };
    gsfw_graph *g = NULL;
    assert_int_equal(gsfw_graph_grid(H, W, &g, NULL), GSFW_OK);
    static double z[3][NN];
    static int support[NN];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 7);
    for (int i = 0; i < NN; i++) { /* a blob plus noise, changing slowly */
        double r = (i / W - H / 2.0) * (i / W - H / 2.0) + (i % W - W / 2.0) * (i % W - W / 2.0);
        z[0][i] = exp(-r / 150.0) + 0.2 * gsfw_rng_normal(&rng);
        z[1][i] = z[0][i] + 0.05 * gsfw_rng_normal(&rng);
        z[2][i] = z[1][i] + 0.05 * gsfw_rng_normal(&rng);
    }
    static const struct {
        gsfw_proj_kind kind;
        gsfw_proj_method method;
        int warm;
        double near_miss; /* > 0: the near-miss mode, its predictor and its repairs */
    } runs[] = {
        {GSFW_PROJ_HEAD, GSFW_PROJ_PRACTICAL, 1, 0}, {GSFW_PROJ_HEAD, GSFW_PROJ_PRACTICAL, 0, 0},
        {GSFW_PROJ_TAIL, GSFW_PROJ_PRACTICAL, 1, 0}, {GSFW_PROJ_HEAD, GSFW_PROJ_THEORY, 1, 0},
        {GSFW_PROJ_TAIL, GSFW_PROJ_THEORY, 1, 0},    {GSFW_PROJ_HEAD, GSFW_PROJ_PRACTICAL, 1, 0.5},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        gsfw_proj_settings st;
        gsfw_proj_settings_default(&st, runs[r].kind, S, 2);
        st.method = runs[r].method;
        st.warm_start = runs[r].warm;
        st.near_miss = runs[r].near_miss;
        if (st.near_miss > 0) st.s_high = st.s_low; /* a one-size window: repairs */
        gsfw_headtail *ht = NULL;
        assert_int_equal(gsfw_headtail_create(g, &st, &ht, NULL), GSFW_OK);
        gsfw_proj_info info;
        int size = 0, largest = 0;
        assert_int_equal(gsfw_headtail_project(ht, z[0], support, &size, &info, NULL), GSFW_OK);
        long before = allocations;
        for (int k = 0; k < 6; k++) {
            if (k == 3) gsfw_headtail_reset(ht);
            assert_int_equal(gsfw_headtail_project(ht, z[k % 3], support, &size, &info, NULL),
                             GSFW_OK);
            if (size > largest) largest = size;
        }
        long made = allocations - before;
        gsfw_headtail_free(ht);
        if (made) fail_msg("projection %zu: %ld allocations after the first call", r, made);
        if (runs[r].method == GSFW_PROJ_PRACTICAL) assert_true(largest > 256);
    }
    gsfw_graph_free(g);
#endif
}

/* The pursuit runs of the allocation count: one level (the planted problem with noise,
 * so that no exact fit ends the run) or two (a 16 x 16 image through the pyramid: block
 * 2, Hadamard rows, since FFTW's DCT allocates in every transform:
 * test_operators_no_alloc.c); the projections' first mode (first_calls = 1: one PCSF run
 * and the size repair) or full lambda-searches throughout (0); and whether every level's
 * head and tail are switched to their full search (refine) right before their 2nd call,
 * so that the refined search runs for all later iterations. */
typedef struct {
    int levels, first_calls, refine;
} pursuit_case;

/* What the counting wrappers saw over the levels of one run. */
typedef struct {
    int iterations;           /* of all levels */
    long calls[2], pcsf[2];   /* head [0] and tail [1] */
    long refined_calls[2], refined_pcsf[2];
    int refine_failed;        /* an oracle's forced refine did not return 0 */
} pursuit_seen;

/* Allocations made inside gsfw_multilevel_solve for max_iter iterations per level. No
 * stall rule, no tolerance: every level runs max_iter iterations. */
static long allocations_of_pursuit(const pursuit_case *pc, int max_iter, pursuit_seen *seen)
{
    enum { SIDE2 = 16, D2 = SIDE2 * SIDE2, S2 = 30 };
    gsfw_objective *obj = NULL;
    gsfw_dmo *head = NULL, *tail = NULL;
    gsfw_operator *A = NULL;
    gsfw_pyramid *pyr = NULL;
    double y2[3 * S2];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 5);
    gsfw_level levels[2];
    int n_levels = 1;
    if (pc->levels == 1) {
        assert_int_equal(gsfw_objective_least_squares(N, D, prob.A, GSFW_ROW_MAJOR, noisy_y,
                                                      &obj, NULL), GSFW_OK);
        gsfw_proj_settings pst;
        gsfw_proj_settings_default(&pst, GSFW_PROJ_TAIL, 6, 1);
        pst.first_calls = pc->first_calls;
        assert_int_equal(gsfw_dmo_headtail(grid, &pst, &head, NULL), GSFW_OK);
        assert_int_equal(gsfw_dmo_headtail(grid, &pst, &tail, NULL), GSFW_OK);
        levels[0] = (gsfw_level){obj, head, tail, NULL};
    } else {
        double img[D2] = {0};
        for (int r = 2; r < 14; r++) img[r * SIDE2 + 4] = img[r * SIDE2 + 5] = 1.0;
        for (int c = 6; c < 12; c++) img[8 * SIDE2 + c] = 1.0;
        assert_int_equal(gsfw_sensing_operator("hadamard", 3 * S2, SIDE2, SIDE2, 2, 0, &A, NULL),
                         GSFW_OK);
        assert_int_equal(A->apply(A->ctx, img, y2), 0);
        for (int i = 0; i < 3 * S2; i++) y2[i] += 0.05 * gsfw_rng_normal(&rng);
        gsfw_pyramid_settings pst;
        gsfw_pyramid_settings_default(&pst, SIDE2, SIDE2);
        pst.n_coarse = 1;
        pst.blocks[0] = 2;
        pst.first_calls = pc->first_calls;
        assert_int_equal(gsfw_pyramid_image(A, y2, SIDE2, SIDE2, S2, 1, NULL, &pst, &pyr, NULL),
                         GSFW_OK);
        const gsfw_level *pl = gsfw_pyramid_levels(pyr, &n_levels);
        assert_int_equal(n_levels, 2);
        memcpy(levels, pl, sizeof levels);
    }
    /* every oracle behind a counting wrapper (which allocates nothing) */
    gsfw_dmo wrapped[2][2];
    gsfw_counted_dmo counted[2][2];
    for (int k = 0; k < n_levels; k++) {
        wrapped[k][0] = gsfw_counted_wrap(levels[k].head, &counted[k][0], 2 * pc->refine);
        wrapped[k][1] = gsfw_counted_wrap(levels[k].tail, &counted[k][1], 2 * pc->refine);
        levels[k].head = &wrapped[k][0];
        levels[k].tail = &wrapped[k][1];
    }
    gsfw_pursuit_settings st;
    gsfw_pursuit_settings_default(&st);
    st.max_iter = max_iter;
    st.tol_rel = 0.0;
    st.coarse_stall = st.stall = 0.0;
    st.patience = st.coarse_patience = 1000000;
    double x_best[D2], x_last[D2];
    gsfw_iterate trace[64];
    gsfw_result res = {.x_best = x_best, .x_last = x_last, .trace = trace, .trace_capacity = 64};
    gsfw_info info, linfo[2];
    gsfw_err err;
#if COUNTING
    long before = allocations;
#endif
    gsfw_error e = gsfw_multilevel_solve(levels, n_levels, &st, &res, &info, linfo, &err);
#if COUNTING
    long made = allocations - before;
#else
    long made = 0;
#endif
    if (e) fail_msg("pursuit failed: %s", err.message);
    memset(seen, 0, sizeof *seen);
    for (int k = 0; k < n_levels; k++) {
        seen->iterations += linfo[k].iterations;
        for (int r = 0; r < 2; r++) {
            const gsfw_counted_dmo *c = &counted[k][r];
            seen->calls[r] += c->calls;
            seen->pcsf[r] += c->pcsf;
            seen->refined_calls[r] += c->calls_refined;
            seen->refined_pcsf[r] += c->pcsf_refined;
            if (pc->refine && c->refine_rc != 0) seen->refine_failed = 1;
        }
    }
    gsfw_pyramid_free(pyr);
    gsfw_operator_free(A);
    gsfw_objective_free(obj);
    gsfw_dmo_free(head);
    gsfw_dmo_free(tail);
    return made;
}

/* A run allocates the same with 2 iterations per level as with 30: with the
 * projections' first mode throughout, with their full searches throughout (first_calls
 * = 0), and with the switch from one to the other (refine) inside the loop. */
static void test_pursuit_allocations_do_not_grow(void **state)
{
    (void)state;
    if (!COUNTING) skip();
    static const pursuit_case cases[] = {
        {1, 0, 0}, {1, 1, 1}, {2, 1, 0}, {2, 1, 1}, {2, 0, 0},
    };
    pursuit_seen warm_up;
    allocations_of_pursuit(&cases[0], 2, &warm_up);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const pursuit_case *pc = &cases[k];
        pursuit_seen s_short, s_long;
        long a_short = allocations_of_pursuit(pc, 2, &s_short);
        long a_long = allocations_of_pursuit(pc, 30, &s_long);
        assert_int_equal(s_short.iterations, 2 * pc->levels);
        assert_int_equal(s_long.iterations, 30 * pc->levels);
        /* the searches ran as configured: in the first mode one PCSF run per head
         * projection; refined from each level's 2nd call on (the forced refine returned 0),
         * or full throughout, more runs than calls */
        const long calls = pc->refine ? s_long.refined_calls[0] : s_long.calls[0];
        const long pcsf = pc->refine ? s_long.refined_pcsf[0] : s_long.pcsf[0];
        assert_int_equal(s_long.refine_failed, 0);
        if (pc->refine) assert_int_equal(calls, s_long.calls[0] - pc->levels);
        if (pc->first_calls && !pc->refine ? pcsf != calls : pcsf <= calls)
            fail_msg("pursuit case %zu: %ld head PCSF runs in %ld calls", k, pcsf, calls);
        if (a_short != a_long)
            fail_msg("pursuit case %zu (%d level(s), first_calls %d, refine %d): %ld "
                     "allocations in %d iterations, %ld in %d", k, pc->levels,
                     pc->first_calls, pc->refine, a_short, s_short.iterations, a_long,
                     s_long.iterations);
        assert_true(a_short > 0);
    }
}

/* ------------------------------------------------------------ the PCSF workspace */

/* The allocations counted so far, all of them or the aligned ones (0 under the
 * sanitizers, which count nothing: there the runs below only check memory safety). */
static long counted(int aligned)
{
#if COUNTING
    return aligned ? aligned_allocations : allocations;
#else
    (void)aligned;
    return 0;
#endif
}

/* One PCSF run on ws (output buffers of n nodes and m edges), failing the test on error;
 * unrooted runs keep 2 clusters. */
static void pcsf_once(gsfw_pcsf *ws, int n, int m, const int *u, const int *v,
                      const double *prize, const double *cost, int root, gsfw_pruning pruning,
                      int *nodes, int *edges)
{
    int nn = -1, ne = -1;
    gsfw_err err;
    if (gsfw_pcsf_run(ws, n, m, u, v, prize, cost, root, root >= 0 ? 0 : 2, pruning, nodes,
                      &nn, edges, &ne, &err))
        fail_msg("pcsf on %d nodes, %d edges: %s", n, m, err.message);
    assert_true(nn >= 1 && nn <= n && ne >= 0 && ne < nn);
}

/* Prizes of the PCSF runs: mostly small, a few large (forests of many sizes). */
static void pcsf_prizes(gsfw_rng *rng, int n, double *prize)
{
    for (int i = 0; i < n; i++) {
        const double r = gsfw_rng_uniform(rng);
        prize[i] = 3.0 * r * r * r * r;
    }
}

/* The workspace grows to the largest instance it has seen and reuses it: after a run on
 * a 200 x 200 grid (arrays of 4 MB and more, which take gsfw_pcsf_big_alloc's
 * aligned_alloc path), one on a tree with more nodes (its pruning arrays do not fit in
 * the heap nodes: the workspace's own block, prune_own) and one on a smaller grid,
 * further runs allocate nothing: new prizes, every pruning, rooted and unrooted, unit
 * and other costs, both merge tolerances, the big grid and the tree again. */
static void test_pcsf_reuse_allocates_nothing(void **state)
{
    (void)state;
    enum { BIG = 200, SMALL = 60, TREE = 70000 };
    gsfw_graph *big = NULL, *small = NULL;
    assert_int_equal(gsfw_graph_grid(BIG, BIG, &big, NULL), GSFW_OK);
    assert_int_equal(gsfw_graph_grid(SMALL, SMALL, &small, NULL), GSFW_OK);
    const int nb = gsfw_graph_nodes(big), mb = gsfw_graph_edge_count(big);
    const int ns = gsfw_graph_nodes(small), ms = gsfw_graph_edge_count(small);
    const int *bu, *bv, *su, *sv;
    gsfw_graph_edges(big, &bu, &bv, NULL);
    gsfw_graph_edges(small, &su, &sv, NULL);
    /* a random recursive tree: node i hangs from a node before it */
    static int tu[TREE - 1], tv[TREE - 1], nodes[TREE], edges[2 * BIG * BIG];
    static double prize[TREE], cost[2 * BIG * BIG];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 21);
    for (int i = 1; i < TREE; i++) {
        tu[i - 1] = (int)(gsfw_rng_uniform(&rng) * i);
        tv[i - 1] = i;
    }
    for (int e = 0; e < mb; e++) cost[e] = 0.5 + gsfw_rng_uniform(&rng);
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    long before = counted(1);
    pcsf_prizes(&rng, nb, prize);
    pcsf_once(ws, nb, mb, bu, bv, prize, NULL, -1, GSFW_PRUNING_GW, nodes, edges);
    assert_true(counted(1) > before || !COUNTING); /* the big arrays' own path */
    pcsf_prizes(&rng, TREE, prize);
    pcsf_once(ws, TREE, TREE - 1, tu, tv, prize, NULL, -1, GSFW_PRUNING_GW, nodes, edges);
    pcsf_prizes(&rng, ns, prize);
    pcsf_once(ws, ns, ms, su, sv, prize, NULL, -1, GSFW_PRUNING_GW, nodes, edges);
    const size_t bytes = gsfw_pcsf_bytes(ws);
    int runs = 0;
    before = counted(0);
    for (int t = 0; t < 2; t++) {
        assert_int_equal(gsfw_pcsf_set_tolerance(ws, t ? 1e-10 : GSFW_PCSF_DEFAULT_TOLERANCE,
                                                 NULL), GSFW_OK);
        for (int pr = GSFW_PRUNING_NONE; pr <= GSFW_PRUNING_STRONG; pr++) {
            pcsf_prizes(&rng, ns, prize);
            pcsf_once(ws, ns, ms, su, sv, prize, NULL, -1, (gsfw_pruning)pr, nodes, edges);
            pcsf_once(ws, ns, ms, su, sv, prize, cost, (int)(gsfw_rng_uniform(&rng) * ns),
                      (gsfw_pruning)pr, nodes, edges);
            runs += 2;
        }
        pcsf_prizes(&rng, TREE, prize);
        pcsf_once(ws, TREE, TREE - 1, tu, tv, prize, t ? cost : NULL, t ? 0 : -1,
                  t ? GSFW_PRUNING_STRONG : GSFW_PRUNING_GW, nodes, edges);
        /* the tree's pruning arrays are the workspace's own block */
        assert_non_null(ws->prune_own);
        assert_ptr_equal(ws->parc, ws->prune_own);
        pcsf_prizes(&rng, nb, prize);
        pcsf_once(ws, nb, mb, bu, bv, prize, cost, -1, t ? GSFW_PRUNING_STRONG : GSFW_PRUNING_GW,
                  nodes, edges);
        runs += 2;
    }
    const long made = counted(0) - before;
    if (made) fail_msg("%ld allocations in %d PCSF runs on a grown workspace", made, runs);
    assert_true(gsfw_pcsf_bytes(ws) == bytes);
    gsfw_pcsf_free(ws);
    gsfw_graph_free(big);
    gsfw_graph_free(small);
}

/* The documented exception (src/oracles/pcsf/pcsf.c): the heaps' arena starts at 7 slots
 * per edge and grows during a run whose input needs more, here the complete graph K_40
 * with unit prizes and costs (7.9 slots per edge); the workspace keeps the grown arena,
 * so repeats allocate nothing. */
static void test_pcsf_arena_growth_is_kept(void **state)
{
    (void)state;
    enum { K = 40, M = K * (K - 1) / 2 };
    static int u[M], v[M], nodes[K], edges[M];
    static double unit[K], random[K], cost[M];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 3);
    int m = 0;
    for (int a = 0; a < K; a++)
        for (int b = a + 1; b < K; b++, m++) {
            u[m] = a;
            v[m] = b;
        }
    for (int i = 0; i < K; i++) {
        unit[i] = 1.0;
        random[i] = 3.0 * gsfw_rng_uniform(&rng);
    }
    for (int e = 0; e < M; e++) cost[e] = 0.1 + gsfw_rng_uniform(&rng);
    /* on fresh workspaces: random prizes and costs fit the arena, unit ones grow it (one
     * more allocation, seen by the counter) */
    long made[2];
    gsfw_pcsf *ws = NULL;
    for (int grow = 0; grow < 2; grow++) {
        gsfw_pcsf_free(ws);
        assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
        const long before = counted(0);
        pcsf_once(ws, K, M, u, v, grow ? unit : random, grow ? NULL : cost, -1, GSFW_PRUNING_GW,
                  nodes, edges);
        made[grow] = counted(0) - before;
        gsfw_pcsf_stats st;
        gsfw_pcsf_get_stats(ws, &st);
        if (grow ? st.heap_slots <= 7L * M : st.heap_slots > 7L * M)
            fail_msg("K_%d with %s prizes and costs: %ld arena slots for %d edges", K,
                     grow ? "unit" : "random", st.heap_slots, M);
    }
    assert_true(made[1] > made[0] || !COUNTING);
    const long before = counted(0);
    for (int r = 0; r < 3; r++)
        for (int pr = GSFW_PRUNING_NONE; pr <= GSFW_PRUNING_STRONG; pr++)
            pcsf_once(ws, K, M, u, v, unit, NULL, -1, (gsfw_pruning)pr, nodes, edges);
    assert_int_equal(counted(0) - before, 0);
    gsfw_pcsf_free(ws);
}

static int setup(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 99);
    if (gsfw_graph_grid(SIDE, SIDE, &grid, NULL)) return -1;
    prob = planted_alloc(N, D, &rng);
    const int block[5] = {33, 34, 35, 44, 45};
    for (int k = 0; k < 5; k++) prob.x_star[block[k]] = 1.0 + 0.2 * k;
    planted_measure(&prob, 1.0);
    gsfw_rng_seed(&rng, 5);
    for (int i = 0; i < N; i++) noisy_y[i] = prob.y[i] + 0.05 * gsfw_rng_normal(&rng);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gsfw_graph_free(grid);
    planted_free(&prob);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allocations_do_not_grow_with_iterations),
        cmocka_unit_test(test_projections_allocate_nothing_after_the_first_call),
        cmocka_unit_test(test_pursuit_allocations_do_not_grow),
        cmocka_unit_test(test_pcsf_reuse_allocates_nothing),
        cmocka_unit_test(test_pcsf_arena_growth_is_kept),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
