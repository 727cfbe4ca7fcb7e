/* Dense matrices, in double or float32.
 *
 * A private copy is kept column-major (lda = n): A x and A^T r are then gemv calls over
 * contiguous columns, and the sparse products touch only the columns in the support (a
 * dot over one contiguous column each; axpys four columns a pass). A borrowed array
 * keeps the caller's layout: gemv takes either order, and a column of a row-major matrix
 * is read with stride d (slower for the sparse products, but no second copy of a big
 * matrix).
 *
 * float32: gemv runs in single precision on the vector converted to float (scratch
 * allocated here), and the result is converted back. The product then differs from the
 * double one by 1e-7 to 1e-6 relative: float rounding of the matrix and the vector (6e-8
 * each) grown by float accumulation over d terms (bench/bench_operators.c measures 6e-7
 * for apply at d = 10000; tests/test_operators.c checks 1e-6 at small sizes). */
#include "operators/op_internal.h"
#include "util/vec.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n, d;
    int f32;
    CBLAS_ORDER order;
    int lda;
    size_t col_step, row_step; /* entry (i, j) at i * row_step + j * col_step */
    const double *A;
    const float *Af;
    void *owned;               /* the private copy (NULL when borrowed) */
    float *xf, *yf;            /* float32 scratch: d and n */
    double *power;             /* measured variant: n + 2d for the power iteration */
    double norm2;              /* measured variant: cached, < 0 until computed */
} dense_ctx;

/* --------------------------------------------------------------- double */

static int dense_apply(void *ctx, const double *x, double *y)
{
    dense_ctx *c = ctx;
    cblas_dgemv(c->order, CblasNoTrans, c->n, c->d, 1.0, c->A, c->lda, x, 1, 0.0, y, 1);
    return 0;
}

static int dense_adjoint(void *ctx, const double *r, double *x)
{
    dense_ctx *c = ctx;
    cblas_dgemv(c->order, CblasTrans, c->n, c->d, 1.0, c->A, c->lda, r, 1, 0.0, x, 1);
    return 0;
}

/* Columns added to a vector four at a time (contiguous columns: one pass over the
 * vector per four, in the order of four axpys), else one strided axpy each. */
typedef struct {
    const double *col[4];
    double coef[4];
    int count;
} column_batch;

static void batch_flush(const dense_ctx *c, column_batch *b, double *y)
{
    for (int j = 0; j < b->count; j++)
        if (c->row_step == 1)
            gsfw_vec_axpy(c->n, b->coef[j], b->col[j], y);
        else
            cblas_daxpy(c->n, b->coef[j], b->col[j], (int)c->row_step, y, 1);
    b->count = 0;
}

static void batch_add(const dense_ctx *c, column_batch *b, int j, double coef, double *y)
{
    b->col[b->count] = c->A + (size_t)j * c->col_step;
    b->coef[b->count] = coef;
    if (++b->count < 4) return;
    if (c->row_step == 1) {
        gsfw_vec_axpy4(c->n, b->coef, b->col[0], b->col[1], b->col[2], b->col[3], y);
        b->count = 0;
    } else {
        batch_flush(c, b, y);
    }
}

static int dense_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                              double alpha, double *y)
{
    dense_ctx *c = ctx;
    column_batch b = {.count = 0};
    for (int k = 0; k < nnz; k++) {
        const double coef = alpha * val[k];
        if (coef != 0.0) batch_add(c, &b, idx[k], coef, y); /* as daxpy skips a = 0 */
    }
    batch_flush(c, &b, y);
    return 0;
}

static int dense_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx,
                                double *out)
{
    dense_ctx *c = ctx;
    for (int k = 0; k < nnz; k++)
        out[k] = cblas_ddot(c->n, c->A + (size_t)idx[k] * c->col_step, (int)c->row_step, r, 1);
    return 0;
}

/* The measured variant (gsfw_op_dense_adopt_measured): ||A||_2^2 by
 * gsfw_power_iteration_col_major to a 1e-10 relative change (at most 500 iterations);
 * the Rayleigh quotient approaches it from below, so a 1e-6 relative margin keeps the
 * estimate an upper bound once it has converged. */
static int dense_norm2(void *ctx, double *norm2)
{
    dense_ctx *c = ctx;
    if (c->norm2 < 0) {
        double lam = gsfw_power_iteration_col_major(c->n, c->d, c->A, 500, 1e-10, c->power);
        c->norm2 = lam * (1.0 + 1e-6);
    }
    *norm2 = c->norm2;
    return 0;
}

double gsfw_power_iteration_col_major(int n, int d, const double *A, int iters, double tol,
                                      double *work)
{
    /* No error channel here: NaN (which no caller can take for a norm) answers bad
     * input. An empty matrix has norm 0. */
    if (n < 0 || d < 0 || iters < 1) return NAN;
    if (n == 0 || d == 0) return 0.0;
    if (!A || !work) return NAN;
    double *u = work;         /* n */
    double *v = work + n;     /* d */
    double *w = work + n + d; /* d */
    /* Deterministic, generic start vector (not orthogonal to the top singular vector
     * except on a measure-zero set of matrices). */
    for (int j = 0; j < d; j++) v[j] = 1.0 + 0.5 * sin(1.0 + 0.7 * j);
    double nv = gsfw_vec_nrm2(d, v);
    gsfw_vec_scal(d, 1.0 / nv, v);
    double lambda = 0.0;
    for (int it = 0; it < iters; it++) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, d, 1.0, A, n, v, 1, 0.0, u, 1);
        cblas_dgemv(CblasColMajor, CblasTrans, n, d, 1.0, A, n, u, 1, 0.0, w, 1);
        double rq = gsfw_vec_dot(d, v, w); /* Rayleigh quotient v^T A^T A v */
        double nw = gsfw_vec_nrm2(d, w);
        if (nw == 0.0) return 0.0;
        for (int j = 0; j < d; j++) v[j] = w[j] / nw;
        double prev = lambda;
        lambda = rq;
        if (it > 0 && fabs(lambda - prev) <= tol * fabs(lambda)) break;
    }
    return lambda;
}

/* -------------------------------------------------------------- float32 */

static int f32_apply(void *ctx, const double *x, double *y)
{
    dense_ctx *c = ctx;
    for (int j = 0; j < c->d; j++) c->xf[j] = (float)x[j];
    cblas_sgemv(c->order, CblasNoTrans, c->n, c->d, 1.0f, c->Af, c->lda, c->xf, 1, 0.0f, c->yf, 1);
    for (int i = 0; i < c->n; i++) y[i] = (double)c->yf[i];
    return 0;
}

static int f32_adjoint(void *ctx, const double *r, double *x)
{
    dense_ctx *c = ctx;
    for (int i = 0; i < c->n; i++) c->yf[i] = (float)r[i];
    cblas_sgemv(c->order, CblasTrans, c->n, c->d, 1.0f, c->Af, c->lda, c->yf, 1, 0.0f, c->xf, 1);
    for (int j = 0; j < c->d; j++) x[j] = (double)c->xf[j];
    return 0;
}

/* The sparse products read a few columns: accumulating in double costs little (the
 * contiguous case vectorises; the dot keeps four partial sums for the same reason). */
static int f32_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                            double alpha, double *y)
{
    dense_ctx *c = ctx;
    const size_t step = c->row_step;
    for (int k = 0; k < nnz; k++) {
        double a = alpha * val[k];
        if (a == 0.0) continue;
        const float *col = c->Af + (size_t)idx[k] * c->col_step;
        if (step == 1)
            for (int i = 0; i < c->n; i++) y[i] += a * (double)col[i];
        else
            for (int i = 0; i < c->n; i++) y[i] += a * (double)col[(size_t)i * step];
    }
    return 0;
}

static double dot_f32_f64(const float *col, size_t step, const double *r, int n)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 3 < n; i += 4) {
        s0 += (double)col[(size_t)i * step] * r[i];
        s1 += (double)col[(size_t)(i + 1) * step] * r[i + 1];
        s2 += (double)col[(size_t)(i + 2) * step] * r[i + 2];
        s3 += (double)col[(size_t)(i + 3) * step] * r[i + 3];
    }
    for (; i < n; i++) s0 += (double)col[(size_t)i * step] * r[i];
    return (s0 + s1) + (s2 + s3);
}

static int f32_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    dense_ctx *c = ctx;
    for (int k = 0; k < nnz; k++)
        out[k] = dot_f32_f64(c->Af + (size_t)idx[k] * c->col_step, c->row_step, r, c->n);
    return 0;
}

/* ---------------------------------------------------------- construction */

static void dense_destroy(gsfw_operator *self)
{
    dense_ctx *c = self->ctx;
    if (c) {
        free(c->owned);
        free(c->xf);
        free(c->yf);
        free(c->power);
        free(c);
    }
    free(self);
}

/* The entry (i, j) of an n x d array in the given layout. */
static size_t entry_index(int n, int d, gsfw_layout layout, int i, int j)
{
    return layout == GSFW_COL_MAJOR ? (size_t)j * (size_t)n + (size_t)i
                                    : (size_t)i * (size_t)d + (size_t)j;
}

static gsfw_error check_shape(const char *what, int n, int d, const void *A, gsfw_layout layout,
                              int flags, gsfw_err *err)
{
    if (n < 1 || d < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the matrix must be at least 1 x 1, "
                         "got %d x %d", what, n, d);
    if ((size_t)n > SIZE_MAX / sizeof(double) / (size_t)d)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: a %d x %d matrix is too large", what, n, d);
    if (!A) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the matrix A is NULL", what);
    if (layout != GSFW_ROW_MAJOR && layout != GSFW_COL_MAJOR)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: layout must be GSFW_ROW_MAJOR or "
                         "GSFW_COL_MAJOR, got %d", what, (int)layout);
    if (flags != GSFW_OP_COPY && flags != GSFW_OP_BORROW)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: flags must be GSFW_OP_COPY (0) or "
                         "GSFW_OP_BORROW (1), got %d", what, flags);
    return GSFW_OK;
}

static void set_layout(dense_ctx *c, gsfw_layout layout)
{
    if (layout == GSFW_COL_MAJOR) {
        c->order = CblasColMajor;
        c->lda = c->n;
        c->col_step = (size_t)c->n;
        c->row_step = 1;
    } else {
        c->order = CblasRowMajor;
        c->lda = c->d;
        c->col_step = 1;
        c->row_step = (size_t)c->d;
    }
}

/* The operator around a filled context; frees ctx on failure. */
static gsfw_error finish(dense_ctx *c, const char *what, gsfw_operator **out, gsfw_err *err)
{
    gsfw_operator *op = gsfw_op_new(c->n, c->d, c->f32 ? "dense-f32" : "dense", c);
    if (c->f32) {
        c->xf = gsfw_malloc_array((size_t)c->d, sizeof(float));
        c->yf = gsfw_malloc_array((size_t)c->n, sizeof(float));
    }
    if (!op || (c->f32 && (!c->xf || !c->yf))) {
        int n = c->n, d = c->d;
        free(op);
        free(c->owned);
        free(c->xf);
        free(c->yf);
        free(c);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for a %d x %d matrix", what,
                         n, d);
    }
    op->apply = c->f32 ? f32_apply : dense_apply;
    op->adjoint = c->f32 ? f32_adjoint : dense_adjoint;
    op->apply_sparse = c->f32 ? f32_apply_sparse : dense_apply_sparse;
    op->cheap_columns = 1;
    op->adjoint_sparse = c->f32 ? f32_adjoint_sparse : dense_adjoint_sparse;
    op->destroy = dense_destroy;
    *out = op;
    return GSFW_OK;
}

static gsfw_error nonfinite(const char *what, gsfw_layout layout, int n, int d, size_t k,
                            double v, gsfw_err *err)
{
    int i = layout == GSFW_COL_MAJOR ? (int)(k % (size_t)n) : (int)(k / (size_t)d);
    int j = layout == GSFW_COL_MAJOR ? (int)(k / (size_t)n) : (int)(k % (size_t)d);
    return gsfw_fail(err, GSFW_ERR_NONFINITE, "%s: entry (%d, %d) of the %d x %d matrix is %g; "
                     "entries must be finite", what, i, j, n, d, v);
}

gsfw_error gsfw_operator_dense(int n, int d, const double *A, gsfw_layout layout, int flags,
                               gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "dense operator";
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    gsfw_error rc = check_shape(what, n, d, A, layout, flags, err);
    if (rc) return rc;
    size_t count = (size_t)n * (size_t)d;
    for (size_t k = 0; k < count; k++)
        if (!isfinite(A[k])) return nonfinite(what, layout, n, d, k, A[k], err);
    dense_ctx *c = calloc(1, sizeof *c);
    if (!c) return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory", what);
    c->n = n;
    c->d = d;
    if (flags == GSFW_OP_BORROW) {
        c->A = A;
        set_layout(c, layout);
    } else {
        double *copy = gsfw_malloc_array(count, sizeof(double));
        if (!copy) {
            free(c);
            return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for a %d x %d matrix",
                             what, n, d);
        }
        gsfw_op_dense_copy_col_major(n, d, A, layout, copy);
        c->owned = copy;
        c->A = copy;
        set_layout(c, GSFW_COL_MAJOR);
    }
    return finish(c, what, out, err);
}

gsfw_error gsfw_op_dense_adopt(int n, int d, double *A_col_major, gsfw_operator **out,
                               gsfw_err *err)
{
    dense_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        free(A_col_major);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "dense operator: out of memory");
    }
    c->n = n;
    c->d = d;
    c->owned = A_col_major;
    c->A = A_col_major;
    set_layout(c, GSFW_COL_MAJOR);
    return finish(c, "dense operator", out, err);
}

gsfw_error gsfw_op_dense_adopt_measured(int n, int d, double *A_col_major, gsfw_operator **out,
                                        gsfw_err *err)
{
    gsfw_error rc = gsfw_op_dense_adopt(n, d, A_col_major, out, err);
    if (rc) return rc;
    dense_ctx *c = (*out)->ctx;
    c->power = gsfw_malloc_array((size_t)n + 2 * (size_t)d, sizeof(double));
    if (!c->power) {
        gsfw_operator_free(*out);
        *out = NULL;
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a %d x %d matrix", n, d);
    }
    c->norm2 = -1.0;
    (*out)->norm2 = dense_norm2;
    return GSFW_OK;
}

/* The measured variant: the only dense operator with this norm2 hook. */
static const dense_ctx *measured(const gsfw_operator *op)
{
    return op && op->destroy == dense_destroy && op->norm2 == dense_norm2 ? op->ctx : NULL;
}

/* A point with at most one nonzero in this many entries is applied column by column:
 * one thread reading its columns beats the threaded gemv reading all of them. */
#define DENSE_SPARSE_POINT 4

int gsfw_op_dense_residual(const gsfw_operator *op, const double *x, const double *y, double *r)
{
    const dense_ctx *c = measured(op);
    if (!c) return 0;
    int nnz = 0;
    for (int j = 0; j < c->d; j++) nnz += x[j] != 0.0;
    if ((size_t)nnz * DENSE_SPARSE_POINT <= (size_t)c->d) {
        /* A x first, then - y, as the gemv rounds: a point whose A x reproduces y bit
         * for bit (a noiseless start at the truth) keeps its zero residual */
        memset(r, 0, (size_t)c->n * sizeof(double));
        column_batch b = {.count = 0};
        for (int j = 0; j < c->d; j++)
            if (x[j] != 0.0) batch_add(c, &b, j, x[j], r);
        batch_flush(c, &b, r);
        for (int i = 0; i < c->n; i++) r[i] -= y[i];
        return 1;
    }
    memcpy(r, y, (size_t)c->n * sizeof(double));
    cblas_dgemv(CblasColMajor, CblasNoTrans, c->n, c->d, 1.0, c->A, c->n, x, 1, -1.0, r, 1);
    return 1;
}

const double *gsfw_op_dense_data(const gsfw_operator *op)
{
    const dense_ctx *c = measured(op);
    return c ? c->A : NULL;
}

void gsfw_op_dense_copy_col_major(int n, int d, const double *A, gsfw_layout layout,
                                  double *out)
{
    size_t nd = (size_t)n * (size_t)d;
    if (layout == GSFW_COL_MAJOR) {
        memcpy(out, A, nd * sizeof(double));
        return;
    }
    /* Blocked transpose: row-major n x d -> column-major. */
    const int B = 64;
    for (int i0 = 0; i0 < n; i0 += B)
        for (int j0 = 0; j0 < d; j0 += B)
            for (int i = i0; i < i0 + B && i < n; i++)
                for (int j = j0; j < j0 + B && j < d; j++)
                    out[(size_t)j * n + i] = A[(size_t)i * d + j];
}

gsfw_error gsfw_operator_dense_f32(int n, int d, const float *A, gsfw_layout layout, int flags,
                                   gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "dense float32 operator";
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    gsfw_error rc = check_shape(what, n, d, A, layout, flags, err);
    if (rc) return rc;
    size_t count = (size_t)n * (size_t)d;
    for (size_t k = 0; k < count; k++)
        if (!isfinite(A[k])) return nonfinite(what, layout, n, d, k, (double)A[k], err);
    dense_ctx *c = calloc(1, sizeof *c);
    if (!c) return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory", what);
    c->n = n;
    c->d = d;
    c->f32 = 1;
    if (flags == GSFW_OP_BORROW) {
        c->Af = A;
        set_layout(c, layout);
    } else {
        float *copy = gsfw_malloc_array(count, sizeof(float));
        if (!copy) {
            free(c);
            return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for a %d x %d matrix",
                             what, n, d);
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < d; j++)
                copy[(size_t)j * n + i] = A[entry_index(n, d, layout, i, j)];
        c->owned = copy;
        c->Af = copy;
        set_layout(c, GSFW_COL_MAJOR);
    }
    return finish(c, what, out, err);
}

gsfw_error gsfw_operator_dense_to_f32(int n, int d, const double *A, gsfw_layout layout,
                                      gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "dense float32 operator";
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    gsfw_error rc = check_shape(what, n, d, A, layout, GSFW_OP_COPY, err);
    if (rc) return rc;
    size_t count = (size_t)n * (size_t)d;
    for (size_t k = 0; k < count; k++) {
        if (!isfinite(A[k])) return nonfinite(what, layout, n, d, k, A[k], err);
        if (fabs(A[k]) > FLT_MAX) {
            int i = layout == GSFW_COL_MAJOR ? (int)(k % (size_t)n) : (int)(k / (size_t)d);
            int j = layout == GSFW_COL_MAJOR ? (int)(k / (size_t)n) : (int)(k % (size_t)d);
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: entry (%d, %d) = %g is beyond the "
                             "float32 range (%g)", what, i, j, A[k], (double)FLT_MAX);
        }
    }
    dense_ctx *c = calloc(1, sizeof *c);
    float *copy = gsfw_malloc_array(count, sizeof(float));
    if (!c || !copy) {
        free(c);
        free(copy);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for a %d x %d matrix", what, n, d);
    }
    /* (float) of a double rounds to nearest in the default rounding mode */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++)
            copy[(size_t)j * n + i] = (float)A[entry_index(n, d, layout, i, j)];
    c->n = n;
    c->d = d;
    c->f32 = 1;
    c->owned = copy;
    c->Af = copy;
    set_layout(c, GSFW_COL_MAJOR);
    return finish(c, what, out, err);
}
