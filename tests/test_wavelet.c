/* The 2-D wavelet operator (GSL): perfect reconstruction, orthonormality (norms kept,
 * adjoint identity), agreement of the sparse hooks with the dense ones, and the
 * argument checks. */
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
#include "util/rng.h"

static double dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static void check_family(const char *family, int side, gsfw_rng *rng)
{
    gsfw_operator *op = NULL;
    gsfw_err err;
    assert_int_equal(gsfw_operator_wavelet2d(side, family, &op, &err), GSFW_OK);
    int n = side * side;
    assert_int_equal(op->n, n);
    assert_int_equal(op->d, n);
    double *x = malloc((size_t)n * sizeof(double)), *theta = malloc((size_t)n * sizeof(double)),
           *back = malloc((size_t)n * sizeof(double)), *t = malloc((size_t)n * sizeof(double)),
           *y = malloc((size_t)n * sizeof(double)), *ys = malloc((size_t)n * sizeof(double));
    assert_true(x && theta && back && t && y && ys);
    for (int i = 0; i < n; i++) {
        x[i] = gsfw_rng_normal(rng);
        t[i] = gsfw_rng_normal(rng);
    }
    /* synthesis(analysis(x)) = x, and the other way round */
    assert_int_equal(op->adjoint(op->ctx, x, theta), 0);
    assert_int_equal(op->apply(op->ctx, theta, back), 0);
    double nx = sqrt(dot(x, x, n));
    for (int i = 0; i < n; i++) assert_true(fabs(back[i] - x[i]) <= 1e-12 * nx);
    assert_true(fabs(sqrt(dot(theta, theta, n)) - nx) <= 1e-12 * nx);
    assert_int_equal(op->apply(op->ctx, t, y), 0);
    double nt = sqrt(dot(t, t, n));
    assert_true(fabs(sqrt(dot(y, y, n)) - nt) <= 1e-12 * nt);
    /* <Psi t, x> = <t, Psi^T x> */
    assert_true(fabs(dot(y, x, n) - dot(t, theta, n)) <= 1e-12 * nt * nx);
    /* the transform is not the identity (it would pass the checks above) */
    double moved = 0.0;
    for (int i = 0; i < n; i++) moved += fabs(theta[i] - x[i]);
    assert_true(moved > 1e-3 * nx);

    /* sparse hooks against the dense ones on a random support */
    int nnz = 1 + (int)gsfw_rng_below(rng, (uint64_t)(n < 12 ? n : 12));
    int *perm = malloc((size_t)n * sizeof(int));
    double *val = malloc((size_t)nnz * sizeof(double)), *dense = calloc((size_t)n, sizeof(double)),
           *out = malloc((size_t)nnz * sizeof(double));
    assert_true(perm && val && dense && out);
    for (int i = 0; i < n; i++) perm[i] = i;
    gsfw_rng_shuffle(rng, perm, n);
    for (int k = 0; k < nnz; k++) {
        val[k] = gsfw_rng_normal(rng);
        dense[perm[k]] = val[k];
    }
    const double alpha = -0.75;
    for (int i = 0; i < n; i++) ys[i] = x[i];
    assert_int_equal(op->apply_sparse(op->ctx, nnz, perm, val, alpha, ys), 0);
    assert_int_equal(op->apply(op->ctx, dense, y), 0);
    for (int i = 0; i < n; i++) assert_true(fabs(ys[i] - (x[i] + alpha * y[i])) <= 1e-12 * nx);
    assert_int_equal(op->adjoint_sparse(op->ctx, x, nnz, perm, out), 0);
    for (int k = 0; k < nnz; k++) assert_true(fabs(out[k] - theta[perm[k]]) <= 1e-12 * nx);
    double L = 0.0;
    assert_int_equal(op->norm2(op->ctx, &L), 0);
    assert_true(L == 1.0);

    free(perm);
    free(val);
    free(dense);
    free(out);
    free(x);
    free(theta);
    free(back);
    free(t);
    free(y);
    free(ys);
    gsfw_operator_free(op);
}

static void test_orthonormal(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 77);
    for (int side = 2; side <= 64; side *= 2) {
        check_family("haar", side, &rng);
        check_family("db4", side, &rng);
    }
}

/* The Haar synthesis of the scaling coefficient is the constant image 1/side. */
static void test_haar_scaling_function(void **state)
{
    (void)state;
    const int side = 16, n = side * side;
    gsfw_operator *op;
    assert_int_equal(gsfw_operator_wavelet2d(side, "haar", &op, NULL), GSFW_OK);
    double theta[256] = {0}, x[256];
    theta[0] = 1.0;
    assert_int_equal(op->apply(op->ctx, theta, x), 0);
    for (int i = 0; i < n; i++) assert_true(fabs(x[i] - 1.0 / side) <= 1e-15);
    gsfw_operator_free(op);
}

/* Sensing in the wavelet domain: compose(A, Psi) theta = A (Psi theta). */
static void test_compose_with_sensing(void **state)
{
    (void)state;
    enum { SIDE = 8, D = SIDE * SIDE, N = 20 };
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 5);
    double A[N * D], theta[D], x[D], y[N], want[N];
    for (int i = 0; i < N * D; i++) A[i] = gsfw_rng_normal(&rng);
    for (int i = 0; i < D; i++) theta[i] = gsfw_rng_normal(&rng);
    gsfw_operator *dense, *psi, *prod;
    assert_int_equal(gsfw_operator_dense(N, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, &dense, NULL),
                     GSFW_OK);
    assert_int_equal(gsfw_operator_wavelet2d(SIDE, "db4", &psi, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_compose(dense, psi, &prod, NULL), GSFW_OK);
    assert_int_equal(prod->apply(prod->ctx, theta, y), 0);
    assert_int_equal(psi->apply(psi->ctx, theta, x), 0);
    for (int r = 0; r < N; r++) {
        want[r] = 0.0;
        for (int j = 0; j < D; j++) want[r] += A[r * D + j] * x[j];
        assert_true(fabs(y[r] - want[r]) <= 1e-12 * (1.0 + fabs(want[r])));
    }
    gsfw_operator_free(prod);
    gsfw_operator_free(psi);
    gsfw_operator_free(dense);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    gsfw_operator *op = (gsfw_operator *)1;
    gsfw_err err;
    assert_int_equal(gsfw_operator_wavelet2d(12, "haar", &op, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "side 12 is not a power of two"));
    assert_null(op);
    assert_int_equal(gsfw_operator_wavelet2d(8, "db8", &op, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "unknown wavelet family 'db8'"));
    assert_int_equal(gsfw_operator_wavelet2d(8, NULL, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_operator_wavelet2d(8, "haar", NULL, &err), GSFW_ERR_INVALID_ARG);
    gsfw_operator_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orthonormal),
        cmocka_unit_test(test_haar_scaling_function),
        cmocka_unit_test(test_compose_with_sensing),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
