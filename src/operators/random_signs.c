/* Random signs: the d x d diagonal D = diag(+-1) drawn from a seed, and "A D" (signs
 * applied before an operator A that this operator owns).
 *
 * Subsampled DCT or Hadamard rows are coherent with wavelets: both concentrate a smooth
 * image's energy on low frequencies / coarse scales, so the few chosen rows see little of
 * the wavelet detail. Flipping the signs of the pixels first spreads every wavelet atom
 * over all frequencies (the "scrambled" transforms of structured compressive sensing),
 * while D stays orthonormal and symmetric (D^T = D = D^-1), so P F D keeps orthonormal
 * rows and costs one extra pass over x.
 *
 * The signs come from gsfw_rng seeded with a mix of the seed (not the seed itself), so a
 * sensing operator that draws its rows from the same seed gets an unrelated sign stream. */
#include "operators/op_internal.h"
#include "util/rng.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int d;
    signed char *sign;        /* d entries, +1 or -1 */
    gsfw_operator *inner;     /* NULL: D alone; else owned, computing inner * D */
    double *xd;               /* d: the signed input of inner (NULL for D alone) */
    double *val;              /* d: signed sparse values for inner->apply_sparse */
} signs_ctx;

/* splitmix64's output step: a fixed bijection that decorrelates the sign stream from a
 * row choice seeded with the same number. */
static uint64_t mix_seed(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void draw_signs(signed char *sign, int d, uint64_t seed)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, mix_seed(seed));
    uint64_t bits = 0;
    for (int i = 0; i < d; i++) {
        if (i % 64 == 0) bits = gsfw_rng_next(&rng);
        sign[i] = (bits & 1u) ? -1 : 1;
        bits >>= 1;
    }
}

/* ---- D alone (square, symmetric: adjoint = apply) */

static int d_apply(void *ctx, const double *x, double *y)
{
    signs_ctx *c = ctx;
    for (int i = 0; i < c->d; i++) y[i] = c->sign[i] * x[i];
    return 0;
}

static int d_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                          double *y)
{
    signs_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) y[idx[k]] += alpha * c->sign[idx[k]] * val[k];
    return 0;
}

static int d_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    signs_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) out[k] = c->sign[idx[k]] * r[idx[k]];
    return 0;
}

static int unit_norm2(void *ctx, double *norm2)
{
    (void)ctx;
    *norm2 = 1.0;
    return 0;
}

/* ---- inner * D */

static int ad_apply(void *ctx, const double *x, double *y)
{
    signs_ctx *c = ctx;
    for (int i = 0; i < c->d; i++) c->xd[i] = c->sign[i] * x[i];
    return c->inner->apply(c->inner->ctx, c->xd, y);
}

static int ad_adjoint(void *ctx, const double *r, double *x)
{
    signs_ctx *c = ctx;
    int rc = c->inner->adjoint(c->inner->ctx, r, x);
    if (rc) return rc;
    for (int i = 0; i < c->d; i++) x[i] *= c->sign[i];
    return 0;
}

static int ad_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                           double *y)
{
    signs_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) c->val[k] = c->sign[idx[k]] * val[k];
    return c->inner->apply_sparse(c->inner->ctx, nnz, idx, c->val, alpha, y);
}

static int ad_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    signs_ctx *c = ctx;
    int rc = c->inner->adjoint_sparse(c->inner->ctx, r, nnz, idx, out);
    if (rc) return rc;
    for (int k = 0; k < nnz; k++) out[k] *= c->sign[idx[k]];
    return 0;
}

static int ad_norm2(void *ctx, double *norm2)
{
    signs_ctx *c = ctx;
    return c->inner->norm2(c->inner->ctx, norm2); /* ||A D|| = ||A||: D is orthogonal */
}

static void signs_destroy(gsfw_operator *self)
{
    signs_ctx *c = self->ctx;
    if (c) {
        gsfw_operator_free(c->inner);
        free(c->sign);
        free(c->xd);
        free(c->val);
        free(c);
    }
    free(self);
}

/* A context with d signs drawn, and the operator around it; NULL when out of memory. */
static gsfw_operator *new_signs_op(int n, int d, const char *name, uint64_t seed, int scratch)
{
    signs_ctx *c = calloc(1, sizeof *c);
    gsfw_operator *op = c ? gsfw_op_new(n, d, name, c) : NULL;
    if (!op) {
        free(c);
        return NULL;
    }
    op->destroy = signs_destroy;
    c->d = d;
    c->sign = malloc((size_t)d);
    if (scratch) {
        c->xd = gsfw_malloc_array((size_t)d, sizeof(double));
        c->val = gsfw_malloc_array((size_t)d, sizeof(double));
    }
    if (!c->sign || (scratch && (!c->xd || !c->val))) {
        gsfw_operator_free(op);
        return NULL;
    }
    draw_signs(c->sign, d, seed);
    return op;
}

gsfw_error gsfw_operator_random_signs(int d, uint64_t seed, gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "random-signs operator";
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    if (d < 1) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the size d must be >= 1, got %d",
                                what, d);
    gsfw_operator *op = new_signs_op(d, d, "random-signs", seed, 0);
    if (!op) return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory (d = %d)", what, d);
    op->apply = d_apply;
    op->adjoint = d_apply;
    op->apply_sparse = d_apply_sparse;
    op->adjoint_sparse = d_adjoint_sparse;
    op->norm2 = unit_norm2;
    *out = op;
    return GSFW_OK;
}

gsfw_error gsfw_op_signs_before(gsfw_operator *inner, uint64_t seed, const char *name,
                                gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "random-signs operator";
    if (!out || !inner) {
        gsfw_operator_free(inner);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: %s is NULL", what,
                         !out ? "out" : "the inner operator");
    }
    *out = NULL;
    if (!inner->apply || !inner->adjoint || !inner->apply_sparse || !inner->adjoint_sparse) {
        gsfw_operator_free(inner);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the inner operator lacks one of apply, "
                         "adjoint, apply_sparse, adjoint_sparse", what);
    }
    gsfw_operator *op = new_signs_op(inner->n, inner->d, name, seed, 1);
    if (!op) {
        gsfw_operator_free(inner);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory (d = %d)", what, inner->d);
    }
    ((signs_ctx *)op->ctx)->inner = inner;
    op->apply = ad_apply;
    op->adjoint = ad_adjoint;
    op->apply_sparse = ad_apply_sparse;
    op->adjoint_sparse = ad_adjoint_sparse;
    op->norm2 = inner->norm2 ? ad_norm2 : NULL;
    *out = op;
    return GSFW_OK;
}

/* The dct and hadamard sensing rows after random signs on the unknowns: A = P F D. */
static gsfw_error dct_signs_sensing(const gsfw_sensing_spec *s, gsfw_operator **out,
                                    gsfw_err *err)
{
    const int d = s->height * s->width;
    gsfw_operator *rows = NULL;
    gsfw_error rc = gsfw_op_dct2_scaled(s->height, s->width, s->n, s->seed,
                                        gsfw_sensing_scale(s->n, d), s->threads, &rows, err);
    return rc ? rc : gsfw_op_signs_before(rows, s->seed, "dct-signs", out, err);
}

static gsfw_error hadamard_signs_sensing(const gsfw_sensing_spec *s, gsfw_operator **out,
                                         gsfw_err *err)
{
    const int d = s->height * s->width;
    gsfw_operator *rows = NULL;
    gsfw_error rc = gsfw_op_hadamard_scaled(d, s->n, s->seed, gsfw_sensing_scale(s->n, d),
                                            s->threads, &rows, err);
    return rc ? rc : gsfw_op_signs_before(rows, s->seed, "hadamard-signs", out, err);
}

static double signs_memory(const gsfw_sensing_spec *s)
{
    return 5.0 * 8.0 * (double)s->height * (double)s->width + 4.0 * s->n;
}

const gsfw_entry gsfw_entry_sensing_dct_signs = {
    GSFW_KIND_SENSING, "dct-signs",
    "the dct rows after random +-1 signs on the unknowns (incoherent with wavelets)",
    "seed threads", 0, 0,
    &(const gsfw_sensing_def){.build = dct_signs_sensing, .memory = signs_memory}, NULL};
const gsfw_entry gsfw_entry_sensing_hadamard_signs = {
    GSFW_KIND_SENSING, "hadamard-signs",
    "the hadamard rows after random +-1 signs on the unknowns (incoherent with wavelets)",
    "seed threads", 0, 0,
    &(const gsfw_sensing_def){.build = hadamard_signs_sensing, .memory = signs_memory}, NULL};
