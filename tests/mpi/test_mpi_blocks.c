/* The local pieces of src/mpi/ (no MPI calls, run as one process): the row-block rule,
 * the .npy and Matrix Market block readers against whole-file reads, the row selection
 * of an operator against the full operator, and the zero stand-in operator. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mpi/gsfw_mpi.h"
#include "util/rng.h"

static char dir[64];

static void path_of(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", dir, name);
}

/* Every n, K: the blocks are consecutive, cover the rows, differ by at most one row, and
 * a block is empty only when n < K. */
static void test_row_blocks(void **state)
{
    (void)state;
    for (int n = 0; n <= 23; n++) {
        for (int K = 1; K <= 9; K++) {
            int next = 0, lo = n, hi = 0;
            for (int r = 0; r < K; r++) {
                int row0, rows;
                gsfw_mpi_row_block(n, K, r, &row0, &rows);
                assert_int_equal(row0, next);
                next += rows;
                if (rows < lo) lo = rows;
                if (rows > hi) hi = rows;
                if (rows == 0) assert_true(n < K);
            }
            assert_int_equal(next, n);
            assert_true(hi - lo <= 1);
        }
    }
}

/* a .npy with a hand-written header (dtype, order) and raw data bytes */
static void write_npy(const char *path, const char *descr, int fortran, int n, int d,
                      const void *data, size_t bytes)
{
    char dict[160];
    int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': "
                       "(%d, %d), }", descr, fortran ? "True" : "False", n, d);
    int pad = (64 - (10 + len + 1) % 64) % 64, hlen = len + pad + 1;
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fwrite("\x93NUMPY\x01\x00", 1, 8, fp);
    fputc(hlen & 0xff, fp);
    fputc(hlen >> 8, fp);
    fwrite(dict, 1, (size_t)len, fp);
    for (int k = 0; k < pad; k++) fputc(' ', fp);
    fputc('\n', fp);
    fwrite(data, 1, bytes, fp);
    assert_int_equal(fclose(fp), 0);
}

/* Every block of a 5 x 4 matrix in C and Fortran order, float64, float32 and big-endian
 * int16, equals the rows of the matrix. */
static void test_npy_blocks(void **state)
{
    (void)state;
    enum { N = 5, D = 4 };
    double A[N * D], Af[N * D];
    float A32[N * D];
    unsigned char be16[N * D * 2];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < D; j++) {
            double v = (double)(10 * i + j) - 17.0;
            A[i * D + j] = v;
            Af[j * N + i] = v;
            A32[i * D + j] = (float)v;
            int16_t s = (int16_t)v;
            be16[2 * (i * D + j)] = (unsigned char)((uint16_t)s >> 8);
            be16[2 * (i * D + j) + 1] = (unsigned char)((uint16_t)s & 0xff);
        }
    struct { const char *name, *descr; int fortran; const void *data; size_t bytes; } files[] = {
        {"c.npy", "<f8", 0, A, sizeof A},
        {"f.npy", "<f8", 1, Af, sizeof Af},
        {"s.npy", "<f4", 0, A32, sizeof A32},
        {"b.npy", ">i2", 0, be16, sizeof be16},
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[128];
        path_of(path, sizeof path, files[k].name);
        write_npy(path, files[k].descr, files[k].fortran, N, D, files[k].data, files[k].bytes);
        int ndim, shape[2];
        gsfw_err err;
        assert_int_equal(gsfw_mpi_npy_shape(path, &ndim, shape, &err), GSFW_OK);
        assert_int_equal(ndim, 2);
        assert_int_equal(shape[0], N);
        assert_int_equal(shape[1], D);
        for (int row0 = 0; row0 <= N; row0++)
            for (int rows = 0; row0 + rows <= N; rows++) {
                double *block = NULL;
                assert_int_equal(gsfw_mpi_npy_read_rows(path, row0, rows, &block, shape, &err),
                                 GSFW_OK);
                if (rows == 0) assert_null(block);
                for (int q = 0; q < rows * D; q++) assert_true(block[q] == A[row0 * D + q]);
                free(block);
            }
        double *block = NULL;
        assert_int_equal(gsfw_mpi_npy_read_rows(path, 3, 3, &block, shape, &err),
                         GSFW_ERR_INVALID_ARG);
        assert_non_null(strstr(err.message, "outside its 5 rows"));
    }
    /* a file shorter than its header says is refused from the header, on every rank */
    char path[128];
    path_of(path, sizeof path, "t.npy");
    write_npy(path, "<f8", 0, N, D, A, sizeof A - 8);
    int ndim, shape[2];
    gsfw_err err;
    assert_int_equal(gsfw_mpi_npy_shape(path, &ndim, shape, &err), GSFW_ERR_FORMAT);
    assert_non_null(strstr(err.message, "is truncated"));
    double *block = NULL;
    assert_int_equal(gsfw_mpi_npy_read_rows(path, 0, 1, &block, shape, &err), GSFW_ERR_FORMAT);
    assert_null(block);
    /* a header whose size in bytes exceeds any file (2^31 - 1 squared float64s) is a
     * truncated file too, not an overflow */
    write_npy(path, "<f8", 0, 2147483647, 2147483647, A, sizeof A);
    assert_int_equal(gsfw_mpi_npy_shape(path, &ndim, shape, &err), GSFW_ERR_FORMAT);
    assert_non_null(strstr(err.message, "is truncated"));
}

/* The blocks of a general and a symmetric Matrix Market file, for K = 1..4, put together
 * give the matrix gsfw_mtx_read gives. */
static void test_mtx_blocks(void **state)
{
    (void)state;
    const char *texts[] = {
        "%%MatrixMarket matrix coordinate real general\n% c\n4 3 5\n1 1 1.5\n4 3 -2\n2 2 3\n"
        "4 1 7\n3 3 0.25\n",
        "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2\n2 1 -1\n3 2 5\n3 3 1\n",
    };
    for (int f = 0; f < 2; f++) {
        char path[128];
        path_of(path, sizeof path, "m.mtx");
        FILE *fp = fopen(path, "w");
        assert_non_null(fp);
        fputs(texts[f], fp);
        assert_int_equal(fclose(fp), 0);
        int n, d, *r, *c;
        long nnz;
        double *v;
        gsfw_err err;
        assert_int_equal(gsfw_mtx_read(path, &n, &d, &nnz, &r, &c, &v, &err), GSFW_OK);
        double want[16] = {0};
        for (long k = 0; k < nnz; k++) want[r[k] * d + c[k]] += v[k];
        gsfw_free(r);
        gsfw_free(c);
        gsfw_free(v);
        for (int K = 1; K <= 4; K++) {
            double got[16] = {0};
            for (int rank = 0; rank < K; rank++) {
                int bn, bd, row0, rows, *ri, *ci;
                long bnnz;
                double *bv;
                assert_int_equal(gsfw_mpi_mtx_read_block(path, rank, K, &bn, &bd, &row0, &rows,
                                                         &bnnz, &ri, &ci, &bv, &err),
                                 GSFW_OK);
                assert_int_equal(bn, n);
                assert_int_equal(bd, d);
                for (long k = 0; k < bnnz; k++) {
                    assert_true(ri[k] >= 0 && ri[k] < rows);
                    got[(row0 + ri[k]) * d + ci[k]] += bv[k];
                }
                free(ri);
                free(ci);
                free(bv);
            }
            assert_memory_equal(got, want, sizeof got);
        }
    }
    /* fewer entries than announced */
    char path[128];
    path_of(path, sizeof path, "short.mtx");
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2\n", fp);
    assert_int_equal(fclose(fp), 0);
    int n, d, row0, rows, *ri, *ci;
    long nnz;
    double *v;
    gsfw_err err;
    assert_int_equal(gsfw_mpi_mtx_read_block(path, 0, 2, &n, &d, &row0, &rows, &nnz, &ri, &ci,
                                             &v, &err),
                     GSFW_ERR_FORMAT);
    assert_non_null(strstr(err.message, "ends after 2 entries but its header promises 3"));
}

/* Row blocks of a DCT operator reproduce the full operator's products: apply and the
 * sparse apply restricted to the block, adjoints that sum to the full adjoint; norm2 is
 * the full one on the block holding row 0 and 0 on the others. */
static void test_row_select(void **state)
{
    (void)state;
    enum { D = 16, N = 10 };
    gsfw_operator *A;
    gsfw_err err;
    assert_int_equal(gsfw_operator_dct(D, N, 3, &A, &err), GSFW_OK);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 5);
    double x[D], r[N], full_y[N], full_x[D], y[N], sum_x[D] = {0}, part[D];
    for (int j = 0; j < D; j++) x[j] = gsfw_rng_normal(&rng);
    for (int i = 0; i < N; i++) r[i] = gsfw_rng_normal(&rng);
    assert_int_equal(A->apply(A->ctx, x, full_y), 0);
    assert_int_equal(A->adjoint(A->ctx, r, full_x), 0);
    double a2;
    assert_int_equal(A->norm2(A->ctx, &a2), 0);
    int idx[3] = {2, 7, 11};
    double val[3] = {0.5, -1.0, 2.0};
    double sparse_full[N] = {0}, sparse_adj_full[3], sum_sparse_adj[3] = {0};
    assert_int_equal(A->apply_sparse(A->ctx, 3, idx, val, 1.5, sparse_full), 0);
    assert_int_equal(A->adjoint_sparse(A->ctx, r, 3, idx, sparse_adj_full), 0);
    const int K = 3;
    for (int rank = 0; rank < K; rank++) {
        int row0, rows;
        gsfw_mpi_row_block(N, K, rank, &row0, &rows);
        gsfw_operator *B;
        assert_int_equal(gsfw_mpi_row_select(A, row0, rows, &B, &err), GSFW_OK);
        assert_int_equal(B->n, rows);
        assert_int_equal(B->apply(B->ctx, x, y), 0);
        for (int i = 0; i < rows; i++) assert_true(y[i] == full_y[row0 + i]);
        memset(y, 0, sizeof y);
        assert_int_equal(B->apply_sparse(B->ctx, 3, idx, val, 1.5, y), 0);
        for (int i = 0; i < rows; i++) assert_true(y[i] == sparse_full[row0 + i]);
        assert_int_equal(B->adjoint(B->ctx, r + row0, part), 0);
        for (int j = 0; j < D; j++) sum_x[j] += part[j];
        double sa[3];
        assert_int_equal(B->adjoint_sparse(B->ctx, r + row0, 3, idx, sa), 0);
        for (int k = 0; k < 3; k++) sum_sparse_adj[k] += sa[k];
        double b2;
        assert_int_equal(B->norm2(B->ctx, &b2), 0);
        assert_true(b2 == (row0 == 0 ? a2 : 0.0));
        gsfw_operator_free(B);
    }
    for (int j = 0; j < D; j++) assert_true(fabs(sum_x[j] - full_x[j]) <= 1e-12);
    for (int k = 0; k < 3; k++) assert_true(fabs(sum_sparse_adj[k] - sparse_adj_full[k]) <= 1e-12);
    gsfw_operator *B = NULL;
    assert_int_equal(gsfw_mpi_row_select(A, 8, 3, &B, &err), GSFW_ERR_INVALID_ARG);
    assert_null(B);
    gsfw_operator_free(A);
}

/* The zero stand-in: every product is 0 (the sparse apply leaves y alone), norm2 only
 * when asked for, and a least-squares objective over it with target 0 is 0 with a zero
 * gradient. */
static void test_zero_operator(void **state)
{
    (void)state;
    enum { D = 6 };
    gsfw_operator *Z;
    gsfw_err err;
    assert_int_equal(gsfw_mpi_zero_operator(D, 0, &Z, &err), GSFW_OK);
    assert_null(Z->norm2);
    assert_int_equal(Z->n, 1);
    double x[D] = {1, 2, 3, 4, 5, 6}, g[D], y = 5.0, f = -1.0;
    assert_int_equal(Z->apply(Z->ctx, x, &y), 0);
    assert_true(y == 0.0);
    y = 3.0;
    int idx[2] = {1, 4};
    assert_int_equal(Z->apply_sparse(Z->ctx, 2, idx, x, 2.0, &y), 0);
    assert_true(y == 3.0);
    double zero = 0.0;
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_linear(Z, 1, &zero, NULL, &obj, &err), GSFW_OK);
    assert_int_equal(obj->value_grad(obj->ctx, x, &f, g), 0);
    assert_true(f == 0.0);
    for (int j = 0; j < D; j++) assert_true(g[j] == 0.0);
    gsfw_objective_free(obj);
    gsfw_operator_free(Z);
    assert_int_equal(gsfw_mpi_zero_operator(D, 1, &Z, &err), GSFW_OK);
    double n2 = -1.0;
    assert_int_equal(Z->norm2(Z->ctx, &n2), 0);
    assert_true(n2 == 0.0);
    gsfw_operator_free(Z);
    assert_int_equal(gsfw_mpi_zero_operator(0, 0, &Z, &err), GSFW_ERR_INVALID_ARG);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gsfw_mpi_blocks_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = {"c.npy", "f.npy", "s.npy", "b.npy", "t.npy", "m.mtx", "short.mtx"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[128];
        path_of(path, sizeof path, names[k]);
        unlink(path);
    }
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_blocks),   cmocka_unit_test(test_npy_blocks),
        cmocka_unit_test(test_mtx_blocks),   cmocka_unit_test(test_row_select),
        cmocka_unit_test(test_zero_operator),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
