/* Operators with a worker thread (gsfw_operator_dct2_threads, _hadamard_threads,
 * _implicit_gaussian_threads and the sensing kinds' "threads" parameter): every product is
 * bit-identical to the one-thread product, at sizes where the worker exists (d >= 16384),
 * with odd sides and one-pixel-wide images, and the one-thread products are the validated
 * ones of test_operators.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"

typedef gsfw_error (*make_fn)(int a, int b, int n, int threads, gsfw_operator **out);

static gsfw_error make_dct2(int h, int w, int n, int threads, gsfw_operator **out)
{
    return gsfw_operator_dct2_threads(h, w, n, 7, threads, out, NULL);
}

static gsfw_error make_hadamard(int d, int unused, int n, int threads, gsfw_operator **out)
{
    (void)unused;
    return gsfw_operator_hadamard_threads(d, n, 7, threads, out, NULL);
}

/* 25 rows (an odd count: unequal row halves) of a (25 + row0) x d matrix, a block that
 * need not start at row 0; n is not used (each product regenerates rows * d entries) */
static gsfw_error make_implicit(int d, int row0, int n, int threads, gsfw_operator **out)
{
    (void)n;
    return gsfw_operator_implicit_gaussian_threads(25 + row0, d, 7, 0.1, row0, 25, threads, out,
                                                   NULL);
}

/* All four products of op on fixed inputs, concatenated into out (n + d + n + 3 entries). */
static void products(const gsfw_operator *op, double *out)
{
    const int n = op->n, d = op->d;
    double *x = malloc((size_t)d * sizeof(double)), *r = malloc((size_t)n * sizeof(double));
    assert_non_null(x);
    assert_non_null(r);
    for (int j = 0; j < d; j++) x[j] = sin(0.37 * j + 1.0);
    for (int i = 0; i < n; i++) r[i] = cos(0.11 * i);
    const int idx[3] = {0, d / 2, d - 1};
    const double val[3] = {1.5, -2.0, 0.25};
    assert_int_equal(op->apply(op->ctx, x, out), 0);
    assert_int_equal(op->adjoint(op->ctx, r, out + n), 0);
    memset(out + n + d, 0, (size_t)n * sizeof(double));
    assert_int_equal(op->apply_sparse(op->ctx, d > 2 ? 3 : 1, idx, val, 0.5, out + n + d), 0);
    assert_int_equal(op->adjoint_sparse(op->ctx, r, d > 2 ? 3 : 1, idx, out + 2 * n + d), 0);
    free(x);
    free(r);
}

static void check_same_for_threads(make_fn make, int a, int b, int d)
{
    const int n = d / 3 + 1;
    const size_t len = (size_t)(2 * n + d + 3);
    double *want = calloc(len, sizeof(double)), *got = calloc(len, sizeof(double));
    assert_non_null(want);
    assert_non_null(got);
    gsfw_operator *op = NULL;
    assert_int_equal(make(a, b, n, 1, &op), GSFW_OK);
    products(op, want);
    gsfw_operator_free(op);
    for (int threads = 2; threads <= 3; threads++) {
        assert_int_equal(make(a, b, n, threads, &op), GSFW_OK);
        for (int round = 0; round < 2; round++) { /* the worker serves call after call */
            memset(got, 0, len * sizeof(double));
            products(op, got);
            assert_memory_equal(got, want, len * sizeof(double));
        }
        gsfw_operator_free(op);
    }
    free(want);
    free(got);
}

static void test_dct2_threads_bit_identical(void **state)
{
    (void)state;
    const int hw[][2] = {{128, 128}, {129, 131}, {1, 20001}, {20001, 1}, {255, 100}};
    for (size_t k = 0; k < sizeof hw / sizeof hw[0]; k++)
        check_same_for_threads(make_dct2, hw[k][0], hw[k][1], hw[k][0] * hw[k][1]);
}

static void test_hadamard_threads_bit_identical(void **state)
{
    (void)state;
    check_same_for_threads(make_hadamard, 1 << 14, 0, 1 << 14);
    check_same_for_threads(make_hadamard, 1 << 17, 0, 1 << 17);
}

/* even and odd d (the column halves of an odd row end on half a Box-Muller pair) */
static void test_implicit_gaussian_threads_bit_identical(void **state)
{
    (void)state;
    check_same_for_threads(make_implicit, 16384, 0, 16384);
    check_same_for_threads(make_implicit, 16391, 5, 16391);
}

/* The sensing kinds take "threads" from a spec (as gsfw recover --threads does). */
static void test_sensing_threads_parameter(void **state)
{
    (void)state;
    const char *kinds[] = {"dct", "dct-signs", "hadamard", "hadamard-signs",
                           "implicit-gaussian"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const int implicit = !strcmp(kinds[k], "implicit-gaussian");
        const gsfw_sensing_spec sizes = {.n = implicit ? 40 : 5000, .height = 128, .width = 256};
        const int d = sizes.height * sizes.width;
        const size_t len = (size_t)(2 * sizes.n + d + 3);
        double *out[2];
        for (int t = 0; t < 2; t++) {
            gsfw_spec *spec = NULL;
            gsfw_err err;
            assert_int_equal(gsfw_spec_create(GSFW_USES_SENSING, &spec, &err), GSFW_OK);
            assert_int_equal(gsfw_spec_set(spec, "sensing", kinds[k], &err), GSFW_OK);
            assert_int_equal(gsfw_spec_set(spec, "threads", t ? "2" : "1", &err), GSFW_OK);
            assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
            gsfw_operator *op = NULL;
            assert_int_equal(gsfw_spec_sensing(spec, &sizes, &op, &err), GSFW_OK);
            out[t] = calloc(len, sizeof(double));
            assert_non_null(out[t]);
            products(op, out[t]);
            gsfw_operator_free(op);
            gsfw_spec_free(spec);
        }
        assert_memory_equal(out[0], out[1], len * sizeof(double));
        free(out[0]);
        free(out[1]);
    }
}

static void test_threads_range(void **state)
{
    (void)state;
    gsfw_operator *op = NULL;
    gsfw_err err;
    assert_int_equal(gsfw_operator_dct2_threads(8, 8, 4, 1, 0, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "threads = 0"));
    assert_int_equal(gsfw_operator_hadamard_threads(64, 4, 1, 65, &op, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "threads = 65"));
    assert_null(op);
    /* the struct route: 0 is "not set" (one thread), past 64 is refused */
    gsfw_sensing_spec ss = {.n = 4, .height = 8, .width = 8, .threads = 0};
    assert_int_equal(gsfw_sensing_operator_spec("dct", &ss, &op, &err), GSFW_OK);
    gsfw_operator_free(op);
    ss.threads = 65;
    assert_int_equal(gsfw_sensing_operator_spec("dct", &ss, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "threads = 65"));
    assert_null(op);
    gsfw_spec *spec = NULL;
    assert_int_equal(gsfw_spec_create(GSFW_USES_SENSING, &spec, &err), GSFW_OK);
    assert_int_not_equal(gsfw_spec_set(spec, "threads", "0", &err), GSFW_OK);
    assert_non_null(strstr(err.message, "threads"));
    gsfw_spec_free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dct2_threads_bit_identical),
        cmocka_unit_test(test_hadamard_threads_bit_identical),
        cmocka_unit_test(test_implicit_gaussian_threads_bit_identical),
        cmocka_unit_test(test_sensing_threads_parameter),
        cmocka_unit_test(test_threads_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
