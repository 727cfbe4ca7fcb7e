/* Random signs D and the scrambled sensing kinds "dct-signs" / "hadamard-signs":
 * D is a +-1 diagonal (checked on the unit vectors), orthonormal and self-adjoint; the
 * scrambled operators equal the plain subsampled transform applied to D x, keep
 * orthonormal (scaled) rows, pass the dot-product test, and their sparse hooks agree with
 * the dense ones. */
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

static double *normals(gsfw_rng *rng, int n)
{
    double *v = malloc((size_t)n * sizeof(double));
    assert_non_null(v);
    for (int i = 0; i < n; i++) v[i] = gsfw_rng_normal(rng);
    return v;
}

/* The diagonal read off column by column: D e_i = sign_i e_i with sign_i = +-1. */
static void read_signs(gsfw_operator *op, int d, double *sign)
{
    double *e = calloc((size_t)d, sizeof(double)), *col = malloc((size_t)d * sizeof(double));
    assert_true(e && col);
    for (int i = 0; i < d; i++) {
        e[i] = 1.0;
        assert_int_equal(op->apply(op->ctx, e, col), 0);
        e[i] = 0.0;
        for (int j = 0; j < d; j++)
            if (j != i) assert_true(col[j] == 0.0);
        assert_true(col[i] == 1.0 || col[i] == -1.0);
        sign[i] = col[i];
    }
    free(e);
    free(col);
}

static void test_diagonal_of_signs(void **state)
{
    (void)state;
    enum { D = 200 };
    gsfw_operator *op, *same, *other;
    assert_int_equal(gsfw_operator_random_signs(D, 9, &op, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_random_signs(D, 9, &same, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_random_signs(D, 10, &other, NULL), GSFW_OK);
    assert_int_equal(op->n, D);
    assert_int_equal(op->d, D);
    double s1[D], s2[D], s3[D];
    read_signs(op, D, s1);
    read_signs(same, D, s2);
    read_signs(other, D, s3);
    int neg = 0, differ = 0;
    for (int i = 0; i < D; i++) {
        assert_true(s1[i] == s2[i]); /* deterministic for a seed */
        neg += s1[i] < 0;
        differ += s1[i] != s3[i];
    }
    /* Binomial(200, 1/2): 100 +- 7; these bounds are 5 standard deviations out. */
    assert_in_range(neg, 65, 135);
    assert_in_range(differ, 65, 135);

    /* orthonormal and self-adjoint: ||D x|| = ||x||, D D x = x, <D x, y> = <x, D y> */
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 3);
    double *x = normals(&rng, D), *y = normals(&rng, D);
    double dx[D], ddx[D], dty[D];
    assert_int_equal(op->apply(op->ctx, x, dx), 0);
    assert_int_equal(op->apply(op->ctx, dx, ddx), 0);
    assert_int_equal(op->adjoint(op->ctx, y, dty), 0);
    for (int i = 0; i < D; i++) assert_true(ddx[i] == x[i]);
    assert_true(fabs(dot(dx, dx, D) - dot(x, x, D)) <= 1e-12 * dot(x, x, D));
    assert_true(fabs(dot(dx, y, D) - dot(x, dty, D)) <= 1e-12 * D);
    double L = 0.0;
    assert_int_equal(op->norm2(op->ctx, &L), 0);
    assert_true(L == 1.0);

    /* sparse hooks against the diagonal */
    int idx[3] = {0, 17, D - 1};
    double val[3] = {1.5, -2.0, 0.25}, out[3], acc[D];
    memcpy(acc, y, sizeof acc);
    assert_int_equal(op->apply_sparse(op->ctx, 3, idx, val, -0.5, acc), 0);
    for (int i = 0; i < D; i++) {
        double want = y[i];
        for (int k = 0; k < 3; k++)
            if (idx[k] == i) want += -0.5 * s1[i] * val[k];
        assert_true(fabs(acc[i] - want) <= 1e-15);
    }
    assert_int_equal(op->adjoint_sparse(op->ctx, y, 3, idx, out), 0);
    for (int k = 0; k < 3; k++) assert_true(out[k] == s1[idx[k]] * y[idx[k]]);

    free(x);
    free(y);
    gsfw_operator_free(op);
    gsfw_operator_free(same);
    gsfw_operator_free(other);
}

/* kind = plain + "-signs": A_signs x = A_plain (D x) with D of the same seed; rows stay
 * orthonormal up to the scale d/n; <A x, r> = <x, A^T r>; sparse hooks agree. */
static void check_scrambled(const char *plain, const char *scrambled, int side, int n)
{
    const int d = side * side;
    const uint64_t seed = 21;
    gsfw_operator *A, *P, *D;
    gsfw_err err;
    assert_int_equal(gsfw_sensing_operator(scrambled, n, side, side, seed, 0, &A, &err), GSFW_OK);
    assert_int_equal(gsfw_sensing_operator(plain, n, side, side, seed, 0, &P, &err), GSFW_OK);
    assert_int_equal(gsfw_operator_random_signs(d, seed, &D, &err), GSFW_OK);
    assert_string_equal(A->name, scrambled);
    assert_int_equal(A->n, n);
    assert_int_equal(A->d, d);

    gsfw_rng rng;
    gsfw_rng_seed(&rng, 8);
    double *x = normals(&rng, d), *r = normals(&rng, n);
    double *dx = malloc((size_t)d * sizeof(double)), *ax = malloc((size_t)n * sizeof(double)),
           *want = malloc((size_t)n * sizeof(double)), *atr = malloc((size_t)d * sizeof(double)),
           *aatr = malloc((size_t)n * sizeof(double));
    assert_true(dx && ax && want && atr && aatr);
    double nx = sqrt(dot(x, x, d)), nr = sqrt(dot(r, r, n)), scale = (double)d / n;

    assert_int_equal(D->apply(D->ctx, x, dx), 0);
    assert_int_equal(P->apply(P->ctx, dx, want), 0);
    assert_int_equal(A->apply(A->ctx, x, ax), 0);
    for (int i = 0; i < n; i++) assert_true(fabs(ax[i] - want[i]) <= 1e-12 * nx);
    /* the signs change the measurements (else the test above proves nothing) */
    assert_int_equal(P->apply(P->ctx, x, want), 0);
    double moved = 0.0;
    for (int i = 0; i < n; i++) moved += fabs(ax[i] - want[i]);
    assert_true(moved > 1e-3 * nx);

    /* dot-product test and A A^T = (d/n) I */
    assert_int_equal(A->adjoint(A->ctx, r, atr), 0);
    assert_true(fabs(dot(ax, r, n) - dot(x, atr, d)) <= 1e-12 * scale * nx * nr);
    assert_int_equal(A->apply(A->ctx, atr, aatr), 0);
    for (int i = 0; i < n; i++) assert_true(fabs(aatr[i] - scale * r[i]) <= 1e-12 * scale * nr);
    double L = 0.0;
    assert_int_equal(A->norm2(A->ctx, &L), 0);
    assert_true(fabs(L - scale) <= 1e-12 * scale);

    /* sparse hooks against the dense ones */
    int idx[4] = {1, 5, d / 2, d - 1};
    double val[4] = {0.5, -1.0, 2.0, 0.125}, out[4];
    double *u = calloc((size_t)d, sizeof(double)), *acc = malloc((size_t)n * sizeof(double));
    assert_true(u && acc);
    for (int k = 0; k < 4; k++) u[idx[k]] = val[k];
    assert_int_equal(A->apply(A->ctx, u, want), 0);
    memcpy(acc, r, (size_t)n * sizeof(double));
    assert_int_equal(A->apply_sparse(A->ctx, 4, idx, val, 3.0, acc), 0);
    for (int i = 0; i < n; i++) assert_true(fabs(acc[i] - (r[i] + 3.0 * want[i])) <= 1e-12 * scale * 8);
    assert_int_equal(A->adjoint_sparse(A->ctx, r, 4, idx, out), 0);
    for (int k = 0; k < 4; k++) assert_true(fabs(out[k] - atr[idx[k]]) <= 1e-12 * scale * nr);

    free(u);
    free(acc);
    free(x);
    free(r);
    free(dx);
    free(ax);
    free(want);
    free(atr);
    free(aatr);
    gsfw_operator_free(A);
    gsfw_operator_free(P);
    gsfw_operator_free(D);
}

static void test_scrambled_sensing(void **state)
{
    (void)state;
    check_scrambled("hadamard", "hadamard-signs", 16, 100);
    check_scrambled("dct", "dct-signs", 16, 100);
    check_scrambled("dct", "dct-signs", 8, 64); /* all rows: A = sqrt(1) F D, square */
}

static void test_bad_arguments(void **state)
{
    (void)state;
    gsfw_operator *op = (gsfw_operator *)1;
    gsfw_err err;
    assert_int_equal(gsfw_operator_random_signs(0, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "d must be >= 1, got 0"));
    assert_null(op);
    assert_int_equal(gsfw_operator_random_signs(4, 1, NULL, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_sensing_operator("hadamard-signs", 10, 6, 6, 1, 0, &op, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "not a power of two"));
    assert_null(op);
    assert_int_equal(gsfw_sensing_operator("dct-signs", 10, 6, 6, 1, 1, &op, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "float32"));
    assert_int_equal(gsfw_sensing_operator("dct-sign", 10, 6, 6, 1, 0, &op, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "dct-signs, hadamard-signs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diagonal_of_signs),
        cmocka_unit_test(test_scrambled_sensing),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
