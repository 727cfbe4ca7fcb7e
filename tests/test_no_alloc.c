/* "No allocation inside iteration loops": a solve allocates what it needs before its
 * first iteration (and an oracle on its first call), so the number of allocations of a
 * run does not depend on its number of iterations. Counted for every solver with every
 * oracle it is used with, by this executable's own malloc, calloc, realloc,
 * aligned_alloc, posix_memalign and memalign, which the library (linked statically) and
 * glibc's own functions (strdup, ...) call instead of the allocator's public entry
 * points, and which pass each request on to glibc. The library allocates through these
 * only.
 *
 * The sanitizer builds replace the allocator themselves, so there the test is skipped
 * (it runs in the release build of `make test`). */
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
#include "support/oracle_factory.h"
#include "support/planted.h"
#include "util/rng.h"

#include "support/alloc_counter.h"

/* more than 128 nodes: glibc's qsort sorts up to 1 KB on the stack and allocates above */
enum { SIDE = 12, D = SIDE * SIDE, N = 70 };

static gsfw_graph *grid;
static planted_problem prob;

/* Allocations made inside gsfw_solve (gsfw_baseline_solve for the baselines) for a run
 * of max_iter iterations, with fresh objects (so that oracles and objectives start from
 * the same state every time). */
static long allocations_of_solve(gsfw_method method, gsfw_option option, gsfw_step step,
                                 const char *model, const char *tail_model, int max_iter,
                                 int *iterations)
{
    gsfw_objective *obj = NULL;
    assert_int_equal(gsfw_objective_least_squares(N, D, prob.A, GSFW_ROW_MAJOR, prob.y, &obj,
                                                  NULL), GSFW_OK);
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
        /* the long run really iterated more (no early stop hides the loop) */
        assert_int_equal(it_short, 2);
        if (it_long < 20)
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
    } runs[] = {
        {GSFW_PROJ_HEAD, GSFW_PROJ_PRACTICAL, 1}, {GSFW_PROJ_HEAD, GSFW_PROJ_PRACTICAL, 0},
        {GSFW_PROJ_TAIL, GSFW_PROJ_PRACTICAL, 1}, {GSFW_PROJ_HEAD, GSFW_PROJ_THEORY, 1},
        {GSFW_PROJ_TAIL, GSFW_PROJ_THEORY, 1},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        gsfw_proj_settings st;
        gsfw_proj_settings_default(&st, runs[r].kind, S, 2);
        st.method = runs[r].method;
        st.warm_start = runs[r].warm;
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

/* Allocations made inside gsfw_multilevel_solve for max_iter iterations per level, one
 * level (the planted problem with noise, so that no exact fit ends the run) or two (a
 * 16 x 16 image through the pyramid: block 2, Hadamard rows, since FFTW's DCT allocates
 * in every transform: test_operators_no_alloc.c); *iterations = the iterations of all
 * levels. No stall rule, no tolerance: every level runs max_iter iterations. */
static long allocations_of_pursuit(int two_levels, int max_iter, int *iterations)
{
    enum { SIDE2 = 16, D2 = SIDE2 * SIDE2, S2 = 30 };
    gsfw_objective *obj = NULL;
    gsfw_dmo *head = NULL, *tail = NULL;
    gsfw_operator *A = NULL;
    gsfw_pyramid *pyr = NULL;
    double y[N], y2[3 * S2];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 5);
    gsfw_level single;
    const gsfw_level *levels = &single;
    int n_levels = 1;
    if (!two_levels) {
        for (int i = 0; i < N; i++) y[i] = prob.y[i] + 0.05 * gsfw_rng_normal(&rng);
        assert_int_equal(gsfw_objective_least_squares(N, D, prob.A, GSFW_ROW_MAJOR, y, &obj,
                                                      NULL), GSFW_OK);
        head = test_oracle("tail", grid, 6);
        tail = test_oracle("tail", grid, 6);
        assert_true(head && tail);
        single = (gsfw_level){obj, head, tail, NULL};
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
        assert_int_equal(gsfw_pyramid_image(A, y2, SIDE2, SIDE2, S2, 1, NULL, &pst, &pyr, NULL),
                         GSFW_OK);
        levels = gsfw_pyramid_levels(pyr, &n_levels);
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
    *iterations = 0;
    for (int k = 0; k < n_levels; k++) *iterations += linfo[k].iterations;
    gsfw_pyramid_free(pyr);
    gsfw_operator_free(A);
    gsfw_objective_free(obj);
    gsfw_dmo_free(head);
    gsfw_dmo_free(tail);
    return made;
}

static void test_pursuit_allocations_do_not_grow(void **state)
{
    (void)state;
    if (!COUNTING) skip();
    int warm_up;
    allocations_of_pursuit(1, 2, &warm_up);
    for (int two = 0; two <= 1; two++) {
        int it_short = 0, it_long = 0;
        long a_short = allocations_of_pursuit(two, 2, &it_short);
        long a_long = allocations_of_pursuit(two, 30, &it_long);
        assert_int_equal(it_short, 2 * (1 + two));
        assert_int_equal(it_long, 30 * (1 + two));
        if (a_short != a_long)
            fail_msg("pursuit on %d level(s): %ld allocations in %d iterations, %ld in %d",
                     1 + two, a_short, it_short, a_long, it_long);
        assert_true(a_short > 0);
    }
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
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
