/* A block of rows of an n_total x d Gaussian matrix that is never stored: entry (i, j) is
 * sd * gsfw_counter_normal(seed, i, j), regenerated whenever a product needs it. Memory is
 * one row (d doubles); apply and adjoint regenerate the block row by row (rows * d
 * entries), the sparse products only the columns they touch (rows * nnz entries). Because
 * an entry depends on (seed, i, j) alone, blocks of rows built separately (threads, MPI
 * ranks) together form exactly the matrix built at once. */
#include "operators/op_internal.h"
#include "util/counter_rng.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int d, row0, rows;
    uint64_t seed;
    double sd;
    double *row; /* d */
} ig_ctx;

static int ig_apply(void *ctx, const double *x, double *y)
{
    ig_ctx *c = ctx;
    for (int i = 0; i < c->rows; i++) {
        gsfw_counter_normal_row(c->seed, c->row0 + i, c->d, c->row);
        y[i] = c->sd * cblas_ddot(c->d, c->row, 1, x, 1);
    }
    return 0;
}

static int ig_adjoint(void *ctx, const double *r, double *x)
{
    ig_ctx *c = ctx;
    memset(x, 0, (size_t)c->d * sizeof(double));
    for (int i = 0; i < c->rows; i++) {
        gsfw_counter_normal_row(c->seed, c->row0 + i, c->d, c->row);
        cblas_daxpy(c->d, c->sd * r[i], c->row, 1, x, 1);
    }
    return 0;
}

static int ig_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                           double *y)
{
    ig_ctx *c = ctx;
    for (int i = 0; i < c->rows; i++) {
        double s = 0.0;
        for (int k = 0; k < nnz; k++) s += val[k] * gsfw_counter_normal(c->seed, c->row0 + i, idx[k]);
        y[i] += alpha * c->sd * s;
    }
    return 0;
}

static int ig_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    ig_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) {
        double s = 0.0;
        for (int i = 0; i < c->rows; i++) s += r[i] * gsfw_counter_normal(c->seed, c->row0 + i, idx[k]);
        out[k] = c->sd * s;
    }
    return 0;
}

static void ig_destroy(gsfw_operator *self)
{
    ig_ctx *c = self->ctx;
    if (c) {
        free(c->row);
        free(c);
    }
    free(self);
}

gsfw_error gsfw_operator_implicit_gaussian(int n_total, int d, uint64_t seed, double sd, int row0,
                                           int rows, gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "implicit-gaussian operator";
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    if (n_total < 1 || d < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the matrix must be at least 1 x 1, got "
                         "%d x %d", what, n_total, d);
    if (!isfinite(sd) || sd <= 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the standard deviation sd must be "
                         "finite and > 0, got %g", what, sd);
    if (rows < 1 || row0 < 0 || row0 > n_total - rows)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the block of rows %ld..%ld (row0 = %d, "
                         "rows = %d) must be non-empty and inside 0..%d", what, (long)row0,
                         (long)row0 + rows - 1, row0, rows, n_total - 1);
    ig_ctx *c = calloc(1, sizeof *c);
    gsfw_operator *op = c ? gsfw_op_new(rows, d, "implicit-gaussian", c) : NULL;
    if (c) c->row = gsfw_malloc_array((size_t)d, sizeof(double));
    if (!op || !c->row) {
        if (c) free(c->row);
        free(c);
        free(op);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory (d = %d)", what, d);
    }
    c->d = d;
    c->row0 = row0;
    c->rows = rows;
    c->seed = seed;
    c->sd = sd;
    op->apply = ig_apply;
    op->adjoint = ig_adjoint;
    op->apply_sparse = ig_apply_sparse;
    op->adjoint_sparse = ig_adjoint_sparse;
    op->destroy = ig_destroy;
    *out = op;
    return GSFW_OK;
}

/* The N(0, 1/n) matrix of the "gaussian" kind's distribution, never stored. */
static gsfw_error implicit_sensing(const gsfw_sensing_spec *s, gsfw_operator **out,
                                   gsfw_err *err)
{
    return gsfw_operator_implicit_gaussian(s->n, s->height * s->width, s->seed,
                                           1.0 / sqrt((double)s->n), 0, s->n, out, err);
}

static gsfw_error implicit_rows(const gsfw_sensing_spec *s, int row0, int rows,
                                gsfw_operator **out, gsfw_err *err)
{
    return gsfw_operator_implicit_gaussian(s->n, s->height * s->width, s->seed,
                                           1.0 / sqrt((double)s->n), row0, rows, out, err);
}

static double implicit_memory(const gsfw_sensing_spec *s)
{
    return 16.0 * ((double)s->n + (double)s->height * (double)s->width);
}

const gsfw_entry gsfw_entry_sensing_implicit_gaussian = {
    GSFW_KIND_SENSING, "implicit-gaussian",
    "i.i.d. N(0, 1/n) entries generated on demand from (seed, i, j): memory O(n + d)", "seed",
    0, 0,
    &(const gsfw_sensing_def){.build = implicit_sensing, .memory = implicit_memory,
                              .build_rows = implicit_rows},
    NULL};
