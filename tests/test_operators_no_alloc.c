/* The products of every built-in operator (apply, adjoint, apply_sparse, adjoint_sparse,
 * norm2) allocate nothing: all scratch comes from the constructor. Counted by this
 * executable's own allocator entry points, which pass each request on to glibc (the
 * library is linked statically, so its calls, FFTW's and OpenBLAS's come here). Skipped
 * under the sanitizers, which replace the allocator themselves.
 *
 * The one exception is FFTW's executor: its DCT (REDFT) algorithms allocate a temporary
 * buffer of their own on every execution (and even its plain real FFTs do for some sizes),
 * which no planner flag prevents. For the DCT operators the test checks that this stays a
 * fixed number of allocations per product (it does not grow with use) and that none comes
 * from gsfw itself beyond FFTW's. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"

#include "support/alloc_counter.h"

enum { N = 24, H = 8, W = 8, D = H * W };

/* Every product of op, once. */
static void products(const gsfw_operator *op)
{
    static double x[D], r[N], y[N], z[D], out[4];
    static const int idx[4] = {0, 5, 17, 63};
    static const double val[4] = {1, -2, 0.5, 3};
    for (int j = 0; j < D; j++) x[j] = (double)(j % 7) - 3;
    for (int i = 0; i < N; i++) r[i] = (double)(i % 5) - 2;
    assert_int_equal(op->apply(op->ctx, x, y), 0);
    assert_int_equal(op->adjoint(op->ctx, r, z), 0);
    assert_int_equal(op->apply_sparse(op->ctx, 4, idx, val, 0.5, y), 0);
    assert_int_equal(op->adjoint_sparse(op->ctx, r, 4, idx, out), 0);
    double n2;
    if (op->norm2) assert_int_equal(op->norm2(op->ctx, &n2), 0);
}

/* Allocations made by one round of products with op. */
static long allocations_of_products(const gsfw_operator *op)
{
#if COUNTING
    long before = allocations;
    products(op);
    return allocations - before;
#else
    products(op);
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
    gsfw_operator *ops[10] = {0};
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
    for (int k = 0; k < m; k++) {
        long first = allocations_of_products(ops[k]), second = allocations_of_products(ops[k]);
        int fftw = !strcmp(ops[k]->name, "dct") || !strcmp(ops[k]->name, "dct2") ||
                   ops[k] == ops[m - 1]; /* the product with a DCT synthesis */
        /* FFTW's REDFT executions: at most one buffer per transform, 4 transforms a round */
        long allowed = fftw ? 4 : 0;
        if (first > allowed || second != first)
            fail_msg("operator '%s' allocated %ld then %ld times in a round of products "
                     "(allowed: %ld)", ops[k]->name, first, second, allowed);
    }
    for (int k = m - 1; k >= 0; k--) gsfw_operator_free(ops[k]);
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
