/* Exact DMO for one interval of the coordinates, {S : S = {i, i+1, ..., i+k-1}, k <= s}
 * (M(P, s, 1) of the path graph 0-1-...-(d-1): signals whose support is one run of
 * consecutive samples, such as a burst in a time series). The weights z_i^2 are
 * non-negative, so a window of exactly s coordinates is never worse than a shorter one:
 * a sliding window over the prefix sums of z_i^2 finds the best in O(d), delta = 1. No
 * graph is needed. */
#include "oracles/dmo_internal.h"
#include "core/registry.h"

typedef struct {
    int d, s;
} interval_ctx;

static int interval_select(void *vctx, const double *z, int *support, int *size,
                           gsfw_dmo_stats *stats)
{
    (void)stats;
    const interval_ctx *c = vctx;
    if (!gsfw_all_finite(z, (size_t)c->d)) return GSFW_DMO_BAD_INPUT;
    double sum = 0.0, best = -1.0;
    int start = 0;
    /* the window sum is recomputed every s steps so rounding cannot accumulate */
    for (int i = 0; i < c->d; i++) {
        if (i >= c->s && (i - c->s) % c->s == 0) {
            sum = 0.0;
            for (int k = i - c->s + 1; k < i; k++) sum += z[k] * z[k];
        } else if (i >= c->s) {
            sum -= z[i - c->s] * z[i - c->s];
        }
        sum += z[i] * z[i];
        if (i >= c->s - 1 && sum > best) { /* the first best window on ties */
            best = sum;
            start = i - c->s + 1;
        }
    }
    for (int k = 0; k < c->s; k++) support[k] = start + k;
    *size = c->s;
    return 0;
}

/* at most s ids forming one run (ids distinct, in any order) */
static int interval_contains(void *vctx, const int *support, int size)
{
    const interval_ctx *c = vctx;
    if (size < 0 || size > c->s) return 0;
    if (size == 0) return 1;
    int lo = support[0], hi = support[0];
    for (int k = 1; k < size; k++) {
        if (support[k] < lo) lo = support[k];
        if (support[k] > hi) hi = support[k];
    }
    return hi - lo + 1 == size;
}

static gsfw_error interval_dmo(int d, int s, gsfw_dmo **out, gsfw_err *err)
{
    static const char who[] = "interval DMO";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: output pointer is NULL", who);
    *out = NULL;
    gsfw_error rc = gsfw_dmo_check_sparsity(who, s, d, "dimension", err);
    if (rc) return rc;
    gsfw_dmo *dmo;
    rc = gsfw_dmo_new(d, s, 1.0, "interval", "one interval of at most s coordinates",
                      sizeof(interval_ctx), interval_select, gsfw_dmo_release, &dmo, err);
    if (rc) return rc;
    interval_ctx *c = dmo->ctx;
    c->d = d;
    c->s = s;
    dmo->contains = interval_contains;
    dmo->model_size = s;
    *out = dmo;
    return GSFW_OK;
}

static gsfw_error interval_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    return interval_dmo(spec->d, spec->s, out, err);
}

const gsfw_entry gsfw_entry_model_interval = {
    GSFW_KIND_MODEL, "interval",
    "one run of at most s consecutive coordinates (exact sliding window; a burst in time)",
    "s", 0, 0, &(const gsfw_model_def){.build = interval_build}, NULL};
