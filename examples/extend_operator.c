/* An operator of one's own, in one file: a blur, the circular convolution of a signal of
 * d samples with a 5-tap kernel, observed at every other sample (n = d / 2 rows). An
 * operator is four products over a private context; the library then builds any loss
 * over it (gsfw_objective_linear) and the solvers use it as they use a dense matrix.
 *
 * It is also made a sensing kind of a spec (a gsfw_sensing_def and its entry), so that
 * the spec builds and measures it by name, as gsfw recover does with its own kinds:
 * gsfw_spec_measure gives y = A x* + noise, from the spec's seed.
 * Build after `make install`:
 *   cc extend_operator.c $(pkg-config --cflags --libs gsfw) -lm -o extend_operator
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsfw.h"

enum { TAPS = 5 };
static const double kernel[TAPS] = {0.1, 0.2, 0.4, 0.2, 0.1};

typedef struct {
    int d, n;
} blur_ctx;

/* row i of A: the kernel centred on sample 2i (wrapping around) */
static double entry(const blur_ctx *c, int i, int j)
{
    int k = (j - 2 * i + TAPS / 2) % c->d;
    if (k < 0) k += c->d;
    return k < TAPS ? kernel[k] : 0.0;
}

static int blur_apply(void *ctx, const double *x, double *y)
{
    const blur_ctx *c = ctx;
    for (int i = 0; i < c->n; i++) {
        y[i] = 0.0;
        for (int k = 0; k < TAPS; k++) y[i] += kernel[k] * x[((2 * i + k - TAPS / 2) % c->d + c->d) % c->d];
    }
    return 0;
}

static int blur_adjoint(void *ctx, const double *r, double *x)
{
    const blur_ctx *c = ctx;
    memset(x, 0, (size_t)c->d * sizeof(double));
    for (int i = 0; i < c->n; i++)
        for (int k = 0; k < TAPS; k++) x[((2 * i + k - TAPS / 2) % c->d + c->d) % c->d] += kernel[k] * r[i];
    return 0;
}

/* y += alpha A u for u sparse: each column has at most 3 nonzero rows */
static int blur_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                             double alpha, double *y)
{
    const blur_ctx *c = ctx;
    for (int t = 0; t < nnz; t++)
        for (int i = 0; i < c->n; i++) y[i] += alpha * val[t] * entry(c, i, idx[t]);
    return 0;
}

static int blur_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx,
                               double *out)
{
    const blur_ctx *c = ctx;
    for (int t = 0; t < nnz; t++) {
        out[t] = 0.0;
        for (int i = 0; i < c->n; i++) out[t] += entry(c, i, idx[t]) * r[i];
    }
    return 0;
}

static void blur_destroy(gsfw_operator *op)
{
    free(op->ctx);
    free(op);
}

/* the sensing kind: a blur of the height * width samples (here one row of them) */
static gsfw_error blur_build(const gsfw_sensing_spec *s, gsfw_operator **out, gsfw_err *err)
{
    const int d = s->height * s->width;
    if (s->n != d / 2 || d < TAPS) {
        if (err) {
            err->code = GSFW_ERR_INVALID_ARG;
            snprintf(err->message, sizeof err->message, "blur: n must be d / 2, got %d", s->n);
        }
        return GSFW_ERR_INVALID_ARG;
    }
    gsfw_operator *op = calloc(1, sizeof *op);
    blur_ctx *c = malloc(sizeof *c);
    if (!op || !c) {
        free(op);
        free(c);
        return GSFW_ERR_NOMEM;
    }
    *c = (blur_ctx){.d = d, .n = s->n};
    *op = (gsfw_operator){.n = s->n, .d = d, .name = "blur", .ctx = c, .apply = blur_apply,
                          .adjoint = blur_adjoint, .apply_sparse = blur_apply_sparse,
                          .adjoint_sparse = blur_adjoint_sparse, .destroy = blur_destroy};
    *out = op;
    return GSFW_OK;
}

static const gsfw_entry blur_entry = {
    GSFW_KIND_SENSING, "blur", "5-tap blur observed at every other sample", "", 0, 0,
    &(const gsfw_sensing_def){.build = blur_build}, NULL};

/* ---- deblurring three well-separated spikes from the blurred, noisy, halved signal */

enum { D = 64, N = D / 2, S = 3 };

int main(void)
{
    gsfw_spec *spec = NULL;
    gsfw_err err;
    gsfw_operator *A = NULL;
    gsfw_objective *f = NULL;
    gsfw_dmo *dmo = NULL;
    double x_true[D] = {0}, y[N], x[D], noise_sq;
    x_true[10] = 1.0, x_true[31] = -0.8, x_true[50] = 0.6;
    const gsfw_sensing_spec sizes = {.n = N, .height = 1, .width = D};
    int rc = 1;
    if (gsfw_spec_create(GSFW_USES_SOLVE | GSFW_USES_SENSING, &spec, &err) ||
        gsfw_spec_add_entry(spec, &blur_entry, &err) ||
        gsfw_spec_set(spec, "sensing", "blur", &err) || gsfw_spec_set(spec, "seed", "4", &err) ||
        gsfw_spec_measure(spec, &sizes, x_true, 1e-3, y, &noise_sq, &A, &err) ||
        gsfw_spec_set(spec, "model", "topk", &err) || gsfw_spec_set(spec, "s", "3", &err) ||
        gsfw_spec_set(spec, "C", "1.5", &err) || gsfw_spec_set(spec, "method", "pfw", &err) ||
        gsfw_spec_set(spec, "max_iter", "300", &err) ||
        gsfw_spec_set(spec, "polish", "on", &err) || gsfw_spec_check(spec, &err) ||
        gsfw_spec_bind(spec, D, NULL, NULL, &err) ||
        gsfw_spec_objective(spec, A, N, y, NULL, &f, &err) ||
        gsfw_spec_oracles(spec, &dmo, NULL, &err)) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    gsfw_settings settings;
    gsfw_spec_settings(spec, &settings);
    gsfw_result result = {.x_polished = x};
    gsfw_info info;
    if (gsfw_spec_solve(spec, f, dmo, NULL, &settings, &result, &info, &err)) {
        fprintf(stderr, "%s\n", err.message);
        goto done;
    }
    double e2 = 0.0;
    printf("support:");
    for (int j = 0; j < D; j++) {
        e2 += (x[j] - x_true[j]) * (x[j] - x_true[j]);
        if (x[j] != 0.0) printf(" %d", j);
    }
    printf("\nerror=%.3f from %d blurred samples of %d\n", sqrt(e2), N, D);
    rc = sqrt(e2) < 0.05 ? 0 : 1;
done:
    gsfw_dmo_free(dmo);
    gsfw_objective_free(f); /* before the operator, which it borrows */
    gsfw_operator_free(A);
    gsfw_spec_free(spec);
    return rc;
}
