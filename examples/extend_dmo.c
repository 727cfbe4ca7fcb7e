/* A support model of one's own, in one file: block sparsity. The d coordinates form
 * blocks of B consecutive ones, and a support is at most s / B whole blocks (a group
 * lasso's groups, or the channels of a sensor). Its dual maximisation oracle is exact:
 * the blocks of largest energy ||z_b||^2. A model is a constructor of a gsfw_dmo from
 * the model parameters (d, s, ...); with a contains hook the solvers also accept a
 * starting point in the model, and model_size and delta = 1 certify the gap bound.
 *
 * The model is added to a spec as an entry of the caller's and chosen by name; the
 * baselines' recipes then build it as they build the built-in models.
 * Build after `make install`:
 *   cc extend_dmo.c $(pkg-config --cflags --libs gsfw) -lm -o extend_dmo
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gsfw.h"

enum { B = 4 };

typedef struct {
    int d, blocks; /* blocks chosen: s / B */
    double *energy;
    int *chosen;
} blocks_ctx;

static int blocks_select(void *vctx, const double *z, int *support, int *size,
                         gsfw_dmo_stats *stats)
{
    (void)stats;
    blocks_ctx *c = vctx;
    const int nb = c->d / B;
    for (int b = 0; b < nb; b++) {
        c->energy[b] = 0.0;
        for (int k = 0; k < B; k++) c->energy[b] += z[b * B + k] * z[b * B + k];
    }
    /* the `blocks` largest energies, smallest index first on ties (blocks is small) */
    for (int t = 0; t < c->blocks; t++) {
        int best = -1;
        for (int b = 0; b < nb; b++) {
            int taken = 0;
            for (int u = 0; u < t; u++) taken |= c->chosen[u] == b;
            if (!taken && (best < 0 || c->energy[b] > c->energy[best])) best = b;
        }
        c->chosen[t] = best;
        for (int k = 0; k < B; k++) support[t * B + k] = best * B + k;
    }
    *size = c->blocks * B;
    return 0;
}

/* a set of the model: whole blocks only, at most `blocks` of them */
static int blocks_contains(void *vctx, const int *support, int size)
{
    const blocks_ctx *c = vctx;
    int *count = calloc((size_t)(c->d / B), sizeof *count), pieces = 0, whole = 1;
    if (!count) return -1;
    for (int k = 0; k < size; k++) pieces += count[support[k] / B]++ == 0;
    for (int b = 0; b < c->d / B; b++) whole &= count[b] == 0 || count[b] == B;
    free(count);
    return whole && pieces <= c->blocks;
}

static void blocks_destroy(gsfw_dmo *dmo)
{
    blocks_ctx *c = dmo->ctx;
    free(c->energy);
    free(c->chosen);
    free(c);
    free(dmo);
}

static gsfw_error blocks_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    if (spec->d % B || spec->s < B || spec->s > spec->d) {
        if (err) {
            err->code = GSFW_ERR_INVALID_ARG;
            snprintf(err->message, sizeof err->message, "blocks: d = %d must be a multiple "
                     "of %d and s = %d between %d and d", spec->d, B, spec->s, B);
        }
        return GSFW_ERR_INVALID_ARG;
    }
    gsfw_dmo *dmo = calloc(1, sizeof *dmo);
    blocks_ctx *c = calloc(1, sizeof *c);
    if (!dmo || !c) {
        free(dmo);
        free(c);
        return GSFW_ERR_NOMEM;
    }
    *c = (blocks_ctx){.d = spec->d, .blocks = spec->s / B,
                      .energy = malloc((size_t)(spec->d / B) * sizeof(double)),
                      .chosen = malloc((size_t)(spec->s / B) * sizeof(int))};
    *dmo = (gsfw_dmo){.d = spec->d, .max_support = c->blocks * B, .delta = 1.0,
                      .name = "blocks", .model = "whole blocks of 4 coordinates", .ctx = c,
                      .select = blocks_select, .destroy = blocks_destroy,
                      .contains = blocks_contains, .model_size = c->blocks * B};
    if (!c->energy || !c->chosen) {
        blocks_destroy(dmo);
        return GSFW_ERR_NOMEM;
    }
    *out = dmo;
    return GSFW_OK;
}

static const gsfw_entry blocks_entry = {
    GSFW_KIND_MODEL, "blocks", "at most s / 4 whole blocks of 4 consecutive coordinates", "s",
    0, 0, &(const gsfw_model_def){.build = blocks_build}, NULL};

/* ---- two active blocks of 64 coordinates, measured 40 times: FW and gen-mp by name */

enum { N = 40, D = 64, S = 8 };

static int run(const char *method, const double *A, const double *y, const double *x_true)
{
    gsfw_spec *spec = NULL;
    gsfw_err err;
    gsfw_objective *f = NULL;
    gsfw_dmo *head = NULL, *tail = NULL;
    double x[D];
    int rc = 1;
    if (gsfw_spec_create(GSFW_USES_SOLVE, &spec, &err) ||
        gsfw_spec_add_entry(spec, &blocks_entry, &err) ||
        gsfw_spec_set(spec, "model", "blocks", &err) || gsfw_spec_set(spec, "s", "8", &err) ||
        gsfw_spec_set(spec, "method", method, &err) || gsfw_spec_set(spec, "C", "3", &err) ||
        gsfw_spec_set(spec, "max_iter", "200", &err) || gsfw_spec_check(spec, &err) ||
        gsfw_spec_bind(spec, D, NULL, NULL, &err) ||
        gsfw_spec_objective_dense(spec, N, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, y, &f, &err) ||
        gsfw_spec_oracles(spec, &head, &tail, &err)) {
        fprintf(stderr, "%s: %s\n", method, err.message);
        goto done;
    }
    gsfw_settings settings;
    gsfw_spec_settings(spec, &settings);
    gsfw_result result = {.x_best = x};
    gsfw_info info;
    if (gsfw_spec_solve(spec, f, head, tail, &settings, &result, &info, &err)) {
        fprintf(stderr, "%s: %s\n", method, err.message);
        goto done;
    }
    double e2 = 0.0;
    for (int j = 0; j < D; j++) e2 += (x[j] - x_true[j]) * (x[j] - x_true[j]);
    printf("method=%s error=%.4f\n", method, sqrt(e2));
    rc = sqrt(e2) < 0.05 ? 0 : 1;
done:
    gsfw_dmo_free(head);
    gsfw_dmo_free(tail);
    gsfw_objective_free(f);
    gsfw_spec_free(spec);
    return rc;
}

int main(void)
{
    static double A[N * D], y[N], x_true[D];
    unsigned state = 7u;
    for (int k = 0; k < N * D; k++) {
        state = state * 1103515245u + 12345u;
        A[k] = ((double)(state >> 8) / 16777216.0 - 0.5) * sqrt(12.0 / N);
    }
    for (int k = 0; k < B; k++) x_true[12 + k] = 0.5, x_true[40 + k] = -0.5 + 0.1 * k;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < D; j++) y[i] += A[i * D + j] * x_true[j];
    return run("accfw", A, y, x_true) | run("gen-mp", A, y, x_true);
}
