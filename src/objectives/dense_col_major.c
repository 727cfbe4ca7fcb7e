/* The dense operator behind gsfw_objective_least_squares: A stored column-major (n x d,
 * lda = n), so A^T r is one transposed gemv over contiguous columns and A u for a sparse
 * u is one daxpy per nonzero column. norm2 is the power-iteration estimate of
 * gsfw_power_iteration_col_major (500 iterations, 1e-10 relative change) times 1 + 1e-6. */
#include "objectives/linear.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

typedef struct {
    int n, d;
    double *A;       /* n x d column-major */
    double *scratch; /* n + 2d for the power iteration */
    double norm2;    /* cached, < 0 until computed */
} dense_ctx;

static int dense_apply(void *ctx, const double *x, double *y)
{
    const dense_ctx *c = ctx;
    cblas_dgemv(CblasColMajor, CblasNoTrans, c->n, c->d, 1.0, c->A, c->n, x, 1, 0.0, y, 1);
    return 0;
}

static int dense_adjoint(void *ctx, const double *r, double *x)
{
    const dense_ctx *c = ctx;
    cblas_dgemv(CblasColMajor, CblasTrans, c->n, c->d, 1.0, c->A, c->n, r, 1, 0.0, x, 1);
    return 0;
}

static int dense_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                              double alpha, double *y)
{
    const dense_ctx *c = ctx;
    for (int k = 0; k < nnz; k++)
        if (val[k] != 0.0)
            cblas_daxpy(c->n, alpha * val[k], c->A + (size_t)idx[k] * c->n, 1, y, 1);
    return 0;
}

static int dense_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx,
                                double *out)
{
    const dense_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) out[k] = cblas_ddot(c->n, c->A + (size_t)idx[k] * c->n, 1, r, 1);
    return 0;
}

static int dense_norm2(void *ctx, double *norm2)
{
    dense_ctx *c = ctx;
    if (c->norm2 < 0) {
        double lam = gsfw_power_iteration_col_major(c->n, c->d, c->A, 500, 1e-10, c->scratch);
        /* The Rayleigh quotient approaches ||A||^2 from below; a 1e-6 relative margin keeps
         * the estimate an upper bound once it has converged to 1e-10. */
        c->norm2 = lam * (1.0 + 1e-6);
    }
    *norm2 = c->norm2;
    return 0;
}

static void dense_destroy(gsfw_operator *self)
{
    if (!self) return;
    dense_ctx *c = self->ctx;
    if (c) {
        free(c->A);
        free(c->scratch);
        free(c);
    }
    free(self);
}

/* The table around a context whose A is set (copied or adopted). */
static gsfw_error dense_wrap(int n, int d, double *A, gsfw_operator **out, gsfw_err *err)
{
    gsfw_operator *op = calloc(1, sizeof *op);
    dense_ctx *c = calloc(1, sizeof *c);
    double *scratch = gsfw_malloc_array((size_t)n + 2 * (size_t)d, sizeof(double));
    if (!op || !c || !scratch) {
        free(op);
        free(c);
        free(scratch);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a %d x %d matrix", n, d);
    }
    c->n = n;
    c->d = d;
    c->norm2 = -1.0;
    c->A = A;
    c->scratch = scratch;
    op->ctx = c;
    op->destroy = dense_destroy;
    op->n = n;
    op->d = d;
    op->name = "dense-col-major";
    op->apply = dense_apply;
    op->adjoint = dense_adjoint;
    op->apply_sparse = dense_apply_sparse;
    op->cheap_columns = 1;
    op->adjoint_sparse = dense_adjoint_sparse;
    op->norm2 = dense_norm2;
    *out = op;
    return GSFW_OK;
}

gsfw_error gsfw_dense_col_major_adopt(int n, int d, double *A, gsfw_operator **out,
                                      gsfw_err *err)
{
    *out = NULL;
    gsfw_error rc = dense_wrap(n, d, A, out, err);
    if (rc) free(A);
    return rc;
}

gsfw_error gsfw_dense_col_major_create(int n, int d, const double *A, gsfw_layout layout,
                                       gsfw_operator **out, gsfw_err *err)
{
    *out = NULL;
    size_t nd = (size_t)n * (size_t)d;
    double *copy = gsfw_malloc_array(nd, sizeof(double));
    if (!copy) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a %d x %d matrix", n, d);
    if (layout == GSFW_COL_MAJOR) {
        memcpy(copy, A, nd * sizeof(double));
    } else {
        /* Blocked transpose: row-major n x d -> column-major. */
        const int B = 64;
        for (int i0 = 0; i0 < n; i0 += B)
            for (int j0 = 0; j0 < d; j0 += B)
                for (int i = i0; i < i0 + B && i < n; i++)
                    for (int j = j0; j < j0 + B && j < d; j++)
                        copy[(size_t)j * n + i] = A[(size_t)i * d + j];
    }
    return gsfw_dense_col_major_adopt(n, d, copy, out, err);
}

int gsfw_dense_col_major_residual(const gsfw_operator *op, const double *x, const double *y,
                                  double *r)
{
    if (!op || op->destroy != dense_destroy) return 0;
    const dense_ctx *c = op->ctx;
    memcpy(r, y, (size_t)c->n * sizeof(double));
    cblas_dgemv(CblasColMajor, CblasNoTrans, c->n, c->d, 1.0, c->A, c->n, x, 1, -1.0, r, 1);
    return 1;
}

const double *gsfw_dense_col_major_data(const gsfw_operator *op)
{
    if (!op || op->destroy != dense_destroy) return NULL;
    return ((const dense_ctx *)op->ctx)->A;
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
    double nv = cblas_dnrm2(d, v, 1);
    cblas_dscal(d, 1.0 / nv, v, 1);
    double lambda = 0.0;
    for (int it = 0; it < iters; it++) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, d, 1.0, A, n, v, 1, 0.0, u, 1);
        cblas_dgemv(CblasColMajor, CblasTrans, n, d, 1.0, A, n, u, 1, 0.0, w, 1);
        double rq = cblas_ddot(d, v, 1, w, 1); /* Rayleigh quotient v^T A^T A v */
        double nw = cblas_dnrm2(d, w, 1);
        if (nw == 0.0) return 0.0;
        for (int j = 0; j < d; j++) v[j] = w[j] / nw;
        double prev = lambda;
        lambda = rq;
        if (it > 0 && fabs(lambda - prev) <= tol * fabs(lambda)) break;
    }
    return lambda;
}
