/* The operator life cycle (free), products of operators, and the generic sparse products
 * and row selection shared by the constructors. */
#include "operators/op_internal.h"
#include "util/rng.h"

#include <stdlib.h>
#include <string.h>

gsfw_operator *gsfw_op_new(int n, int d, const char *name, void *ctx)
{
    gsfw_operator *op = calloc(1, sizeof *op);
    if (!op) return NULL;
    op->n = n;
    op->d = d;
    op->name = name;
    op->ctx = ctx;
    return op;
}

void gsfw_operator_free(gsfw_operator *op)
{
    if (!op) return;
    if (op->destroy)
        op->destroy(op);
    else
        free(op);
}

int gsfw_op_apply_sparse_via_apply(int (*apply)(void *, const double *, double *), void *ctx,
                                   int n, double *xd, double *yn, int nnz, const int *idx,
                                   const double *val, double alpha, double *y)
{
    for (int k = 0; k < nnz; k++) xd[idx[k]] = alpha * val[k];
    int rc = apply(ctx, xd, yn);
    for (int k = 0; k < nnz; k++) xd[idx[k]] = 0.0;
    if (rc) return rc;
    for (int i = 0; i < n; i++) y[i] += yn[i];
    return 0;
}

int gsfw_op_adjoint_sparse_via_adjoint(int (*adjoint)(void *, const double *, double *),
                                       void *ctx, double *xd, const double *r, int nnz,
                                       const int *idx, double *out)
{
    int rc = adjoint(ctx, r, xd);
    if (rc) return rc;
    for (int k = 0; k < nnz; k++) out[k] = xd[idx[k]];
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int gsfw_op_choose_rows(int d, int n, uint64_t seed, int *rows)
{
    int *perm = gsfw_malloc_array((size_t)d, sizeof(int));
    if (!perm) return -1;
    for (int i = 0; i < d; i++) perm[i] = i;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++) {
        int j = i + (int)gsfw_rng_below(&rng, (uint64_t)(d - i));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    memcpy(rows, perm, (size_t)n * sizeof(int));
    free(perm);
    qsort(rows, (size_t)n, sizeof(int), cmp_int);
    return 0;
}

gsfw_error gsfw_op_check_rows(const char *what, int d, int n, gsfw_err *err)
{
    if (d < 1) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the size d must be >= 1, got %d", what, d);
    if (n < 1 || n > d)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the number of rows n must be in 1..d = "
                         "1..%d (rows are chosen without replacement), got n = %d", what, d, n);
    return GSFW_OK;
}

gsfw_error gsfw_op_check_image(const char *what, int height, int width, gsfw_err *err)
{
    if (height < 1 || width < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the image must be at least 1 x 1, got "
                         "%d x %d", what, height, width);
    if (height > INT32_MAX / width)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: a %d x %d image has too many pixels",
                         what, height, width);
    return GSFW_OK;
}

gsfw_error gsfw_op_check_threads(const char *what, int threads, gsfw_err *err)
{
    if (threads < 1 || threads > GSFW_OP_MAX_THREADS)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: threads = %d must be in 1..%d", what,
                         threads, GSFW_OP_MAX_THREADS);
    return GSFW_OK;
}

gsfw_error gsfw_op_worker(const char *what, int threads, int d, gsfw_worker **out,
                          gsfw_err *err)
{
    *out = NULL;
    if (threads < 2 || d < GSFW_OP_THREADS_MIN_D) return GSFW_OK;
    if (!(*out = gsfw_worker_create()))
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: could not start a thread", what);
    return GSFW_OK;
}

/* ------------------------------------------------------------------ compose */

typedef struct {
    const gsfw_operator *A, *B;
    double *tm;   /* m = A->d = B->n: the intermediate vector */
    double *tn;   /* n: A applied to it, for apply_sparse */
} compose_ctx;

static int compose_apply(void *ctx, const double *x, double *y)
{
    compose_ctx *c = ctx;
    int rc = c->B->apply(c->B->ctx, x, c->tm);
    return rc ? rc : c->A->apply(c->A->ctx, c->tm, y);
}

static int compose_adjoint(void *ctx, const double *r, double *x)
{
    compose_ctx *c = ctx;
    int rc = c->A->adjoint(c->A->ctx, r, c->tm);
    return rc ? rc : c->B->adjoint(c->B->ctx, c->tm, x);
}

static int compose_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                                double alpha, double *y)
{
    compose_ctx *c = ctx;
    memset(c->tm, 0, (size_t)c->B->n * sizeof(double));
    int rc = c->B->apply_sparse(c->B->ctx, nnz, idx, val, alpha, c->tm);
    if (!rc) rc = c->A->apply(c->A->ctx, c->tm, c->tn);
    if (rc) return rc;
    for (int i = 0; i < c->A->n; i++) y[i] += c->tn[i];
    return 0;
}

static int compose_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx,
                                  double *out)
{
    compose_ctx *c = ctx;
    int rc = c->A->adjoint(c->A->ctx, r, c->tm);
    return rc ? rc : c->B->adjoint_sparse(c->B->ctx, c->tm, nnz, idx, out);
}

static int compose_norm2(void *ctx, double *norm2)
{
    compose_ctx *c = ctx;
    double a, b;
    int rc = c->A->norm2(c->A->ctx, &a);
    if (!rc) rc = c->B->norm2(c->B->ctx, &b);
    if (!rc) *norm2 = a * b; /* ||A B|| <= ||A|| ||B|| */
    return rc;
}

static void compose_destroy(gsfw_operator *self)
{
    compose_ctx *c = self->ctx;
    if (c) {
        free(c->tm);
        free(c->tn);
        free(c);
    }
    free(self);
}

static int has_products(const gsfw_operator *op)
{
    return op->apply && op->adjoint && op->apply_sparse && op->adjoint_sparse;
}

gsfw_error gsfw_operator_compose(const gsfw_operator *A, const gsfw_operator *B,
                                 gsfw_operator **out, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "operator compose: out is NULL");
    *out = NULL;
    if (!A || !B)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "operator compose: the %s operator is NULL",
                         !A ? "left (A)" : "right (B)");
    if (!has_products(A) || !has_products(B))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "operator compose: the %s operator '%s' "
                         "lacks one of apply, adjoint, apply_sparse, adjoint_sparse",
                         !has_products(A) ? "left" : "right",
                         (!has_products(A) ? A : B)->name ? (!has_products(A) ? A : B)->name : "?");
    if (A->n < 0 || B->d < 0 || A->d != B->n)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "operator compose: A is %d x %d and B is "
                         "%d x %d; A B needs A's %d columns to equal B's %d rows",
                         A->n, A->d, B->n, B->d, A->d, B->n);
    compose_ctx *c = calloc(1, sizeof *c);
    gsfw_operator *op = c ? gsfw_op_new(A->n, B->d, "compose", c) : NULL;
    if (c) {
        c->A = A;
        c->B = B;
        c->tm = gsfw_malloc_array((size_t)A->d, sizeof(double));
        c->tn = gsfw_malloc_array((size_t)A->n, sizeof(double));
    }
    if (!op || !c->tm || !c->tn) {
        if (op) {
            op->destroy = compose_destroy;
            gsfw_operator_free(op);
        } else if (c) {
            free(c->tm);
            free(c->tn);
            free(c);
        }
        return gsfw_fail(err, GSFW_ERR_NOMEM, "operator compose: out of memory");
    }
    op->apply = compose_apply;
    op->adjoint = compose_adjoint;
    op->apply_sparse = compose_apply_sparse;
    op->adjoint_sparse = compose_adjoint_sparse;
    op->norm2 = A->norm2 && B->norm2 ? compose_norm2 : NULL;
    op->destroy = compose_destroy;
    *out = op;
    return GSFW_OK;
}
