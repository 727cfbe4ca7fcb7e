/* Linear operators (include/gsfw/operator.h): every built-in operator against its
 * contract (dot-product test, sparse products against dense ones) and against an
 * independently built matrix (the input of dense and CSR, hand-computed DCT-II and
 * Hadamard entries, the generator's entries for the implicit Gaussian, the drawing order
 * of the recover command for the "gaussian" sensing matrix); the Matrix Market and
 * numeric .npy readers on small files written here; and each refusal of bad input with
 * its message. */
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gsfw.h"
#include "io/mtx.h"
#include "operators/op_internal.h"
#include "util/counter_rng.h"
#include "util/rng.h"

/* ------------------------------------------------------------------ helpers */

static double *vec(size_t n)
{
    double *x = calloc(n ? n : 1, sizeof(double));
    assert_non_null(x);
    return x;
}

static void fill_normal(gsfw_rng *rng, double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = gsfw_rng_normal(rng);
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static double norm(const double *a, int n) { return sqrt(dot(a, a, n)); }

/* max |a - b| <= tol * max(1, max |b|) */
static void assert_close_vec(const double *a, const double *b, int n, double tol)
{
    double scale = 1.0, worst = 0.0;
    for (int i = 0; i < n; i++) {
        if (fabs(b[i]) > scale) scale = fabs(b[i]);
        if (fabs(a[i] - b[i]) > worst) worst = fabs(a[i] - b[i]);
    }
    if (worst > tol * scale) fail_msg("vectors differ by %g (scale %g, tol %g)", worst, scale, tol);
}

/* The n x d matrix of op, column-major, by applying it to unit vectors. */
static double *materialise(const gsfw_operator *op)
{
    double *M = vec((size_t)op->n * (size_t)op->d), *e = vec((size_t)op->d);
    for (int j = 0; j < op->d; j++) {
        e[j] = 1.0;
        assert_int_equal(op->apply(op->ctx, e, M + (size_t)j * op->n), 0);
        e[j] = 0.0;
    }
    free(e);
    return M;
}

/* The contract of operator.h: <A x, r> = <x, A^T r>, apply_sparse = apply on the
 * scattered vector (added to y, scaled by alpha), adjoint_sparse = the gathered adjoint,
 * an empty support leaves y unchanged. tol relative. */
static void check_contract(const gsfw_operator *op, uint64_t seed, double tol)
{
    int n = op->n, d = op->d;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    double *x = vec((size_t)d), *r = vec((size_t)n), *y = vec((size_t)n), *z = vec((size_t)d);
    fill_normal(&rng, x, (size_t)d);
    fill_normal(&rng, r, (size_t)n);
    assert_int_equal(op->apply(op->ctx, x, y), 0);
    assert_int_equal(op->adjoint(op->ctx, r, z), 0);
    double lhs = dot(y, r, n), rhs = dot(x, z, d);
    double scale = norm(y, n) * norm(r, n) + norm(x, d) * norm(z, d) + 1e-300;
    if (fabs(lhs - rhs) > tol * scale)
        fail_msg("%s %d x %d: <Ax, r> = %.17g but <x, A^T r> = %.17g", op->name, n, d, lhs, rhs);

    /* a support of up to 5 distinct ids */
    int nnz = d < 5 ? d : 5;
    int *perm = malloc((size_t)d * sizeof(int)), *idx = malloc(5 * sizeof(int));
    assert_non_null(perm);
    assert_non_null(idx);
    for (int j = 0; j < d; j++) perm[j] = j;
    gsfw_rng_shuffle(&rng, perm, d);
    double val[5];
    double *u = vec((size_t)d);
    for (int k = 0; k < nnz; k++) {
        idx[k] = perm[k];
        val[k] = gsfw_rng_normal(&rng);
        u[idx[k]] = val[k];
    }
    double *au = vec((size_t)n), *y0 = vec((size_t)n), *y1 = vec((size_t)n), *want = vec((size_t)n);
    fill_normal(&rng, y0, (size_t)n);
    memcpy(y1, y0, (size_t)n * sizeof(double));
    assert_int_equal(op->apply(op->ctx, u, au), 0);
    const double alpha = -0.7;
    for (int i = 0; i < n; i++) want[i] = y0[i] + alpha * au[i];
    assert_int_equal(op->apply_sparse(op->ctx, nnz, idx, val, alpha, y1), 0);
    assert_close_vec(y1, want, n, tol);
    memcpy(y1, y0, (size_t)n * sizeof(double));
    assert_int_equal(op->apply_sparse(op->ctx, 0, idx, val, alpha, y1), 0);
    assert_close_vec(y1, y0, n, 0.0);

    double out[5], gathered[5];
    assert_int_equal(op->adjoint_sparse(op->ctx, r, nnz, idx, out), 0);
    for (int k = 0; k < nnz; k++) gathered[k] = z[idx[k]];
    assert_close_vec(out, gathered, nnz, tol);

    free(perm);
    free(idx);
    free(u);
    free(au);
    free(y0);
    free(y1);
    free(want);
    free(x);
    free(r);
    free(y);
    free(z);
}

static void assert_message_contains(const gsfw_err *err, const char *text)
{
    if (!strstr(err->message, text))
        fail_msg("message '%s' does not contain '%s'", err->message, text);
}

/* ------------------------------------------------------------------- dense */

static const int SIZES[][2] = {{1, 1}, {1, 5}, {5, 1}, {7, 3}, {4, 9}, {13, 17}};
#define N_SIZES (sizeof SIZES / sizeof SIZES[0])

static void test_dense(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 1);
    for (size_t s = 0; s < N_SIZES; s++) {
        int n = SIZES[s][0], d = SIZES[s][1];
        double *col = vec((size_t)n * d), *row = vec((size_t)n * d);
        fill_normal(&rng, col, (size_t)n * d);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < d; j++) row[(size_t)i * d + j] = col[(size_t)j * n + i];
        for (int layout = 0; layout < 2; layout++)
            for (int flags = 0; flags < 2; flags++) {
                gsfw_operator *op = NULL;
                gsfw_err err;
                assert_int_equal(gsfw_operator_dense(n, d, layout ? col : row,
                                                     layout ? GSFW_COL_MAJOR : GSFW_ROW_MAJOR,
                                                     flags, &op, &err), GSFW_OK);
                assert_string_equal(op->name, "dense");
                assert_int_equal(op->n, n);
                assert_int_equal(op->d, d);
                double *M = materialise(op);
                assert_close_vec(M, col, n * d, 1e-15);
                free(M);
                check_contract(op, 10 + s, 1e-12);
                gsfw_operator_free(op);
            }
        free(col);
        free(row);
    }
}

/* Borrowing uses the caller's array: a change to it shows in the products. */
static void test_dense_borrow_uses_callers_array(void **state)
{
    (void)state;
    double A[6] = {1, 2, 3, 4, 5, 6}; /* 2 x 3 row-major */
    gsfw_operator *op = NULL;
    assert_int_equal(gsfw_operator_dense(2, 3, A, GSFW_ROW_MAJOR, GSFW_OP_BORROW, &op, NULL), GSFW_OK);
    double x[3] = {1, 1, 1}, y[2];
    op->apply(op->ctx, x, y);
    assert_true(y[0] == 6 && y[1] == 15);
    A[0] = 11;
    op->apply(op->ctx, x, y);
    assert_true(y[0] == 16);
    gsfw_operator_free(op);
}

static void test_dense_f32(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 2);
    for (size_t s = 0; s < N_SIZES; s++) {
        int n = SIZES[s][0], d = SIZES[s][1];
        double *A = vec((size_t)n * d);
        fill_normal(&rng, A, (size_t)n * d);
        float *Af = malloc((size_t)n * d * sizeof(float));
        assert_non_null(Af);
        for (size_t k = 0; k < (size_t)n * d; k++) Af[k] = (float)A[k];
        gsfw_operator *dbl = NULL, *conv = NULL, *f32 = NULL, *borrowed = NULL;
        assert_int_equal(gsfw_operator_dense(n, d, A, GSFW_ROW_MAJOR, 0, &dbl, NULL), GSFW_OK);
        assert_int_equal(gsfw_operator_dense_to_f32(n, d, A, GSFW_ROW_MAJOR, &conv, NULL), GSFW_OK);
        assert_int_equal(gsfw_operator_dense_f32(n, d, Af, GSFW_ROW_MAJOR, GSFW_OP_COPY, &f32, NULL),
                         GSFW_OK);
        assert_int_equal(gsfw_operator_dense_f32(n, d, Af, GSFW_ROW_MAJOR, GSFW_OP_BORROW,
                                                 &borrowed, NULL), GSFW_OK);
        assert_string_equal(conv->name, "dense-f32");
        /* the conversion rounds to nearest: the same matrix as the float input */
        double *Mc = materialise(conv), *Mf = materialise(f32), *Md = materialise(dbl);
        assert_memory_equal(Mc, Mf, (size_t)n * d * sizeof(double));
        assert_close_vec(Mf, Md, n * d, 1e-7);
        /* products against double: A and x rounded to float (2^-24 each), then float sums
         * of m = d (apply) or n (adjoint) terms, so each entry is off by at most
         * (m + 2) 2^-24 (|A| |x|)_i (Higham, Accuracy and Stability, 3.5), whatever order
         * the BLAS kernel sums in (1.0001: the O(u^2) terms); the double product's own
         * error is 2^29 times smaller */
        const double u = 0x1p-24;
        double *x = vec((size_t)d), *r = vec((size_t)n), *ax = vec((size_t)n), *ar = vec((size_t)d);
        double *yd = vec((size_t)n), *yf = vec((size_t)n), *zd = vec((size_t)d), *zf = vec((size_t)d);
        fill_normal(&rng, x, (size_t)d);
        fill_normal(&rng, r, (size_t)n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < d; j++) {
                ax[i] += fabs(A[(size_t)i * d + j] * x[j]);
                ar[j] += fabs(A[(size_t)i * d + j] * r[i]);
            }
        const gsfw_operator *ops[3] = {conv, f32, borrowed};
        for (int o = 0; o < 3; o++) {
            dbl->apply(dbl->ctx, x, yd);
            ops[o]->apply(ops[o]->ctx, x, yf);
            assert_true(norm(yd, n) > 0);
            for (int i = 0; i < n; i++)
                if (!(fabs(yf[i] - yd[i]) <= (d + 2) * u * ax[i] * 1.0001))
                    fail_msg("float32 product %d: %g off, bound %g", i, yf[i] - yd[i],
                             (d + 2) * u * ax[i]);
            dbl->adjoint(dbl->ctx, r, zd);
            ops[o]->adjoint(ops[o]->ctx, r, zf);
            for (int j = 0; j < d; j++)
                if (!(fabs(zf[j] - zd[j]) <= (n + 2) * u * ar[j] * 1.0001))
                    fail_msg("float32 adjoint %d: %g off, bound %g", j, zf[j] - zd[j],
                             (n + 2) * u * ar[j]);
            /* the same bound in the contract's inner products: (n + d + 4) 2^-24 |r|^T |A|
             * |x|, which for Gaussian A, x, r is within a factor of about sqrt(max(n, d))
             * of the contract's scale ||A x|| ||r|| + ||x|| ||A^T r||: 1e-5 */
            check_contract(ops[o], 20 + s, 1e-5);
        }
        free(ax);
        free(ar);
        gsfw_operator_free(dbl);
        gsfw_operator_free(conv);
        gsfw_operator_free(f32);
        gsfw_operator_free(borrowed);
        free(Mc);
        free(Mf);
        free(Md);
        free(A);
        free(Af);
        free(x);
        free(r);
        free(yd);
        free(yf);
        free(zd);
        free(zf);
    }
}

static void test_dense_errors(void **state)
{
    (void)state;
    gsfw_operator *op = (gsfw_operator *)&op;
    gsfw_err err;
    double A[6] = {1, 2, 3, 4, NAN, 6};
    assert_int_equal(gsfw_operator_dense(2, 3, A, GSFW_ROW_MAJOR, 0, &op, &err), GSFW_ERR_NONFINITE);
    assert_null(op);
    assert_message_contains(&err, "entry (1, 1) of the 2 x 3 matrix is nan");
    assert_int_equal(gsfw_operator_dense(2, 3, A, GSFW_COL_MAJOR, 0, &op, &err), GSFW_ERR_NONFINITE);
    assert_message_contains(&err, "entry (0, 2)");
    assert_int_equal(gsfw_operator_dense(2, 3, NULL, GSFW_ROW_MAJOR, 0, &op, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "the matrix A is NULL");
    assert_int_equal(gsfw_operator_dense(0, 3, A, GSFW_ROW_MAJOR, 0, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "got 0 x 3");
    assert_int_equal(gsfw_operator_dense(2, 3, A, GSFW_ROW_MAJOR, 7, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "got 7");
    double big[2] = {1, 1e300};
    assert_int_equal(gsfw_operator_dense_to_f32(1, 2, big, GSFW_ROW_MAJOR, &op, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "entry (0, 1) = 1e+300 is beyond the float32 range");
    float fA[2] = {1.0f, INFINITY};
    assert_int_equal(gsfw_operator_dense_f32(1, 2, fA, GSFW_ROW_MAJOR, 0, &op, &err),
                     GSFW_ERR_NONFINITE);
    assert_message_contains(&err, "entry (0, 1)");
    assert_int_equal(gsfw_operator_dense(2, 3, A, GSFW_ROW_MAJOR, 0, NULL, &err), GSFW_ERR_INVALID_ARG);
    gsfw_operator_free(NULL);
}

/* --------------------------------------------------------------------- CSR */

static void test_csr_matches_dense(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 3);
    for (size_t s = 0; s < N_SIZES; s++) {
        int n = SIZES[s][0], d = SIZES[s][1];
        long nnz = (long)(n * d) + 3; /* more than n d: duplicates are certain */
        int *ri = malloc((size_t)nnz * sizeof(int)), *ci = malloc((size_t)nnz * sizeof(int));
        double *v = vec((size_t)nnz), *D = vec((size_t)n * d);
        assert_non_null(ri);
        assert_non_null(ci);
        for (long k = 0; k < nnz; k++) {
            ri[k] = (int)gsfw_rng_below(&rng, (uint64_t)n);
            ci[k] = (int)gsfw_rng_below(&rng, (uint64_t)d);
            v[k] = gsfw_rng_normal(&rng);
            D[(size_t)ci[k] * n + ri[k]] += v[k];
        }
        gsfw_operator *sp = NULL, *de = NULL;
        assert_int_equal(gsfw_operator_csr(n, d, nnz, ri, ci, v, &sp, NULL), GSFW_OK);
        assert_int_equal(gsfw_operator_dense(n, d, D, GSFW_COL_MAJOR, 0, &de, NULL), GSFW_OK);
        assert_string_equal(sp->name, "csr");
        double *M = materialise(sp);
        assert_close_vec(M, D, n * d, 1e-15);
        check_contract(sp, 30 + s, 1e-12);
        double *x = vec((size_t)d), *r = vec((size_t)n), *a = vec((size_t)n), *b = vec((size_t)n);
        double *za = vec((size_t)d), *zb = vec((size_t)d);
        fill_normal(&rng, x, (size_t)d);
        fill_normal(&rng, r, (size_t)n);
        sp->apply(sp->ctx, x, a);
        de->apply(de->ctx, x, b);
        assert_close_vec(a, b, n, 1e-12);
        sp->adjoint(sp->ctx, r, za);
        de->adjoint(de->ctx, r, zb);
        assert_close_vec(za, zb, d, 1e-12);
        gsfw_operator_free(sp);
        gsfw_operator_free(de);
        free(ri);
        free(ci);
        free(v);
        free(D);
        free(M);
        free(x);
        free(r);
        free(a);
        free(b);
        free(za);
        free(zb);
    }
    /* no entries at all: the zero matrix */
    gsfw_operator *z = NULL;
    assert_int_equal(gsfw_operator_csr(3, 2, 0, NULL, NULL, NULL, &z, NULL), GSFW_OK);
    check_contract(z, 5, 1e-12);
    gsfw_operator_free(z);
}

static void test_csr_errors(void **state)
{
    (void)state;
    gsfw_operator *op = NULL;
    gsfw_err err;
    int r[2] = {0, 3}, c[2] = {1, 0};
    double v[2] = {1, 2};
    assert_int_equal(gsfw_operator_csr(3, 2, 2, r, c, v, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "entry 1 has row 3, outside 0..2");
    c[0] = 2;
    r[1] = 0;
    assert_int_equal(gsfw_operator_csr(3, 2, 2, r, c, v, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "entry 0 has column 2, outside 0..1");
    c[0] = 1;
    v[1] = INFINITY;
    assert_int_equal(gsfw_operator_csr(3, 2, 2, r, c, v, &op, &err), GSFW_ERR_NONFINITE);
    assert_message_contains(&err, "entry 1 (row 0, column 0) is inf");
    assert_int_equal(gsfw_operator_csr(3, 2, 2, r, NULL, v, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "the cols array is NULL");
    assert_int_equal(gsfw_operator_csr(3, 2, -1, r, c, v, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "nnz must be >= 0, got -1");
    assert_null(op);
}

/* ----------------------------------------------------------- Matrix Market */

static int setup_dir(void **state)
{
    char tmpl[] = "/tmp/gsfw-test-operators-XXXXXX";
    if (!mkdtemp(tmpl)) return -1;
    *state = strdup(tmpl);
    return *state ? 0 : -1;
}

static int teardown_dir(void **state)
{
    char *dir = *state;
    DIR *dd = opendir(dir);
    if (dd) {
        struct dirent *e;
        while ((e = readdir(dd)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(dd);
    }
    rmdir(dir);
    free(dir);
    return 0;
}

static void write_file(const char *dir, const char *name, const char *text, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_true(fputs(text, fp) >= 0);
    assert_int_equal(fclose(fp), 0);
}

/* The dense column-major matrix of triplets. */
static double *triplets_dense(int n, int d, long nnz, const int *r, const int *c, const double *v)
{
    double *D = vec((size_t)n * d);
    for (long k = 0; k < nnz; k++) D[(size_t)c[k] * n + r[k]] += v[k];
    return D;
}

static void test_mtx_read(void **state)
{
    const char *dir = *state;
    char path[4096];
    int n, d, *r, *c;
    long nnz;
    double *v;
    gsfw_err err;

    write_file(dir, "general.mtx",
               "%%MatrixMarket matrix coordinate real general\n"
               "% a comment\n"
               "%\n"
               "3 4 4\n"
               "1 1 1.5\n"
               "3 4 -2e-3\n"
               "\n"
               "2 2 7\r\n"
               "1 1 0.5\n", path, sizeof path);
    assert_int_equal(gsfw_mtx_read(path, &n, &d, &nnz, &r, &c, &v, &err), GSFW_OK);
    assert_int_equal(n, 3);
    assert_int_equal(d, 4);
    assert_int_equal(nnz, 4);
    double *D = triplets_dense(n, d, nnz, r, c, v);
    double want[12] = {0};
    want[0] = 2.0;
    want[3 * 3 + 2] = -2e-3;
    want[1 * 3 + 1] = 7;
    assert_memory_equal(D, want, sizeof want);
    /* round trip into the CSR operator: the same matrix */
    gsfw_operator *op = NULL;
    assert_int_equal(gsfw_operator_csr(n, d, nnz, r, c, v, &op, NULL), GSFW_OK);
    double *M = materialise(op);
    assert_memory_equal(M, want, sizeof want);
    free(M);
    gsfw_operator_free(op);
    free(D);
    gsfw_free(r);
    gsfw_free(c);
    gsfw_free(v);

    write_file(dir, "sym.mtx",
               "%%MatrixMarket matrix coordinate integer symmetric\n"
               "3 3 3\n"
               "1 1 4\n"
               "3 1 -2\n"
               "3 2 5\n", path, sizeof path);
    assert_int_equal(gsfw_mtx_read(path, &n, &d, &nnz, &r, &c, &v, &err), GSFW_OK);
    assert_int_equal(nnz, 5);
    D = triplets_dense(n, d, nnz, r, c, v);
    double sym[9] = {4, 0, -2, 0, 0, 5, -2, 5, 0};
    assert_memory_equal(D, sym, sizeof sym);
    free(D);
    gsfw_free(r);
    gsfw_free(c);
    gsfw_free(v);

    write_file(dir, "pattern.mtx",
               "%%MatrixMarket matrix coordinate pattern general\n"
               "2 3 2\n"
               "2 3\n"
               "1 2\n", path, sizeof path);
    assert_int_equal(gsfw_mtx_read(path, &n, &d, &nnz, &r, &c, &v, &err), GSFW_OK);
    D = triplets_dense(n, d, nnz, r, c, v);
    double pat[6] = {0, 0, 1, 0, 0, 1};
    assert_memory_equal(D, pat, sizeof pat);
    free(D);
    gsfw_free(r);
    gsfw_free(c);
    gsfw_free(v);

    write_file(dir, "skew.mtx",
               "%%MatrixMarket matrix coordinate real skew-symmetric\n"
               "2 2 1\n"
               "2 1 3\n", path, sizeof path);
    assert_int_equal(gsfw_mtx_read(path, &n, &d, &nnz, &r, &c, &v, &err), GSFW_OK);
    D = triplets_dense(n, d, nnz, r, c, v);
    double skew[4] = {0, 3, -3, 0};
    assert_memory_equal(D, skew, sizeof skew);
    free(D);
    gsfw_free(r);
    gsfw_free(c);
    gsfw_free(v);
}

typedef struct {
    const char *text;
    gsfw_error code;
    const char *message;
} bad_file;

static void test_mtx_errors(void **state)
{
    const char *dir = *state;
    static const bad_file bad[] = {
        {"%%MatrixMarket matrix coordinate real general\n3 2 2\n1 1 1\n4 1 1\n", GSFW_ERR_FORMAT,
         "entry 2 (line 4): row 4 exceeds the 3 rows of the header"},
        {"%%MatrixMarket matrix coordinate real general\n3 2 1\n1 3 1\n", GSFW_ERR_FORMAT,
         "entry 1 (line 3): column 3 exceeds the 2 columns of the header"},
        {"%%MatrixMarket matrix coordinate real general\n3 2 1\n0 1 1\n", GSFW_ERR_FORMAT,
         "row 0 is below 1"},
        {"%%MatrixMarket matrix coordinate real general\n3 2 2\n1 1 1\n2 2 nan\n",
         GSFW_ERR_NONFINITE, "entry 2 (line 4): the value 'nan' is not finite"},
        {"%%MatrixMarket matrix coordinate real general\n3 2 3\n1 1 1\n2 2 1\n", GSFW_ERR_FORMAT,
         "ends after 2 entries but its header promises 3"},
        {"%%MatrixMarket matrix coordinate real general\n3 2 1\n1 1 1\n2 2 1\n", GSFW_ERR_FORMAT,
         "line 4: more entries than the 1 its header promises"},
        {"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", GSFW_ERR_FORMAT,
         "array (dense) format"},
        {"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", GSFW_ERR_FORMAT,
         "complex matrix"},
        {"%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", GSFW_ERR_FORMAT,
         "hermitian"},
        {"%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", GSFW_ERR_FORMAT,
         "must be square, the header says 2 x 3"},
        {"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 5\n", GSFW_ERR_FORMAT,
         "a pattern file has no values"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", GSFW_ERR_FORMAT,
         "expected a value after the indices"},
        {"%%MatrixMarket matrix coordinate real general\n% only comments\n", GSFW_ERR_FORMAT,
         "has no size line"},
        {"hello\n", GSFW_ERR_FORMAT, "is not a Matrix Market file"},
        {"", GSFW_ERR_FORMAT, "is empty"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char path[4096], name[32];
        snprintf(name, sizeof name, "bad%zu.mtx", k);
        write_file(dir, name, bad[k].text, path, sizeof path);
        int n = -1, d = -1, *r = (int *)&n, *c = (int *)&n;
        long nnz = -1;
        double *v = (double *)&n;
        gsfw_err err;
        gsfw_error rc = gsfw_mtx_read(path, &n, &d, &nnz, &r, &c, &v, &err);
        if (rc != bad[k].code) fail_msg("file %zu: code %d, expected %d (%s)", k, rc, bad[k].code, err.message);
        assert_message_contains(&err, bad[k].message);
        assert_null(r);
        assert_null(c);
        assert_null(v);
    }
    /* the example of the documentation: an index past a 1000-row header */
    char path[4096];
    write_file(dir, "big.mtx", "%%MatrixMarket matrix coordinate real general\n1000 5 1\n"
               "1001 1 1\n", path, sizeof path);
    int n, d, *r, *c;
    long nnz;
    double *v;
    gsfw_err err;
    assert_int_equal(gsfw_mtx_read(path, &n, &d, &nnz, &r, &c, &v, &err), GSFW_ERR_FORMAT);
    assert_message_contains(&err, "entry 1 (line 3): row 1001 exceeds the 1000 rows of the header");
    assert_int_equal(gsfw_mtx_read("/nonexistent/x.mtx", &n, &d, &nnz, &r, &c, &v, &err), GSFW_ERR_IO);
    assert_int_equal(gsfw_mtx_read(path, &n, &d, &nnz, NULL, &c, &v, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "rows is NULL");
}

static int stop_at_second_poll(const gsfw_iterate *it, const double *x, void *user)
{
    (void)it, (void)x;
    return ++*(int *)user >= 2;
}

/* A byte order mark before the banner (as the edge lists allow); the size line alone,
 * before any entry is read; a stop callback polled while the entries are read. */
static void test_mtx_bom_size_and_stop(void **state)
{
    const char *dir = *state;
    char path[4096];
    int n, d, *r, *c;
    long nnz, entries;
    double *v;
    gsfw_err err;
    write_file(dir, "bom.mtx", "\xEF\xBB\xBF%%MatrixMarket matrix coordinate real general\n"
               "2 3 1\n2 3 4.5\n", path, sizeof path);
    assert_int_equal(gsfw_mtx_read(path, &n, &d, &nnz, &r, &c, &v, &err), GSFW_OK);
    assert_int_equal(nnz, 1);
    assert_true(r[0] == 1 && c[0] == 2 && v[0] == 4.5);
    gsfw_free(r);
    gsfw_free(c);
    gsfw_free(v);
    /* the size line of a file whose entries are missing: read from the header alone */
    write_file(dir, "wide.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
               "% comment\n2000000000 2000000000 7\n", path, sizeof path);
    assert_int_equal(gsfw_mtx_read_size(path, &n, &d, &entries, &err), GSFW_OK);
    assert_int_equal(n, 2000000000);
    assert_int_equal(d, 2000000000);
    assert_int_equal(entries, 14); /* a mirrored triangle: up to twice the stored entries */
    /* an absurd count is reported as declared, not clamped to INT_MAX */
    write_file(dir, "absurd.mtx", "%%MatrixMarket matrix coordinate real general\n"
               "30 30 900000000000\n", path, sizeof path);
    assert_int_equal(gsfw_mtx_read_size(path, &n, &d, &entries, &err), GSFW_OK);
    assert_true(n == 30 && d == 30 && entries == 900000000000L);
    write_file(dir, "absurd-sym.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
               "30 30 900000000000\n", path, sizeof path);
    assert_int_equal(gsfw_mtx_read_size(path, &n, &d, &entries, &err), GSFW_OK);
    assert_true(entries == 1800000000000L);
    write_file(dir, "nosize.mtx", "%%MatrixMarket matrix coordinate real general\n",
               path, sizeof path);
    assert_int_equal(gsfw_mtx_read_size(path, &n, &d, &entries, &err), GSFW_ERR_FORMAT);
    assert_message_contains(&err, "has no size line");
    /* 200000 entries: the callback is polled every 65536 lines and stops the second time */
    snprintf(path, sizeof path, "%s/long.mtx", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "%%%%MatrixMarket matrix coordinate real general\n3 3 200000\n");
    for (int k = 0; k < 200000; k++) fputs("1 2 0.5\n", fp);
    assert_int_equal(fclose(fp), 0);
    int polls = 0;
    r = c = (int *)&n;
    v = (double *)&n;
    assert_int_equal(gsfw_mtx_read_stoppable(path, stop_at_second_poll, &polls, &n, &d, &nnz, &r,
                                             &c, &v, &err), GSFW_ERR_CALLBACK);
    assert_int_equal(polls, 2);
    assert_message_contains(&err, "was stopped at line 131072");
    assert_null(r);
    assert_null(c);
    assert_null(v);
    polls = -100; /* never stops */
    assert_int_equal(gsfw_mtx_read_stoppable(path, stop_at_second_poll, &polls, &n, &d, &nnz, &r,
                                             &c, &v, &err), GSFW_OK);
    assert_int_equal(nnz, 200000);
    assert_int_equal(polls, -97);
    gsfw_free(r);
    gsfw_free(c);
    gsfw_free(v);
}

/* --------------------------------------------------------------------- DCT */

/* Orthonormal DCT-II entry (k, j) of length N, from its definition. */
static double dct_entry(int k, int j, int N)
{
    double c = k == 0 ? sqrt(1.0 / N) : sqrt(2.0 / N);
    return c * cos(3.14159265358979323846 * k * (2.0 * j + 1.0) / (2.0 * N));
}

/* Each row of the n x d column-major M is row rows_of[i] of the d x d column-major F, with
 * rows_of strictly increasing (the chosen rows, sorted). */
static void assert_rows_of(const double *M, int n, const double *F, int d, double tol)
{
    int prev = -1;
    for (int i = 0; i < n; i++) {
        int found = -1;
        for (int k = prev + 1; k < d && found < 0; k++) {
            double worst = 0.0;
            for (int j = 0; j < d; j++) {
                double diff = fabs(M[(size_t)j * n + i] - F[(size_t)j * d + k]);
                if (diff > worst) worst = diff;
            }
            if (worst <= tol) found = k;
        }
        if (found < 0) fail_msg("row %d of the operator is no later row of the transform", i);
        prev = found;
    }
}

/* A A^T = I (orthonormal rows), by applying A A^T to unit vectors. */
static void assert_rows_orthonormal(const gsfw_operator *op, double scale2)
{
    double *e = vec((size_t)op->n), *z = vec((size_t)op->d), *y = vec((size_t)op->n);
    for (int i = 0; i < op->n; i++) {
        e[i] = 1.0;
        op->adjoint(op->ctx, e, z);
        op->apply(op->ctx, z, y);
        for (int k = 0; k < op->n; k++)
            assert_true(fabs(y[k] - (k == i ? scale2 : 0.0)) <= 1e-12 * scale2);
        e[i] = 0.0;
    }
    double nrm;
    assert_int_equal(op->norm2(op->ctx, &nrm), 0);
    assert_true(fabs(nrm - scale2) <= 1e-12 * scale2);
    free(e);
    free(z);
    free(y);
}

static void test_dct(void **state)
{
    (void)state;
    const int ds[] = {1, 2, 5, 8, 17, 64};
    for (size_t s = 0; s < sizeof ds / sizeof ds[0]; s++) {
        int d = ds[s];
        double *F = vec((size_t)d * d);
        for (int k = 0; k < d; k++)
            for (int j = 0; j < d; j++) F[(size_t)j * d + k] = dct_entry(k, j, d);
        const int ns[] = {1, (d + 1) / 2, d};
        for (int t = 0; t < 3; t++) {
            int n = ns[t];
            gsfw_operator *op = NULL;
            assert_int_equal(gsfw_operator_dct(d, n, 7 + t, &op, NULL), GSFW_OK);
            assert_string_equal(op->name, "dct");
            double *M = materialise(op);
            if (n == d) assert_close_vec(M, F, d * d, 1e-13);
            assert_rows_of(M, n, F, d, 1e-13);
            assert_rows_orthonormal(op, 1.0);
            check_contract(op, 40 + t, 1e-12);
            free(M);
            gsfw_operator_free(op);
        }
        free(F);
    }
}

static void test_dct2(void **state)
{
    (void)state;
    const int hw[][2] = {{1, 1}, {3, 5}, {4, 4}, {1, 7}, {6, 1}, {8, 6}};
    for (size_t s = 0; s < sizeof hw / sizeof hw[0]; s++) {
        int h = hw[s][0], w = hw[s][1], d = h * w;
        double *F = vec((size_t)d * d);
        for (int k1 = 0; k1 < h; k1++)
            for (int k2 = 0; k2 < w; k2++)
                for (int j1 = 0; j1 < h; j1++)
                    for (int j2 = 0; j2 < w; j2++)
                        F[(size_t)(j1 * w + j2) * d + (k1 * w + k2)] =
                            dct_entry(k1, j1, h) * dct_entry(k2, j2, w);
        const int ns[] = {1, (d + 2) / 3, d};
        for (int t = 0; t < 3; t++) {
            gsfw_operator *op = NULL;
            assert_int_equal(gsfw_operator_dct2(h, w, ns[t], 100 + t, &op, NULL), GSFW_OK);
            double *M = materialise(op);
            if (ns[t] == d) assert_close_vec(M, F, d * d, 1e-13);
            assert_rows_of(M, ns[t], F, d, 1e-13);
            assert_rows_orthonormal(op, 1.0);
            check_contract(op, 50 + t, 1e-12);
            free(M);
            gsfw_operator_free(op);
        }
        free(F);
    }
}

/* The rows depend on the seed only: two operators of one seed agree, another seed differs. */
static void test_rows_follow_seed(void **state)
{
    (void)state;
    gsfw_operator *a = NULL, *b = NULL, *c = NULL;
    assert_int_equal(gsfw_operator_dct(256, 20, 5, &a, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_dct(256, 20, 5, &b, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_dct(256, 20, 6, &c, NULL), GSFW_OK);
    double *Ma = materialise(a), *Mb = materialise(b), *Mc = materialise(c);
    assert_memory_equal(Ma, Mb, 20 * 256 * sizeof(double));
    assert_memory_not_equal(Ma, Mc, 20 * 256 * sizeof(double));
    free(Ma);
    free(Mb);
    free(Mc);
    gsfw_operator_free(a);
    gsfw_operator_free(b);
    gsfw_operator_free(c);
}

static void test_transform_errors(void **state)
{
    (void)state;
    gsfw_operator *op = NULL;
    gsfw_err err;
    assert_int_equal(gsfw_operator_dct(10, 11, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "n must be in 1..d = 1..10");
    assert_message_contains(&err, "got n = 11");
    assert_int_equal(gsfw_operator_dct(10, 0, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_operator_dct(0, 1, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "d must be >= 1, got 0");
    assert_int_equal(gsfw_operator_dct2(3, 4, 13, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "1..12");
    assert_int_equal(gsfw_operator_dct2(0, 4, 1, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "got 0 x 4");
    assert_int_equal(gsfw_operator_hadamard(12, 4, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "d = 12 is not a power of two (the nearest are 8 and 16)");
    assert_int_equal(gsfw_operator_hadamard(3, 1, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "the nearest are 2 and 4");
    assert_int_equal(gsfw_operator_hadamard(8, 9, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "got n = 9");
    assert_int_equal(gsfw_operator_dct(8, 2, 1, NULL, &err), GSFW_ERR_INVALID_ARG);
    assert_null(op);
}

/* Operators built, used and freed in several threads at once (FFTW plans are made and
 * destroyed concurrently): every thread gets the single-threaded result, bit for bit. */
enum { THREADS = 4, ROUNDS = 8, TH = 12, TW = 10, TN = 30 };

typedef struct {
    const double *x;
    double y[TN];
    int failed;
} dct_job;

static void *dct_worker(void *arg)
{
    dct_job *job = arg;
    for (int round = 0; round < ROUNDS; round++) {
        gsfw_operator *op = NULL;
        if (gsfw_operator_dct2(TH, TW, TN, 99, &op, NULL) != GSFW_OK) {
            job->failed = 1;
            return NULL;
        }
        op->apply(op->ctx, job->x, job->y);
        gsfw_operator_free(op);
    }
    return NULL;
}

static void test_dct_threads(void **state)
{
    (void)state;
    double x[TH * TW], want[TN];
    for (int j = 0; j < TH * TW; j++) x[j] = sin(1.0 + j);
    gsfw_operator *op = NULL;
    assert_int_equal(gsfw_operator_dct2(TH, TW, TN, 99, &op, NULL), GSFW_OK);
    op->apply(op->ctx, x, want);
    gsfw_operator_free(op);
    pthread_t th[THREADS];
    dct_job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].x = x;
        assert_int_equal(pthread_create(&th[t], NULL, dct_worker, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(th[t], NULL), 0);
        assert_false(jobs[t].failed);
        assert_memory_equal(jobs[t].y, want, sizeof want);
    }
}

/* ---------------------------------------------------------------- Hadamard */

static void test_hadamard(void **state)
{
    (void)state;
    const int ds[] = {1, 2, 8, 64};
    for (size_t s = 0; s < sizeof ds / sizeof ds[0]; s++) {
        int d = ds[s];
        double *H = vec((size_t)d * d);
        for (int k = 0; k < d; k++)
            for (int j = 0; j < d; j++)
                H[(size_t)j * d + k] = (__builtin_popcount((unsigned)(k & j)) % 2 ? -1.0 : 1.0) /
                                       sqrt((double)d);
        const int ns[] = {1, (d + 1) / 2, d};
        for (int t = 0; t < 3; t++) {
            gsfw_operator *op = NULL;
            assert_int_equal(gsfw_operator_hadamard(d, ns[t], 9 + t, &op, NULL), GSFW_OK);
            assert_string_equal(op->name, "hadamard");
            double *M = materialise(op);
            if (ns[t] == d) assert_close_vec(M, H, d * d, 1e-14);
            assert_rows_of(M, ns[t], H, d, 1e-14);
            assert_rows_orthonormal(op, 1.0);
            check_contract(op, 60 + t, 1e-12);
            free(M);
            gsfw_operator_free(op);
        }
        free(H);
    }
}

/* ------------------------------------------------------- implicit Gaussian */

/* Random123's known answers for Philox4x32-10 (tests/kat_vectors). */
static void test_philox_known_answers(void **state)
{
    (void)state;
    static const uint32_t in[3][6] = {
        {0, 0, 0, 0, 0, 0},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
        {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u}};
    static const uint32_t want[3][4] = {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
                                        {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
                                        {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
    for (int t = 0; t < 3; t++) {
        uint32_t out[4];
        gsfw_philox4x32_10(in[t], in[t] + 4, out);
        for (int k = 0; k < 4; k++) assert_int_equal(out[k], want[t][k]);
    }
}

static void test_implicit_gaussian(void **state)
{
    (void)state;
    const int sizes[][2] = {{1, 1}, {1, 6}, {7, 1}, {11, 5}, {20, 33}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s][0], d = sizes[s][1];
        const double sd = 0.3;
        gsfw_operator *all = NULL;
        assert_int_equal(gsfw_operator_implicit_gaussian(n, d, 77, sd, 0, n, &all, NULL), GSFW_OK);
        assert_string_equal(all->name, "implicit-gaussian");
        double *M = materialise(all);
        /* the generator's entries, one by one */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < d; j++)
                assert_true(fabs(M[(size_t)j * n + i] - sd * gsfw_counter_normal(77, i, j)) <=
                            1e-15 * (1 + fabs(M[(size_t)j * n + i])));
        check_contract(all, 70 + s, 1e-12);
        /* blocks of 1, 3 and 7 rows stacked give the same matrix */
        const int blocks[] = {1, 3, 7};
        for (int b = 0; b < 3; b++) {
            for (int row0 = 0; row0 < n; row0 += blocks[b]) {
                int rows = n - row0 < blocks[b] ? n - row0 : blocks[b];
                gsfw_operator *part = NULL;
                assert_int_equal(gsfw_operator_implicit_gaussian(n, d, 77, sd, row0, rows, &part,
                                                                 NULL), GSFW_OK);
                assert_int_equal(part->n, rows);
                double *P = materialise(part);
                for (int i = 0; i < rows; i++)
                    for (int j = 0; j < d; j++)
                        assert_true(P[(size_t)j * rows + i] == M[(size_t)j * n + row0 + i]);
                check_contract(part, 80 + b, 1e-12);
                free(P);
                gsfw_operator_free(part);
            }
        }
        free(M);
        gsfw_operator_free(all);
    }
}

/* 1e5 entries: sample mean and variance within 5 standard errors of 0 and sd^2, and the
 * sample fourth moment within 5 standard errors of 3 sd^4 (a Gaussian's). */
static void test_implicit_gaussian_moments(void **state)
{
    (void)state;
    const int n = 100, d = 1000;
    const double sd = 2.0;
    gsfw_operator *op = NULL;
    assert_int_equal(gsfw_operator_implicit_gaussian(n, d, 12345, sd, 0, n, &op, NULL), GSFW_OK);
    double *M = materialise(op);
    const double N = (double)n * d;
    double s1 = 0, s2 = 0, s4 = 0;
    for (size_t k = 0; k < (size_t)n * d; k++) {
        double z = M[k] / sd;
        s1 += z;
        s2 += z * z;
        s4 += z * z * z * z;
    }
    double mean = s1 / N, var = s2 / N - mean * mean, m4 = s4 / N;
    assert_true(fabs(mean) < 5.0 / sqrt(N));
    assert_true(fabs(var - 1.0) < 5.0 * sqrt(2.0 / N));
    assert_true(fabs(m4 - 3.0) < 5.0 * sqrt(96.0 / N)); /* Var z^4 = 105 - 9 */
    free(M);
    gsfw_operator_free(op);
}

static void test_implicit_gaussian_errors(void **state)
{
    (void)state;
    gsfw_operator *op = NULL;
    gsfw_err err;
    assert_int_equal(gsfw_operator_implicit_gaussian(10, 5, 1, 1.0, 8, 3, &op, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "the block of rows 8..10");
    assert_message_contains(&err, "inside 0..9");
    assert_int_equal(gsfw_operator_implicit_gaussian(10, 5, 1, 0.0, 0, 10, &op, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "sd must be finite and > 0, got 0");
    assert_int_equal(gsfw_operator_implicit_gaussian(10, 0, 1, 1.0, 0, 10, &op, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "got 10 x 0");
    assert_null(op);
}

/* ----------------------------------------------------------------- compose */

static void test_compose(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 4);
    const int n = 5, m = 8, d = 6;
    double *A = vec((size_t)n * m), *B = vec((size_t)m * d), *AB = vec((size_t)n * d);
    fill_normal(&rng, A, (size_t)n * m);
    fill_normal(&rng, B, (size_t)m * d);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++)
            for (int k = 0; k < m; k++) AB[(size_t)j * n + i] += A[(size_t)k * n + i] * B[(size_t)j * m + k];
    gsfw_operator *opA = NULL, *opB = NULL, *prod = NULL, *dct = NULL, *prod2 = NULL;
    assert_int_equal(gsfw_operator_dense(n, m, A, GSFW_COL_MAJOR, 0, &opA, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_dense(m, d, B, GSFW_COL_MAJOR, 0, &opB, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_compose(opA, opB, &prod, NULL), GSFW_OK);
    assert_int_equal(prod->n, n);
    assert_int_equal(prod->d, d);
    assert_null(prod->norm2);
    double *M = materialise(prod);
    assert_close_vec(M, AB, n * d, 1e-13);
    check_contract(prod, 90, 1e-12);
    /* a sensing matrix times an orthonormal synthesis: norms multiply */
    assert_int_equal(gsfw_operator_dct(m, m, 3, &dct, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_compose(opA, dct, &prod2, NULL), GSFW_OK);
    check_contract(prod2, 91, 1e-12);
    gsfw_operator *dct2 = NULL, *both = NULL;
    assert_int_equal(gsfw_operator_hadamard(8, 3, 3, &dct2, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_compose(dct2, dct, &both, NULL), GSFW_OK);
    double nrm = 0;
    assert_int_equal(both->norm2(both->ctx, &nrm), 0);
    assert_true(nrm == 1.0);
    gsfw_err err;
    gsfw_operator *bad = NULL;
    assert_int_equal(gsfw_operator_compose(opB, opA, &bad, &err), GSFW_ERR_DIMENSION);
    assert_message_contains(&err, "A is 8 x 6 and B is 5 x 8");
    assert_int_equal(gsfw_operator_compose(NULL, opA, &bad, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "the left (A) operator is NULL");
    assert_null(bad);
    free(M);
    free(A);
    free(B);
    free(AB);
    gsfw_operator_free(both);
    gsfw_operator_free(dct2);
    gsfw_operator_free(prod2);
    gsfw_operator_free(dct);
    gsfw_operator_free(prod);
    gsfw_operator_free(opA);
    gsfw_operator_free(opB);
}

/* B - 1 mu^T over a CSR B equals the explicitly centred matrix, and keeps the contract. */
static void test_centered(void **state)
{
    (void)state;
    const int n = 7, d = 5;
    int rows[] = {0, 2, 3, 6, 1, 4, 5, 6, 0};
    int cols[] = {0, 0, 1, 1, 2, 3, 3, 4, 4};
    double vals[] = {1.5, -2.0, 0.5, 3.0, -1.0, 2.5, 0.25, -0.5, 4.0};
    double mu[5] = {0.3, -0.2, 0.0, 1.1, -0.7};
    gsfw_operator *B = NULL, *A = NULL;
    assert_int_equal(gsfw_operator_csr(n, d, 9, rows, cols, vals, &B, NULL), GSFW_OK);
    assert_int_equal(gsfw_operator_centered(B, mu, &A, NULL), GSFW_OK);
    double *MB = materialise(B), *MA = materialise(A);
    for (int j = 0; j < d; j++)
        for (int i = 0; i < n; i++) MB[(size_t)j * n + i] -= mu[j];
    assert_close_vec(MA, MB, n * d, 1e-15);
    check_contract(A, 95, 1e-13);
    gsfw_err err;
    gsfw_operator *bad = NULL;
    mu[2] = NAN;
    assert_int_equal(gsfw_operator_centered(B, mu, &bad, &err), GSFW_ERR_NONFINITE);
    assert_message_contains(&err, "mu[2] is nan");
    assert_null(bad);
    free(MA);
    free(MB);
    gsfw_operator_free(A);
    gsfw_operator_free(B);
}

/* ----------------------------------------------------------------- upsample */

/* Against the matrix built by hand: column (R, C) of the coarse image is 1 on the pixels
 * (r, c) with r / block = R and c / block = C, the blocks at the edges cut short. */
static void test_upsample(void **state)
{
    (void)state;
    /* a block of INT_MAX: one coarse pixel, with no overflow on the way */
    const int cases[][3] = {{4, 6, 2}, {5, 7, 2}, {9, 4, 4}, {3, 3, 1}, {2, 2, 5},
                            {3, 5, INT_MAX}};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        const int h = cases[t][0], w = cases[t][1], b = cases[t][2];
        const int hc = (h - 1) / b + 1, wc = (w - 1) / b + 1;
        gsfw_operator *op = NULL;
        assert_int_equal(gsfw_operator_upsample(h, w, b, &op, NULL), GSFW_OK);
        assert_int_equal(op->n, h * w);
        assert_int_equal(op->d, hc * wc);
        double *M = materialise(op), *want = vec((size_t)h * w * hc * wc);
        for (int r = 0; r < h; r++)
            for (int c = 0; c < w; c++)
                want[(size_t)((r / b) * wc + c / b) * (h * w) + r * w + c] = 1.0;
        assert_memory_equal(M, want, (size_t)h * w * hc * wc * sizeof(double));
        check_contract(op, 95 + t, 1e-12);
        double nrm = 0.0;
        assert_int_equal(op->norm2(op->ctx, &nrm), 0);
        const int bh = b < h ? b : h, bw = b < w ? b : w;
        assert_true(nrm == (double)bh * bw);
        free(M);
        free(want);
        gsfw_operator_free(op);
    }
    gsfw_err err;
    gsfw_operator *bad = NULL;
    assert_int_equal(gsfw_operator_upsample(4, 4, 0, &bad, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "the block side must be >= 1, got 0");
    assert_int_equal(gsfw_operator_upsample(0, 4, 2, &bad, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "at least 1 x 1");
    assert_null(bad);
}

/* ----------------------------------------------------------------- sensing */

/* The matrix gsfw recover has always drawn (cli/cmd_recover.c): gsfw_rng seeded with the
 * seed, sd * N(0, 1) entries in column-major order. */
static double *recover_matrix(int n, int d, uint64_t seed)
{
    double *A = vec((size_t)n * d);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    const double sd = 1.0 / sqrt((double)n);
    for (size_t k = 0; k < (size_t)n * (size_t)d; k++) A[k] = sd * gsfw_rng_normal(&rng);
    return A;
}

/* Column j of op exactly: apply_sparse of a unit vector onto zeros (one axpy: a * 1 + 0). */
static void column_exact(const gsfw_operator *op, int j, double *col)
{
    memset(col, 0, (size_t)op->n * sizeof(double));
    double one = 1.0;
    assert_int_equal(op->apply_sparse(op->ctx, 1, &j, &one, 1.0, col), 0);
}

static void test_sensing_gaussian_matches_recover(void **state)
{
    (void)state;
    const int sizes[][3] = {{1, 1, 1}, {7, 3, 5}, {50, 10, 12}};
    for (size_t s = 0; s < 3; s++) {
        int n = sizes[s][0], h = sizes[s][1], w = sizes[s][2], d = h * w;
        double *want = recover_matrix(n, d, 42 + s), *col = vec((size_t)n);
        gsfw_operator *op = NULL, *op32 = NULL;
        assert_int_equal(gsfw_sensing_operator("gaussian", n, h, w, 42 + s, 0, &op, NULL), GSFW_OK);
        assert_int_equal(gsfw_sensing_operator("gaussian", n, h, w, 42 + s, 1, &op32, NULL), GSFW_OK);
        assert_string_equal(op->name, "dense");
        assert_string_equal(op32->name, "dense-f32");
        for (int j = 0; j < d; j++) {
            column_exact(op, j, col);
            assert_memory_equal(col, want + (size_t)j * n, (size_t)n * sizeof(double));
            column_exact(op32, j, col);
            for (int i = 0; i < n; i++) assert_true(col[i] == (double)(float)want[(size_t)j * n + i]);
        }
        check_contract(op, 100 + s, 1e-12);
        free(want);
        free(col);
        gsfw_operator_free(op);
        gsfw_operator_free(op32);
    }
}

/* recover draws its noise from the generator that drew the matrix: the state handed back
 * continues the stream exactly. */
static void test_sensing_gaussian_continues_stream(void **state)
{
    (void)state;
    const int n = 9, d = 13; /* an odd count of draws leaves a spare normal in the state */
    gsfw_rng after, replay;
    gsfw_operator *op = NULL;
    assert_int_equal(gsfw_op_sensing_gaussian(n, d, 8, 0, &after, &op, NULL), GSFW_OK);
    gsfw_rng_seed(&replay, 8);
    for (int k = 0; k < n * d; k++) (void)gsfw_rng_normal(&replay);
    for (int k = 0; k < 5; k++) {
        double a = gsfw_rng_normal(&after), b = gsfw_rng_normal(&replay);
        assert_memory_equal(&a, &b, sizeof a);
    }
    gsfw_operator_free(op);
}

static void test_sensing_kinds(void **state)
{
    (void)state;
    const int n = 20, h = 4, w = 8, d = h * w;
    gsfw_operator *op = NULL;
    /* DCT and Hadamard rows scaled by sqrt(d/n): A A^T = (d/n) I, unit expected column norm */
    const char *kinds[] = {"dct", "hadamard"};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(gsfw_sensing_operator(kinds[k], n, h, w, 5, 0, &op, NULL), GSFW_OK);
        assert_int_equal(op->n, n);
        assert_int_equal(op->d, d);
        assert_rows_orthonormal(op, (double)d / n);
        double *M = materialise(op);
        double total = 0;
        for (int i = 0; i < n * d; i++) total += M[i] * M[i];
        assert_true(fabs(total / d - 1.0) < 1e-12); /* mean squared column norm */
        free(M);
        check_contract(op, 110 + k, 1e-12);
        gsfw_operator_free(op);
    }
    /* the implicit one: N(0, 1/n) entries from the counter generator */
    assert_int_equal(gsfw_sensing_operator("implicit-gaussian", n, h, w, 5, 0, &op, NULL), GSFW_OK);
    double *M = materialise(op);
    assert_true(fabs(M[3 * n + 2] - gsfw_counter_normal(5, 2, 3) / sqrt((double)n)) < 1e-15);
    free(M);
    gsfw_operator_free(op);

    gsfw_err err;
    op = NULL;
    assert_int_equal(gsfw_sensing_operator("fourier", n, h, w, 5, 0, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "unknown kind 'fourier'");
    assert_int_equal(gsfw_sensing_operator("dct", n, h, w, 5, 1, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "float32 storage applies to the explicit 'gaussian'");
    assert_int_equal(gsfw_sensing_operator("hadamard", n, 3, 5, 5, 0, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "d = 15 is not a power of two");
    assert_int_equal(gsfw_sensing_operator("dct", 40, h, w, 5, 0, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "got n = 40");
    assert_int_equal(gsfw_sensing_operator(NULL, n, h, w, 5, 0, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "kind is NULL");
    assert_int_equal(gsfw_sensing_operator("gaussian", 0, h, w, 5, 0, &op, &err), GSFW_ERR_INVALID_ARG);
    assert_message_contains(&err, "n must be >= 1, got 0");
    assert_null(op);
}

/* ------------------------------------------------------------ numeric .npy */

/* Write a version 1.0 .npy with the given dtype, shape text and raw data bytes. */
static void write_npy(const char *path, const char *descr, const char *shape, int fortran,
                      const void *data, size_t bytes)
{
    char dict[160];
    int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }",
                       descr, fortran ? "True" : "False", shape);
    size_t total = (10 + (size_t)len + 1 + 63) / 64 * 64, hlen = total - 10;
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)hlen,
                             (unsigned char)(hlen >> 8)};
    fwrite(pre, 1, 10, fp);
    fwrite(dict, 1, (size_t)len, fp);
    for (size_t k = 10 + (size_t)len; k + 1 < total; k++) fputc(' ', fp);
    fputc('\n', fp);
    fwrite(data, 1, bytes, fp);
    assert_int_equal(fclose(fp), 0);
}

typedef struct {
    const char *descr;
    unsigned char bytes[32];
    size_t nbytes;
    double want[4];
} npy_case;

static void test_npy_numeric(void **state)
{
    const char *dir = *state;
    /* four values each, written byte by byte (little-endian unless '>') */
    static const npy_case cases[] = {
        {"|i1", {0x01, 0xff, 0x80, 0x7f}, 4, {1, -1, -128, 127}},
        {"|u1", {0x01, 0xff, 0x80, 0x00}, 4, {1, 255, 128, 0}},
        {"<i2", {0x01, 0x00, 0xff, 0xff, 0x00, 0x80, 0x34, 0x12}, 8, {1, -1, -32768, 0x1234}},
        {"<u2", {0x01, 0x00, 0xff, 0xff, 0x00, 0x80, 0x34, 0x12}, 8, {1, 65535, 32768, 0x1234}},
        {">i2", {0x00, 0x01, 0xff, 0xfe, 0x80, 0x00, 0x12, 0x34}, 8, {1, -2, -32768, 0x1234}},
        {"<i4", {0x01, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x80, 0x78, 0x56, 0x34, 0x12},
         16, {1, -1, -2147483648.0, 0x12345678}},
        {"<i8", {0x02, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0x80},
         32, {2, -2, 4503599627370496.0, -9223372036854775808.0}},
        /* 1.0f = 0x3f800000, -2.5f = 0xc0200000, 0.1f, 65504 (0x477fe000) */
        {"<f4", {0, 0, 0x80, 0x3f, 0, 0, 0x20, 0xc0, 0xcd, 0xcc, 0xcc, 0x3d, 0, 0xe0, 0x7f, 0x47},
         16, {1.0, -2.5, (double)0.1f, 65504.0}},
        {">f4", {0x3f, 0x80, 0, 0, 0xc0, 0x20, 0, 0, 0x3d, 0xcc, 0xcc, 0xcd, 0x47, 0x7f, 0xe0, 0},
         16, {1.0, -2.5, (double)0.1f, 65504.0}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/c%zu.npy", dir, k);
        write_npy(path, cases[k].descr, "(2, 2)", 0, cases[k].bytes, cases[k].nbytes);
        double *x = NULL;
        int ndim, shape[2];
        gsfw_err err;
        gsfw_error rc = gsfw_npy_read_numeric(path, &x, &ndim, shape, &err);
        if (rc) fail_msg("dtype %s: %s", cases[k].descr, err.message);
        assert_int_equal(ndim, 2);
        assert_int_equal(shape[0], 2);
        assert_int_equal(shape[1], 2);
        for (int i = 0; i < 4; i++)
            if (x[i] != cases[k].want[i])
                fail_msg("dtype %s value %d: %.17g, expected %.17g", cases[k].descr, i, x[i],
                         cases[k].want[i]);
        gsfw_free(x);
        /* Fortran order: the same bytes are the transpose */
        write_npy(path, cases[k].descr, "(2, 2)", 1, cases[k].bytes, cases[k].nbytes);
        assert_int_equal(gsfw_npy_read_numeric(path, &x, &ndim, shape, &err), GSFW_OK);
        assert_true(x[0] == cases[k].want[0] && x[1] == cases[k].want[2] &&
                    x[2] == cases[k].want[1] && x[3] == cases[k].want[3]);
        gsfw_free(x);
        /* the float64 reader keeps refusing other dtypes */
        if (strcmp(cases[k].descr, "<f8") != 0) {
            assert_int_equal(gsfw_npy_read(path, &x, &ndim, shape, &err), GSFW_ERR_FORMAT);
            assert_message_contains(&err, "only float64");
        }
    }
    /* float64 through the numeric reader, 1-D */
    char path[4096];
    snprintf(path, sizeof path, "%s/f8.npy", dir);
    const double vals[3] = {1.5, -0.25, 1e300};
    int shape[2] = {3, 1}, ndim;
    assert_int_equal(gsfw_npy_write(path, vals, 1, shape, NULL), GSFW_OK);
    double *x = NULL;
    assert_int_equal(gsfw_npy_read_numeric(path, &x, &ndim, shape, NULL), GSFW_OK);
    assert_int_equal(ndim, 1);
    assert_memory_equal(x, vals, sizeof vals);
    gsfw_free(x);
    /* unsupported dtypes and short data are named */
    gsfw_err err;
    unsigned char two[4] = {0, 0, 0, 0};
    write_npy(path, "<f2", "(2,)", 0, two, 4);
    assert_int_equal(gsfw_npy_read_numeric(path, &x, &ndim, shape, &err), GSFW_ERR_FORMAT);
    assert_message_contains(&err, "holds dtype '<f2'; supported are float64, float32");
    write_npy(path, "<i4", "(2,)", 0, two, 4);
    assert_int_equal(gsfw_npy_read_numeric(path, &x, &ndim, shape, &err), GSFW_ERR_FORMAT);
    assert_message_contains(&err, "truncated: expected 8 bytes of data, found 4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense),
        cmocka_unit_test(test_dense_borrow_uses_callers_array),
        cmocka_unit_test(test_dense_f32),
        cmocka_unit_test(test_dense_errors),
        cmocka_unit_test(test_csr_matches_dense),
        cmocka_unit_test(test_csr_errors),
        cmocka_unit_test(test_centered),
        cmocka_unit_test_setup_teardown(test_mtx_read, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_mtx_bom_size_and_stop, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_mtx_errors, setup_dir, teardown_dir),
        cmocka_unit_test(test_dct),
        cmocka_unit_test(test_dct2),
        cmocka_unit_test(test_rows_follow_seed),
        cmocka_unit_test(test_dct_threads),
        cmocka_unit_test(test_transform_errors),
        cmocka_unit_test(test_hadamard),
        cmocka_unit_test(test_philox_known_answers),
        cmocka_unit_test(test_implicit_gaussian),
        cmocka_unit_test(test_implicit_gaussian_moments),
        cmocka_unit_test(test_implicit_gaussian_errors),
        cmocka_unit_test(test_compose),
        cmocka_unit_test(test_upsample),
        cmocka_unit_test(test_sensing_gaussian_matches_recover),
        cmocka_unit_test(test_sensing_gaussian_continues_stream),
        cmocka_unit_test(test_sensing_kinds),
        cmocka_unit_test_setup_teardown(test_npy_numeric, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
