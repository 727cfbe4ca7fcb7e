/* Baselines (IHT, CoSaMP, Graph-IHT, Graph-CoSaMP, Gen-MP) on small planted problems
 * where they provably or reliably recover; least squares on a support against
 * independently computed solutions (normal equations, minimum-norm formula); the
 * summary metrics of `gsfw recover` against hand-computed values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"
#include "recover_metrics.h"
#include "objectives/restricted_ls.h"
#include "solvers/baselines/baselines.h"
#include "support/planted.h"
#include "util/rng.h"

typedef planted_problem problem;

/* y = A x* with x* supported on `support` (k ids) with N(0,1) values (kept away from 0)
 * scaled to unit norm; A Gaussian N(0, 1/n). */
static problem make_problem(int n, int d, const int *support, int k, uint64_t seed)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    problem p = planted_alloc(n, d, &rng);
    for (int j = 0; j < k; j++) {
        double v = gsfw_rng_normal(&rng);
        p.x_star[support[j]] = v + (v >= 0 ? 0.5 : -0.5);
    }
    planted_measure(&p, 1.0);
    return p;
}

static void free_problem(problem *p) { planted_free(p); }

static void spread_support(int d, int k, uint64_t seed, int *out)
{
    int *perm = malloc((size_t)d * sizeof(int));
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed ^ 0x5bd1e995u);
    for (int i = 0; i < d; i++) perm[i] = i;
    gsfw_rng_shuffle(&rng, perm, d);
    memcpy(out, perm, (size_t)k * sizeof(int));
    free(perm);
}

static double dist(const double *a, const double *b, int d)
{
    double s = 0;
    for (int i = 0; i < d; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

typedef struct {
    double *x_best, *x_last;
    gsfw_iterate *trace;
    gsfw_info info;
    gsfw_error rc;
    gsfw_err err;
} run_out;

static run_out run_method(const problem *p, gsfw_method method, gsfw_dmo *head,
                          gsfw_dmo *tail, int iters, double L, int compat, double C)
{
    run_out o;
    memset(&o, 0, sizeof o);
    gsfw_objective *obj = NULL;
    assert_int_equal(gsfw_objective_least_squares(p->n, p->d, p->A, GSFW_ROW_MAJOR, p->y, &obj,
                                                  NULL), GSFW_OK);
    gsfw_baseline_settings set;
    gsfw_baseline_settings_default(&set);
    set.method = method;
    set.max_iter = iters;
    set.L = L;
    set.x_true = p->x_star;
    set.reference_compat = compat;
    set.C = C;
    o.x_best = malloc((size_t)p->d * sizeof(double));
    o.x_last = malloc((size_t)p->d * sizeof(double));
    o.trace = malloc(((size_t)iters + 1) * sizeof(gsfw_iterate));
    gsfw_result res = {.x_best = o.x_best, .x_last = o.x_last, .trace = o.trace, .trace_capacity = iters + 1, .trace_len = 0};
    o.rc = gsfw_baseline_solve(obj, head, tail, &set, &res, &o.info, &o.err);
    if (o.rc == GSFW_OK) {
        assert_int_equal(res.trace_len, o.info.iterations + 1);
        for (int t = 0; t < res.trace_len; t++) {
            assert_int_equal(o.trace[t].iter, t);
            assert_true(isfinite(o.trace[t].est_err));
        }
    }
    gsfw_objective_free(obj);
    return o;
}

static void free_out(run_out *o)
{
    free(o->x_best);
    free(o->x_last);
    free(o->trace);
}

/* -------------------------------------------------- least squares on a support */

/* Solve the k x k system M z = b (row-major, overwritten) by Gaussian elimination with
 * partial pivoting: the independent reference. */
static void gauss_solve(double *M, double *b, int k)
{
    for (int c = 0; c < k; c++) {
        int piv = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(M[r * k + c]) > fabs(M[piv * k + c])) piv = r;
        for (int j = 0; j < k; j++) {
            double t = M[c * k + j];
            M[c * k + j] = M[piv * k + j];
            M[piv * k + j] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = c + 1; r < k; r++) {
            double f = M[r * k + c] / M[c * k + c];
            for (int j = c; j < k; j++) M[r * k + j] -= f * M[c * k + j];
            b[r] -= f * b[c];
        }
    }
    for (int c = k - 1; c >= 0; c--) {
        double s = b[c];
        for (int j = c + 1; j < k; j++) s -= M[c * k + j] * b[j];
        b[c] = s / M[c * k + c];
    }
}

/* Column-major copy of a row-major matrix. */
static double *col_major(const problem *p)
{
    double *Ac = malloc((size_t)p->n * p->d * sizeof(double));
    for (int r = 0; r < p->n; r++)
        for (int c = 0; c < p->d; c++) Ac[(size_t)c * p->n + r] = p->A[(size_t)r * p->d + c];
    return Ac;
}

/* 0.5 ||A_T w - y||^2 from the column-major copy. */
static double restricted_value(const double *Ac, const double *y, int n, const int *T, int k,
                               const double *w)
{
    double v = 0.0;
    for (int r = 0; r < n; r++) {
        double res = -y[r];
        for (int c = 0; c < k; c++) res += Ac[(size_t)T[c] * n + r] * w[c];
        v += 0.5 * res * res;
    }
    return v;
}

/* The least-squares objective's minimize_on against the normal equations (k <= n) or the
 * minimum-norm formula (k > n), solved independently by Gaussian elimination. mode
 * DIRECT: after reserve, one "iteration" must already be exact (the QR path); KRYLOV:
 * CGLS / Craig through the operator, run to convergence; GATHERED: reserve, but a
 * support too large for QR: CGLS / Craig on the copied columns (no restricted adjoint
 * product), which must also agree with the run through the operator. */
enum { KRYLOV = 0, DIRECT = 1, GATHERED = 2 };

/* A dense operator that counts its restricted adjoint products: the copied-column paths
 * of minimize_on must make none. */
typedef struct {
    gsfw_operator *inner;
    long adjoint_sparse_calls;
} counting_op;
static int cnt_apply(void *ctx, const double *x, double *y)
{
    gsfw_operator *in = ((counting_op *)ctx)->inner;
    return in->apply(in->ctx, x, y);
}
static int cnt_adjoint(void *ctx, const double *r, double *x)
{
    gsfw_operator *in = ((counting_op *)ctx)->inner;
    return in->adjoint(in->ctx, r, x);
}
static int cnt_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                            double alpha, double *y)
{
    gsfw_operator *in = ((counting_op *)ctx)->inner;
    return in->apply_sparse(in->ctx, nnz, idx, val, alpha, y);
}
static int cnt_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    counting_op *c = ctx;
    c->adjoint_sparse_calls++;
    return c->inner->adjoint_sparse(c->inner->ctx, r, nnz, idx, out);
}
static gsfw_operator counting_table(counting_op *c)
{
    return (gsfw_operator){.n = c->inner->n, .d = c->inner->d, .name = "counting", .ctx = c,
                           .apply = cnt_apply, .adjoint = cnt_adjoint,
                           .apply_sparse = cnt_apply_sparse,
                           .adjoint_sparse = cnt_adjoint_sparse,
                           .cheap_columns = c->inner->cheap_columns};
}

/* minimize_on's stopping tolerance in check_ls (0: as many iterations as allowed) */
static double ls_stop = 1e-14;

static void check_ls(int n, int d, int k, int mode, double tol)
{
    int support[1] = {0};
    problem p = make_problem(n, d, support, 1, 11 + (uint64_t)k);
    /* a generic right-hand side (not in the range of A_T) */
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 99);
    for (int i = 0; i < n; i++) p.y[i] = gsfw_rng_normal(&rng);
    double *Ac = col_major(&p);
    int *T = malloc((size_t)k * sizeof(int));
    spread_support(d, k, 7, T);
    double *w = malloc((size_t)k * sizeof(double));
    double *ref = malloc((size_t)k * sizeof(double));
    int m = k <= n ? k : n;
    double *M = calloc((size_t)m * m, sizeof(double));
    double *b = calloc((size_t)m, sizeof(double));
    if (k <= n) { /* normal equations: (A_T^T A_T) w = A_T^T y */
        for (int a = 0; a < k; a++) {
            for (int c = 0; c < k; c++)
                for (int r = 0; r < n; r++)
                    M[a * k + c] += Ac[(size_t)T[a] * n + r] * Ac[(size_t)T[c] * n + r];
            for (int r = 0; r < n; r++) b[a] += Ac[(size_t)T[a] * n + r] * p.y[r];
        }
        gauss_solve(M, b, k);
        memcpy(ref, b, (size_t)k * sizeof(double));
    } else { /* minimum norm: w = A_T^T (A_T A_T^T)^{-1} y */
        for (int r1 = 0; r1 < n; r1++)
            for (int r2 = 0; r2 < n; r2++)
                for (int c = 0; c < k; c++)
                    M[r1 * n + r2] += Ac[(size_t)T[c] * n + r1] * Ac[(size_t)T[c] * n + r2];
        memcpy(b, p.y, (size_t)n * sizeof(double));
        gauss_solve(M, b, n);
        for (int c = 0; c < k; c++) {
            ref[c] = 0;
            for (int r = 0; r < n; r++) ref[c] += Ac[(size_t)T[c] * n + r] * b[r];
        }
    }
    double nref = 0.0;
    for (int c = 0; c < k; c++) nref += ref[c] * ref[c];
    nref = sqrt(nref);
    /* the squared loss over a dense operator seen through a call counter */
    counting_op cnt = {NULL, 0};
    assert_int_equal(gsfw_operator_dense(n, d, Ac, GSFW_COL_MAJOR, GSFW_OP_BORROW, &cnt.inner,
                                         NULL), GSFW_OK);
    assert_true(cnt.inner->cheap_columns);
    gsfw_operator op = counting_table(&cnt);
    gsfw_objective *obj = NULL;
    assert_int_equal(gsfw_objective_linear(&op, n, p.y, NULL, &obj, NULL), GSFW_OK);
    assert_non_null(obj->reserve);
    if (mode != KRYLOV) assert_int_equal(obj->reserve(obj->ctx, k), 0);
    const int iters = mode == DIRECT ? 1 : 10 * (n + k);
    /* twice: the second Krylov solve starts from the first one's dual (must not matter) */
    for (int rep = 0; rep < 2; rep++) {
        double f = NAN;
        memset(w, 0, (size_t)k * sizeof(double));
        cnt.adjoint_sparse_calls = 0;
        assert_int_equal(obj->minimize_on(obj->ctx, k, T, w, iters, ls_stop, &f), 0);
        /* through the copy (DIRECT, GATHERED) or through the operator (KRYLOV) */
        if (mode == KRYLOV)
            assert_true(cnt.adjoint_sparse_calls > 0);
        else
            assert_int_equal(cnt.adjoint_sparse_calls, 0);
        assert_true(dist(w, ref, k) <= tol * nref);
        double v = restricted_value(Ac, p.y, n, T, k, w);
        assert_true(fabs(f - v) <= 1e-10 * (1.0 + v));
    }
    if (mode != DIRECT && k <= n) { /* warm start converges to the same point */
        for (int c = 0; c < k; c++) w[c] = ref[c] + 0.1;
        double f;
        assert_int_equal(obj->minimize_on(obj->ctx, k, T, w, iters, ls_stop, &f), 0);
        assert_true(dist(w, ref, k) <= tol * 10 * nref);
    }
    if (mode != KRYLOV) { /* without reserve, through the operator */
        gsfw_objective *plain = NULL;
        assert_int_equal(gsfw_objective_least_squares(n, d, Ac, GSFW_COL_MAJOR, p.y, &plain,
                                                      NULL), GSFW_OK);
        double f, *w2 = calloc((size_t)k, sizeof(double));
        memset(w, 0, (size_t)k * sizeof(double));
        assert_int_equal(plain->minimize_on(plain->ctx, k, T, w2, iters, ls_stop, &f), 0);
        assert_int_equal(obj->minimize_on(obj->ctx, k, T, w, iters, ls_stop, &f), 0);
        if (mode == DIRECT) /* one CGLS / Craig step is far from the answer */
            assert_true(dist(w2, ref, k) > 1e-3 * nref);
        else /* both converge to the same point (the minimiser, or the minimum-norm one) */
            assert_true(dist(w2, w, k) <= 1e-10 * nref);
        free(w2);
        gsfw_objective_free(plain);
    }
    gsfw_objective_free(obj);
    gsfw_operator_free(cnt.inner);
    free(M);
    free(b);
    free(ref);
    free(w);
    free(T);
    free(Ac);
    free_problem(&p);
}

static void test_ls_direct_overdetermined(void **state)
{
    (void)state;
    check_ls(40, 60, 12, DIRECT, 1e-10);
    check_ls(30, 30, 30, DIRECT, 1e-8); /* square */
}

static void test_ls_direct_min_norm(void **state)
{
    (void)state;
    check_ls(15, 60, 35, DIRECT, 1e-9);
}

/* Repeated columns: the direct solve must find the rank and return the minimum-norm
 * solution (y = 2 a_0 with columns 0..9 all equal to a_0: w = (0.2, ..., 0.2) on them),
 * not divide by a tiny pivot; CoSaMP on such a matrix stays bounded. */
static void test_ls_rank_deficient(void **state)
{
    (void)state;
    const int n = 30, d = 64;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 7);
    double *A = malloc(sizeof(double) * n * d), *y = calloc(n, sizeof(double));
    for (int c = 0; c < d; c++)
        for (int r = 0; r < n; r++) A[c * n + r] = c < 10 ? 0.0 : gsfw_rng_normal(&rng);
    for (int r = 0; r < n; r++) {
        double a0 = gsfw_rng_normal(&rng);
        for (int c = 0; c < 10; c++) A[c * n + r] = a0;
        y[r] = 2.0 * a0;
    }
    gsfw_objective *obj = NULL;
    assert_int_equal(gsfw_objective_least_squares(n, d, A, GSFW_COL_MAJOR, y, &obj, NULL), GSFW_OK);
    assert_int_equal(obj->reserve(obj->ctx, 12), 0);
    int T[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 30};
    double w[12] = {0}, f = NAN;
    assert_int_equal(obj->minimize_on(obj->ctx, 12, T, w, 1, 1e-14, &f), 0);
    for (int k = 0; k < 10; k++) assert_true(fabs(w[k] - 0.2) < 1e-10);
    assert_true(fabs(w[10]) < 1e-10 && fabs(w[11]) < 1e-10);
    assert_true(fabs(f) < 1e-20);

    gsfw_dmo *head = NULL, *tail = NULL;
    assert_int_equal(gsfw_dmo_topk(d, 12, &head, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_topk(d, 6, &tail, NULL), GSFW_OK);
    gsfw_baseline_settings set;
    gsfw_baseline_settings_default(&set);
    set.method = GSFW_METHOD_COSAMP;
    set.max_iter = 5;
    double xl[64];
    gsfw_result res = {.x_best = NULL, .x_last = xl, .trace = NULL, .trace_capacity = 0, .trace_len = 0};
    gsfw_info info;
    assert_int_equal(gsfw_baseline_solve(obj, head, tail, &set, &res, &info, NULL), GSFW_OK);
    double yy = 0;
    for (int r = 0; r < n; r++) yy += y[r] * y[r];
    assert_true(info.f_last <= 0.5 * yy);
    for (int i = 0; i < d; i++) assert_true(fabs(xl[i]) < 10.0);
    gsfw_dmo_free(head);
    gsfw_dmo_free(tail);
    gsfw_objective_free(obj);
    free(A);
    free(y);
}

static void test_ls_krylov(void **state)
{
    (void)state;
    check_ls(40, 60, 12, KRYLOV, 1e-9);
    check_ls(15, 60, 35, KRYLOV, 1e-8); /* Craig: minimum norm */
    check_ls(600, 900, 410, GATHERED, 1e-9);
    check_ls(410, 900, 600, GATHERED, 1e-8); /* Craig on the copy */
}

/* Tolerance 0 asks for every iteration allowed (10 (n + k) here): CGLS and Craig must
 * stop at the rounding floor of their residuals instead of iterating on rounding noise,
 * which lost conjugacy and grew without bound. */
static void test_ls_krylov_without_tolerance(void **state)
{
    (void)state;
    ls_stop = 0.0;
    check_ls(40, 60, 12, KRYLOV, 1e-9);
    check_ls(15, 60, 35, KRYLOV, 1e-8);
    check_ls(600, 900, 410, GATHERED, 1e-9);
    check_ls(410, 900, 600, GATHERED, 1e-8);
    ls_stop = 1e-14;
}

/* Which supports go direct, and how much room reserve takes. */
static void test_ls_direct_rule(void **state)
{
    (void)state;
    assert_true(gsfw_restricted_ls_worth(300, 180));
    assert_false(gsfw_restricted_ls_worth(1555, 1866));
    assert_int_equal(gsfw_restricted_ls_cap(1555, 1866), 1866);
    assert_int_equal(gsfw_restricted_ls_cap(100, 1000000), (1 << 25) / 100); /* budget */
    assert_int_equal(gsfw_restricted_ls_cap(100, 0), 0);
}

/* ----------------------------------------------------------------- solvers */

static void test_cosamp_recovers_exactly(void **state)
{
    (void)state;
    /* n = 12.5 s: CoSaMP's regime (at n = 6 s it already succeeds for most draws) */
    const int d = 256, s = 8, n = 100;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        int sup[8];
        spread_support(d, s, seed, sup);
        problem p = make_problem(n, d, sup, s, seed);
        gsfw_dmo *head, *tail;
        assert_int_equal(gsfw_dmo_topk(d, 2 * s, &head, NULL), GSFW_OK);
        assert_int_equal(gsfw_dmo_topk(d, s, &tail, NULL), GSFW_OK);
        run_out o = run_method(&p, GSFW_METHOD_COSAMP, head, tail, 30, 0, 0, 1.0);
        assert_int_equal(o.rc, GSFW_OK);
        assert_true(dist(o.x_last, p.x_star, d) <= 1e-8);
        assert_true(dist(o.x_best, p.x_star, d) <= 1e-8);
        assert_int_equal(o.info.oracle_calls, 2L * o.info.iterations);
        free_out(&o);
        gsfw_dmo_free(head);
        gsfw_dmo_free(tail);
        free_problem(&p);
    }
}

static void test_iht_recovers(void **state)
{
    (void)state;
    const int d = 200, s = 5, n = 80;
    int sup[5];
    spread_support(d, s, 4, sup);
    problem p = make_problem(n, d, sup, s, 4);
    gsfw_dmo *topk;
    assert_int_equal(gsfw_dmo_topk(d, s, &topk, NULL), GSFW_OK);
    run_out o = run_method(&p, GSFW_METHOD_IHT, topk, NULL, 1500, 0, 0, 1.0);
    assert_int_equal(o.rc, GSFW_OK);
    assert_int_equal(o.info.L_source, GSFW_L_SPECTRAL);
    assert_true(o.info.L > 1.0);
    assert_true(dist(o.x_last, p.x_star, d) <= 1e-8);
    assert_int_equal(o.info.oracle_calls, o.info.iterations);
    /* f decreases monotonically with step 1/L on the hard-thresholded iterates' model
     * once the support is fixed; at least the last iterate is the best */
    assert_true(o.info.f_last <= o.trace[0].f);
    free_out(&o);
    gsfw_dmo_free(topk);
    free_problem(&p);
}

/* A connected support on a grid of width W: an L-shaped path of s nodes from (5, 3). */
static void planted_grid_support(int W, int s, int *sup)
{
    int r = 5, c = 3;
    for (int k = 0; k < s; k++) {
        sup[k] = r * W + c;
        if (k < s / 2) c++;
        else r++;
    }
}

static void test_graph_cosamp_recovers(void **state)
{
    (void)state;
    /* n = 6 s Gaussian measurements, head M(G, 2s, 2), tail M(G, s, 1) */
    const int H = 12, W = 12, d = H * W, s = 6, n = 6 * s;
    int sup[6];
    planted_grid_support(W, s, sup);
    gsfw_graph *grid;
    assert_int_equal(gsfw_graph_grid(H, W, &grid, NULL), GSFW_OK);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        problem p = make_problem(n, d, sup, s, seed);
        gsfw_dmo *head, *tail;
        assert_int_equal(gsfw_dmo_subgraph(grid, 2 * s, 2, &head, NULL), GSFW_OK);
        assert_int_equal(gsfw_dmo_subgraph(grid, s, 1, &tail, NULL), GSFW_OK);
        run_out o = run_method(&p, GSFW_METHOD_GRAPH_COSAMP, head, tail, 30, 0, 0, 1.0);
        assert_int_equal(o.rc, GSFW_OK);
        assert_true(dist(o.x_best, p.x_star, d) <= 1e-8);
        free_out(&o);
        gsfw_dmo_free(head);
        gsfw_dmo_free(tail);
        free_problem(&p);
    }
    gsfw_graph_free(grid);
}

static void test_graph_iht_recovers(void **state)
{
    (void)state;
    /* With the safe step 1/L, (Graph-)IHT has fixed points on wrong supports (the paper
     * reports Graph-IHT "stuck"); it recovers reliably once n is large enough that L is
     * close to the restricted curvature: here n = 2d. */
    const int H = 12, W = 12, d = H * W, s = 6, n = 2 * d;
    int sup[6];
    planted_grid_support(W, s, sup);
    gsfw_graph *grid;
    assert_int_equal(gsfw_graph_grid(H, W, &grid, NULL), GSFW_OK);
    problem p = make_problem(n, d, sup, s, 1);
    /* graph oracles */
    gsfw_dmo *head, *tail;
    assert_int_equal(gsfw_dmo_subgraph(grid, 2 * s, 2, &head, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_subgraph(grid, s, 1, &tail, NULL), GSFW_OK);
    run_out o = run_method(&p, GSFW_METHOD_GRAPH_IHT, head, tail, 1500, 0, 0, 1.0);
    assert_int_equal(o.rc, GSFW_OK);
    assert_true(dist(o.x_best, p.x_star, d) <= 1e-7);
    assert_int_equal(o.info.oracle_calls, 2L * o.info.iterations);
    free_out(&o);
    gsfw_dmo_free(head);
    gsfw_dmo_free(tail);
    /* top-s oracles (head top-2s, tail top-s) */
    assert_int_equal(gsfw_dmo_topk(d, 2 * s, &head, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_topk(d, s, &tail, NULL), GSFW_OK);
    o = run_method(&p, GSFW_METHOD_GRAPH_IHT, head, tail, 1500, 0, 0, 1.0);
    assert_int_equal(o.rc, GSFW_OK);
    assert_true(dist(o.x_best, p.x_star, d) <= 1e-7);
    free_out(&o);
    gsfw_dmo_free(head);
    gsfw_dmo_free(tail);
    free_problem(&p);
    gsfw_graph_free(grid);
}

static void test_gen_mp(void **state)
{
    (void)state;
    const int d = 120, s = 6, n = 60;
    int sup[6];
    spread_support(d, s, 8, sup);
    problem p = make_problem(n, d, sup, s, 8);
    gsfw_dmo *topk;
    assert_int_equal(gsfw_dmo_topk(d, s, &topk, NULL), GSFW_OK);
    /* monotone decrease (block descent with step 1/L) to a small f */
    run_out o = run_method(&p, GSFW_METHOD_GEN_MP, topk, NULL, 2000, 0, 0, 1.0);
    assert_int_equal(o.rc, GSFW_OK);
    for (int t = 1; t <= o.info.iterations; t++)
        assert_true(o.trace[t].f <= o.trace[t - 1].f * (1 + 1e-12));
    assert_true(o.info.f_last <= 1e-6 * o.trace[0].f);
    double L = o.info.L;
    free_out(&o);

    /* one step by hand: x_1 = -z_S / L (default) and -C^2 z_S / L (reference_compat) */
    double *grad = calloc((size_t)d, sizeof(double));
    for (int c = 0; c < d; c++)
        for (int r = 0; r < n; r++) grad[c] -= p.A[(size_t)r * d + c] * p.y[r];
    int S[6];
    int size = 0;
    assert_int_equal(topk->select(topk->ctx, grad, S, &size, NULL), 0);
    for (int compat = 0; compat <= 1; compat++) {
        const double C = 0.5;
        o = run_method(&p, GSFW_METHOD_GEN_MP, topk, NULL, 1, L, compat, C);
        assert_int_equal(o.rc, GSFW_OK);
        double *expect = calloc((size_t)d, sizeof(double));
        for (int k = 0; k < size; k++) expect[S[k]] = -(compat ? C * C : 1.0) * grad[S[k]] / L;
        assert_true(dist(o.x_last, expect, d) <= 1e-12);
        free(expect);
        free_out(&o);
    }
    free(grad);
    gsfw_dmo_free(topk);
    free_problem(&p);
}

static int stop_at_3(const gsfw_iterate *it, const double *x, void *user)
{
    (void)x;
    (*(int *)user)++;
    return it->iter == 3;
}

static void test_bookkeeping_and_errors(void **state)
{
    (void)state;
    const int d = 50, s = 3, n = 20;
    int sup[3] = {1, 7, 30};
    problem p = make_problem(n, d, sup, s, 5);
    gsfw_dmo *topk;
    assert_int_equal(gsfw_dmo_topk(d, s, &topk, NULL), GSFW_OK);
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_least_squares(n, d, p.A, GSFW_ROW_MAJOR, p.y, &obj, NULL),
                     GSFW_OK);
    const gsfw_method methods[] = {GSFW_METHOD_IHT, GSFW_METHOD_COSAMP, GSFW_METHOD_GRAPH_IHT,
                                   GSFW_METHOD_GRAPH_COSAMP, GSFW_METHOD_GEN_MP};
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        gsfw_baseline_settings set;
        gsfw_baseline_settings_default(&set);
        set.method = methods[m];
        set.max_iter = 10;
        int calls = 0;
        set.callback = stop_at_3;
        set.callback_data = &calls;
        gsfw_iterate trace[11];
        gsfw_result res = {.x_best = NULL, .x_last = NULL, .trace = trace, .trace_capacity = 11, .trace_len = 0};
        gsfw_info info;
        assert_int_equal(gsfw_baseline_solve(obj, topk, NULL, &set, &res, &info, NULL), GSFW_OK);
        assert_int_equal(info.status, GSFW_STATUS_CALLBACK_STOP);
        assert_int_equal(info.iterations, 3);
        assert_int_equal(res.trace_len, 4);
        assert_int_equal(calls, 4);
        assert_true(isnan(trace[0].est_err)); /* no x_true */
        assert_true(info.solve_time >= 0 && info.setup_time >= 0);
        assert_true(info.f_best <= trace[0].f);
    }
    /* CoSaMP needs A and y, or a minimize_on hook */
    gsfw_objective *cb;
    assert_int_equal(gsfw_objective_callback(d, obj->ctx, obj->value, obj->gradient, NULL, &cb,
                                             NULL), GSFW_OK);
    gsfw_baseline_settings set;
    gsfw_baseline_settings_default(&set);
    set.method = GSFW_METHOD_COSAMP;
    set.max_iter = 2;
    gsfw_info info;
    gsfw_err err;
    assert_int_equal(gsfw_baseline_solve(cb, topk, NULL, &set, NULL, &info, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "minimize_on hook"));
    /* IHT without L and without a lipschitz hook */
    set.method = GSFW_METHOD_IHT;
    assert_int_equal(gsfw_baseline_solve(cb, topk, NULL, &set, NULL, &info, &err),
                     GSFW_ERR_INVALID_ARG);
    set.L = 10.0; /* given L: runs on the plain (non-incremental) objective */
    assert_int_equal(gsfw_baseline_solve(cb, topk, NULL, &set, NULL, &info, &err), GSFW_OK);
    assert_int_equal(info.L_source, GSFW_L_GIVEN);
    /* a tail of the wrong dimension */
    gsfw_dmo *wrong;
    assert_int_equal(gsfw_dmo_topk(d + 1, s, &wrong, NULL), GSFW_OK);
    assert_int_equal(gsfw_baseline_solve(obj, topk, wrong, &set, NULL, &info, &err),
                     GSFW_ERR_DIMENSION);
    gsfw_dmo_free(wrong);
    gsfw_objective_free(cb);
    gsfw_objective_free(obj);
    gsfw_dmo_free(topk);
    free_problem(&p);
}

/* ----------------------------------------------------------- recover metrics */

static void test_recover_metrics(void **state)
{
    (void)state;
    /* x* = (0.6, 0.8, 0, 0), x = (0.6, 0.4, 0.3, 0) */
    const double xs[4] = {0.6, 0.8, 0.0, 0.0};
    const double x[4] = {0.6, 0.4, 0.3, 0.0};
    /* ||x - x*|| = sqrt(0.16 + 0.09) = 0.5, ||x*|| = 1 */
    assert_true(fabs(rec_rel_err(x, xs, 4) - 0.5) < 1e-15);
    /* MSE = 0.25/4, R = 0.8: PSNR = 10 log10(0.64 / 0.0625) = 10.1029995663981... */
    assert_true(fabs(rec_psnr(x, xs, 4) - 10.0 * log10(0.64 / 0.0625)) < 1e-12);
    assert_true(fabs(rec_psnr(x, xs, 4) - 10.10299956639812) < 1e-12);
    /* supp(x*) = {0,1}, supp(x) = {0,1,2}: pre 2/3, rec 1, F1 = 0.8 */
    double pre, rec;
    assert_true(fabs(rec_support_f1(x, xs, 4, &pre, &rec) - 0.8) < 1e-15);
    assert_true(fabs(pre - 2.0 / 3.0) < 1e-15 && rec == 1.0);
    /* exact recovery: PSNR infinite, F1 = 1; empty estimate: F1 = 0 */
    assert_true(isinf(rec_psnr(xs, xs, 4)));
    assert_true(rec_support_f1(xs, xs, 4, NULL, NULL) == 1.0);
    const double zero[4] = {0, 0, 0, 0};
    assert_true(rec_support_f1(zero, xs, 4, &pre, &rec) == 0.0);
    assert_true(pre == 0.0 && rec == 0.0);
    assert_true(fabs(rec_rel_err(zero, xs, 4) - 1.0) < 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ls_direct_overdetermined),
        cmocka_unit_test(test_ls_direct_min_norm),
        cmocka_unit_test(test_ls_rank_deficient),
        cmocka_unit_test(test_ls_krylov),
        cmocka_unit_test(test_ls_krylov_without_tolerance),
        cmocka_unit_test(test_ls_direct_rule),
        cmocka_unit_test(test_cosamp_recovers_exactly),
        cmocka_unit_test(test_iht_recovers),
        cmocka_unit_test(test_graph_cosamp_recovers),
        cmocka_unit_test(test_graph_iht_recovers),
        cmocka_unit_test(test_gen_mp),
        cmocka_unit_test(test_bookkeeping_and_errors),
        cmocka_unit_test(test_recover_metrics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
