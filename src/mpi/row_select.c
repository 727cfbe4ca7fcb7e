/* A block of consecutive rows of any operator (a fast transform's rows on one rank). */
#include "mpi/gsfw_mpi.h"

#include "operators/op_internal.h"

#include <string.h>

typedef struct {
    const gsfw_operator *A;
    int row0, rows;
    double *full; /* A->n */
} sel_ctx;

static int sel_apply(void *ctx, const double *x, double *y)
{
    sel_ctx *c = ctx;
    if (c->A->apply(c->A->ctx, x, c->full)) return -1;
    memcpy(y, c->full + c->row0, (size_t)c->rows * sizeof(double));
    return 0;
}

/* the block's rows padded with zeros to A's rows */
static void pad(sel_ctx *c, const double *r)
{
    memset(c->full, 0, (size_t)c->A->n * sizeof(double));
    memcpy(c->full + c->row0, r, (size_t)c->rows * sizeof(double));
}

static int sel_adjoint(void *ctx, const double *r, double *x)
{
    sel_ctx *c = ctx;
    pad(c, r);
    return c->A->adjoint(c->A->ctx, c->full, x) ? -1 : 0;
}

static int sel_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                            double alpha, double *y)
{
    sel_ctx *c = ctx;
    memset(c->full, 0, (size_t)c->A->n * sizeof(double));
    if (c->A->apply_sparse(c->A->ctx, nnz, idx, val, alpha, c->full)) return -1;
    for (int i = 0; i < c->rows; i++) y[i] += c->full[c->row0 + i];
    return 0;
}

static int sel_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx,
                              double *out)
{
    sel_ctx *c = ctx;
    pad(c, r);
    return c->A->adjoint_sparse(c->A->ctx, c->full, nnz, idx, out) ? -1 : 0;
}

static int sel_norm2(void *ctx, double *norm2)
{
    sel_ctx *c = ctx;
    if (c->row0 != 0) {
        *norm2 = 0.0;
        return 0;
    }
    return c->A->norm2(c->A->ctx, norm2);
}

static void sel_destroy(gsfw_operator *self)
{
    if (!self) return;
    sel_ctx *c = self->ctx;
    if (c) free(c->full);
    free(c);
    free(self);
}

gsfw_error gsfw_mpi_row_select(const gsfw_operator *A, int row0, int rows, gsfw_operator **out,
                               gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "row block: out is NULL");
    *out = NULL;
    if (!A) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "row block: the operator is NULL");
    if (rows < 1 || row0 < 0 || row0 > A->n - rows)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "row block: rows %d..%d (row0 = %d, rows = "
                         "%d) must be a non-empty range inside the operator's 0..%d", row0,
                         row0 + rows - 1, row0, rows, A->n - 1);
    sel_ctx *c = calloc(1, sizeof *c);
    double *full = c ? gsfw_malloc_array((size_t)A->n, sizeof(double)) : NULL;
    gsfw_operator *op = full ? gsfw_op_new(rows, A->d, "row-block", c) : NULL;
    if (!op) {
        free(c);
        free(full);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "row block: out of memory for %d rows", A->n);
    }
    c->A = A;
    c->row0 = row0;
    c->rows = rows;
    c->full = full;
    op->apply = sel_apply;
    op->adjoint = sel_adjoint;
    op->apply_sparse = sel_apply_sparse;
    op->adjoint_sparse = sel_adjoint_sparse;
    op->norm2 = A->norm2 ? sel_norm2 : NULL;
    op->destroy = sel_destroy;
    *out = op;
    return GSFW_OK;
}
