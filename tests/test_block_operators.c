/* The rows of a block-constant image from the coarse image's own transform
 * (gsfw_op_dct2_block_constant, gsfw_op_hadamard_block_constant) against the composition
 * A U they replace: the same linear map, product by product, on images with even and odd
 * coarse sides, blocks 2 to 8, rows of every kind (frequencies that fold, vanish or
 * stay), and the same bits for every thread count. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"
#include "operators/op_internal.h"

/* max |a - b| over max |b|: the two computations round differently, by a few units of
 * eps times log(d) relative to the largest entry */
static double rel_diff(int n, const double *a, const double *b)
{
    double num = 0.0, den = 0.0;
    for (int i = 0; i < n; i++) {
        num = fmax(num, fabs(a[i] - b[i]));
        den = fmax(den, fabs(b[i]));
    }
    return den > 0 ? num / den : num;
}

static void fill(int n, double *x, double phase)
{
    for (int i = 0; i < n; i++) x[i] = sin(0.37 * i + phase) + 0.25 * cos(1.7 * i * i + phase);
}

/* every product of fast against slow (both n x d) */
static void check_same_map(const gsfw_operator *fast, const gsfw_operator *slow)
{
    const int n = slow->n, d = slow->d;
    assert_int_equal(fast->n, n);
    assert_int_equal(fast->d, d);
    double *x = malloc((size_t)d * sizeof(double)), *r = malloc((size_t)n * sizeof(double));
    double *y1 = malloc((size_t)(n + d) * sizeof(double)), *y2 = malloc((size_t)(n + d) * sizeof(double));
    assert_true(x && r && y1 && y2);
    fill(d, x, 0.3);
    fill(n, r, 1.1);
    const double tol = 1e-13;
    assert_int_equal(fast->apply(fast->ctx, x, y1), 0);
    assert_int_equal(slow->apply(slow->ctx, x, y2), 0);
    assert_true(rel_diff(n, y1, y2) < tol);
    assert_int_equal(fast->adjoint(fast->ctx, r, y1), 0);
    assert_int_equal(slow->adjoint(slow->ctx, r, y2), 0);
    assert_true(rel_diff(d, y1, y2) < tol);
    const int idx[4] = {0, d / 3, d / 2 + 1, d - 1}; /* distinct from d = 5 on */
    const double val[4] = {1.5, -2.0, 0.25, 3.0};
    for (int i = 0; i < n; i++) y1[i] = y2[i] = 0.5 * r[i];
    assert_int_equal(fast->apply_sparse(fast->ctx, 4, idx, val, -0.5, y1), 0);
    assert_int_equal(slow->apply_sparse(slow->ctx, 4, idx, val, -0.5, y2), 0);
    assert_true(rel_diff(n, y1, y2) < tol);
    assert_int_equal(fast->adjoint_sparse(fast->ctx, r, 4, idx, y1), 0);
    assert_int_equal(slow->adjoint_sparse(slow->ctx, r, 4, idx, y2), 0);
    assert_true(rel_diff(4, y1, y2) < tol);
    double nf = 0.0, ns = 0.0;
    assert_int_equal(fast->norm2(fast->ctx, &nf), 0);
    assert_int_equal(slow->norm2(slow->ctx, &ns), 0);
    assert_true(fabs(nf - ns) <= 1e-15 * ns);
    free(x);
    free(r);
    free(y1);
    free(y2);
}

/* A (n seeded rows of the height x width DCT, or of the Walsh-Hadamard transform of the
 * flattened image) and its block operator */
static void make_pair(int hadamard, int height, int width, int n, int block, double scale,
                      int threads, gsfw_operator **A, gsfw_operator **fast)
{
    if (!hadamard) {
        assert_int_equal(gsfw_op_dct2_scaled(height, width, n, 3, scale, threads, A, NULL),
                         GSFW_OK);
        assert_int_equal(gsfw_op_dct2_block_constant(*A, height, width, block, fast, NULL), GSFW_OK);
    } else {
        assert_int_equal(gsfw_op_hadamard_scaled(height * width, n, 4, scale, threads, A, NULL),
                         GSFW_OK);
        assert_int_equal(gsfw_op_hadamard_block_constant(*A, height, width, block, fast, NULL),
                         GSFW_OK);
    }
    assert_non_null(*fast);
}

static void check_case(int hadamard, int height, int width, int n, int block, double scale)
{
    gsfw_operator *A = NULL, *U = NULL, *AU = NULL, *fast = NULL;
    make_pair(hadamard, height, width, n, block, scale, 1, &A, &fast);
    assert_int_equal(gsfw_operator_upsample(height, width, block, &U, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_compose(A, U, &AU, NULL), GSFW_OK);
    check_same_map(fast, AU);
    gsfw_operator_free(fast);
    gsfw_operator_free(AU);
    gsfw_operator_free(U);
    gsfw_operator_free(A);
}

/* every row of small images (all frequencies: folded, vanishing, kept), then seeded rows
 * of larger ones; coarse sides even and odd, blocks 2, 3, 4, 8 (powers of two for the
 * Walsh-Hadamard rows, whose images have power-of-two sides) */
static const struct {
    int hadamard, height, width, n, block;
    double scale;
} cases[] = {
    {0, 8, 12, 96, 2, 1.0},      {0, 12, 6, 72, 3, 1.0},      {0, 16, 16, 256, 4, 1.0},
    {0, 24, 40, 960, 8, 1.0},    {0, 14, 10, 140, 2, 1.0},    {0, 64, 96, 1500, 2, 2.5},
    {0, 128, 128, 4000, 4, 0.7}, {0, 32, 48, 700, 4, -1.3},   {1, 8, 16, 128, 2, 1.0},
    {1, 16, 8, 128, 4, 1.0},     {1, 32, 32, 1024, 8, 1.0},   {1, 128, 64, 3000, 2, 1.7},
    {1, 64, 256, 5000, 4, 0.6},  {1, 32, 64, 900, 2, -1.3},
};

static void test_same_map_as_composition(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        check_case(cases[k].hadamard, cases[k].height, cases[k].width, cases[k].n,
                   cases[k].block, cases[k].scale);
}

/* the shortcut declines A for this image and block: the caller composes A U */
static void assert_declined(const gsfw_operator *A, int hadamard, int height, int width,
                            int block)
{
    gsfw_operator *fast = NULL;
    gsfw_error rc = hadamard
                        ? gsfw_op_hadamard_block_constant(A, height, width, block, &fast, NULL)
                        : gsfw_op_dct2_block_constant(A, height, width, block, &fast, NULL);
    assert_int_equal(rc, GSFW_OK);
    assert_null(fast);
}

static void test_other_operators_are_composed(void **state)
{
    (void)state;
    gsfw_operator *A = NULL, *fast = NULL;
    /* A transforms an 8 x 16 image: a 16 x 8 one has as many pixels, flattened otherwise;
     * sides not multiples of the block */
    assert_int_equal(gsfw_op_dct2_scaled(8, 16, 30, 1, 1.0, 1, &A, NULL), GSFW_OK);
    assert_declined(A, 0, 16, 8, 2);
    assert_declined(A, 0, 8, 16, 3);
    assert_declined(A, 1, 8, 16, 2); /* not a Walsh-Hadamard operator */
    assert_int_equal(gsfw_op_dct2_block_constant(A, 8, 16, 2, &fast, NULL), GSFW_OK);
    assert_non_null(fast);
    gsfw_operator_free(fast);
    gsfw_operator_free(A);
    /* blocks that are not powers of two or do not divide the sides, a shape of another
     * pixel count, not a DCT */
    assert_int_equal(gsfw_operator_hadamard(64, 20, 1, &A, NULL), GSFW_OK);
    assert_declined(A, 1, 8, 8, 3);
    assert_declined(A, 1, 2, 32, 4);
    assert_declined(A, 1, 8, 16, 2);
    assert_declined(A, 0, 8, 8, 2);
    gsfw_operator_free(A);
    assert_int_equal(gsfw_operator_dct(64, 20, 1, &A, NULL), GSFW_OK); /* 1-D */
    assert_declined(A, 0, 8, 8, 2);
    gsfw_operator_free(A);
    /* a block operator is not folded again (its rows are no longer the transform's) */
    for (int hadamard = 0; hadamard < 2; hadamard++) {
        make_pair(hadamard, 16, 16, 100, 2, 1.0, 1, &A, &fast);
        assert_declined(fast, hadamard, 8, 8, 2);
        gsfw_operator_free(fast);
        gsfw_operator_free(A);
    }
}

static void test_same_bits_for_threads(void **state)
{
    (void)state;
    for (int hadamard = 0; hadamard < 2; hadamard++) {
        gsfw_operator *A1 = NULL, *A2 = NULL, *f1 = NULL, *f2 = NULL;
        /* the coarse image (256 x 256) is above the size from which the worker runs */
        make_pair(hadamard, 512, 512, 30000, 2, 1.0, 1, &A1, &f1);
        make_pair(hadamard, 512, 512, 30000, 2, 1.0, 2, &A2, &f2);
        const int n = f1->n, dc = f1->d;
        assert_true(dc >= GSFW_OP_THREADS_MIN_D); /* else both runs are single-threaded */
        double *x = malloc(dc * sizeof(double)), *r = malloc(n * sizeof(double));
        double *o1 = malloc((n + dc) * sizeof(double)), *o2 = malloc((n + dc) * sizeof(double));
        assert_true(x && r && o1 && o2);
        fill(dc, x, 0.1);
        fill(n, r, 0.2);
        assert_int_equal(f1->apply(f1->ctx, x, o1), 0);
        assert_int_equal(f2->apply(f2->ctx, x, o2), 0);
        assert_int_equal(f1->adjoint(f1->ctx, r, o1 + n), 0);
        assert_int_equal(f2->adjoint(f2->ctx, r, o2 + n), 0);
        assert_memory_equal(o1, o2, (size_t)(n + dc) * sizeof(double));
        free(x);
        free(r);
        free(o1);
        free(o2);
        gsfw_operator_free(f1);
        gsfw_operator_free(f2);
        gsfw_operator_free(A1);
        gsfw_operator_free(A2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_map_as_composition),
        cmocka_unit_test(test_other_operators_are_composed),
        cmocka_unit_test(test_same_bits_for_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
