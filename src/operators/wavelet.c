/* The orthonormal 2-D wavelet basis as an operator, through GSL's non-standard 2-D
 * transform (gsl_wavelet2d_nstransform). Synthesis (apply) is GSL's inverse transform,
 * analysis (adjoint) its forward one: with periodic boundaries and GSL's normalised
 * filters the transform matrix is orthogonal, so the inverse is the adjoint.
 *
 * GSL reports errors through a process-wide handler that aborts by default; every
 * condition GSL checks (square power-of-two size, workspace length) is validated here
 * first, so the transforms cannot fail and the handler is left untouched. */
#include "operators/op_internal.h"

#include <stdio.h>
#include <string.h>

#include <gsl/gsl_wavelet.h>
#include <gsl/gsl_wavelet2d.h>

typedef struct {
    int side;
    size_t n;
    gsl_wavelet *wavelet;
    gsl_wavelet_workspace *work;
    double *image; /* n doubles of scratch: GSL transforms in place */
    char name[32];
} wavelet_ctx;

static void forward(wavelet_ctx *c, double *data)
{
    gsl_wavelet2d_nstransform_forward(c->wavelet, data, (size_t)c->side, (size_t)c->side,
                                      (size_t)c->side, c->work);
}

static void inverse(wavelet_ctx *c, double *data)
{
    gsl_wavelet2d_nstransform_inverse(c->wavelet, data, (size_t)c->side, (size_t)c->side,
                                      (size_t)c->side, c->work);
}

static int wavelet_apply(void *vctx, const double *theta, double *x)
{
    wavelet_ctx *c = vctx;
    memcpy(x, theta, c->n * sizeof(double));
    inverse(c, x);
    return 0;
}

static int wavelet_adjoint(void *vctx, const double *x, double *theta)
{
    wavelet_ctx *c = vctx;
    memcpy(theta, x, c->n * sizeof(double));
    forward(c, theta);
    return 0;
}

static int wavelet_apply_sparse(void *vctx, int nnz, const int *idx, const double *val,
                                double alpha, double *y)
{
    wavelet_ctx *c = vctx;
    memset(c->image, 0, c->n * sizeof(double));
    for (int k = 0; k < nnz; k++) c->image[idx[k]] = val[k];
    inverse(c, c->image);
    for (size_t i = 0; i < c->n; i++) y[i] += alpha * c->image[i];
    return 0;
}

static int wavelet_adjoint_sparse(void *vctx, const double *r, int nnz, const int *idx,
                                  double *out)
{
    wavelet_ctx *c = vctx;
    memcpy(c->image, r, c->n * sizeof(double));
    forward(c, c->image);
    for (int k = 0; k < nnz; k++) out[k] = c->image[idx[k]];
    return 0;
}

static int wavelet_norm2(void *vctx, double *norm2)
{
    (void)vctx;
    *norm2 = 1.0; /* orthonormal */
    return 0;
}

static void wavelet_destroy(gsfw_operator *op)
{
    if (!op) return;
    wavelet_ctx *c = op->ctx;
    if (c) {
        if (c->wavelet) gsl_wavelet_free(c->wavelet);
        if (c->work) gsl_wavelet_workspace_free(c->work);
        free(c->image);
        free(c);
    }
    free(op);
}

gsfw_error gsfw_operator_wavelet2d(int side, const char *family, gsfw_operator **out,
                                   gsfw_err *err)
{
    static const char who[] = "wavelet2d operator";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: output pointer is NULL", who);
    *out = NULL;
    if (side < 2 || side > 32768 || (side & (side - 1)) != 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "%s: side %d is not a power of two in 2..32768 (the transform "
                         "needs a 2^k x 2^k image)", who, side);
    const gsl_wavelet_type *type;
    size_t k;
    if (family && !strcmp(family, "haar")) {
        type = gsl_wavelet_haar;
        k = 2;
    } else if (family && !strcmp(family, "db4")) {
        type = gsl_wavelet_daubechies;
        k = 4;
    } else {
        if (!family)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the wavelet family is NULL "
                             "(known: haar, db4)", who);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: unknown wavelet family '%s' (known: "
                         "haar, db4)", who, family);
    }
    wavelet_ctx *c = calloc(1, sizeof *c);
    gsfw_operator *op = c ? gsfw_op_new(side * side, side * side, c->name, c) : NULL;
    if (!op) {
        free(c);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory", who);
    }
    op->destroy = wavelet_destroy;
    c->side = side;
    c->n = (size_t)side * (size_t)side;
    c->image = gsfw_malloc_array(c->n, sizeof(double));
    /* GSL's allocators call the error handler (abort by default) only when memory runs
     * out; the arguments are valid by construction. */
    c->wavelet = gsl_wavelet_alloc(type, k);
    c->work = gsl_wavelet_workspace_alloc((size_t)side);
    if (!c->image || !c->wavelet || !c->work) {
        wavelet_destroy(op);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for a %dx%d image", who, side,
                         side);
    }
    snprintf(c->name, sizeof c->name, "wavelet2d-%s", family);
    op->apply = wavelet_apply;
    op->adjoint = wavelet_adjoint;
    op->apply_sparse = wavelet_apply_sparse;
    op->adjoint_sparse = wavelet_adjoint_sparse;
    op->norm2 = wavelet_norm2;
    *out = op;
    return GSFW_OK;
}

/* ---- the bases of recovery: the pixels themselves, and the two wavelet families */

static gsfw_error haar_build(int side, gsfw_operator **out, gsfw_err *err)
{
    return gsfw_operator_wavelet2d(side, "haar", out, err);
}

static gsfw_error db4_build(int side, gsfw_operator **out, gsfw_err *err)
{
    return gsfw_operator_wavelet2d(side, "db4", out, err);
}

const gsfw_entry gsfw_entry_basis_pixel = {
    GSFW_KIND_BASIS, "pixel", "the pixels themselves (the image is sparse; its grid graph)", "",
    0, GSFW_ENTRY_DEFAULT, &(const gsfw_basis_def){.structure = GSFW_NEEDS_GRAPH}, NULL};
const gsfw_entry gsfw_entry_basis_haar = {
    GSFW_KIND_BASIS, "haar",
    "orthonormal 2-D Haar wavelets of a square power-of-two image (its quadtree)", "", 0, 0,
    &(const gsfw_basis_def){.build = haar_build, .structure = GSFW_NEEDS_TREE}, NULL};
const gsfw_entry gsfw_entry_basis_db4 = {
    GSFW_KIND_BASIS, "db4",
    "orthonormal 2-D Daubechies D4 wavelets (2 vanishing moments; its quadtree)", "", 0, 0,
    &(const gsfw_basis_def){.build = db4_build, .structure = GSFW_NEEDS_TREE}, NULL};
