/* A centred operator A = B - 1 mu^T over a borrowed B: the design matrix with each
 * column's mean mu_j removed, without forming it. Least squares over A is least squares
 * over B with an unpenalised intercept profiled out (min over b of ||B x + b 1 - y||^2 =
 * ||A x - (y - mean(y))||^2 when mu holds B's column means), so a sparse B keeps its
 * sparsity. Each product is B's plus O(n + d) (O(n + nnz) for the sparse ones). */
#include "operators/op_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const gsfw_operator *B;
    double *mu; /* d entries, copied */
    double mu_norm2;
} centered_ctx;

static int c_apply(void *ctx, const double *x, double *y)
{
    centered_ctx *c = ctx;
    int rc = c->B->apply(c->B->ctx, x, y);
    if (rc) return rc;
    double s = 0.0;
    for (int j = 0; j < c->B->d; j++) s += c->mu[j] * x[j];
    for (int i = 0; i < c->B->n; i++) y[i] -= s;
    return 0;
}

static int c_adjoint(void *ctx, const double *r, double *x)
{
    centered_ctx *c = ctx;
    int rc = c->B->adjoint(c->B->ctx, r, x);
    if (rc) return rc;
    double s = 0.0;
    for (int i = 0; i < c->B->n; i++) s += r[i];
    for (int j = 0; j < c->B->d; j++) x[j] -= s * c->mu[j];
    return 0;
}

static int c_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                          double *y)
{
    centered_ctx *c = ctx;
    int rc = c->B->apply_sparse(c->B->ctx, nnz, idx, val, alpha, y);
    if (rc) return rc;
    double s = 0.0;
    for (int k = 0; k < nnz; k++) s += c->mu[idx[k]] * val[k];
    s *= alpha;
    for (int i = 0; i < c->B->n; i++) y[i] -= s;
    return 0;
}

static int c_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    centered_ctx *c = ctx;
    int rc = c->B->adjoint_sparse(c->B->ctx, r, nnz, idx, out);
    if (rc) return rc;
    double s = 0.0;
    for (int i = 0; i < c->B->n; i++) s += r[i];
    for (int k = 0; k < nnz; k++) out[k] -= s * c->mu[idx[k]];
    return 0;
}

/* ||B - 1 mu^T|| <= ||B|| + sqrt(n) ||mu||: an upper estimate, as norm2 promises. */
static int c_norm2(void *ctx, double *norm2)
{
    centered_ctx *c = ctx;
    double b2;
    int rc = c->B->norm2(c->B->ctx, &b2);
    if (rc) return rc;
    double s = sqrt(b2) + sqrt((double)c->B->n * c->mu_norm2);
    *norm2 = s * s;
    return 0;
}

static void c_destroy(gsfw_operator *op)
{
    centered_ctx *c = op->ctx;
    if (c) free(c->mu);
    free(c);
    free(op);
}

gsfw_error gsfw_operator_centered(const gsfw_operator *B, const double *mu, gsfw_operator **out,
                                  gsfw_err *err)
{
    *out = NULL;
    if (!B || !mu)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "centered operator: B and mu are required");
    double mu_norm2 = 0.0;
    for (int j = 0; j < B->d; j++) {
        if (!isfinite(mu[j]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "centered operator: mu[%d] is %g; the "
                             "column means must be finite", j, mu[j]);
        mu_norm2 += mu[j] * mu[j];
    }
    centered_ctx *c = calloc(1, sizeof *c);
    double *m = gsfw_malloc_array((size_t)(B->d > 0 ? B->d : 1), sizeof(double));
    gsfw_operator *op = c && m ? gsfw_op_new(B->n, B->d, "centered", c) : NULL;
    if (!op) {
        free(c);
        free(m);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "centered operator: out of memory");
    }
    memcpy(m, mu, (size_t)B->d * sizeof(double));
    c->B = B;
    c->mu = m;
    c->mu_norm2 = mu_norm2;
    op->apply = c_apply;
    op->adjoint = c_adjoint;
    op->apply_sparse = c_apply_sparse;
    op->adjoint_sparse = c_adjoint_sparse;
    op->norm2 = B->norm2 ? c_norm2 : NULL;
    op->destroy = c_destroy;
    op->cheap_columns = B->cheap_columns;
    *out = op;
    return GSFW_OK;
}
