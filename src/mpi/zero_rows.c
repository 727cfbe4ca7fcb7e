/* The stand-in operator of a rank that holds no rows. */
#include "mpi/gsfw_mpi.h"

#include "operators/op_internal.h"

#include <string.h>

static int zero_apply(void *ctx, const double *x, double *y)
{
    (void)ctx;
    (void)x;
    y[0] = 0.0;
    return 0;
}

static int zero_adjoint(void *ctx, const double *r, double *x)
{
    (void)r;
    memset(x, 0, (size_t)*(const int *)ctx * sizeof(double));
    return 0;
}

static int zero_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                             double alpha, double *y)
{
    (void)ctx;
    (void)nnz;
    (void)idx;
    (void)val;
    (void)alpha;
    (void)y; /* y += 0 */
    return 0;
}

static int zero_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx,
                               double *out)
{
    (void)ctx;
    (void)r;
    (void)idx;
    if (nnz > 0) memset(out, 0, (size_t)nnz * sizeof(double));
    return 0;
}

static int zero_norm2(void *ctx, double *norm2)
{
    (void)ctx;
    *norm2 = 0.0;
    return 0;
}

static void zero_destroy(gsfw_operator *self)
{
    if (!self) return;
    free(self->ctx);
    free(self);
}

gsfw_error gsfw_mpi_zero_operator(int d, int with_norm2, gsfw_operator **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "zero operator: out is NULL");
    *out = NULL;
    if (d < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "zero operator: d must be >= 1, got %d", d);
    int *dim = malloc(sizeof *dim);
    gsfw_operator *op = dim ? gsfw_op_new(1, d, "zero-rows", dim) : NULL;
    if (!op) {
        free(dim);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "zero operator: out of memory");
    }
    *dim = d;
    op->apply = zero_apply;
    op->adjoint = zero_adjoint;
    op->apply_sparse = zero_apply_sparse;
    op->adjoint_sparse = zero_adjoint_sparse;
    op->norm2 = with_norm2 ? zero_norm2 : NULL;
    op->destroy = zero_destroy;
    *out = op;
    return GSFW_OK;
}
