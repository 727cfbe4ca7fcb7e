/* Block upsampling: a coarse image of ceil(height / block) x ceil(width / block) pixels
 * spread over a height x width image, each coarse pixel repeated over its block x block
 * block (the blocks on the last row and column are cut at the image's edge).
 *
 * Composed after a sensing operator (A U) it measures block-constant images: the coarse
 * problems of coarse-to-fine recovery (gsfw/pursuit.h); applied alone it carries a coarse
 * answer up to the next level. The adjoint sums each block. Every product is one pass
 * over the pixels (the sparse ones over the chosen blocks only); nothing is allocated. */
#include "operators/op_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int height, width, block;
    int coarse_width;
} upsample_ctx;

/* The pixel rows [*r0, *r1) and columns [*c0, *c1) of coarse pixel k. */
static void block_of(const upsample_ctx *c, int k, int *r0, int *r1, int *c0, int *c1)
{
    const int b = c->block;
    *r0 = (k / c->coarse_width) * b;
    *c0 = (k % c->coarse_width) * b;
    *r1 = *r0 + b < c->height ? *r0 + b : c->height;
    *c1 = *c0 + b < c->width ? *c0 + b : c->width;
}

static int up_apply(void *ctx, const double *coarse, double *x)
{
    const upsample_ctx *c = ctx;
    for (int r = 0; r < c->height; r++) {
        const double *row = coarse + (size_t)(r / c->block) * c->coarse_width;
        double *out = x + (size_t)r * c->width;
        for (int q = 0; q < c->width; q++) out[q] = row[q / c->block];
    }
    return 0;
}

static int up_adjoint(void *ctx, const double *x, double *coarse)
{
    const upsample_ctx *c = ctx;
    const int coarse_rows = (c->height + c->block - 1) / c->block;
    memset(coarse, 0, (size_t)coarse_rows * c->coarse_width * sizeof(double));
    for (int r = 0; r < c->height; r++) {
        double *row = coarse + (size_t)(r / c->block) * c->coarse_width;
        const double *in = x + (size_t)r * c->width;
        for (int q = 0; q < c->width; q++) row[q / c->block] += in[q];
    }
    return 0;
}

static int up_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                           double *y)
{
    const upsample_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) {
        int r0, r1, c0, c1;
        block_of(c, idx[k], &r0, &r1, &c0, &c1);
        const double v = alpha * val[k];
        for (int r = r0; r < r1; r++)
            for (int q = c0; q < c1; q++) y[(size_t)r * c->width + q] += v;
    }
    return 0;
}

static int up_adjoint_sparse(void *ctx, const double *x, int nnz, const int *idx, double *out)
{
    const upsample_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) {
        int r0, r1, c0, c1;
        block_of(c, idx[k], &r0, &r1, &c0, &c1);
        double sum = 0.0;
        for (int r = r0; r < r1; r++)
            for (int q = c0; q < c1; q++) sum += x[(size_t)r * c->width + q];
        out[k] = sum;
    }
    return 0;
}

static int up_norm2(void *ctx, double *norm2)
{
    const upsample_ctx *c = ctx;
    /* U^T U is diagonal with the block sizes: the largest is a full block unless the
     * image is smaller than one */
    const int bh = c->block < c->height ? c->block : c->height;
    const int bw = c->block < c->width ? c->block : c->width;
    *norm2 = (double)bh * bw;
    return 0;
}

static void up_destroy(gsfw_operator *self)
{
    free(self->ctx);
    free(self);
}

gsfw_error gsfw_operator_upsample(int height, int width, int block, gsfw_operator **out,
                                  gsfw_err *err)
{
    static const char what[] = "upsample operator";
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    gsfw_error rc = gsfw_op_check_image(what, height, width, err);
    if (rc) return rc;
    if (block < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the block side must be >= 1, got %d",
                         what, block);
    /* a block larger than the image is the whole image (one coarse pixel): taken as the
     * image's larger side, so that no sum of a side and the block overflows */
    const int side = height > width ? height : width;
    if (block > side) block = side;
    upsample_ctx *c = calloc(1, sizeof *c);
    const int coarse_rows = (height + block - 1) / block;
    const int coarse_cols = (width + block - 1) / block;
    gsfw_operator *op = c ? gsfw_op_new(height * width, coarse_rows * coarse_cols, "upsample", c)
                          : NULL;
    if (!op) {
        free(c);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory", what);
    }
    c->height = height;
    c->width = width;
    c->block = block;
    c->coarse_width = coarse_cols;
    op->apply = up_apply;
    op->adjoint = up_adjoint;
    op->apply_sparse = up_apply_sparse;
    op->adjoint_sparse = up_adjoint_sparse;
    op->norm2 = up_norm2;
    op->destroy = up_destroy;
    *out = op;
    return GSFW_OK;
}
