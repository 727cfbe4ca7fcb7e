/* Losses over a linear operator (gsfw_objective_linear): every hook checked against an
 * independent computation (formulas evaluated here on the dense matrix, finite
 * differences, LAPACK least squares, a golden-section search for the intercept), over a
 * dense and a sparse reference operator (tests/support/ref_operator.c), plus the
 * reducer (identity and a simulated two-process run) and a planted logistic problem. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <lapacke.h>

#include "gsfw.h"
#include "objectives/linear.h"
#include "operators/op_internal.h"
#include "support/ref_operator.h"
#include "util/rng.h"

enum { N = 40, D = 12 };

typedef struct {
    gsfw_loss loss;
    int intercept;
    const char *label;
} loss_case;

static const loss_case cases[] = {
    {GSFW_LOSS_SQUARED, 0, "squared"},
    {GSFW_LOSS_LOGISTIC, 0, "logistic"},
    {GSFW_LOSS_LOGISTIC, 1, "logistic+intercept"},
    {GSFW_LOSS_HUBER, 0, "huber"},
};
enum { NCASES = sizeof cases / sizeof cases[0] };
static const double huber_delta = 0.7;

/* n x d row-major N(0, 1/n) entries, about half of them zero when sparse. */
static double *make_matrix(int n, int d, int sparse, uint64_t seed)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    double *A = malloc((size_t)n * d * sizeof(double));
    for (int k = 0; k < n * d; k++) {
        A[k] = gsfw_rng_normal(&rng) / sqrt((double)n);
        if (sparse && gsfw_rng_uniform(&rng) < 0.5) A[k] = 0.0;
    }
    return A;
}

/* Labels in {-1, +1} (both present) or targets with residuals on both sides of delta. */
static double *make_targets(gsfw_loss loss, int n, uint64_t seed)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    double *y = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        y[i] = loss == GSFW_LOSS_LOGISTIC ? (gsfw_rng_uniform(&rng) < 0.6 ? 1.0 : -1.0)
                                          : 1.5 * gsfw_rng_normal(&rng);
    y[0] = 1.0;
    y[1] = -1.0;
    return y;
}

static void random_vector(gsfw_rng *rng, double *x, int d, double scale)
{
    for (int j = 0; j < d; j++) x[j] = scale * gsfw_rng_normal(rng);
}

static gsfw_objective *make_objective(const gsfw_operator *op, const double *y,
                                      const loss_case *lc, gsfw_reducer red)
{
    gsfw_loss_options opt;
    gsfw_loss_options_default(&opt);
    opt.loss = lc->loss;
    opt.intercept = lc->intercept;
    opt.huber_delta = huber_delta;
    opt.reducer = red;
    gsfw_objective *obj = NULL;
    gsfw_err err;
    gsfw_error e = gsfw_objective_linear(op, op->n, y, &opt, &obj, &err);
    if (e) fail_msg("gsfw_objective_linear (%s): %s", lc->label, err.message);
    return obj;
}

/* ---- the losses written out on the dense row-major matrix */

static double loss_term(gsfw_loss loss, double u, double y)
{
    if (loss == GSFW_LOSS_LOGISTIC) {
        double m = y * u;
        return m > 0 ? log1p(exp(-m)) : -m + log1p(exp(m));
    }
    double t = u - y;
    if (loss == GSFW_LOSS_SQUARED || fabs(t) <= huber_delta) return 0.5 * t * t;
    return huber_delta * (fabs(t) - 0.5 * huber_delta);
}

static double sum_at(gsfw_loss loss, const double *u, const double *y, int n, double b)
{
    double f = 0;
    for (int i = 0; i < n; i++) f += loss_term(loss, u[i] + b, y[i]);
    return f;
}

static void matvec(const double *A, int n, int d, const double *x, double *u)
{
    for (int i = 0; i < n; i++) {
        u[i] = 0;
        for (int j = 0; j < d; j++) u[i] += A[(size_t)i * d + j] * x[j];
    }
}

/* min_b sum_i l(u_i + b): golden-section search on a bracket found by doubling. */
static double profile_intercept(const double *u, const double *y, int n, double *b_out)
{
    double lo = -1, hi = 1;
    while (sum_at(GSFW_LOSS_LOGISTIC, u, y, n, lo - 1) < sum_at(GSFW_LOSS_LOGISTIC, u, y, n, lo)) lo *= 2;
    while (sum_at(GSFW_LOSS_LOGISTIC, u, y, n, hi + 1) < sum_at(GSFW_LOSS_LOGISTIC, u, y, n, hi)) hi *= 2;
    lo -= 1;
    hi += 1;
    const double r = (sqrt(5.0) - 1) / 2;
    while (hi - lo > 1e-11) {
        double a = hi - r * (hi - lo), c = lo + r * (hi - lo);
        if (sum_at(GSFW_LOSS_LOGISTIC, u, y, n, a) < sum_at(GSFW_LOSS_LOGISTIC, u, y, n, c))
            hi = c;
        else
            lo = a;
    }
    *b_out = 0.5 * (lo + hi);
    return sum_at(GSFW_LOSS_LOGISTIC, u, y, n, *b_out);
}

static double reference_value(const loss_case *lc, const double *A, const double *y, int n,
                              int d, const double *x)
{
    double u[N];
    matvec(A, n, d, x, u);
    double b;
    return lc->intercept ? profile_intercept(u, y, n, &b) : sum_at(lc->loss, u, y, n, 0.0);
}

/* The direct comparisons below (a hook against the formula evaluated here, a cached value
 * against a fresh one) differ only in the order of sums of at most N + D = 52 terms: by
 * at most about 1.2e-14 of the sum of the terms' magnitudes, which 1e-12 or 1e-11
 * relative to max(1, |want|) covers with room for cancellation. Slopes compared with a
 * central difference over h carry its O(h^2) error and rounding eps |f| / h (1e-6 for
 * h = 1e-5 or 1e-6); intercepts against the golden-section search, which compares
 * values of f and so finds a minimiser only to about sqrt(eps) = 1.5e-8 (relative to its
 * curvature scale): 1e-6. */
static void assert_close(double got, double want, double rel, const char *what)
{
    if (!(fabs(got - want) <= rel * fmax(1.0, fabs(want))))
        fail_msg("%s: got %.17g, want %.17g (rel tol %g)", what, got, want, rel);
}

/* ---- value and gradient */

static void check_value_and_gradient(int sparse)
{
    double *A = make_matrix(N, D, sparse, 100 + sparse);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 7);
    for (int c = 0; c < NCASES; c++) {
        const loss_case *lc = &cases[c];
        double *y = make_targets(lc->loss, N, 200 + c);
        gsfw_operator *op = sparse ? ref_csr_operator(N, D, A) : ref_dense_operator(N, D, A);
        gsfw_objective *obj = make_objective(op, y, lc, (gsfw_reducer){NULL, NULL});
        for (int trial = 0; trial < 3; trial++) {
            double x[D], g[D], f, xp[D];
            random_vector(&rng, x, D, 1.0);
            assert_int_equal(obj->value_grad(obj->ctx, x, &f, g), 0);
            assert_close(f, reference_value(lc, A, y, N, D, x), 1e-12, lc->label);
            double gmax = 0;
            for (int j = 0; j < D; j++) gmax = fmax(gmax, fabs(g[j]));
            for (int j = 0; j < D; j++) {
                double h = 1e-5, fp, fm;
                memcpy(xp, x, sizeof xp);
                xp[j] = x[j] + h;
                assert_int_equal(obj->value(obj->ctx, xp, &fp), 0);
                xp[j] = x[j] - h;
                assert_int_equal(obj->value(obj->ctx, xp, &fm), 0);
                double fd = (fp - fm) / (2 * h);
                if (!(fabs(fd - g[j]) <= 1e-6 * fmax(1.0, gmax)))
                    fail_msg("%s %s: d f/d x_%d = %.12g, central difference %.12g", lc->label,
                             op->name, j, g[j], fd);
            }
            double g2[D];
            assert_int_equal(obj->gradient(obj->ctx, x, g2), 0);
            for (int j = 0; j < D; j++) assert_close(g2[j], g[j], 1e-12, "gradient alone");
        }
        gsfw_objective_free(obj);
        ref_operator_free(op);
        free(y);
    }
    free(A);
}

static void test_gradient_dense(void **state)
{
    (void)state;
    check_value_and_gradient(0);
}

static void test_gradient_sparse(void **state)
{
    (void)state;
    check_value_and_gradient(1);
}

/* ---- incremental hooks */

static void check_incremental(int sparse)
{
    double *A = make_matrix(N, D, sparse, 300 + sparse);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 8);
    for (int c = 0; c < NCASES; c++) {
        const loss_case *lc = &cases[c];
        double *y = make_targets(lc->loss, N, 400 + c);
        gsfw_operator *op = sparse ? ref_csr_operator(N, D, A) : ref_dense_operator(N, D, A);
        gsfw_objective *obj = make_objective(op, y, lc, (gsfw_reducer){NULL, NULL});
        double x[D];
        random_vector(&rng, x, D, 0.7);
        assert_int_equal(obj->reset(obj->ctx, x), 0);
        /* FW step (cx = -1), away step (cx = +1), pairwise / free move (cx = 0) */
        const double cxs[3] = {-1.0, 1.0, 0.0};
        for (int m = 0; m < 3; m++) {
            int idx[3] = {(m * 5) % D, (m * 5 + 3) % D, (m * 5 + 7) % D};
            double val[3];
            random_vector(&rng, val, 3, 1.0);
            double dir[D];
            for (int j = 0; j < D; j++) dir[j] = cxs[m] * x[j];
            for (int k = 0; k < 3; k++) dir[idx[k]] += val[k];
            assert_int_equal(obj->set_direction(obj->ctx, cxs[m], 3, idx, val), 0);
            const double gammas[4] = {0.0, 0.3, -0.2, 1.0};
            for (int t = 0; t < 4; t++) {
                double gam = gammas[t], f, slope, xg[D], fx, g[D];
                assert_int_equal(obj->along(obj->ctx, gam, &f, &slope), 0);
                for (int j = 0; j < D; j++) xg[j] = x[j] + gam * dir[j];
                assert_int_equal(obj->value_grad(obj->ctx, xg, &fx, g), 0);
                assert_close(f, fx, 1e-11, "along value");
                double dot = 0;
                for (int j = 0; j < D; j++) dot += g[j] * dir[j];
                assert_close(slope, dot, 1e-10, "along slope vs <grad, d>");
                double h = 1e-6, fp, fm;
                assert_int_equal(obj->along(obj->ctx, gam + h, &fp, NULL), 0);
                assert_int_equal(obj->along(obj->ctx, gam - h, &fm, NULL), 0);
                assert_close(slope, (fp - fm) / (2 * h), 1e-6, "along slope vs difference");
            }
            double gam = 0.25 + 0.1 * m, fc, gc[D], ff, gf[D];
            assert_int_equal(obj->step(obj->ctx, gam), 0);
            for (int j = 0; j < D; j++) x[j] += gam * dir[j];
            assert_int_equal(obj->cached_value_grad(obj->ctx, &fc, gc), 0);
            assert_int_equal(obj->value_grad(obj->ctx, x, &ff, gf), 0);
            assert_close(fc, ff, 1e-12, "cached value after step");
            for (int j = 0; j < D; j++) assert_close(gc[j], gf[j], 1e-11, "cached gradient");
            double f_only;
            assert_int_equal(obj->cached_value_grad(obj->ctx, &f_only, NULL), 0);
            assert_close(f_only, fc, 1e-14, "cached value alone");
        }
        gsfw_objective_free(obj);
        ref_operator_free(op);
        free(y);
    }
    free(A);
}

static void test_incremental_dense(void **state)
{
    (void)state;
    check_incremental(0);
}

static void test_incremental_sparse(void **state)
{
    (void)state;
    check_incremental(1);
}

/* ---- restricted minimisation */

static void test_minimize_on_least_squares_matches_lapack(void **state)
{
    (void)state;
    const int n = 30, d = 20, k = 6;
    const int S[6] = {3, 17, 0, 9, 11, 5};
    for (int sparse = 0; sparse < 2; sparse++) {
        double *A = make_matrix(n, d, sparse, 500 + sparse);
        double *y = make_targets(GSFW_LOSS_SQUARED, n, 501);
        gsfw_operator *op = sparse ? ref_csr_operator(n, d, A) : ref_dense_operator(n, d, A);
        gsfw_objective *obj = make_objective(op, y, &cases[0], (gsfw_reducer){NULL, NULL});
        /* LAPACK: column submatrix, column-major, least squares by QR */
        double As[30 * 6], b[30];
        for (int i = 0; i < n; i++) {
            b[i] = y[i];
            for (int m = 0; m < k; m++) As[(size_t)m * n + i] = A[(size_t)i * d + S[m]];
        }
        assert_int_equal(LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n, k, 1, As, n, b, n), 0);
        double w[6] = {0.5, -1, 0, 2, 0, 0.1}, f; /* warm start */
        assert_int_equal(obj->minimize_on(obj->ctx, k, S, w, 100, 1e-15, &f), 0);
        for (int m = 0; m < k; m++) assert_close(w[m], b[m], 1e-10, "CGLS vs dgels");
        double x[20] = {0};
        for (int m = 0; m < k; m++) x[S[m]] = b[m];
        double fref;
        assert_int_equal(obj->value(obj->ctx, x, &fref), 0);
        assert_close(f, fref, 1e-12, "minimize_on value");
        gsfw_objective_free(obj);
        ref_operator_free(op);
        free(y);
        free(A);
    }
}

static void test_minimize_on_zero_restricted_gradient(void **state)
{
    (void)state;
    const int n = 60, d = 20, k = 5;
    const int S[5] = {2, 7, 19, 11, 4};
    for (int c = 1; c < NCASES; c++) {
        const loss_case *lc = &cases[c];
        double *A = make_matrix(n, d, 0, 600 + c);
        for (int i = 0; i < n * d; i++) A[i] *= 3.0; /* Huber: residuals on both sides */
        double *y = make_targets(lc->loss, n, 601 + c);
        gsfw_operator *op = ref_dense_operator(n, d, A);
        gsfw_objective *obj = make_objective(op, y, lc, (gsfw_reducer){NULL, NULL});
        double w[5] = {0.3, -0.2, 0.1, 0, 0}, x[20] = {0}, g[20], f, fx;
        for (int m = 0; m < k; m++) x[S[m]] = w[m];
        assert_int_equal(obj->gradient(obj->ctx, x, g), 0);
        double g0 = 0;
        for (int m = 0; m < k; m++) g0 += g[S[m]] * g[S[m]];
        assert_int_equal(obj->minimize_on(obj->ctx, k, S, w, 100, 1e-10, &f), 0);
        memset(x, 0, sizeof x);
        for (int m = 0; m < k; m++) x[S[m]] = w[m];
        assert_int_equal(obj->value_grad(obj->ctx, x, &fx, g), 0);
        double gs = 0;
        for (int m = 0; m < k; m++) gs += g[S[m]] * g[S[m]];
        if (!(sqrt(gs) <= 1e-8 * sqrt(g0)))
            fail_msg("%s: restricted gradient %g after minimize_on (initial %g)", lc->label,
                     sqrt(gs), sqrt(g0));
        assert_close(f, fx, 1e-12, "minimize_on value");
        /* no support entry outside S moved, and the minimiser beats random nearby points */
        gsfw_rng rng;
        gsfw_rng_seed(&rng, 9);
        for (int t = 0; t < 20; t++) {
            double xp[20], fp;
            memcpy(xp, x, sizeof xp);
            for (int m = 0; m < k; m++) xp[S[m]] += 1e-3 * gsfw_rng_normal(&rng);
            assert_int_equal(obj->value(obj->ctx, xp, &fp), 0);
            assert_true(fp >= fx - 1e-12 * fabs(fx));
        }
        gsfw_objective_free(obj);
        ref_operator_free(op);
        free(y);
        free(A);
    }
}

/* Huber with delta far below the residuals: the Hessian is zero or nearly so at the start
 * (least absolute deviations in all but name); the restricted minimiser is still found. */
static void test_minimize_on_huber_small_delta(void **state)
{
    (void)state;
    const int n = 80, d = 20, k = 6;
    const int S[6] = {0, 3, 8, 12, 15, 19};
    double *A = make_matrix(n, d, 0, 650);
    double *y = make_targets(GSFW_LOSS_HUBER, n, 651);
    gsfw_operator *op = ref_dense_operator(n, d, A);
    loss_case lc = {GSFW_LOSS_HUBER, 0, "huber"};
    gsfw_loss_options opt;
    gsfw_loss_options_default(&opt);
    opt.loss = GSFW_LOSS_HUBER;
    opt.huber_delta = 1e-3;
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_linear(op, n, y, &opt, &obj, NULL), GSFW_OK);
    double w[6] = {0}, x[20] = {0}, g[20], f, fx;
    assert_int_equal(obj->gradient(obj->ctx, x, g), 0);
    double g0 = 0;
    for (int m = 0; m < k; m++) g0 += g[S[m]] * g[S[m]];
    assert_int_equal(obj->minimize_on(obj->ctx, k, S, w, 200, 1e-12, &f), 0);
    for (int m = 0; m < k; m++) x[S[m]] = w[m];
    assert_int_equal(obj->value_grad(obj->ctx, x, &fx, g), 0);
    double gs = 0;
    for (int m = 0; m < k; m++) gs += g[S[m]] * g[S[m]];
    if (!(sqrt(gs) <= 1e-8 * sqrt(g0)))
        fail_msg("%s, delta 1e-3: restricted gradient %g after minimize_on (initial %g)",
                 lc.label, sqrt(gs), sqrt(g0));
    assert_close(f, fx, 1e-12, "minimize_on value");
    gsfw_objective_free(obj);
    ref_operator_free(op);
    free(y);
    free(A);
}

static void test_minimize_on_bad_support(void **state)
{
    (void)state;
    double *A = make_matrix(N, D, 0, 700);
    double *y = make_targets(GSFW_LOSS_SQUARED, N, 701);
    gsfw_operator *op = ref_dense_operator(N, D, A);
    gsfw_objective *obj = make_objective(op, y, &cases[0], (gsfw_reducer){NULL, NULL});
    double w[3] = {0}, f;
    const int dup[3] = {1, 4, 1}, out_of_range[3] = {1, D, 2};
    assert_int_not_equal(obj->minimize_on(obj->ctx, 3, dup, w, 10, 1e-8, &f), 0);
    assert_int_not_equal(obj->minimize_on(obj->ctx, 3, out_of_range, w, 10, 1e-8, &f), 0);
    /* the marks of a refused call are cleared: a valid support still works */
    const int ok[3] = {1, 4, 2};
    assert_int_equal(obj->minimize_on(obj->ctx, 3, ok, w, 50, 1e-12, &f), 0);
    gsfw_objective_free(obj);
    ref_operator_free(op);
    free(y);
    free(A);
}

/* ---- intercept */

static void test_intercept_is_profiled_out(void **state)
{
    (void)state;
    double *A = make_matrix(N, D, 0, 800);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 10);
    double y[N];
    for (int i = 0; i < N; i++) y[i] = gsfw_rng_uniform(&rng) < 0.8 ? 1.0 : -1.0;
    y[0] = -1.0;
    gsfw_operator *op = ref_dense_operator(N, D, A);
    gsfw_objective *obj = make_objective(op, y, &cases[2], (gsfw_reducer){NULL, NULL});
    for (int t = 0; t < 4; t++) {
        double x[D], u[N], f, b, bref;
        random_vector(&rng, x, D, 1.5);
        matvec(A, N, D, x, u);
        double fref = profile_intercept(u, y, N, &bref);
        assert_int_equal(obj->value(obj->ctx, x, &f), 0);
        assert_close(f, fref, 1e-12, "profiled value vs golden section");
        assert_int_equal(gsfw_objective_intercept(obj, x, &b, NULL), GSFW_OK);
        assert_close(b, bref, 1e-6, "intercept vs golden section");
        /* the unpenalised intercept lowers the loss below b = 0 */
        assert_true(f <= sum_at(GSFW_LOSS_LOGISTIC, u, y, N, 0.0));
        /* at the cached point */
        assert_int_equal(obj->reset(obj->ctx, x), 0);
        assert_int_equal(gsfw_objective_intercept(obj, NULL, &b, NULL), GSFW_OK);
        assert_close(b, bref, 1e-6, "intercept at the cached point");
    }
    /* objectives without an intercept say so */
    gsfw_objective *plain = make_objective(op, y, &cases[1], (gsfw_reducer){NULL, NULL});
    gsfw_err err;
    double b;
    assert_int_equal(gsfw_objective_intercept(plain, NULL, &b, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "no intercept"));
    gsfw_objective_free(plain);
    gsfw_objective_free(obj);
    ref_operator_free(op);
    free(A);
}

/* Two rows, labels +1 and -1, margins 500 + b and -b: phi(b) is symmetric about -250,
 * where the minimiser is. From b = 0 the derivative decays like e^b: Newton's steps are
 * one unit long there, and 200 of them never reached the minimiser (a failed "no
 * minimiser"). Any start finds it now. */
static void test_intercept_far_from_the_start(void **state)
{
    (void)state;
    const double A[2] = {500.0, 0.0}, y[2] = {1.0, -1.0}, x[1] = {1.0};
    gsfw_operator *op = ref_dense_operator(2, 1, A);
    gsfw_objective *obj = make_objective(op, y, &cases[2], (gsfw_reducer){NULL, NULL});
    double f, b;
    gsfw_err err;
    assert_int_equal(obj->value(obj->ctx, x, &f), 0);
    assert_int_equal(gsfw_objective_intercept(obj, x, &b, &err), GSFW_OK);
    /* phi'(b) = sigma(b) - sigma(-500 - b) vanishes at -250 only; near it phi'' is about
     * 2 e^-250, so |b + 250| is limited by the search's relative tolerance 1e-12 */
    assert_close(b, -250.0, 1e-9, "intercept 250 units from the start");
    const double f_min = 2.0 * log1p(exp(-250.0)); /* about 5.4e-109 */
    if (!(fabs(f - f_min) <= 1e-9 * f_min)) fail_msg("f %.17g, want %.17g", f, f_min);
    gsfw_objective_free(obj);
    ref_operator_free(op);
}

/* ---- Lipschitz constant */

static void test_lipschitz_bounds_curvature(void **state)
{
    (void)state;
    double *A = make_matrix(N, D, 0, 900);
    /* sigma_max(A)^2 from LAPACK */
    double Acopy[N * D], sv[D], superb[D];
    memcpy(Acopy, A, sizeof Acopy);
    assert_int_equal(LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'N', N, D, Acopy, D, sv, NULL, 1,
                                    NULL, 1, superb), 0);
    double s2 = sv[0] * sv[0];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 11);
    for (int c = 0; c < NCASES; c++) {
        const loss_case *lc = &cases[c];
        double *y = make_targets(lc->loss, N, 901 + c);
        gsfw_operator *op = ref_dense_operator(N, D, A);
        gsfw_objective *obj = make_objective(op, y, lc, (gsfw_reducer){NULL, NULL});
        double L, L2;
        assert_int_equal(obj->lipschitz(obj->ctx, &L), 0);
        double curv = lc->loss == GSFW_LOSS_LOGISTIC ? 0.25 : 1.0;
        assert_true(L >= curv * s2);
        assert_true(L <= 1.02 * curv * s2);
        assert_int_equal(obj->lipschitz(obj->ctx, &L2), 0);
        assert_true(L2 == L); /* cached */
        for (int t = 0; t < 100; t++) {
            double x[D], u[D];
            random_vector(&rng, x, D, 1.0);
            random_vector(&rng, u, D, 1.0);
            int idx[D];
            for (int j = 0; j < D; j++) idx[j] = j;
            assert_int_equal(obj->reset(obj->ctx, x), 0);
            assert_int_equal(obj->set_direction(obj->ctx, 0.0, D, idx, u), 0);
            double h = 1e-4, sp, sm, uu = 0;
            assert_int_equal(obj->along(obj->ctx, h, NULL, &sp), 0);
            assert_int_equal(obj->along(obj->ctx, -h, NULL, &sm), 0);
            for (int j = 0; j < D; j++) uu += u[j] * u[j];
            assert_true((sp - sm) / (2 * h) / uu <= L);
        }
        gsfw_objective_free(obj);
        ref_operator_free(op);
        free(y);
    }
    free(A);
}

/* ---- reducers */

typedef struct {
    long calls;
} counting;

static int count_only(void *ctx, double *buf, int count)
{
    (void)buf;
    (void)count;
    ((counting *)ctx)->calls++;
    return 0;
}

/* exercise()'s outputs: f, g (d), the value and slope along a direction, the cached f and g
 * (d) after a step, L, then minimize_on's value and w on the support below (3). */
enum { OUT_L = 2 * D + 4, OUT_MIN_F = OUT_L + 1, OUT_MIN_W = OUT_L + 2, OUT_COUNT = OUT_L + 5 };
static const int min_support[3] = {0, 3, D - 1};

/* Every hook once; outputs appended to out (returns the number written). */
static int exercise(gsfw_objective *obj, double *out)
{
    int o = 0, d = obj->d;
    double x[64], g[64];
    for (int j = 0; j < d; j++) x[j] = 0.3 * sin(1.0 + j);
    if (obj->value_grad(obj->ctx, x, &out[o], g)) return -1;
    o++;
    memcpy(out + o, g, (size_t)d * sizeof(double));
    o += d;
    if (obj->reset(obj->ctx, x)) return -1;
    int idx[2] = {1, d - 2};
    double val[2] = {0.8, -0.4};
    if (obj->set_direction(obj->ctx, -1.0, 2, idx, val)) return -1;
    if (obj->along(obj->ctx, 0.4, &out[o], &out[o + 1])) return -1;
    o += 2;
    if (obj->step(obj->ctx, 0.4)) return -1;
    if (obj->cached_value_grad(obj->ctx, &out[o], g)) return -1;
    o++;
    memcpy(out + o, g, (size_t)d * sizeof(double));
    o += d;
    if (obj->lipschitz(obj->ctx, &out[o++])) return -1;
    double w[3] = {0.1, 0.2, -0.1};
    if (obj->minimize_on(obj->ctx, 3, min_support, w, 30, 1e-10, &out[o])) return -1;
    o++;
    memcpy(out + o, w, sizeof w);
    return o + 3;
}

/* |g_S(w)|, the gradient of f on min_support at x = w there, 0 elsewhere. */
static double restricted_gradient_norm(gsfw_objective *obj, const double *w)
{
    double x[D] = {0}, g[D], gg = 0;
    for (int m = 0; m < 3; m++) x[min_support[m]] = w[m];
    assert_int_equal(obj->gradient(obj->ctx, x, g), 0);
    for (int m = 0; m < 3; m++) gg += g[min_support[m]] * g[min_support[m]];
    return sqrt(gg);
}

/* How far apart two results wa, wb of minimize_on on min_support may lie. f restricted to
 * the support is mu-strongly convex around its minimiser w* (mu: the smallest eigenvalue
 * of the restricted Hessian), so |w - w*| <= |g_S(w)| / mu for each, and |wa - wb| is at
 * most the sum. minimize_on stops on a gradient threshold or when no decrease of f is left
 * above rounding (Armijo on values of f): where it stops depends on the last bits of the
 * sums, so two operators (or BLAS kernels) may stop a Newton step apart, far above
 * rounding. mu comes from central differences of the gradient (exact for the quadratic
 * pieces, O(h^2) otherwise) and is halved for that estimate and for the Hessian's change
 * between wa and w* (a Huber residual crossing delta). */
static double minimizer_spread(gsfw_objective *ref, const double *wa, const double *wb)
{
    const double h = 1e-5;
    double H[9];
    for (int m = 0; m < 3; m++) {
        double x[D] = {0}, gp[D], gm[D];
        for (int q = 0; q < 3; q++) x[min_support[q]] = wa[q];
        x[min_support[m]] = wa[m] + h;
        assert_int_equal(ref->gradient(ref->ctx, x, gp), 0);
        x[min_support[m]] = wa[m] - h;
        assert_int_equal(ref->gradient(ref->ctx, x, gm), 0);
        for (int q = 0; q < 3; q++)
            H[q * 3 + m] = (gp[min_support[q]] - gm[min_support[q]]) / (2 * h);
    }
    for (int q = 0; q < 3; q++)
        for (int m = 0; m < q; m++) H[q * 3 + m] = H[m * 3 + q] = 0.5 * (H[q * 3 + m] + H[m * 3 + q]);
    double ev[3];
    assert_int_equal(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', 3, H, 3, ev), 0);
    if (!(ev[0] > 0)) fail_msg("the restricted Hessian is not positive definite (%g)", ev[0]);
    double mu = 0.5 * ev[0];
    return (restricted_gradient_norm(ref, wa) + restricted_gradient_norm(ref, wb)) / mu;
}

/* got and want, two runs of exercise() on the same data through different code paths
 * (operators, a reducer over row blocks, a constructor), agree within:
 * - rounding for the directly computed outputs: each is a sum of at most N + D = 52
 *   products or loss terms taken in another order (another operator, BLAS kernel or split
 *   into blocks), which differs by at most 2 * 52 * 2^-53 (about 1.2e-14) of the sum of
 *   the terms' magnitudes (Higham, Accuracy and Stability, 3.1); 1e-11 relative to
 *   max(1, |out|) leaves a factor of about 800 for that sum over |out|;
 * - L_rel for L (two estimators of ||A||^2 are compared);
 * - minimizer_spread() for minimize_on's w (an iterative solve; its value f(w) is flat at
 *   the minimiser, |f(wa) - f(wb)| <= |g| |wa - wb|, far below rounding). */
static void assert_exercise_agrees(gsfw_objective *ref, const double *got, const double *want,
                                   int count, double L_rel, const char *what)
{
    assert_int_equal(count, OUT_COUNT);
    double spread = minimizer_spread(ref, got + OUT_MIN_W, want + OUT_MIN_W);
    for (int k = 0; k < count; k++) {
        double scale = fmax(1.0, fabs(want[k]));
        double tol = k == OUT_L ? L_rel * scale : 1e-11 * scale;
        if (k >= OUT_MIN_W) tol += spread;
        if (!(fabs(got[k] - want[k]) <= tol))
            fail_msg("%s: output %d is %.17g, reference %.17g (tolerance %.3g)", what, k, got[k],
                     want[k], tol);
    }
}

static void test_identity_reducer_changes_nothing(void **state)
{
    (void)state;
    double *A = make_matrix(N, D, 0, 1000);
    for (int c = 0; c < NCASES; c++) {
        double *y = make_targets(cases[c].loss, N, 1001 + c);
        gsfw_operator *op = ref_dense_operator(N, D, A);
        counting cnt = {0};
        gsfw_objective *plain = make_objective(op, y, &cases[c], (gsfw_reducer){NULL, NULL});
        gsfw_objective *counted = make_objective(op, y, &cases[c],
                                                 (gsfw_reducer){&cnt, count_only});
        double out1[128], out2[128];
        int n1 = exercise(plain, out1), n2 = exercise(counted, out2);
        assert_true(n1 > 0);
        assert_int_equal(n1, n2);
        assert_memory_equal(out1, out2, (size_t)n1 * sizeof(double));
        assert_true(cnt.calls >= 8); /* value, gradient, along, cached f and g, L, ... */
        gsfw_objective_free(plain);
        gsfw_objective_free(counted);
        ref_operator_free(op);
        free(y);
    }
    free(A);
}

/* Two "processes" as two threads, each with a block of rows; the reducer is an
 * all-reduce through a shared buffer and a barrier. */
typedef struct {
    pthread_barrier_t barrier;
    double slot[2][64];
} allreduce;

typedef struct {
    allreduce *shared;
    int rank;
} member;

static int allreduce_sum(void *ctx, double *buf, int count)
{
    member *m = ctx;
    allreduce *s = m->shared;
    if (count > 64) return 1;
    memcpy(s->slot[m->rank], buf, (size_t)count * sizeof(double));
    pthread_barrier_wait(&s->barrier);
    for (int i = 0; i < count; i++) buf[i] = s->slot[0][i] + s->slot[1][i];
    pthread_barrier_wait(&s->barrier); /* both have read before the slots are reused */
    return 0;
}

typedef struct {
    gsfw_objective *obj;
    double out[128];
    int count;
} run_job;

static void *run_exercise(void *arg)
{
    run_job *job = arg;
    job->count = exercise(job->obj, job->out);
    return NULL;
}

static void test_two_process_reducer_matches_whole(void **state)
{
    (void)state;
    const int split = 17;
    double *A = make_matrix(N, D, 0, 1100);
    for (int c = 0; c < NCASES; c++) {
        const loss_case *lc = &cases[c];
        double *y = make_targets(lc->loss, N, 1101 + c);
        gsfw_operator *whole = ref_dense_operator(N, D, A);
        gsfw_operator *top = ref_dense_operator(split, D, A);
        gsfw_operator *bottom = ref_dense_operator(N - split, D, A + (size_t)split * D);
        allreduce shared;
        pthread_barrier_init(&shared.barrier, NULL, 2);
        member m0 = {&shared, 0}, m1 = {&shared, 1};
        gsfw_objective *ref = make_objective(whole, y, lc, (gsfw_reducer){NULL, NULL});
        run_job jobs[2] = {{make_objective(top, y, lc, (gsfw_reducer){&m0, allreduce_sum}), {0}, 0},
                           {make_objective(bottom, y + split, lc,
                                           (gsfw_reducer){&m1, allreduce_sum}), {0}, 0}};
        pthread_t th[2];
        for (int r = 0; r < 2; r++) pthread_create(&th[r], NULL, run_exercise, &jobs[r]);
        for (int r = 0; r < 2; r++) pthread_join(th[r], NULL);
        double out[128];
        int count = exercise(ref, out);
        assert_true(count > 0);
        for (int r = 0; r < 2; r++) {
            assert_int_equal(jobs[r].count, count);
            char what[64];
            snprintf(what, sizeof what, "%s, rank %d against the whole A", lc->label, r);
            /* the power iteration may stop one step apart: L to its 1e-6 tolerance */
            assert_exercise_agrees(ref, jobs[r].out, out, count, 1e-5, what);
        }
        pthread_barrier_destroy(&shared.barrier);
        gsfw_objective_free(jobs[0].obj);
        gsfw_objective_free(jobs[1].obj);
        gsfw_objective_free(ref);
        ref_operator_free(whole);
        ref_operator_free(top);
        ref_operator_free(bottom);
        free(y);
    }
    free(A);
}

/* Rows z = (-50, 60) with labels (+1, -1): phi(b) = l(b - 50) + l(-60 - b) is symmetric
 * about -5. At b = 0 both rows are misclassified: their l' are +-(1 - sigma(-50 or -60)),
 * whose units cancel; rounded to 1 each, phi'(0) read 0 and the search stopped at b = 0.
 * One process, and one row per process (the units summed before the rest). */
typedef struct {
    gsfw_objective *obj;
    double b;
    gsfw_error rc;
} intercept_job;

static void *run_intercept(void *arg)
{
    intercept_job *job = arg;
    const double x[1] = {1.0};
    job->rc = gsfw_objective_intercept(job->obj, x, &job->b, NULL);
    return NULL;
}

static void test_intercept_of_misclassified_rows(void **state)
{
    (void)state;
    const double A[2] = {-50.0, 60.0}, y[2] = {1.0, -1.0};
    gsfw_operator *whole = ref_dense_operator(2, 1, A);
    intercept_job one = {make_objective(whole, y, &cases[2], (gsfw_reducer){NULL, NULL}), 0, 0};
    run_intercept(&one);
    assert_int_equal(one.rc, GSFW_OK);
    assert_close(one.b, -5.0, 1e-9, "intercept, one process");
    gsfw_operator *rows[2] = {ref_dense_operator(1, 1, A), ref_dense_operator(1, 1, A + 1)};
    allreduce shared;
    pthread_barrier_init(&shared.barrier, NULL, 2);
    member m[2] = {{&shared, 0}, {&shared, 1}};
    intercept_job jobs[2];
    pthread_t th[2];
    for (int r = 0; r < 2; r++) {
        jobs[r] = (intercept_job){
            make_objective(rows[r], y + r, &cases[2], (gsfw_reducer){&m[r], allreduce_sum}),
            0, 0};
        pthread_create(&th[r], NULL, run_intercept, &jobs[r]);
    }
    for (int r = 0; r < 2; r++) {
        pthread_join(th[r], NULL);
        assert_int_equal(jobs[r].rc, GSFW_OK);
        assert_close(jobs[r].b, -5.0, 1e-9, "intercept, one row per process");
        gsfw_objective_free(jobs[r].obj);
        ref_operator_free(rows[r]);
    }
    pthread_barrier_destroy(&shared.barrier);
    gsfw_objective_free(one.obj);
    ref_operator_free(whole);
}

static int failing_sum(void *ctx, double *buf, int count)
{
    (void)ctx;
    (void)buf;
    (void)count;
    return 1;
}

static void test_reducer_failure_is_reported(void **state)
{
    (void)state;
    double *A = make_matrix(N, D, 0, 1200);
    double *y = make_targets(GSFW_LOSS_HUBER, N, 1201);
    gsfw_operator *op = ref_dense_operator(N, D, A);
    gsfw_objective *obj = make_objective(op, y, &cases[3], (gsfw_reducer){NULL, failing_sum});
    double x[D] = {0}, f, g[D];
    assert_int_not_equal(obj->value_grad(obj->ctx, x, &f, g), 0);
    gsfw_dmo *dmo;
    assert_int_equal(gsfw_dmo_topk(D, 3, &dmo, NULL), GSFW_OK);
    gsfw_settings set;
    gsfw_settings_default(&set);
    set.method = GSFW_METHOD_FW;
    set.max_iter = 3;
    gsfw_info info;
    gsfw_err err;
    assert_int_equal(gsfw_solve(obj, dmo, &set, NULL, &info, &err), GSFW_ERR_CALLBACK);
    /* the message says what the objective's code means */
    if (!strstr(err.message, "(code -2: the reducer (the sum over processes) failed)"))
        fail_msg("message '%s' does not explain the code", err.message);
    gsfw_dmo_free(dmo);
    gsfw_objective_free(obj);
    ref_operator_free(op);
    free(y);
    free(A);
}

/* ---- bad input */

static void expect_refused(const gsfw_operator *op, int n, const double *y,
                           const gsfw_loss_options *opt, gsfw_error code, const char *phrase)
{
    gsfw_objective *obj = (gsfw_objective *)1;
    gsfw_err err;
    gsfw_error e = gsfw_objective_linear(op, n, y, opt, &obj, &err);
    if (e != code) fail_msg("expected code %d, got %d (%s)", code, e, err.message);
    assert_null(obj);
    if (!strstr(err.message, phrase)) fail_msg("message '%s' lacks '%s'", err.message, phrase);
}

static void test_bad_input(void **state)
{
    (void)state;
    double *A = make_matrix(N, D, 0, 1300);
    double *y = make_targets(GSFW_LOSS_LOGISTIC, N, 1301);
    gsfw_operator *op = ref_dense_operator(N, D, A);
    gsfw_loss_options opt;
    gsfw_loss_options_default(&opt);
    opt.loss = GSFW_LOSS_LOGISTIC;
    y[5] = 0.0;
    expect_refused(op, N, y, &opt, GSFW_ERR_INVALID_ARG, "y[5] = 0 is not -1 or +1");
    y[5] = 2.0;
    expect_refused(op, N, y, &opt, GSFW_ERR_INVALID_ARG, "y[5] = 2");
    y[5] = 1.0;
    y[9] = NAN;
    expect_refused(op, N, y, &opt, GSFW_ERR_NONFINITE, "y[9] is nan");
    opt.loss = GSFW_LOSS_SQUARED;
    expect_refused(op, N, y, &opt, GSFW_ERR_NONFINITE, "y[9] is nan");
    y[9] = -1.0;
    opt.loss = GSFW_LOSS_HUBER;
    opt.huber_delta = 0.0;
    expect_refused(op, N, y, &opt, GSFW_ERR_INVALID_ARG, "huber_delta must be > 0, got 0");
    opt.huber_delta = -1.0;
    expect_refused(op, N, y, &opt, GSFW_ERR_INVALID_ARG, "got -1");
    opt.huber_delta = NAN;
    expect_refused(op, N, y, &opt, GSFW_ERR_INVALID_ARG, "got nan");
    opt.huber_delta = 1.0;
    opt.intercept = 1;
    expect_refused(op, N, y, &opt, GSFW_ERR_INVALID_ARG, "only, not 'huber'");
    opt.intercept = 0;
    opt.loss = (gsfw_loss)7;
    expect_refused(op, N, y, &opt, GSFW_ERR_INVALID_ARG, "unknown loss 7");
    opt.loss = GSFW_LOSS_SQUARED;
    expect_refused(NULL, N, y, &opt, GSFW_ERR_INVALID_ARG, "operator A is NULL");
    expect_refused(op, N - 1, y, &opt, GSFW_ERR_DIMENSION, "y has 39 entries but the operator "
                   "'ref-dense' has 40 rows");
    expect_refused(op, N, NULL, &opt, GSFW_ERR_INVALID_ARG, "y is NULL");
    gsfw_operator broken = *op;
    broken.adjoint_sparse = NULL;
    expect_refused(&broken, N, y, &opt, GSFW_ERR_INVALID_ARG, "no adjoint_sparse hook");
    /* one class only: the intercept would run off to infinity */
    double ones[N];
    for (int i = 0; i < N; i++) ones[i] = 1.0;
    opt.loss = GSFW_LOSS_LOGISTIC;
    opt.intercept = 1;
    expect_refused(op, N, ones, &opt, GSFW_ERR_INVALID_ARG, "every label is +1");
    assert_int_equal(gsfw_objective_linear(op, N, y, &opt, NULL, NULL), GSFW_ERR_INVALID_ARG);
    /* NULL options are the defaults (least squares) */
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_linear(op, N, y, NULL, &obj, NULL), GSFW_OK);
    assert_string_equal(obj->name, "least-squares");
    assert_int_equal(obj->quadratic, 1);
    gsfw_objective_free(obj);
    assert_int_equal(gsfw_loss_parse("ls"), GSFW_LOSS_SQUARED);
    assert_int_equal(gsfw_loss_parse("huber"), GSFW_LOSS_HUBER);
    assert_int_equal(gsfw_loss_parse("logistic"), GSFW_LOSS_LOGISTIC);
    assert_int_equal(gsfw_loss_parse("hinge"), -1);
    ref_operator_free(op);
    free(y);
    free(A);
}

/* ---- the least-squares convenience constructor is the squared loss over a dense copy */

/* The least-squares constructor and the squared loss over the reference operator, on
 * one matrix and target. */
typedef struct {
    double *A, *y;
    gsfw_operator *op;
    gsfw_objective *conv, *lin;
} ls_pair;

static ls_pair ls_pair_new(int n, int d, unsigned seed)
{
    ls_pair p;
    p.A = make_matrix(n, d, 0, seed);
    p.y = make_targets(GSFW_LOSS_SQUARED, n, seed + 1);
    p.op = ref_dense_operator(n, d, p.A);
    p.lin = make_objective(p.op, p.y, &cases[0], (gsfw_reducer){NULL, NULL});
    assert_int_equal(gsfw_objective_least_squares(n, d, p.A, GSFW_ROW_MAJOR, p.y, &p.conv, NULL),
                     GSFW_OK);
    return p;
}

static void ls_pair_free(ls_pair *p)
{
    gsfw_objective_free(p->conv);
    gsfw_objective_free(p->lin);
    ref_operator_free(p->op);
    free(p->y);
    free(p->A);
}

static void test_least_squares_convenience_matches_linear(void **state)
{
    (void)state;
    ls_pair p = ls_pair_new(N, D, 1400);
    gsfw_objective *conv = p.conv, *lin = p.lin;
    const double *A = p.A;
    assert_non_null(conv->minimize_on);
    assert_non_null(conv->reserve);
    double out1[128], out2[128];
    int n1 = exercise(conv, out1), n2 = exercise(lin, out2);
    assert_int_equal(n1, n2);
    /* L: the dense operator's norm2 (power iteration to 1e-6, raised by 1e-6) against the
     * objective's own power iteration (to 1e-6, raised by 1%): 1% apart, plus their stops */
    assert_exercise_agrees(lin, out1, out2, n1, 0.011, "convenience vs linear");
    /* the objective's own copy is column-major */
    const double *Acol = gsfw_op_dense_data(gsfw_linear_operator(conv->ctx, NULL));
    assert_true(Acol[3 * N + 5] == A[5 * D + 3]);
    ls_pair_free(&p);
}

/* Points with few nonzeros take the least-squares constructor's column path (at most a
 * quarter of the entries nonzero: up to 10 of 40, so whole batches of four columns and
 * a remainder), the others its gemv: both agree with the reference operator's dense
 * products to rounding (sums of 40 terms of order 1: below 1e-13, whatever order the
 * BLAS kernel adds them in). */
static void test_least_squares_sparse_points(void **state)
{
    (void)state;
    enum { DS = 40 };
    ls_pair p = ls_pair_new(N, DS, 1410);
    const double tol = 1e-12;
    for (int nnz = 0; nnz <= DS / 4 + 1; nnz++) {
        double x[DS] = {0}, f1, f2, g1[DS], g2[DS];
        for (int k = 0; k < nnz; k++) x[(7 * k + 2) % DS] = 0.9 - 0.07 * k;
        assert_int_equal(p.conv->value_grad(p.conv->ctx, x, &f1, g1), 0);
        assert_int_equal(p.lin->value_grad(p.lin->ctx, x, &f2, g2), 0);
        assert_true(fabs(f1 - f2) <= tol * fmax(1.0, f2));
        for (int j = 0; j < DS; j++) assert_true(fabs(g1[j] - g2[j]) <= tol * fmax(1.0, fabs(g2[j])));
        assert_int_equal(p.conv->reset(p.conv->ctx, x), 0);
        assert_int_equal(p.conv->cached_value_grad(p.conv->ctx, &f1, g1), 0);
        assert_true(fabs(f1 - f2) <= tol * fmax(1.0, f2));
    }
    ls_pair_free(&p);
}

/* ---- the library's operators give what the reference operators give */

static void test_library_operators_agree(void **state)
{
    (void)state;
    double *A = make_matrix(N, D, 1, 1500);
    int rows[N * D], cols[N * D];
    double vals[N * D];
    long nnz = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < D; j++)
            if (A[i * D + j] != 0.0) {
                rows[nnz] = i;
                cols[nnz] = j;
                vals[nnz++] = A[i * D + j];
            }
    for (int c = 0; c < NCASES; c++) {
        double *y = make_targets(cases[c].loss, N, 1501 + c);
        gsfw_operator *lib[2], *ref = ref_dense_operator(N, D, A);
        assert_int_equal(gsfw_operator_csr(N, D, nnz, rows, cols, vals, &lib[0], NULL), GSFW_OK);
        assert_int_equal(gsfw_operator_dense(N, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, &lib[1], NULL),
                         GSFW_OK);
        gsfw_objective *want = make_objective(ref, y, &cases[c], (gsfw_reducer){NULL, NULL});
        double out_want[128];
        int count = exercise(want, out_want);
        assert_true(count > 0);
        for (int l = 0; l < 2; l++) {
            gsfw_objective *got = make_objective(lib[l], y, &cases[c], (gsfw_reducer){NULL, NULL});
            double out[128];
            assert_int_equal(exercise(got, out), count);
            char what[64];
            snprintf(what, sizeof what, "%s over '%s'", cases[c].label, lib[l]->name);
            /* L: the operator's norm2 bound against the power iteration here */
            assert_exercise_agrees(want, out, out_want, count, 0.03, what);
            gsfw_objective_free(got);
        }
        gsfw_objective_free(want);
        gsfw_operator_free(lib[0]);
        gsfw_operator_free(lib[1]);
        ref_operator_free(ref);
        free(y);
    }
    free(A);
}

/* ---- planted sparse logistic regression on an 8 x 8 grid */

static void test_planted_logistic_support_recovery(void **state)
{
    (void)state;
    const int side = 8, d = 64, n = 400, s = 8;
    const int support[8] = {18, 19, 20, 21, 26, 27, 28, 29}; /* a connected 2 x 4 block */
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 2024);
    double *A = malloc((size_t)n * d * sizeof(double)), *y = malloc(n * sizeof(double));
    double xs[64] = {0};
    for (int k = 0; k < s; k++) xs[support[k]] = (k % 2 ? -1.0 : 1.0) * 1.5;
    for (int i = 0; i < n; i++) {
        double u = 0;
        for (int j = 0; j < d; j++) {
            A[(size_t)i * d + j] = gsfw_rng_normal(&rng);
            u += A[(size_t)i * d + j] * xs[j];
        }
        y[i] = gsfw_rng_uniform(&rng) < 1.0 / (1.0 + exp(-u)) ? 1.0 : -1.0;
    }
    gsfw_operator *op = ref_dense_operator(n, d, A);
    gsfw_graph *grid;
    assert_int_equal(gsfw_graph_grid(side, side, &grid, NULL), GSFW_OK);
    for (int oracle = 0; oracle < 2; oracle++) {
        gsfw_objective *obj = make_objective(op, y, &cases[1], (gsfw_reducer){NULL, NULL});
        gsfw_dmo *dmo;
        if (oracle == 0)
            assert_int_equal(gsfw_dmo_topk(d, s, &dmo, NULL), GSFW_OK);
        else
            assert_int_equal(gsfw_dmo_subgraph(grid, s, 1, &dmo, NULL), GSFW_OK);
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = GSFW_METHOD_ACCFW;
        set.C = sqrt((double)s) * 1.5;
        set.max_iter = 300;
        double x[64];
        gsfw_result res = {.x_best = x};
        gsfw_info info;
        gsfw_err err;
        if (gsfw_solve(obj, dmo, &set, &res, &info, &err)) fail_msg("solve: %s", err.message);
        /* estimated support: entries above half the largest (the iterate mixes many
         * atoms, whose small weights are not a selection) */
        double xmax = 0;
        for (int j = 0; j < d; j++) xmax = fmax(xmax, fabs(x[j]));
        int tp = 0, est = 0;
        for (int j = 0; j < d; j++) {
            int in = fabs(x[j]) > 0.5 * xmax, truth = fabs(xs[j]) > 0;
            est += in;
            tp += in && truth;
        }
        double precision = est ? (double)tp / est : 0, recall = (double)tp / s;
        double f1 = tp ? 2 * precision * recall / (precision + recall) : 0;
        if (!(f1 >= 0.8))
            fail_msg("%s oracle: F1 = %.3f (%d of %d found, %d selected)", dmo->name, f1, tp, s,
                     est);
        gsfw_dmo_free(dmo);
        gsfw_objective_free(obj);
    }
    gsfw_graph_free(grid);
    ref_operator_free(op);
    free(A);
    free(y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gradient_dense),
        cmocka_unit_test(test_gradient_sparse),
        cmocka_unit_test(test_incremental_dense),
        cmocka_unit_test(test_incremental_sparse),
        cmocka_unit_test(test_minimize_on_least_squares_matches_lapack),
        cmocka_unit_test(test_minimize_on_zero_restricted_gradient),
        cmocka_unit_test(test_minimize_on_huber_small_delta),
        cmocka_unit_test(test_minimize_on_bad_support),
        cmocka_unit_test(test_intercept_is_profiled_out),
        cmocka_unit_test(test_intercept_far_from_the_start),
        cmocka_unit_test(test_lipschitz_bounds_curvature),
        cmocka_unit_test(test_identity_reducer_changes_nothing),
        cmocka_unit_test(test_two_process_reducer_matches_whole),
        cmocka_unit_test(test_intercept_of_misclassified_rows),
        cmocka_unit_test(test_reducer_failure_is_reported),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_least_squares_convenience_matches_linear),
        cmocka_unit_test(test_least_squares_sparse_points),
        cmocka_unit_test(test_library_operators_agree),
        cmocka_unit_test(test_planted_logistic_support_recovery),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
