/* Subsampled orthonormal Walsh-Hadamard transform: A = s P H / sqrt(d), H the Sylvester
 * (natural order) Hadamard matrix, P keeps n rows chosen by seed, s a scale (1 for the
 * public constructor). H is symmetric, so A^T = s H P^T / sqrt(d). The transform is the
 * in-place butterfly (d log2 d additions); no Debian library provides one. With threads
 * >= 2 a worker thread (util/worker.h) takes half of it: every stage but the last works
 * within the two halves of y, the last pairs y[j] with y[j + d/2]; each element sees the
 * same operations in the same order whoever runs them, so products are bit-identical
 * for every thread count. */
#include "operators/op_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n, d;
    int *rows;
    double scale;   /* s / sqrt(d) */
    double *row_scale; /* n scales instead of scale (gsfw_op_hadamard_block_constant), or NULL */
    double norm2;
    double *buf;    /* d */
    gsfw_worker *worker; /* threads >= 2 */
    int threads;
} wht_ctx;

/* y = H y in place (unnormalised), d a power of two. */
static void fwht(double *y, int d)
{
    for (int h = 1; h < d; h *= 2)
        for (int i = 0; i < d; i += 2 * h)
            for (int j = i; j < i + h; j++) {
                double a = y[j], b = y[j + h];
                y[j] = a + b;
                y[j + h] = a - b;
            }
}

/* The two jobs of a split transform: a half's stages, and a quarter of the last stage. */
typedef struct {
    double *y;
    int len;  /* the half's length, or the pairs' distance (d / 2) */
    int from, to; /* last stage: the pairs j in [from, to) */
} wht_job;

static void half_stages(void *arg)
{
    const wht_job *j = arg;
    fwht(j->y, j->len);
}

static void last_stage(void *arg)
{
    const wht_job *j = arg;
    for (int i = j->from; i < j->to; i++) {
        double a = j->y[i], b = j->y[i + j->len];
        j->y[i] = a + b;
        j->y[i + j->len] = a - b;
    }
}

/* fwht on c->buf, shared with the worker when there is one */
static void transform(wht_ctx *c)
{
    const int h = c->d / 2;
    if (!c->worker) {
        fwht(c->buf, c->d);
        return;
    }
    wht_job a = {c->buf, h, 0, h / 2}, b = {c->buf + h, h, h / 2, h};
    gsfw_worker_pair(c->worker, half_stages, &a, half_stages, &b);
    b.y = c->buf;
    gsfw_worker_pair(c->worker, last_stage, &a, last_stage, &b);
}

static double row_scale(const wht_ctx *c, int i)
{
    return c->row_scale ? c->row_scale[i] : c->scale;
}

static int wht_apply(void *ctx, const double *x, double *y)
{
    wht_ctx *c = ctx;
    memcpy(c->buf, x, (size_t)c->d * sizeof(double));
    transform(c);
    for (int i = 0; i < c->n; i++) y[i] = row_scale(c, i) * c->buf[c->rows[i]];
    return 0;
}

/* the rows' scaled values at their frequencies (summed where rows share one: the
 * vanishing rows of a block-constant operator all point at frequency 0) */
static void adjoint_into_buf(wht_ctx *c, const double *r)
{
    memset(c->buf, 0, (size_t)c->d * sizeof(double));
    for (int i = 0; i < c->n; i++) c->buf[c->rows[i]] += row_scale(c, i) * r[i];
    transform(c);
}

static int wht_adjoint(void *ctx, const double *r, double *x)
{
    wht_ctx *c = ctx;
    adjoint_into_buf(c, r);
    memcpy(x, c->buf, (size_t)c->d * sizeof(double));
    return 0;
}

static int wht_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                            double *y)
{
    wht_ctx *c = ctx;
    memset(c->buf, 0, (size_t)c->d * sizeof(double));
    for (int k = 0; k < nnz; k++) c->buf[idx[k]] = alpha * val[k];
    transform(c);
    for (int i = 0; i < c->n; i++) y[i] += row_scale(c, i) * c->buf[c->rows[i]];
    return 0;
}

static int wht_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    wht_ctx *c = ctx;
    adjoint_into_buf(c, r);
    for (int k = 0; k < nnz; k++) out[k] = c->buf[idx[k]];
    return 0;
}

static int wht_norm2(void *ctx, double *norm2)
{
    *norm2 = ((wht_ctx *)ctx)->norm2;
    return 0;
}

static void wht_destroy(gsfw_operator *self)
{
    wht_ctx *c = self->ctx;
    if (c) {
        gsfw_worker_free(c->worker);
        free(c->rows);
        free(c->row_scale);
        free(c->buf);
        free(c);
    }
    free(self);
}

/* A context for n rows of the size-d transform (d a power of two) and its operator. */
static gsfw_error new_ctx(const char *what, const char *name, int d, int n, double scale,
                          wht_ctx **ctx, gsfw_operator **op, gsfw_err *err)
{
    wht_ctx *c = calloc(1, sizeof *c);
    *op = c ? gsfw_op_new(n, d, name, c) : NULL;
    if (c) {
        c->n = n;
        c->d = d;
        c->scale = scale / sqrt((double)d);
        c->norm2 = scale * scale;
        c->rows = gsfw_malloc_array((size_t)n, sizeof(int));
        c->buf = gsfw_malloc_array((size_t)d, sizeof(double));
    }
    if (*op) (*op)->destroy = wht_destroy;
    if (!*op || !c->rows || !c->buf) {
        if (*op) {
            gsfw_operator_free(*op);
        } else if (c) {
            free(c->rows);
            free(c->buf);
            free(c);
        }
        *op = NULL;
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory (d = %d)", what, d);
    }
    *ctx = c;
    return GSFW_OK;
}

/* The worker and the hooks of a filled context; frees the operator on failure. */
static gsfw_error finish(const char *what, wht_ctx *c, int threads, gsfw_operator *op,
                         gsfw_operator **out, gsfw_err *err)
{
    gsfw_error rc = gsfw_op_worker(what, threads, c->d, &c->worker, err);
    if (rc) {
        gsfw_operator_free(op);
        return rc;
    }
    op->apply = wht_apply;
    op->adjoint = wht_adjoint;
    op->apply_sparse = wht_apply_sparse;
    op->adjoint_sparse = wht_adjoint_sparse;
    op->norm2 = wht_norm2;
    *out = op;
    return GSFW_OK;
}

gsfw_error gsfw_op_hadamard_scaled(int d, int n, uint64_t seed, double scale, int threads,
                                   gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "hadamard operator";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    if (d < 1) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the size d must be >= 1, got %d", what, d);
    if (d & (d - 1)) {
        long below = 1;
        while (below * 2 < d) below *= 2;
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: d = %d is not a power of two (the "
                         "nearest are %ld and %ld)", what, d, below, below * 2);
    }
    gsfw_error rc = gsfw_op_check_rows(what, d, n, err);
    if (rc) return rc;
    wht_ctx *c = NULL;
    gsfw_operator *op = NULL;
    if ((rc = new_ctx(what, "hadamard", d, n, scale, &c, &op, err))) return rc;
    c->threads = threads;
    if (gsfw_op_choose_rows(d, n, seed, c->rows) != 0) {
        gsfw_operator_free(op);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory (d = %d)", what, d);
    }
    return finish(what, c, threads, op, out, err);
}

/* Sylvester's H is the Kronecker product of 2 x 2 blocks over the bits of the index, and
 * a block-constant image repeats each coarse pixel over the low t = log2(block) bits of
 * its row and of its column: on those bits the transform of a constant is 2 at frequency
 * bit 0 and 0 at bit 1. So frequency f of the fine image vanishes when f has one of
 * those bits set, and is block^2 times frequency g(f) of the coarse image otherwise (g
 * drops the bits); with the orthonormal scales, s / sqrt(d) block^2 = block s /
 * sqrt(d / block^2). */
gsfw_error gsfw_op_hadamard_block_constant(const gsfw_operator *A, int height, int width,
                                           int block, gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "block-constant hadamard operator";
    *out = NULL;
    if (!A || A->destroy != wht_destroy || block < 2 || (block & (block - 1))) return GSFW_OK;
    const wht_ctx *a = A->ctx;
    if (a->row_scale || height < 1 || width < 1 || (long)height * width != a->d ||
        height % block || width % block)
        return GSFW_OK;
    int t = 0, q = 0;
    while ((1 << t) < block) t++;
    while ((1 << q) < width) q++;
    const int dropped = (block - 1) | ((block - 1) << q), cw = width / block;
    wht_ctx *c = NULL;
    gsfw_operator *op = NULL;
    /* a->scale is s / sqrt(d): s with its sign */
    gsfw_error rc = new_ctx(what, "hadamard-blocks", a->d / (block * block), a->n,
                            a->scale * sqrt((double)a->d), &c, &op, err);
    if (rc) return rc;
    c->norm2 = a->norm2 * block * block; /* ||A U|| <= ||A|| ||U|| */
    c->threads = a->threads;
    c->row_scale = gsfw_malloc_array((size_t)a->n, sizeof(double));
    if (!c->row_scale) {
        gsfw_operator_free(op);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory", what);
    }
    for (int i = 0; i < a->n; i++) {
        const int f = a->rows[i];
        if (f & dropped) {
            c->rows[i] = 0;
            c->row_scale[i] = 0.0;
        } else {
            c->rows[i] = ((f >> q) >> t) * cw + ((f & (width - 1)) >> t);
            c->row_scale[i] = c->scale * block;
        }
    }
    return finish(what, c, a->threads, op, out, err);
}

gsfw_error gsfw_operator_hadamard(int d, int n, uint64_t seed, gsfw_operator **out, gsfw_err *err)
{
    gsfw_err_clear(err);
    return gsfw_op_hadamard_scaled(d, n, seed, 1.0, 1, out, err);
}

gsfw_error gsfw_operator_hadamard_threads(int d, int n, uint64_t seed, int threads,
                                          gsfw_operator **out, gsfw_err *err)
{
    gsfw_err_clear(err);
    gsfw_error rc = gsfw_op_check_threads("hadamard operator", threads, err);
    return rc ? rc : gsfw_op_hadamard_scaled(d, n, seed, 1.0, threads, out, err);
}

/* n rows of the Walsh-Hadamard matrix scaled to the column norms of N(0, 1/n) matrices. */
static gsfw_error hadamard_sensing(const gsfw_sensing_spec *s, gsfw_operator **out,
                                   gsfw_err *err)
{
    const int d = s->height * s->width;
    return gsfw_op_hadamard_scaled(d, s->n, s->seed, gsfw_sensing_scale(s->n, d), s->threads,
                                   out, err);
}

static double hadamard_memory(const gsfw_sensing_spec *s)
{
    return 8.0 * (double)s->height * (double)s->width + 4.0 * s->n;
}

const gsfw_entry gsfw_entry_sensing_hadamard = {
    GSFW_KIND_SENSING, "hadamard",
    "n seeded rows of the orthonormal Walsh-Hadamard matrix (d a power of two), scaled by "
    "sqrt(d/n)", "seed threads", 0, 0,
    &(const gsfw_sensing_def){.build = hadamard_sensing, .memory = hadamard_memory}, NULL};
