/* A block of rows of an n_total x d Gaussian matrix that is never stored: entry (i, j) is
 * sd * gsfw_counter_normal(seed, i, j), regenerated whenever a product needs it. Memory is
 * one row (d doubles; two with a worker thread); apply and adjoint regenerate the block
 * row by row (rows * d entries), the sparse products only the columns they touch (rows *
 * nnz entries). Because
 * an entry depends on (seed, i, j) alone, blocks of rows built separately (threads, MPI
 * ranks) together form exactly the matrix built at once.
 *
 * From d = GSFW_OP_THREADS_MIN_D on, apply works in two fixed halves of the rows and
 * adjoint in two fixed halves of the columns (each row's part regenerated, its daxpy on
 * that part of x), whatever the thread count; with threads >= 2 a worker thread
 * (util/worker.h) takes the second halves, and half the entries of the sparse products.
 * The same calls on the same data either way, so products are bit-identical for every
 * thread count. */
#include "operators/op_internal.h"
#include "util/counter_rng.h"
#include "util/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int d, row0, rows;
    uint64_t seed;
    double sd;
    double *row;          /* d: a row buffer */
    double *row2;         /* d: the worker's row buffer (with a worker only) */
    int split;            /* d >= GSFW_OP_THREADS_MIN_D: dense products in halves */
    gsfw_worker *worker;  /* threads >= 2 */
} ig_ctx;

/* One half of a product. */
typedef struct {
    const ig_ctx *c;
    double *row;        /* its row buffer (dense products) */
    const double *in;   /* x (apply), r (adjoint products), u's values (apply_sparse) */
    double *out;
    const int *idx;     /* the support (sparse products) */
    int nnz;
    double alpha;       /* apply_sparse */
    int from, to;       /* rows of y (apply products), columns or support entries of out */
} ig_half;

/* job on entries [0, mid) and [mid, count) of one product: the second half on the worker
 * when there is one, else after the first (sharing its row buffer). */
static void run_halves(const ig_ctx *c, void (*job)(void *), ig_half first, int mid,
                       int count)
{
    ig_half second = first;
    first.from = 0;
    first.to = second.from = mid;
    second.to = count;
    if (c->row2) second.row = c->row2;
    if (mid == count)
        job(&first);
    else
        gsfw_worker_pair(c->worker, job, &first, job, &second);
}

static void apply_rows(void *arg)
{
    const ig_half *h = arg;
    const ig_ctx *c = h->c;
    for (int i = h->from; i < h->to; i++) {
        gsfw_counter_normal_row(c->seed, c->row0 + i, c->d, h->row);
        h->out[i] = c->sd * gsfw_vec_dot(c->d, h->row, h->in);
    }
}

static void adjoint_columns(void *arg)
{
    const ig_half *h = arg;
    const ig_ctx *c = h->c;
    const int len = h->to - h->from;
    memset(h->out + h->from, 0, (size_t)len * sizeof(double));
    for (int i = 0; i < c->rows; i++) {
        gsfw_counter_normal_row_part(c->seed, c->row0 + i, h->from, h->to, h->row);
        gsfw_vec_axpy(len, c->sd * h->in[i], h->row, h->out + h->from);
    }
}

/* The sparse products: each output entry is a sum over the same terms in the same order
 * whoever computes it, so they are split only when a worker is there to take half. */
static void apply_sparse_rows(void *arg)
{
    const ig_half *h = arg;
    const ig_ctx *c = h->c;
    for (int i = h->from; i < h->to; i++) {
        double s = 0.0;
        for (int k = 0; k < h->nnz; k++)
            s += h->in[k] * gsfw_counter_normal(c->seed, c->row0 + i, h->idx[k]);
        h->out[i] += h->alpha * c->sd * s;
    }
}

static void adjoint_sparse_entries(void *arg)
{
    const ig_half *h = arg;
    const ig_ctx *c = h->c;
    for (int k = h->from; k < h->to; k++) {
        double s = 0.0;
        for (int i = 0; i < c->rows; i++)
            s += h->in[i] * gsfw_counter_normal(c->seed, c->row0 + i, h->idx[k]);
        h->out[k] = c->sd * s;
    }
}

static int ig_apply(void *ctx, const double *x, double *y)
{
    ig_ctx *c = ctx;
    run_halves(c, apply_rows, (ig_half){.c = c, .row = c->row, .in = x, .out = y},
               c->split ? c->rows / 2 : c->rows, c->rows);
    return 0;
}

static int ig_adjoint(void *ctx, const double *r, double *x)
{
    ig_ctx *c = ctx;
    /* an even split point, so that each half starts a Box-Muller pair */
    run_halves(c, adjoint_columns, (ig_half){.c = c, .row = c->row, .in = r, .out = x},
               c->split ? (c->d / 2) & ~1 : c->d, c->d);
    return 0;
}

static int ig_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                           double *y)
{
    ig_ctx *c = ctx;
    run_halves(c, apply_sparse_rows,
               (ig_half){.c = c, .in = val, .out = y, .idx = idx, .nnz = nnz, .alpha = alpha},
               c->worker ? c->rows / 2 : c->rows, c->rows);
    return 0;
}

static int ig_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    ig_ctx *c = ctx;
    run_halves(c, adjoint_sparse_entries,
               (ig_half){.c = c, .in = r, .out = out, .idx = idx, .nnz = nnz},
               c->worker ? nnz / 2 : nnz, nnz);
    return 0;
}

static void ig_destroy(gsfw_operator *self)
{
    ig_ctx *c = self->ctx;
    if (c) {
        gsfw_worker_free(c->worker);
        free(c->row);
        free(c->row2);
        free(c);
    }
    free(self);
}

gsfw_error gsfw_operator_implicit_gaussian(int n_total, int d, uint64_t seed, double sd, int row0,
                                           int rows, gsfw_operator **out, gsfw_err *err)
{
    return gsfw_operator_implicit_gaussian_threads(n_total, d, seed, sd, row0, rows, 1, out,
                                                   err);
}

gsfw_error gsfw_operator_implicit_gaussian_threads(int n_total, int d, uint64_t seed, double sd,
                                                   int row0, int rows, int threads,
                                                   gsfw_operator **out, gsfw_err *err)
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
    gsfw_error rc = gsfw_op_check_threads(what, threads, err);
    if (rc) return rc;
    if (rows < 1 || row0 < 0 || row0 > n_total - rows)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the block of rows %ld..%ld (row0 = %d, "
                         "rows = %d) must be non-empty and inside 0..%d", what, (long)row0,
                         (long)row0 + rows - 1, row0, rows, n_total - 1);
    ig_ctx *c = calloc(1, sizeof *c);
    gsfw_operator *op = c ? gsfw_op_new(rows, d, "implicit-gaussian", c) : NULL;
    if (c) {
        c->split = d >= GSFW_OP_THREADS_MIN_D;
        c->row = gsfw_malloc_array((size_t)d, sizeof(double));
    }
    if (!op || !c->row)
        rc = gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory (d = %d)", what, d);
    else if (!(rc = gsfw_op_worker(what, threads, d, &c->worker, err)) && c->worker &&
             !(c->row2 = gsfw_malloc_array((size_t)d, sizeof(double))))
        rc = gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory (d = %d)", what, d);
    if (rc) {
        if (c) {
            gsfw_worker_free(c->worker);
            free(c->row);
        }
        free(c);
        free(op);
        return rc;
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
    return gsfw_operator_implicit_gaussian_threads(s->n, s->height * s->width, s->seed,
                                                   1.0 / sqrt((double)s->n), 0, s->n,
                                                   s->threads ? s->threads : 1, out, err);
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
    "i.i.d. N(0, 1/n) entries generated on demand from (seed, i, j): memory O(n + d)",
    "seed threads", 0, 0,
    &(const gsfw_sensing_def){.build = implicit_sensing, .memory = implicit_memory,
                              .build_rows = implicit_rows},
    NULL};
