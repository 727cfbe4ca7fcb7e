/* The Frank-Wolfe family beyond the paper: every method x step rule on planted problems,
 * monotone rules, active-set invariants, the certified bound against a much longer run,
 * tolerance stops, starting points, polish, and repeated solves with one oracle. */
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
#include "solvers/fw_family.h"
#include "support/planted.h"
#include "util/rng.h"

static const gsfw_method fw_methods[] = {GSFW_METHOD_FW, GSFW_METHOD_ACCFW, GSFW_METHOD_AFW,
                                         GSFW_METHOD_PFW, GSFW_METHOD_BPCG};
static const gsfw_step steps[] = {GSFW_STEP_AGNOSTIC, GSFW_STEP_SHORT, GSFW_STEP_ADAPTIVE,
                                  GSFW_STEP_LINE};
#define N_METHODS ((int)(sizeof fw_methods / sizeof fw_methods[0]))
#define N_STEPS ((int)(sizeof steps / sizeof steps[0]))

/* y = A x*, x* with s nonzeros at ids spread over 0..d-1, ||x*|| = xnorm. */
static planted_problem planted(int n, int d, const int *ids, int s, double xnorm, uint64_t seed)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    planted_problem p = planted_alloc(n, d, &rng);
    for (int k = 0; k < s; k++) p.x_star[ids[k]] = 1.0 + gsfw_rng_normal(&rng) * 0.3;
    planted_measure(&p, xnorm);
    return p;
}

static double norm_diff(const double *a, const double *b, int d)
{
    double s = 0;
    for (int i = 0; i < d; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

typedef struct {
    gsfw_objective *obj;
    planted_problem p;
    double f0;
} fixture;

static fixture sparse_fixture(int n, int d, int s, uint64_t seed)
{
    fixture fx;
    int ids[64];
    for (int k = 0; k < s; k++) ids[k] = (int)((k * 37L + 3) % d);
    fx.p = planted(n, d, ids, s, 1.0, seed);
    assert_int_equal(gsfw_objective_least_squares(n, d, fx.p.A, GSFW_ROW_MAJOR, fx.p.y, &fx.obj,
                                                  NULL),
                     GSFW_OK);
    double yy = 0;
    for (int i = 0; i < n; i++) yy += fx.p.y[i] * fx.p.y[i];
    fx.f0 = 0.5 * yy;
    return fx;
}

static void fixture_free(fixture *fx)
{
    gsfw_objective_free(fx->obj);
    planted_free(&fx->p);
}

/* Every method with every step rule drives f towards 0 on a noiseless planted problem
 * with x* in D (exact top-s oracle, C = ||x*||); the monotone rules never increase f. */
static void test_every_variant_and_rule_converges(void **state)
{
    (void)state;
    fixture fx = sparse_fixture(60, 100, 5, 11);
    gsfw_dmo *topk;
    assert_int_equal(gsfw_dmo_topk(100, 5, &topk, NULL), GSFW_OK);
    enum { T = 400 };
    gsfw_iterate *trace = malloc((T + 1) * sizeof *trace);
    for (int m = 0; m < N_METHODS; m++) {
        for (int r = 0; r < N_STEPS; r++) {
            gsfw_settings set;
            gsfw_settings_default(&set);
            set.method = fw_methods[m];
            set.step = steps[r];
            set.max_iter = T;
            set.C = 1.0;
            set.L_rule = GSFW_L_SPECTRAL;
            gsfw_result res = {.trace = trace, .trace_capacity = T + 1};
            gsfw_info info;
            gsfw_err err;
            gsfw_error rc = gsfw_solve_checked(fx.obj, topk, &set, &res, &info, &err);
            if (rc) fail_msg("%s/%s: %s", gsfw_method_name(set.method),
                             gsfw_step_name(set.step), err.message);
            double rel = info.f_best / fx.f0;
            if (getenv("FW_FAMILY_VERBOSE"))
                printf("%s/%s: %g\n", gsfw_method_name(set.method), gsfw_step_name(set.step),
                       rel);
            /* measured 1e-4 .. 1e-33 here: the active-set methods gain nothing on this
             * curved set (the optimum is an extreme point of a ball), AccFW converges fastest */
            double want = fw_methods[m] == GSFW_METHOD_ACCFW ? 1e-10 : 1e-3;
            if (!(rel <= want) && !getenv("FW_FAMILY_VERBOSE"))
                fail_msg("%s with the %s step: f_best/f_0 = %g > %g",
                         gsfw_method_name(set.method), gsfw_step_name(set.step), rel, want);
            assert_int_equal(info.step, steps[r]);
            if (steps[r] != GSFW_STEP_AGNOSTIC && fw_methods[m] != GSFW_METHOD_ACCFW) {
                for (int t = 1; t < res.trace_len; t++)
                    if (trace[t].f > trace[t - 1].f * (1 + 1e-12) + 1e-15)
                        fail_msg("%s/%s: f rose from %.17g to %.17g at t = %d",
                                 gsfw_method_name(set.method), gsfw_step_name(set.step),
                                 trace[t - 1].f, trace[t].f, t);
            }
        }
    }
    free(trace);
    gsfw_dmo_free(topk);
    fixture_free(&fx);
}

/* The active-set methods on objectives without incremental hooks (dense fallback of the
 * line evaluations) give the same iterates as with them, up to rounding. */
static void test_dense_fallback_matches_incremental(void **state)
{
    (void)state;
    fixture fx = sparse_fixture(40, 60, 4, 5);
    gsfw_objective *plain;
    assert_int_equal(gsfw_objective_callback(60, fx.obj->ctx, fx.obj->value, fx.obj->gradient,
                                             fx.obj->value_grad, &plain, NULL),
                     GSFW_OK);
    plain->quadratic = 1;
    gsfw_dmo *topk;
    assert_int_equal(gsfw_dmo_topk(60, 4, &topk, NULL), GSFW_OK);
    /* pfw and bpcg take the adaptive step: after an exact line search along a pairwise
     * direction s - v the slope between s and v is zero, so the two active atoms tie in
     * <g, a>, and which one the last bits make the away atom decides the next step (the
     * iterates then part by O(1) on some BLAS kernels). The adaptive step stops short of
     * the minimum along the line (its local L exceeds the curvature there), so no tie is
     * made, and it evaluates f along the line just the same. */
    for (int m = 0; m < N_METHODS; m++) {
        double xa[60], xb[60];
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = fw_methods[m];
        set.step = fw_methods[m] == GSFW_METHOD_PFW || fw_methods[m] == GSFW_METHOD_BPCG
                       ? GSFW_STEP_ADAPTIVE
                       : GSFW_STEP_LINE;
        set.max_iter = 12;
        set.L = 5.0;
        gsfw_result ra = {.x_last = xa}, rb = {.x_last = xb};
        assert_int_equal(gsfw_solve_checked(fx.obj, topk, &set, &ra, NULL, NULL), GSFW_OK);
        assert_int_equal(gsfw_solve_checked(plain, topk, &set, &rb, NULL, NULL), GSFW_OK);
        /* the two paths compute f and slopes along the line in another order (cached A x
         * and A d against a fresh product): a few ulps each. The adaptive step's first
         * local L is a difference of slopes over gamma = 1e-3, which scales that by 1e3;
         * twelve steps of a contraction add at most a factor 12: about 1e-11 */
        if (!(norm_diff(xa, xb, 60) <= 1e-9))
            fail_msg("%s: %g", gsfw_method_name(set.method), norm_diff(xa, xb, 60));
    }
    gsfw_objective_free(plain);
    gsfw_dmo_free(topk);
    fixture_free(&fx);
}

/* f(x_t) - f_best of a 20x longer run never exceeds the certified bound, for every oracle
 * kind: exact top-s, approximate top-s, the l1 ball, the subgraph heuristic, the PCSF head
 * and the exact brute force on a grid. */
static void test_certified_bound_holds(void **state)
{
    (void)state;
    gsfw_graph *grid;
    assert_int_equal(gsfw_graph_grid(4, 5, &grid, NULL), GSFW_OK);
    const int d = 20, n = 14;
    int ids[4] = {6, 7, 12, 13}; /* a connected square of the 4 x 5 grid */
    planted_problem p = planted(n, d, ids, 4, 1.0, 3);
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_least_squares(n, d, p.A, GSFW_ROW_MAJOR, p.y, &obj, NULL),
                     GSFW_OK);
    gsfw_dmo *oracles[6];
    assert_int_equal(gsfw_dmo_topk(d, 4, &oracles[0], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_topk_approx(d, 4, 0.7, 1, &oracles[1], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_l1(d, 1.0, 1, &oracles[2], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_subgraph(grid, 4, 1, &oracles[3], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_head(grid, 4, 1, &oracles[4], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_brute_force(grid, 4, 1, &oracles[5], NULL), GSFW_OK);
    /* the exact optimum over D(C, M) for each model: a long pairwise run with the exact
     * oracle of that model (top-s for the s-sparse models, brute force for M(G, 4, 1)) */
    gsfw_dmo *exact_sparse = oracles[0], *exact_graph = oracles[5], *exact_l1 = oracles[2];
    enum { T = 40, LONG = 20 * T };
    gsfw_iterate trace[T + 1];
    for (int k = 0; k < 6; k++) {
        gsfw_dmo *exact = k <= 1 ? exact_sparse : k == 2 ? exact_l1 : exact_graph;
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = GSFW_METHOD_PFW;
        set.step = GSFW_STEP_LINE;
        set.max_iter = LONG;
        set.C = 0.8; /* x* outside: the constraint is active and f* > 0 */
        gsfw_info long_info;
        assert_int_equal(gsfw_solve(obj, exact, &set, NULL, &long_info, NULL), GSFW_OK);
        for (int m = 0; m < N_METHODS; m++) {
            set.method = fw_methods[m];
            set.step = GSFW_STEP_AUTO;
            set.max_iter = T;
            gsfw_result res = {.trace = trace, .trace_capacity = T + 1};
            gsfw_info info;
            gsfw_err err;
            if (gsfw_solve(obj, oracles[k], &set, &res, &info, &err))
                fail_msg("%s: %s", oracles[k]->name, err.message);
            int bounded = 0;
            for (int t = 0; t < res.trace_len; t++) {
                if (isnan(trace[t].gap_bound)) continue;
                bounded++;
                double excess = trace[t].f - long_info.f_best;
                if (trace[t].gap_bound < excess - 1e-12)
                    fail_msg("%s with %s, t = %d: bound %.17g < f - f_best = %.17g",
                             gsfw_method_name(set.method), oracles[k]->name, t,
                             trace[t].gap_bound, excess);
            }
            /* every oracle here declares its model size, so every iterate is bounded */
            assert_int_equal(bounded, res.trace_len);
        }
    }
    for (int k = 0; k < 6; k++) gsfw_dmo_free(oracles[k]);
    gsfw_objective_free(obj);
    gsfw_graph_free(grid);
    planted_free(&p);
}

/* The same for the exact tree oracles (rooted subtree, forest, connected subtree): the
 * long run uses the same exact oracle, since it optimises over the tree model itself. */
static void test_certified_bound_holds_for_tree_oracles(void **state)
{
    (void)state;
    /* a binary tree of 15 nodes (parent of i is (i-1)/2) and a forest of two of them */
    int parent[30];
    for (int i = 0; i < 15; i++) parent[i] = i == 0 ? -1 : (i - 1) / 2;
    for (int i = 0; i < 15; i++) parent[15 + i] = i == 0 ? -1 : 15 + (i - 1) / 2;
    const int d = 30, n = 16;
    int ids[4] = {0, 1, 2, 4}; /* a rooted subtree of the first tree */
    planted_problem p = planted(n, d, ids, 4, 1.0, 23);
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_least_squares(n, d, p.A, GSFW_ROW_MAJOR, p.y, &obj, NULL),
                     GSFW_OK);
    gsfw_tree *tree;
    assert_int_equal(gsfw_tree_from_parents(d, parent, &tree, NULL), GSFW_OK);
    gsfw_dmo *oracles[3];
    assert_int_equal(gsfw_dmo_tree_rooted(tree, 4, &oracles[0], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_tree_forest(tree, 5, 2, &oracles[1], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_tree_connected(tree, 4, &oracles[2], NULL), GSFW_OK);
    enum { T = 40, LONG = 20 * T };
    gsfw_iterate trace[T + 1];
    for (int k = 0; k < 3; k++) {
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = GSFW_METHOD_FW;
        set.step = GSFW_STEP_LINE;
        set.max_iter = LONG;
        set.C = 0.8;
        gsfw_info long_info;
        assert_int_equal(gsfw_solve(obj, oracles[k], &set, NULL, &long_info, NULL), GSFW_OK);
        for (int m = 0; m < N_METHODS; m++) {
            set.method = fw_methods[m];
            set.step = GSFW_STEP_AUTO;
            set.max_iter = T;
            gsfw_result res = {.trace = trace, .trace_capacity = T + 1};
            assert_int_equal(gsfw_solve(obj, oracles[k], &set, &res, NULL, NULL), GSFW_OK);
            for (int t = 0; t < res.trace_len; t++) {
                assert_false(isnan(trace[t].gap_bound));
                double excess = trace[t].f - long_info.f_best;
                if (trace[t].gap_bound < excess - 1e-12)
                    fail_msg("%s with %s, t = %d: bound %.17g < f - f_best = %.17g",
                             gsfw_method_name(set.method), oracles[k]->name, t,
                             trace[t].gap_bound, excess);
            }
        }
        gsfw_dmo_free(oracles[k]);
    }
    gsfw_tree_free(tree);
    gsfw_objective_free(obj);
    planted_free(&p);
}

/* --tol: the run stops with status converged once the bound is below tol, and then
 * f - f* (from a 20x longer run) is below tol too. */
static void test_tolerance_stops_converged(void **state)
{
    (void)state;
    fixture fx = sparse_fixture(60, 100, 5, 21);
    gsfw_dmo *topk;
    assert_int_equal(gsfw_dmo_topk(100, 5, &topk, NULL), GSFW_OK);
    gsfw_settings set;
    gsfw_settings_default(&set);
    set.method = GSFW_METHOD_BPCG;
    set.C = 0.9;
    set.max_iter = 4000;
    set.tol = 1e-7;
    gsfw_info info;
    assert_int_equal(gsfw_solve(fx.obj, topk, &set, NULL, &info, NULL), GSFW_OK);
    assert_int_equal(info.status, GSFW_STATUS_CONVERGED);
    assert_true(info.gap_bound <= 1e-7);
    assert_true(info.iterations < 4000);
    gsfw_settings ref = set;
    ref.tol = 0;
    ref.max_iter = 20 * info.iterations + 100;
    gsfw_info long_info;
    assert_int_equal(gsfw_solve(fx.obj, topk, &ref, NULL, &long_info, NULL), GSFW_OK);
    assert_true(info.f_last - long_info.f_best <= 1e-7);
    assert_true(long_info.f_best >= info.f_last - info.gap_bound - 1e-15);
    gsfw_dmo_free(topk);
    fixture_free(&fx);
}

/* A starting point: outside the ball or outside the model is refused, naming the problem;
 * a polished result (a model point in the ball) is accepted and the run starts there. */
static void test_x0_checked_and_warm_start(void **state)
{
    (void)state;
    fixture fx = sparse_fixture(60, 100, 5, 31);
    gsfw_dmo *topk;
    assert_int_equal(gsfw_dmo_topk(100, 5, &topk, NULL), GSFW_OK);
    double x0[100] = {0};
    gsfw_settings set;
    gsfw_settings_default(&set);
    set.x0 = x0;
    set.C = 1.0;
    set.max_iter = 5;
    gsfw_err err;
    x0[3] = 2.0; /* norm 2 > C */
    assert_int_equal(gsfw_solve(fx.obj, topk, &set, NULL, NULL, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "exceeds the radius"));
    x0[3] = 0.0;
    for (int i = 0; i < 6; i++) x0[i * 10] = 0.1; /* 6 > s nonzeros */
    assert_int_equal(gsfw_solve(fx.obj, topk, &set, NULL, NULL, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "is not in the feasible set"));
    x0[0] = NAN;
    assert_int_equal(gsfw_solve(fx.obj, topk, &set, NULL, NULL, &err), GSFW_ERR_NONFINITE);
    /* a polished answer is a valid start; the line step keeps its value at t = 0 */
    gsfw_settings first;
    gsfw_settings_default(&first);
    first.method = GSFW_METHOD_PFW;
    first.max_iter = 30;
    first.polish = 1;
    double pol[100];
    gsfw_result r1 = {.x_polished = pol};
    gsfw_info i1;
    assert_int_equal(gsfw_solve(fx.obj, topk, &first, &r1, &i1, &err), GSFW_OK);
    gsfw_settings warm = first;
    warm.x0 = pol;
    warm.polish = 0;
    warm.max_iter = 10;
    gsfw_iterate trace[11];
    gsfw_result r2 = {.trace = trace, .trace_capacity = 11};
    gsfw_info i2;
    assert_int_equal(gsfw_solve(fx.obj, topk, &warm, &r2, &i2, &err), GSFW_OK);
    assert_true(fabs(trace[0].f - i1.f_polished) <= 1e-12 * (1 + fabs(i1.f_polished)));
    assert_true(i2.f_best <= i1.f_polished);
    gsfw_dmo_free(topk);
    fixture_free(&fx);
}

/* Polish on a graph model: the answer has <= g components, at most s (subgraph) nodes,
 * norm <= C; with enough measurements it is x* itself. */
static void test_polish_lies_in_model(void **state)
{
    (void)state;
    gsfw_graph *grid;
    assert_int_equal(gsfw_graph_grid(8, 8, &grid, NULL), GSFW_OK);
    const int d = 64, n = 40, s = 6;
    int ids[6] = {18, 19, 20, 27, 35, 36}; /* connected on the 8 x 8 grid */
    planted_problem p = planted(n, d, ids, s, 1.0, 7);
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_least_squares(n, d, p.A, GSFW_ROW_MAJOR, p.y, &obj, NULL),
                     GSFW_OK);
    gsfw_dmo *oracle;
    assert_int_equal(gsfw_dmo_subgraph(grid, s, 1, &oracle, NULL), GSFW_OK);
    for (int m = 0; m < N_METHODS; m++) {
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = fw_methods[m];
        set.max_iter = 200;
        set.polish = 1;
        double pol[64], best[64];
        gsfw_result res = {.x_best = best, .x_polished = pol};
        gsfw_info info;
        gsfw_err err;
        if (gsfw_solve(obj, oracle, &set, &res, &info, &err)) fail_msg("%s", err.message);
        unsigned char mask[64];
        int work[128], nnz = 0;
        double nrm = 0;
        for (int i = 0; i < d; i++) {
            mask[i] = pol[i] != 0.0;
            nnz += mask[i];
            nrm += pol[i] * pol[i];
        }
        assert_true(nnz <= s && nnz >= 1);
        assert_true(gsfw_graph_induced_components(grid, mask, work) <= 1);
        assert_true(sqrt(nrm) <= 1.0 + 1e-12);
        assert_int_equal(info.polished_size, nnz);
        if (!(norm_diff(pol, p.x_star, d) <= 1e-8))
            fail_msg("%s: polished answer %g away from x*", gsfw_method_name(set.method),
                     norm_diff(pol, p.x_star, d));
    }
    gsfw_dmo_free(oracle);
    /* the PCSF head projection: the polished support is a set of its window [s, 1.05 s]
     * in <= g components */
    assert_int_equal(gsfw_dmo_head(grid, s, 1, &oracle, NULL), GSFW_OK);
    for (int m = 0; m < N_METHODS; m++) {
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = fw_methods[m];
        set.max_iter = 100;
        set.polish = 1;
        double pol[64];
        gsfw_result res = {.x_polished = pol};
        gsfw_info info;
        assert_int_equal(gsfw_solve(obj, oracle, &set, &res, &info, NULL), GSFW_OK);
        unsigned char mask[64];
        int work[128], nnz = 0;
        for (int i = 0; i < d; i++) nnz += (mask[i] = pol[i] != 0.0);
        if (!(nnz >= s && nnz <= (int)floor(1.05 * s)))
            fail_msg("%s with head: %d nonzeros outside [%d, %d]", gsfw_method_name(set.method),
                     nnz, s, (int)floor(1.05 * s));
        assert_true(gsfw_graph_induced_components(grid, mask, work) <= 1);
    }
    gsfw_dmo_free(oracle);
    gsfw_objective_free(obj);
    gsfw_graph_free(grid);
    planted_free(&p);
}

/* f(x) = 0.5 ||x - u||^2, u = (3, 4, 0, 0), whose refit (minimize_on) answers far outside
 * the ball: 1e200 and 2e200 on the two selected coordinates, whose squares overflow. */
static const double huge_u[4] = {3, 4, 0, 0};

static int huge_value(void *ctx, const double *x, double *f)
{
    (void)ctx;
    double s = 0;
    for (int i = 0; i < 4; i++) s += (x[i] - huge_u[i]) * (x[i] - huge_u[i]);
    *f = 0.5 * s;
    return 0;
}

static int huge_gradient(void *ctx, const double *x, double *g)
{
    (void)ctx;
    for (int i = 0; i < 4; i++) g[i] = x[i] - huge_u[i];
    return 0;
}

static int huge_refit(void *ctx, int k, const int *support, double *w, int max_iter, double tol,
                      double *f)
{
    (void)ctx;
    (void)support;
    (void)max_iter;
    (void)tol;
    for (int j = 0; j < k; j++) w[j] = 1e200 * (j + 1);
    *f = 0.0;
    return 0;
}

/* The polish's radius clip scales a refit with huge entries into the ball, along its
 * direction, rather than to 0 (its squares overflow a plain sum). */
static void test_polish_clips_huge_refit(void **state)
{
    (void)state;
    gsfw_objective obj = {.d = 4, .value = huge_value, .gradient = huge_gradient,
                          .minimize_on = huge_refit, .name = "huge refit"};
    gsfw_dmo *oracle;
    assert_int_equal(gsfw_dmo_topk(4, 2, &oracle, NULL), GSFW_OK);
    gsfw_settings set;
    gsfw_settings_default(&set);
    set.method = GSFW_METHOD_FW;
    set.max_iter = 10;
    set.C = 2.0;
    set.polish = 1;
    double pol[4] = {-1, -1, -1, -1};
    gsfw_result res = {.x_polished = pol};
    gsfw_info info;
    gsfw_err err;
    if (gsfw_solve(&obj, oracle, &set, &res, &info, &err)) fail_msg("%s", err.message);
    assert_int_equal(info.polished_size, 2);
    /* w = (1e200, 2e200) on the support {1, 0} (top-2 of x_best, larger first) or {0, 1}:
     * either way the clipped point is C (1, 2) / sqrt(5) in the support's order */
    const double a = 2.0 / sqrt(5.0), b = 4.0 / sqrt(5.0);
    const int first_is_1 = fabs(pol[1] - a) <= 1e-15;
    assert_true(fabs(pol[first_is_1 ? 1 : 0] - a) <= 1e-15);
    assert_true(fabs(pol[first_is_1 ? 0 : 1] - b) <= 1e-15);
    assert_true(pol[2] == 0.0 && pol[3] == 0.0);
    assert_true(fabs(sqrt(pol[0] * pol[0] + pol[1] * pol[1]) - 2.0) <= 1e-15);
    assert_true(isfinite(info.f_polished));
    /* a radius so small that C / ||w|| is subnormal (4.5e-321: three digits) */
    set.C = 1e-120;
    if (gsfw_solve(&obj, oracle, &set, &res, &info, &err)) fail_msg("%s", err.message);
    const double ta = 1e-120 / sqrt(5.0), tb = 2e-120 / sqrt(5.0);
    const int small_first_is_1 = fabs(pol[1] - ta) <= 1e-15 * ta;
    assert_true(fabs(pol[small_first_is_1 ? 1 : 0] - ta) <= 1e-15 * ta);
    assert_true(fabs(pol[small_first_is_1 ? 0 : 1] - tb) <= 1e-15 * tb);
    gsfw_dmo_free(oracle);
}

/* Two solves with the same oracle object give the same result bit for bit: the seeded
 * approximate oracle and the warm-started head are reset first. */
static void test_second_solve_repeats_first(void **state)
{
    (void)state;
    gsfw_graph *grid;
    assert_int_equal(gsfw_graph_grid(8, 8, &grid, NULL), GSFW_OK);
    int ids[6] = {18, 19, 20, 27, 35, 36};
    planted_problem p = planted(30, 64, ids, 6, 1.0, 9);
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_least_squares(30, 64, p.A, GSFW_ROW_MAJOR, p.y, &obj, NULL),
                     GSFW_OK);
    gsfw_dmo *oracles[2];
    assert_int_equal(gsfw_dmo_topk_approx(64, 6, 0.6, 5, &oracles[0], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_head(grid, 6, 1, &oracles[1], NULL), GSFW_OK);
    for (int k = 0; k < 2; k++) {
        for (int m = 0; m < N_METHODS; m++) {
            gsfw_settings set;
            gsfw_settings_default(&set);
            set.method = fw_methods[m];
            set.max_iter = 25;
            double a[64], b[64];
            gsfw_result ra = {.x_last = a}, rb = {.x_last = b};
            assert_int_equal(gsfw_solve(obj, oracles[k], &set, &ra, NULL, NULL), GSFW_OK);
            assert_int_equal(gsfw_solve(obj, oracles[k], &set, &rb, NULL, NULL), GSFW_OK);
            if (memcmp(a, b, sizeof a))
                fail_msg("%s with %s: the second solve differs", gsfw_method_name(set.method),
                         oracles[k]->name);
        }
    }
    gsfw_dmo_free(oracles[0]);
    gsfw_dmo_free(oracles[1]);
    gsfw_objective_free(obj);
    gsfw_graph_free(grid);
    planted_free(&p);
}

/* On a polytope (the l1 ball: the s = 1 model) with the optimum on a face, the away,
 * pairwise and blended methods converge linearly (Lacoste-Julien & Jaggi 2015), where
 * plain FW zig-zags: they reach f* to 1e-12 (relative) and beat FW by orders. */
static void test_active_sets_converge_linearly_on_a_polytope(void **state)
{
    (void)state;
    const int n = 80, d = 40;
    int ids[3] = {2, 17, 30};
    planted_problem p = planted(n, d, ids, 3, 1.0, 13);
    double l1 = 0;
    for (int i = 0; i < d; i++) l1 += fabs(p.x_star[i]);
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_least_squares(n, d, p.A, GSFW_ROW_MAJOR, p.y, &obj, NULL),
                     GSFW_OK);
    double f0 = 0;
    for (int i = 0; i < n; i++) f0 += 0.5 * p.y[i] * p.y[i];
    gsfw_dmo *ball;
    assert_int_equal(gsfw_dmo_l1(d, 1.0, 0, &ball, NULL), GSFW_OK);
    double rel[N_METHODS];
    for (int m = 0; m < N_METHODS; m++) {
        if (fw_methods[m] == GSFW_METHOD_ACCFW) continue;
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = fw_methods[m];
        set.step = GSFW_STEP_LINE;
        set.C = l1; /* x* lies on a face of the ball */
        set.max_iter = 300;
        gsfw_info info;
        assert_int_equal(gsfw_solve_checked(obj, ball, &set, NULL, &info, NULL), GSFW_OK);
        rel[m] = info.f_best / f0;
        if (getenv("FW_FAMILY_VERBOSE")) printf("l1 ball %s: %g\n", gsfw_method_name(set.method), rel[m]);
    }
    for (int m = 2; m < N_METHODS; m++) {
        if (!(rel[m] <= 1e-12)) fail_msg("%s: f/f0 = %g", gsfw_method_name(fw_methods[m]), rel[m]);
        assert_true(rel[m] * 1e3 <= rel[0]);
    }
    gsfw_dmo_free(ball);
    gsfw_objective_free(obj);
    planted_free(&p);
}

/* A step rule of one's own plugs in through settings.step_rule and gets what it needs. */
typedef struct {
    int calls;
} half_state;

static int half_choose(void *state, const gsfw_step_query *q, gsfw_line_eval line,
                       void *line_ctx, double *gamma, double *L_estimate)
{
    (void)L_estimate;
    half_state *st = state;
    st->calls++;
    double f_half;
    if (line(line_ctx, 0.5 * q->gamma_max, &f_half, NULL)) return 1;
    *gamma = f_half < q->f ? 0.5 * q->gamma_max : 0.0;
    return 0;
}

static void test_custom_step_rule(void **state)
{
    (void)state;
    fixture fx = sparse_fixture(40, 60, 4, 41);
    gsfw_dmo *topk;
    assert_int_equal(gsfw_dmo_topk(60, 4, &topk, NULL), GSFW_OK);
    static const gsfw_step_rule half = {.name = "half", .state_size = sizeof(half_state),
                                         .choose = half_choose};
    gsfw_settings set;
    gsfw_settings_default(&set);
    set.method = GSFW_METHOD_FW;
    set.step_rule = &half;
    set.max_iter = 50;
    gsfw_iterate trace[51];
    gsfw_result res = {.trace = trace, .trace_capacity = 51};
    gsfw_info info;
    assert_int_equal(gsfw_solve(fx.obj, topk, &set, &res, &info, NULL), GSFW_OK);
    for (int t = 0; t + 1 < res.trace_len; t++) {
        assert_true(trace[t].step == 0.0 || trace[t].step == 0.5);
        assert_true(trace[t + 1].f <= trace[t].f);
    }
    assert_true(info.f_best < fx.f0);
    gsfw_dmo_free(topk);
    fixture_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_variant_and_rule_converges),
        cmocka_unit_test(test_dense_fallback_matches_incremental),
        cmocka_unit_test(test_certified_bound_holds),
        cmocka_unit_test(test_certified_bound_holds_for_tree_oracles),
        cmocka_unit_test(test_tolerance_stops_converged),
        cmocka_unit_test(test_x0_checked_and_warm_start),
        cmocka_unit_test(test_polish_lies_in_model),
        cmocka_unit_test(test_polish_clips_huge_refit),
        cmocka_unit_test(test_second_solve_repeats_first),
        cmocka_unit_test(test_active_sets_converge_linearly_on_a_polytope),
        cmocka_unit_test(test_custom_step_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
