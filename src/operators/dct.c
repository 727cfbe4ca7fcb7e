/* Subsampled orthonormal DCT (1-D and 2-D) through FFTW.
 *
 * A = s P F: F the orthonormal DCT-II, P keeps n chosen rows (frequencies), s a scale
 * (1 for the public constructors). FFTW's REDFT10 computes Y_k = 2 sum_j x_j cos(pi k
 * (2j + 1) / (2N)), so F = diag(f) REDFT10 with f_0 = sqrt(1/N) / 2 and f_k = sqrt(2/N) / 2.
 * Its transpose is REDFT01 (Y_j = X_0 + 2 sum_{k>0} X_k cos(...)) applied after scaling
 * X_0 by sqrt(1/N) and X_k by sqrt(2/N) / 2. In 2-D the scales multiply per dimension.
 *
 * Plans are made once here with FFTW_ESTIMATE (FFTW_MEASURE would time candidate
 * algorithms, and different choices round differently: results would depend on the
 * machine's load). Products run the plans on this operator's own buffers through the
 * new-array execute function, which is thread-safe, so operators can be used in parallel
 * threads. The planner itself (plan creation and destruction) is not: it is made
 * thread-safe once per process with fftw_make_planner_thread_safe (libfftw3_threads),
 * rather than a mutex of ours, because FFTW's lock also covers planner calls that the
 * application (or another library in the process) makes on its own.
 *
 * A 2-D transform runs as two passes of 1-D transforms, rows then columns, each pass
 * in two fixed halves with a plan of its own; with threads >= 2 a worker thread
 * (util/worker.h) takes the second half of each pass. The halves and their plans are
 * the same for every thread count, so products are bit-identical whatever it is (and to
 * FFTW's own 2-D plan, which makes the same passes).
 *
 * This operator's own code allocates nothing after construction, but FFTW's REDFT
 * executors allocate (and free) temporary buffers of their own on each execution, which
 * no planner flag prevents: one per transform on small images, but on some sizes one per
 * row or column pass (128 x 128: 260 per 2-D transform). tests/test_operators_no_alloc.c
 * checks that none comes from gsfw's code and that FFTW's count is the same every round. */
#include "operators/op_internal.h"

#include <fftw3.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n, d;
    int *rows;           /* n chosen frequencies (flattened), ascending */
    double *fwd_scale;   /* n: scale of each kept REDFT10 output */
    double *adj_scale;   /* n: scale of each input of the REDFT01 */
    double *in, *out;    /* d each (fftw_malloc: the alignment the plans were made for) */
    fftw_plan fwd, adj;      /* 1-D: the transforms */
    fftw_plan half[2][2][2]; /* 2-D: [fwd/adj][rows/columns][first/second half] */
    int height, width;       /* height 0: 1-D of length width */
    int threads;
    int folded;              /* rows mapped by gsfw_op_dct2_block_constant */
    gsfw_worker *worker;     /* threads >= 2: runs the second halves */
    double scale, norm2;
} dct_ctx;

enum { FWD = 0, ADJ = 1 };

static void run_plan(void *plan)
{
    if (plan) fftw_execute((fftw_plan)plan); /* an empty half has none */
}

/* in -> out by the 1-D plan or the 2-D passes (dir FWD or ADJ). */
static void transform(dct_ctx *c, int dir)
{
    if (!c->height) {
        fftw_execute_r2r(dir == FWD ? c->fwd : c->adj, c->in, c->out);
        return;
    }
    for (int pass = 0; pass < 2; pass++)
        gsfw_worker_pair(c->worker, run_plan, c->half[dir][pass][0], run_plan,
                         c->half[dir][pass][1]);
}

static pthread_once_t planner_once = PTHREAD_ONCE_INIT;

static void make_planner_thread_safe(void)
{
    fftw_make_planner_thread_safe();
}

static int dct_apply(void *ctx, const double *x, double *y)
{
    dct_ctx *c = ctx;
    memcpy(c->in, x, (size_t)c->d * sizeof(double));
    transform(c, FWD);
    for (int i = 0; i < c->n; i++) y[i] = c->fwd_scale[i] * c->out[c->rows[i]];
    return 0;
}

/* The adjoint's input: each measurement's scaled value at its frequency (summed where
 * several measurements share one, as in gsfw_op_dct2_block_constant). */
static void scatter_rows(dct_ctx *c, const double *r)
{
    memset(c->in, 0, (size_t)c->d * sizeof(double));
    for (int i = 0; i < c->n; i++) c->in[c->rows[i]] += c->adj_scale[i] * r[i];
}

static int dct_adjoint(void *ctx, const double *r, double *x)
{
    dct_ctx *c = ctx;
    scatter_rows(c, r);
    transform(c, ADJ);
    memcpy(x, c->out, (size_t)c->d * sizeof(double));
    return 0;
}

/* A sparse u still costs one transform: scatter it, transform, keep the chosen rows. */
static int dct_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                            double *y)
{
    dct_ctx *c = ctx;
    memset(c->in, 0, (size_t)c->d * sizeof(double));
    for (int k = 0; k < nnz; k++) c->in[idx[k]] = alpha * val[k];
    transform(c, FWD);
    for (int i = 0; i < c->n; i++) y[i] += c->fwd_scale[i] * c->out[c->rows[i]];
    return 0;
}

static int dct_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    dct_ctx *c = ctx;
    scatter_rows(c, r);
    transform(c, ADJ);
    for (int k = 0; k < nnz; k++) out[k] = c->out[idx[k]];
    return 0;
}

static int dct_norm2(void *ctx, double *norm2)
{
    *norm2 = ((dct_ctx *)ctx)->norm2;
    return 0;
}

static void dct_ctx_free(dct_ctx *c)
{
    if (!c) return;
    gsfw_worker_free(c->worker);
    pthread_once(&planner_once, make_planner_thread_safe);
    if (c->fwd) fftw_destroy_plan(c->fwd);
    if (c->adj) fftw_destroy_plan(c->adj);
    fftw_plan *halves = &c->half[0][0][0];
    for (int k = 0; k < 8; k++)
        if (halves[k]) fftw_destroy_plan(halves[k]);
    fftw_free(c->in);
    fftw_free(c->out);
    free(c->rows);
    free(c->fwd_scale);
    free(c->adj_scale);
    free(c);
}

static void dct_destroy(gsfw_operator *self)
{
    dct_ctx_free(self->ctx);
    free(self);
}

/* Orthonormal scale of frequency k of a length-N DCT-II over REDFT10, and of its transpose
 * over REDFT01. */
static double fwd_factor(int k, int N) { return 0.5 * sqrt((k == 0 ? 1.0 : 2.0) / N); }
static double adj_factor(int k, int N) { return k == 0 ? sqrt(1.0 / N) : 0.5 * sqrt(2.0 / N); }

/* The 2-D passes: rows (length width, consecutive) from in to out, then columns (length
 * height, stride width) in place in out, each in two halves (an empty half, when the
 * image is one pixel wide or high, is left without a plan and skipped). */
static int plan_halves(dct_ctx *c, int height, int width)
{
    const fftw_r2r_kind kinds[2] = {FFTW_REDFT10, FFTW_REDFT01};
    for (int dir = 0; dir < 2; dir++)
        for (int h = 0; h < 2; h++) {
            const int r0 = h ? height / 2 : 0, r1 = h ? height : height / 2;
            const int c0 = h ? width / 2 : 0, c1 = h ? width : width / 2;
            const size_t at = (size_t)r0 * width;
            if (r1 > r0) {
                c->half[dir][0][h] = fftw_plan_many_r2r(1, &width, r1 - r0, c->in + at, NULL, 1,
                                                        width, c->out + at, NULL, 1, width,
                                                        &kinds[dir], FFTW_ESTIMATE);
                if (!c->half[dir][0][h]) return -1;
            }
            if (c1 > c0) {
                c->half[dir][1][h] = fftw_plan_many_r2r(1, &height, c1 - c0, c->out + c0, NULL,
                                                        width, 1, c->out + c0, NULL, width, 1,
                                                        &kinds[dir], FFTW_ESTIMATE);
                if (!c->half[dir][1][h]) return -1;
            }
        }
    return 0;
}

/* A context for n measurements of a height x width image (height 0: 1-D of length
 * width) with its buffers, and its operator; rows and scales are the caller's to fill. */
static gsfw_error new_ctx(const char *what, const char *name, int height, int width, int n,
                          double scale, int threads, dct_ctx **ctx, gsfw_operator **op,
                          gsfw_err *err)
{
    int d = height ? height * width : width;
    dct_ctx *c = calloc(1, sizeof *c);
    *op = c ? gsfw_op_new(n, d, name, c) : NULL;
    if (*op) (*op)->destroy = dct_destroy; /* from here on, freeing op frees c */
    if (c) {
        c->n = n;
        c->d = d;
        c->height = height;
        c->width = width;
        c->threads = threads;
        c->scale = scale;
        c->norm2 = scale * scale;
        c->rows = gsfw_malloc_array((size_t)n, sizeof(int));
        c->fwd_scale = gsfw_malloc_array((size_t)n, sizeof(double));
        c->adj_scale = gsfw_malloc_array((size_t)n, sizeof(double));
        c->in = fftw_malloc((size_t)d * sizeof(double));
        c->out = fftw_malloc((size_t)d * sizeof(double));
    }
    if (!*op || !c->rows || !c->fwd_scale || !c->adj_scale || !c->in || !c->out) {
        if (*op)
            gsfw_operator_free(*op);
        else
            dct_ctx_free(c);
        *op = NULL;
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory (d = %d)", what, d);
    }
    *ctx = c;
    return GSFW_OK;
}

/* Plans, the worker and the hooks of a filled context; frees the operator on failure. */
static gsfw_error finish(const char *what, dct_ctx *c, gsfw_operator *op, gsfw_operator **out,
                         gsfw_err *err)
{
    pthread_once(&planner_once, make_planner_thread_safe);
    int planned;
    if (c->height) {
        planned = plan_halves(c, c->height, c->width) == 0;
    } else {
        c->fwd = fftw_plan_r2r_1d(c->width, c->in, c->out, FFTW_REDFT10, FFTW_ESTIMATE);
        c->adj = fftw_plan_r2r_1d(c->width, c->in, c->out, FFTW_REDFT01, FFTW_ESTIMATE);
        planned = c->fwd && c->adj;
    }
    gsfw_error rc = planned ? GSFW_OK
                            : gsfw_fail(err, GSFW_ERR_INTERNAL, "%s: FFTW could not plan a "
                                        "DCT of size %d", what, c->d);
    if (!rc && c->height) rc = gsfw_op_worker(what, c->threads, c->d, &c->worker, err);
    if (rc) {
        gsfw_operator_free(op);
        return rc;
    }
    op->apply = dct_apply;
    op->adjoint = dct_adjoint;
    op->apply_sparse = dct_apply_sparse;
    op->adjoint_sparse = dct_adjoint_sparse;
    op->norm2 = dct_norm2;
    *out = op;
    return GSFW_OK;
}

/* n seeded rows of the DCT of a height x width image (height 0: 1-D of length width). */
static gsfw_error build(const char *what, const char *name, int height, int width, int n,
                        uint64_t seed, double scale, int threads, gsfw_operator **out,
                        gsfw_err *err)
{
    dct_ctx *c = NULL;
    gsfw_operator *op = NULL;
    gsfw_error rc = new_ctx(what, name, height, width, n, scale, threads, &c, &op, err);
    if (rc) return rc;
    const int d = c->d;
    if (gsfw_op_choose_rows(d, n, seed, c->rows) != 0) {
        gsfw_operator_free(op);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory (d = %d)", what, d);
    }
    for (int i = 0; i < n; i++) {
        int k1 = height ? c->rows[i] / width : 0, k2 = height ? c->rows[i] % width : c->rows[i];
        double f = fwd_factor(k2, width), a = adj_factor(k2, width);
        if (height) {
            f *= fwd_factor(k1, height);
            a *= adj_factor(k1, height);
        }
        c->fwd_scale[i] = scale * f;
        c->adj_scale[i] = scale * a;
    }
    return finish(what, c, op, out, err);
}

gsfw_error gsfw_operator_dct(int d, int n, uint64_t seed, gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "dct operator";
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    gsfw_error rc = gsfw_op_check_rows(what, d, n, err);
    if (rc) return rc;
    return build(what, "dct", 0, d, n, seed, 1.0, 1, out, err);
}

gsfw_error gsfw_op_dct2_scaled(int height, int width, int n, uint64_t seed, double scale,
                               int threads, gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "dct2 operator";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    gsfw_error image_rc = gsfw_op_check_image(what, height, width, err);
    if (image_rc) return image_rc;
    gsfw_error rc = gsfw_op_check_rows(what, height * width, n, err);
    if (rc) return rc;
    return build(what, "dct2", height, width, n, seed, scale, threads, out, err);
}

gsfw_error gsfw_operator_dct2(int height, int width, int n, uint64_t seed, gsfw_operator **out,
                              gsfw_err *err)
{
    gsfw_err_clear(err);
    return gsfw_op_dct2_scaled(height, width, n, seed, 1.0, 1, out, err);
}

gsfw_error gsfw_operator_dct2_threads(int height, int width, int n, uint64_t seed, int threads,
                                      gsfw_operator **out, gsfw_err *err)
{
    gsfw_err_clear(err);
    gsfw_error rc = gsfw_op_check_threads("dct2 operator", threads, err);
    return rc ? rc : gsfw_op_dct2_scaled(height, width, n, seed, 1.0, threads, out, err);
}

/* Frequency k of a length-L = b N DCT-II of a vector constant on blocks of b entries,
 * u repeated b times: sum_j u_j sum_t cos(pi k (2 (b j + t) + 1) / (2 L)) =
 * D(k) Y(k), D(k) = sin(pi k / (2 N)) / sin(pi k / (2 L)) (D(0) = b) and
 * Y(k) = sum_j u_j cos(pi k (2 j + 1) / (2 N)), whose period 4N and symmetries
 * (Y(2N - k) = -Y(k), Y(N) = 0) bring every k back to a frequency *m < N of u's own
 * DCT: the measurement is *gain times Y(*m) (0 where D or Y vanishes, with *m = 0). */
static void block_frequency(int k, int N, int b, int *m, double *gain)
{
    const double pi = 3.14159265358979323846;
    *m = 0;
    if (k == 0) {
        *gain = b;
        return;
    }
    int q = k % (4 * N), sign = 1;
    /* sin(pi k / 2N) has period 4N in k: reduced first, it stays accurate to the last
     * bits for large k (the denominator's argument is below pi / 2) */
    double D = sin(pi * q / (2.0 * N)) / sin(pi * k / (2.0 * b * N));
    if (q % (2 * N) == N) D = 0.0;  /* Y(N) = Y(3N) = 0 */
    if (k % (2 * N) == 0) D = 0.0;  /* sin(pi j) = 0, which sin() rounds to about 1e-16 */
    if (q >= 2 * N) {               /* Y(k + 2N) = -Y(k) */
        q -= 2 * N;
        sign = -sign;
    }
    if (q > N) {                    /* Y(2N - k) = -Y(k) */
        q = 2 * N - q;
        sign = -sign;
    }
    if (D == 0.0) q = 0;
    *m = q;
    *gain = sign * D;
}

gsfw_error gsfw_op_dct2_block_constant(const gsfw_operator *A, int height, int width,
                                       int block, gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "block-constant dct2 operator";
    *out = NULL;
    if (!A || A->destroy != dct_destroy || block < 2) return GSFW_OK;
    const dct_ctx *a = A->ctx;
    /* the image must be the one A transforms: an image of the same pixel count in
     * another shape is flattened differently */
    if (a->folded || !a->height || a->height != height || a->width != width ||
        height % block || width % block)
        return GSFW_OK;
    const int H = a->height / block, W = a->width / block;
    dct_ctx *c = NULL;
    gsfw_operator *op = NULL;
    gsfw_error rc = new_ctx(what, "dct2-blocks", H, W, a->n, a->scale, a->threads, &c, &op,
                            err);
    if (rc) return rc;
    c->norm2 = a->norm2 * block * block; /* ||A U|| <= ||A|| ||U||, ||U||^2 = block^2 */
    c->folded = 1;
    for (int i = 0; i < a->n; i++) {
        const int k1 = a->rows[i] / a->width, k2 = a->rows[i] % a->width;
        int m1, m2;
        double g1, g2;
        block_frequency(k1, H, block, &m1, &g1);
        block_frequency(k2, W, block, &m2, &g2);
        /* per dimension the fine row's REDFT10 scale times the gain (REDFT10 of the coarse
         * image returns 2 Y, as it did for the fine one); the adjoint's REDFT01 takes Y's
         * transpose with the coarse frequency 0 whole and the others halved, i.e. that
         * scale at m > 0 and twice it at m = 0 (as adj_factor is to fwd_factor) */
        const double f = fwd_factor(k1, a->height) * g1 * fwd_factor(k2, a->width) * g2;
        c->rows[i] = m1 * W + m2;
        c->fwd_scale[i] = a->scale * f;
        c->adj_scale[i] = a->scale * f * (m1 ? 1.0 : 2.0) * (m2 ? 1.0 : 2.0);
    }
    return finish(what, c, op, out, err);
}

/* n rows of the 2-D DCT scaled to the column norms of N(0, 1/n) matrices (sensing). */
static gsfw_error dct_sensing(const gsfw_sensing_spec *s, gsfw_operator **out, gsfw_err *err)
{
    const int d = s->height * s->width;
    return gsfw_op_dct2_scaled(s->height, s->width, s->n, s->seed, gsfw_sensing_scale(s->n, d),
                               s->threads, out, err);
}

static double dct_memory(const gsfw_sensing_spec *s)
{
    return 4.0 * 8.0 * (double)s->height * (double)s->width + 4.0 * s->n;
}

const gsfw_entry gsfw_entry_sensing_dct = {
    GSFW_KIND_SENSING, "dct", "n seeded rows of the orthonormal 2-D DCT, scaled by sqrt(d/n)",
    "seed threads", 0, 0,
    &(const gsfw_sensing_def){.build = dct_sensing, .memory = dct_memory}, NULL};
