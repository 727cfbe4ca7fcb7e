/* DMO for the l1 ball = the 1-sparse model {S : |S| <= 1}: the best support is the single
 * index of largest |z_i|. With delta < 1 it mimics the reference code's approximate
 * oracle (scan a random permutation, return the first i with |z_i| >= delta max|z|), but
 * with the corrected test: the reference compares -|z_i| <= delta (-C |z_max|), which
 * lacks a factor C on the left and for C > 1/delta accepts no index at all. */
#include "oracles/dmo_internal.h"
#include "util/rng.h"

#include <math.h>

typedef struct {
    int d;
    double delta;
    gsfw_rng rng;
    uint64_t seed;
    int *perm; /* d ints: the random scan order, drawn lazily (partial Fisher-Yates) */
} l1_ctx;

static int l1_select(void *vctx, const double *z, int *support, int *size,
                     gsfw_dmo_stats *stats)
{
    (void)stats;
    l1_ctx *c = vctx;
    int d = c->d;
    if (!gsfw_all_finite(z, (size_t)d)) return GSFW_DMO_BAD_INPUT;
    int best = 0; /* strict '>' keeps the smallest index among ties */
    for (int i = 1; i < d; i++)
        if (fabs(z[i]) > fabs(z[best])) best = i;
    *size = 1;
    if (c->delta == 1.0) {
        support[0] = best;
        return 0;
    }
    /* Draw the permutation only as far as needed: step i fixes perm[i] uniformly among
     * the undrawn indices, so the scan order is a uniform random permutation. Resetting
     * perm first makes the answer depend only on z and the generator state. */
    double threshold = c->delta * fabs(z[best]);
    for (int i = 0; i < d; i++) c->perm[i] = i;
    for (int i = 0; i < d; i++) {
        int j = i + (int)gsfw_rng_below(&c->rng, (uint64_t)(d - i));
        int t = c->perm[i];
        c->perm[i] = c->perm[j];
        c->perm[j] = t;
        if (fabs(z[c->perm[i]]) >= threshold) {
            support[0] = c->perm[i];
            return 0;
        }
    }
    support[0] = best; /* unreachable: best itself passes the test */
    return 0;
}

static void l1_destroy(gsfw_dmo *dmo)
{
    if (!dmo) return;
    l1_ctx *c = dmo->ctx;
    if (c) free(c->perm);
    gsfw_dmo_release(dmo);
}

static int l1_reset(void *ctx)
{
    l1_ctx *c = ctx;
    gsfw_rng_seed(&c->rng, c->seed);
    return 0;
}

static int l1_contains(void *ctx, const int *support, int size)
{
    (void)ctx;
    (void)support;
    return gsfw_dmo_contains_size(1, size);
}

gsfw_error gsfw_dmo_l1(int d, double delta, uint64_t seed, gsfw_dmo **out, gsfw_err *err)
{
    static const char who[] = "l1 DMO";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: output pointer is NULL", who);
    *out = NULL;
    gsfw_error rc = gsfw_dmo_check_sparsity(who, 1, d, "dimension", err);
    if (!rc) rc = gsfw_dmo_check_delta(who, delta, err);
    if (rc) return rc;
    gsfw_dmo *dmo;
    rc = gsfw_dmo_new(d, 1, delta, "l1", "1-sparse (l1 ball, |S| <= 1)", sizeof(l1_ctx),
                      l1_select, l1_destroy, &dmo, err);
    if (rc) return rc;
    l1_ctx *c = dmo->ctx;
    c->d = d;
    c->delta = delta;
    c->seed = seed;
    gsfw_rng_seed(&c->rng, seed);
    dmo->reset = l1_reset;
    dmo->contains = l1_contains;
    dmo->model_size = 1;
    c->perm = gsfw_malloc_array((size_t)d, sizeof(int));
    if (!c->perm) {
        l1_destroy(dmo);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for d = %d", who, d);
    }
    *out = dmo;
    return GSFW_OK;
}

static gsfw_error l1_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    return gsfw_dmo_l1(spec->d, spec->delta, spec->seed, out, err);
}

const gsfw_entry gsfw_entry_model_l1 = {
    GSFW_KIND_MODEL, "l1",
    "the l1 ball (s = 1): argmax |z_i|, or with delta < 1 the first |z_i| >= delta max",
    "s=1 delta seed", 0, 0, &(const gsfw_model_def){.build = l1_build}, NULL};
