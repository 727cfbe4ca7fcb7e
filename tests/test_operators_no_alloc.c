/* The products of every built-in operator (apply, adjoint, apply_sparse, adjoint_sparse,
 * norm2) allocate nothing: all scratch comes from the constructor. Counted by this
 * executable's own allocator entry points, which pass each request on to glibc (the
 * library is linked statically, so its calls, FFTW's and OpenBLAS's come here). Skipped
 * under the sanitizers, which replace the allocator themselves.
 *
 * Among them the image pyramid's block-constant products (A U for DCT and Hadamard rows)
 * and the threaded operators, with d at the threads' threshold and above.
 *
 * The one exception is FFTW's executor: its DCT (REDFT) algorithms allocate a temporary
 * buffer of their own on every execution (and even its plain real FFTs do for some sizes),
 * which no planner flag prevents. For the DCT operators the test checks that this stays a
 * fixed number of allocations per product (it does not grow with use) and that none comes
 * from gsfw itself beyond FFTW's. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"
#include "operators/op_internal.h" /* the block-constant operators of the image pyramid */

#include "support/alloc_counter.h"

/* N rows; the images of the plain operators are H x W, those of the threaded ones (and
 * the fine images of their block-constant products) up to BIG x BIG, so that d reaches
 * GSFW_OP_THREADS_MIN_D and the worker thread takes part */
enum { N = 24, H = 8, W = 8, D = H * W, BIG = 256, MAX_D = BIG * BIG };

/* Every product of op (n <= D rows, d <= MAX_D), once; op NULL: one malloc of this
 * file's own instead (the counter's check). */
static void products(const gsfw_operator *op)
{
    if (!op) { /* through a pointer: GCC assumes a call of malloc leaves the counts alone */
        void *(*volatile alloc)(size_t) = malloc;
        free(alloc(8));
        return;
    }
    static double x[MAX_D], r[D], y[D], z[MAX_D], out[4];
    const int n = op->n, d = op->d;
    const int idx[4] = {0, d / 7, d / 3, d - 1};
    static const double val[4] = {1, -2, 0.5, 3};
    assert_true(n >= 1 && n <= D && d >= 4 && d <= MAX_D);
    for (int j = 0; j < d; j++) x[j] = (double)(j % 7) - 3;
    for (int i = 0; i < n; i++) r[i] = (double)(i % 5) - 2;
    assert_int_equal(op->apply(op->ctx, x, y), 0);
    assert_int_equal(op->adjoint(op->ctx, r, z), 0);
    assert_int_equal(op->apply_sparse(op->ctx, 4, idx, val, 0.5, y), 0);
    assert_int_equal(op->adjoint_sparse(op->ctx, r, 4, idx, out), 0);
    double n2;
    if (op->norm2) assert_int_equal(op->norm2(op->ctx, &n2), 0);
}

/* Allocations made by one round of products with op; *own: those of the executable's
 * own code (gsfw's), not FFTW's. */
static long allocations_of_products(const gsfw_operator *op, long *own)
{
#if COUNTING
    const long before = allocations, own_before = own_allocations;
    products(op);
    *own = own_allocations - own_before;
    return allocations - before;
#else
    products(op);
    *own = 0;
    return 0;
#endif
}

static void test_products_do_not_allocate(void **state)
{
    (void)state;
    if (!COUNTING) skip();
    static double A[N * D];
    static int rows[N * D], cols[N * D];
    for (int k = 0; k < N * D; k++) {
        A[k] = (double)((k * 37) % 11) - 5;
        rows[k] = k / D;
        cols[k] = k % D;
    }
    /* the counter tells the executable's allocations from the shared libraries' */
    long own;
    assert_int_equal(allocations_of_products(NULL, &own), 1);
    assert_int_equal(own, 1);
    gsfw_operator *ops[20] = {0};
    int m = 0;
    assert_int_equal(gsfw_operator_dense(N, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_dense(N, D, A, GSFW_ROW_MAJOR, GSFW_OP_BORROW, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_dense_to_f32(N, D, A, GSFW_ROW_MAJOR, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_csr(N, D, N * D, rows, cols, A, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_dct(D, N, 1, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_dct2(H, W, N, 1, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_hadamard(D, N, 1, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_implicit_gaussian(N, D, 1, 0.2, 0, N, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_dct(D, D, 2, &ops[m], NULL), 0);
    gsfw_operator *synthesis = ops[m++];
    assert_int_equal(gsfw_operator_compose(ops[0], synthesis, &ops[m++], NULL), 0);
    const gsfw_operator *dct_synthesis = ops[m - 1];
    /* the image pyramid's coarse sensing, A U from the coarse image's transform (block 2),
     * from operators of one thread and of two (coarse d = 16384: the worker runs) */
    gsfw_operator *fine[4] = {NULL};
    assert_int_equal(gsfw_operator_dct2(16, 16, N, 3, &fine[0], NULL), 0);
    assert_int_equal(gsfw_operator_hadamard(256, N, 3, &fine[1], NULL), 0);
    assert_int_equal(gsfw_operator_dct2_threads(BIG, BIG, N, 3, 2, &fine[2], NULL), 0);
    assert_int_equal(gsfw_operator_hadamard_threads(MAX_D, N, 3, 2, &fine[3], NULL), 0);
    for (int f = 0; f < 4; f++) {
        const int side = f < 2 ? 16 : BIG;
        gsfw_error (*blocks)(const gsfw_operator *, int, int, int, gsfw_operator **,
                             gsfw_err *) = f % 2 ? gsfw_op_hadamard_block_constant
                                                 : gsfw_op_dct2_block_constant;
        assert_int_equal(blocks(fine[f], side, side, 2, &ops[m], NULL), GSFW_OK);
        assert_non_null(ops[m]);
        assert_int_equal(ops[m++]->d, side * side / 4);
    }
    /* the threaded operators themselves (d >= 16384) */
    ops[m++] = fine[2];
    ops[m++] = fine[3];
    assert_int_equal(gsfw_operator_dct2_threads(128, 128, N, 1, 2, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_hadamard_threads(128 * 128, N, 1, 2, &ops[m++], NULL), 0);
    assert_int_equal(gsfw_operator_implicit_gaussian_threads(N, 128 * 128, 1, 0.2, 0, N, 2,
                                                             &ops[m++], NULL), 0);
    assert_true(m <= (int)(sizeof ops / sizeof ops[0]));
    for (int k = 0; k < m; k++) {
        long own[2];
        long first = allocations_of_products(ops[k], &own[0]);
        long second = allocations_of_products(ops[k], &own[1]);
        const int fftw = !strncmp(ops[k]->name, "dct", 3) || /* dct, dct2, dct2-blocks */
                         ops[k] == dct_synthesis; /* the product with a DCT synthesis */
        /* FFTW's REDFT executions: on the small images at most one buffer per transform,
         * 4 transforms a round; the 2-D passes at 128 x 128 allocate one per row or column
         * (1040 a round, with one thread or two), at 256 x 256 one per pass half (16), so
         * there only: the same number every round */
        const long allowed = !fftw ? 0 : ops[k]->d < 16384 ? 4 : LONG_MAX;
        if (first > allowed || second != first || own[0] || own[1])
            fail_msg("operator '%s' (d = %d) allocated %ld then %ld times in a round of "
                     "products, %ld and %ld of them from gsfw's code (allowed: %ld, none "
                     "from gsfw)", ops[k]->name, ops[k]->d, first, second, own[0], own[1],
                     allowed);
    }
    for (int k = m - 1; k >= 0; k--) gsfw_operator_free(ops[k]);
    gsfw_operator_free(fine[0]);
    gsfw_operator_free(fine[1]);
}

/* The block upsampling's products (its shape differs from the others': n = 8 x 8 pixels
 * from d = 3 x 3 coarse ones, blocks of 3 cut at the edges). */
static void test_upsample_does_not_allocate(void **state)
{
    (void)state;
    if (!COUNTING) skip();
    gsfw_operator *up = NULL;
    assert_int_equal(gsfw_operator_upsample(H, W, 3, &up, NULL), 0);
    assert_int_equal(up->n, D);
    assert_int_equal(up->d, 9);
    static double coarse[9], fine[D], out[3];
    static const int idx[3] = {0, 4, 8};
    static const double val[3] = {1, -2, 0.5};
    for (int j = 0; j < 9; j++) coarse[j] = j - 4.0;
#if COUNTING
    long before = allocations;
#endif
    double n2;
    assert_int_equal(up->apply(up->ctx, coarse, fine), 0);
    assert_int_equal(up->adjoint(up->ctx, fine, coarse), 0);
    assert_int_equal(up->apply_sparse(up->ctx, 3, idx, val, 0.5, fine), 0);
    assert_int_equal(up->adjoint_sparse(up->ctx, fine, 3, idx, out), 0);
    assert_int_equal(up->norm2(up->ctx, &n2), 0);
#if COUNTING
    assert_int_equal(allocations - before, 0);
#endif
    gsfw_operator_free(up);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_products_do_not_allocate),
        cmocka_unit_test(test_upsample_does_not_allocate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
