/* The vector kernels (src/util/vec.c): their documented summation order exactly, their
 * accuracy against a compensated reference, the norm's range handling, and that a solve
 * through a matrix-free operator gives the same bits whatever OpenBLAS's thread count
 * (OpenBLAS splits long dot products over its threads; these kernels do not). */
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"
#include "util/splitmix.h"
#include "util/vec.h"

static const int sizes[] = {0, 1, 5, 7, 8, 9, 15, 16, 17, 100, 1003, 40001};

static void fill(uint64_t *state, int n, double *x)
{
    for (int i = 0; i < n; i++) {
        double u = (double)(gsfw_splitmix64(state) >> 11) * 0x1p-53;
        x[i] = (u - 0.5) * exp2((double)(int)(gsfw_splitmix64(state) % 21) - 10.0);
    }
}

/* The order vec.h promises, written out plainly: lane i % 8 takes term i, then
 * ((l0 + l4) + (l1 + l5)) + ((l2 + l6) + (l3 + l7)). */
static double dot_in_documented_order(int n, const double *x, const double *y)
{
    double lane[8] = {0};
    for (int i = 0; i < n; i++) lane[i % 8] += x[i] * y[i];
    return ((lane[0] + lane[4]) + (lane[1] + lane[5])) +
           ((lane[2] + lane[6]) + (lane[3] + lane[7]));
}

/* sum x_i y_i in about twice the working precision (Ogita, Rump & Oishi's Dot2), and
 * sum |x_i y_i| */
static double dot_compensated(int n, const double *x, const double *y, double *abs_sum)
{
    double s = 0.0, c = 0.0, a = 0.0;
    for (int i = 0; i < n; i++) {
        double p = x[i] * y[i];
        double pe = fma(x[i], y[i], -p);
        double t = s + p, z = t - s;
        c += (s - (t - z)) + (p - z) + pe;
        s = t;
        a += fabs(p);
    }
    *abs_sum = a;
    return s + c;
}

static void test_dot_order_and_alignment(void **state)
{
    (void)state;
    uint64_t rng = 11;
    double *buf = malloc(2 * (40001 + 8) * sizeof(double));
    assert_non_null(buf);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k];
        for (int shift = 0; shift < 8; shift++) { /* every alignment of x and y */
            double *x = buf + shift, *y = buf + 40001 + 8 + (7 - shift);
            fill(&rng, n, x);
            fill(&rng, n, y);
            double got = gsfw_vec_dot(n, x, y), want = dot_in_documented_order(n, x, y);
            assert_memory_equal(&got, &want, sizeof got);
        }
    }
    free(buf);
}

static void test_dot_accuracy(void **state)
{
    (void)state;
    uint64_t rng = 12;
    double *x = malloc(40001 * sizeof(double)), *y = malloc(40001 * sizeof(double));
    assert_non_null(x);
    assert_non_null(y);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k];
        fill(&rng, n, x);
        fill(&rng, n, y);
        double abs_sum = 0.0, ref = dot_compensated(n, x, y, &abs_sum);
        /* each lane sums ceil(n / 8) products, then three additions: gamma_m sum|x_i y_i|
         * with m = ceil(n / 8) + 4 (products rounded once each), plus the reference's
         * own error of about eps |ref| */
        int m = (n + 7) / 8 + 4;
        double gamma = m * DBL_EPSILON / 2 / (1 - m * DBL_EPSILON / 2);
        double bound = gamma * abs_sum + DBL_EPSILON * fabs(ref);
        assert_true(fabs(gsfw_vec_dot(n, x, y) - ref) <= bound);
    }
    free(x);
    free(y);
}

static void test_nrm2_range(void **state)
{
    (void)state;
    double big[3] = {3e200, -4e200, 0.0};
    assert_true(fabs(gsfw_vec_nrm2(3, big) - 5e200) <= 4 * DBL_EPSILON * 5e200);
    double small[3] = {3e-200, 0.0, -4e-200};
    assert_true(fabs(gsfw_vec_nrm2(3, small) - 5e-200) <= 4 * DBL_EPSILON * 5e-200);
    double sub[2] = {3 * 0x1p-1074, 4 * 0x1p-1074}; /* subnormal: 5 * 2^-1074 exactly */
    assert_true(gsfw_vec_nrm2(2, sub) == 5 * 0x1p-1074);
    double zeros[4] = {0.0, -0.0, 0.0, 0.0};
    assert_true(gsfw_vec_nrm2(4, zeros) == 0.0);
    assert_true(gsfw_vec_nrm2(0, zeros) == 0.0);
    double with_inf[3] = {1.0, -INFINITY, 2.0};
    assert_true(isinf(gsfw_vec_nrm2(3, with_inf)) && gsfw_vec_nrm2(3, with_inf) > 0);
    double with_nan[3] = {1.0, NAN, 1e300};
    assert_true(isnan(gsfw_vec_nrm2(3, with_nan)));
    /* ordinary vectors: the square root of the dot product */
    uint64_t rng = 13;
    double x[1003];
    fill(&rng, 1003, x);
    double n2 = gsfw_vec_nrm2(1003, x), dd = sqrt(gsfw_vec_dot(1003, x, x));
    assert_memory_equal(&n2, &dd, sizeof n2);
}

/* The norm over a support: the same guards, and the plain sum's bits in range. */
static void test_nrm2_on_support(void **state)
{
    (void)state;
    double big[5] = {7.0, 3e200, 1.0, -4e200, 9.0};
    int on[2] = {3, 1};
    assert_true(fabs(gsfw_vec_nrm2_on(2, on, big) - 5e200) <= 4 * DBL_EPSILON * 5e200);
    double small[4] = {3e-200, 5.0, -4e-200, 6.0};
    int on_small[2] = {0, 2};
    assert_true(fabs(gsfw_vec_nrm2_on(2, on_small, small) - 5e-200) <= 4 * DBL_EPSILON * 5e-200);
    double with_nan[3] = {NAN, 1.0, 1e300};
    int all[3] = {2, 1, 0};
    assert_true(isnan(gsfw_vec_nrm2_on(3, all, with_nan)));
    assert_true(gsfw_vec_nrm2_on(0, all, with_nan) == 0.0);
    double with_inf[3] = {1.0, -INFINITY, 2.0};
    assert_true(isinf(gsfw_vec_nrm2_on(3, all, with_inf)));
    uint64_t rng = 17;
    double x[300];
    fill(&rng, 300, x);
    int ids[100];
    double ss = 0.0;
    for (int k = 0; k < 100; k++) {
        ids[k] = (7 * k + 3) % 300;
        ss += x[ids[k]] * x[ids[k]];
    }
    double n2 = gsfw_vec_nrm2_on(100, ids, x), plain = sqrt(ss);
    assert_memory_equal(&n2, &plain, sizeof n2);
}

static void test_axpy_scal(void **state)
{
    (void)state;
    uint64_t rng = 14;
    double x[17], y[17], want[17];
    fill(&rng, 17, x);
    fill(&rng, 17, y);
    for (int i = 0; i < 17; i++) want[i] = y[i] + 0.375 * x[i];
    gsfw_vec_axpy(17, 0.375, x, y);
    assert_memory_equal(y, want, sizeof y);
    for (int i = 0; i < 17; i++) want[i] = x[i] * -1.5;
    gsfw_vec_scal(17, -1.5, x);
    assert_memory_equal(x, want, sizeof x);
}

/* Four columns in one pass: the bits of four axpys in order, at every length. */
static void test_axpy4_is_four_axpys(void **state)
{
    (void)state;
    uint64_t rng = 15;
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        const int n = sizes[t];
        const size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(double);
        double *x[4], *y = malloc(bytes), *want = malloc(bytes);
        const double a[4] = {0.375, -1.25, 3e-7, -2.0};
        assert_true(y && want);
        for (int j = 0; j < 4; j++) {
            x[j] = malloc(bytes);
            assert_non_null(x[j]);
            fill(&rng, n, x[j]);
        }
        fill(&rng, n, y);
        memcpy(want, y, bytes);
        for (int j = 0; j < 4; j++) gsfw_vec_axpy(n, a[j], x[j], want);
        gsfw_vec_axpy4(n, a, x[0], x[1], x[2], x[3], y);
        assert_memory_equal(y, want, bytes);
        for (int j = 0; j < 4; j++) free(x[j]);
        free(y);
        free(want);
    }
}

/* A least-squares refit through partial DCT rows, long enough (12 000 rows) that
 * OpenBLAS would split its dot products over threads. */
static void refit_on_dct(double *w)
{
    const int side = 128, d = side * side, n = 12000, k = 3000;
    gsfw_operator *A = NULL;
    assert_int_equal(gsfw_operator_dct2(side, side, n, 5, &A, NULL), GSFW_OK);
    double *x = calloc((size_t)d, sizeof(double)), *y = malloc((size_t)n * sizeof(double));
    int *S = malloc((size_t)k * sizeof(int));
    assert_true(x && y && S);
    for (int j = 0; j < k; j++) {
        S[j] = (int)((j * 7919L) % d);
        x[S[j]] = sin(0.1 * j);
    }
    assert_int_equal(A->apply(A->ctx, x, y), 0);
    for (int i = 0; i < n; i++) y[i] += 1e-3 * cos(0.7 * i); /* no exact fit */
    gsfw_objective *obj = NULL;
    assert_int_equal(gsfw_objective_linear(A, n, y, NULL, &obj, NULL), GSFW_OK);
    memset(w, 0, (size_t)k * sizeof(double));
    double f = 0.0;
    assert_int_equal(obj->minimize_on(obj->ctx, k, S, w, 25, 0.0, &f), 0);
    gsfw_objective_free(obj);
    gsfw_operator_free(A);
    free(x);
    free(y);
    free(S);
}

static void test_same_bits_for_any_openblas_threads(void **state)
{
    (void)state;
    if (openblas_get_parallel() == 0) skip(); /* a serial OpenBLAS has one thread only */
    double *one = malloc(3000 * sizeof(double)), *two = malloc(3000 * sizeof(double));
    assert_true(one && two);
    openblas_set_num_threads(1);
    refit_on_dct(one);
    /* OpenBLAS grows its pool to 2 threads even on a one-core machine (the tests run
     * under OPENBLAS_NUM_THREADS=1), so this compares a split and an unsplit sum */
    openblas_set_num_threads(2);
    assert_int_equal(openblas_get_num_threads(), 2);
    refit_on_dct(two);
    openblas_set_num_threads(1);
    assert_memory_equal(one, two, 3000 * sizeof(double));
    free(one);
    free(two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dot_order_and_alignment),
        cmocka_unit_test(test_dot_accuracy),
        cmocka_unit_test(test_nrm2_range),
        cmocka_unit_test(test_nrm2_on_support),
        cmocka_unit_test(test_axpy_scal),
        cmocka_unit_test(test_axpy4_is_four_axpys),
        cmocka_unit_test(test_same_bits_for_any_openblas_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
