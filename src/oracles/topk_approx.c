/* The delta-approximate top-s DMO of the paper's App. C (Alg. 3), used to simulate an
 * inexact oracle of known quality (Fig. 2): it solves the exact problem first, then
 * returns a set that is only just delta-good.
 *
 * Alg. 3 as printed removes a *random* element of the current set before each
 * insertion, so it can remove an index it inserted earlier and then run out of top-s
 * indices without reaching the threshold (and without a return). This version removes
 * only ORIGINAL bottom-s indices, so after at most s swaps the set is S* and the loop
 * always ends with a valid answer (algorithms.md §3.6, experiments.md §11).
 *
 * When s > d/2 the bottom-s and top-s sets overlap; their common indices are never
 * swapped (inserting one would duplicate it), so exactly |S* \ B| = |B \ S*| swaps
 * turn B into S*.
 *
 * The random orders come from a gsfw_rng stored in the oracle: a given seed and sequence
 * of calls always give the same answers. */
#include "oracles/dmo_internal.h"
#include "util/rng.h"
#include "util/select.h"

typedef struct {
    int d;
    int s;
    double delta;
    gsfw_rng rng;
    uint64_t seed;
    int *work;           /* d ints: selection scratch */
    int *top;            /* s ints: S* */
    int *ins;            /* s ints: S* \ B, in the order they are swapped in */
    int *rem;            /* s ints: positions in the output holding B \ S* */
    unsigned char *mark; /* d flags, all 0 between calls: 1 = in S*, 2 = in B */
} topk_approx_ctx;

static int topk_approx_select(void *vctx, const double *z, int *support, int *size,
                              gsfw_dmo_stats *stats)
{
    (void)stats;
    topk_approx_ctx *c = vctx;
    int s = c->s;
    if (!gsfw_all_finite(z, (size_t)c->d)) return GSFW_DMO_BAD_INPUT;
    *size = s;
    if (c->delta == 1.0) {
        gsfw_select_top_abs(z, c->d, s, c->work, support);
        return 0;
    }
    gsfw_select_top_abs(z, c->d, s, c->work, c->top);
    gsfw_select_bottom_abs(z, c->d, s, c->work, support); /* start from B */

    for (int i = 0; i < s; i++) c->mark[c->top[i]] |= 1;
    for (int i = 0; i < s; i++) c->mark[support[i]] |= 2;
    int n_ins = 0, n_rem = 0;
    for (int i = 0; i < s; i++)
        if (c->mark[c->top[i]] == 1) c->ins[n_ins++] = c->top[i];
    for (int i = 0; i < s; i++)
        if (c->mark[support[i]] == 2) c->rem[n_rem++] = i;
    for (int i = 0; i < s; i++) c->mark[c->top[i]] = 0;
    for (int i = 0; i < s; i++) c->mark[support[i]] = 0;
    /* n_ins == n_rem: both sets have s elements and share the same intersection. */
    gsfw_rng_shuffle(&c->rng, c->ins, n_ins);
    gsfw_rng_shuffle(&c->rng, c->rem, n_rem);

    /* Compare squared norms: ||z_S|| >= delta ||z_S*|| <=> sum_S z^2 >= delta^2 sum_S* z^2.
     * The running sum is updated per swap; when it claims success it is recomputed from
     * scratch, so rounding in the updates can never certify a set that is not delta-good. */
    double target = c->delta * c->delta * gsfw_dmo_sum_sq(z, c->top, s);
    double cur = gsfw_dmo_sum_sq(z, support, s);
    if (cur >= target) return 0; /* B itself qualifies (e.g. z = 0 or constant |z|) */
    for (int t = 0; t < n_ins; t++) {
        int pos = c->rem[t];
        int out = support[pos], in = c->ins[t];
        support[pos] = in;
        cur += z[in] * z[in] - z[out] * z[out];
        if (cur >= target) {
            cur = gsfw_dmo_sum_sq(z, support, s);
            if (cur >= target) return 0;
        }
    }
    return 0; /* all swaps done: support is S* as a set */
}

static void topk_approx_destroy(gsfw_dmo *dmo)
{
    if (!dmo) return;
    topk_approx_ctx *c = dmo->ctx;
    if (c) {
        free(c->work);
        free(c->top);
        free(c->ins);
        free(c->rem);
        free(c->mark);
    }
    gsfw_dmo_release(dmo);
}

/* The random orders restart from the seed: a second solve repeats the first. */
static int topk_approx_reset(void *ctx)
{
    topk_approx_ctx *c = ctx;
    gsfw_rng_seed(&c->rng, c->seed);
    return 0;
}

static int topk_approx_contains(void *ctx, const int *support, int size)
{
    (void)support;
    return gsfw_dmo_contains_size(((topk_approx_ctx *)ctx)->s, size);
}

gsfw_error gsfw_dmo_topk_approx(int d, int s, double delta, uint64_t seed, gsfw_dmo **out,
                                gsfw_err *err)
{
    static const char who[] = "approximate top-s DMO";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: output pointer is NULL", who);
    *out = NULL;
    gsfw_error rc = gsfw_dmo_check_sparsity(who, s, d, "dimension", err);
    if (!rc) rc = gsfw_dmo_check_delta(who, delta, err);
    if (rc) return rc;
    gsfw_dmo *dmo;
    rc = gsfw_dmo_new(d, s, delta, "topk-approx", "s-sparse (|S| <= s)",
                      sizeof(topk_approx_ctx), topk_approx_select, topk_approx_destroy, &dmo,
                      err);
    if (rc) return rc;
    topk_approx_ctx *c = dmo->ctx;
    c->d = d;
    c->s = s;
    c->delta = delta;
    c->seed = seed;
    gsfw_rng_seed(&c->rng, seed);
    dmo->reset = topk_approx_reset;
    dmo->contains = topk_approx_contains;
    dmo->model_size = s;
    c->work = gsfw_malloc_array((size_t)d, sizeof(int));
    c->top = gsfw_malloc_array((size_t)s, sizeof(int));
    c->ins = gsfw_malloc_array((size_t)s, sizeof(int));
    c->rem = gsfw_malloc_array((size_t)s, sizeof(int));
    c->mark = gsfw_calloc_array((size_t)d, 1);
    if (!c->work || !c->top || !c->ins || !c->rem || !c->mark) {
        topk_approx_destroy(dmo);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for d = %d", who, d);
    }
    *out = dmo;
    return GSFW_OK;
}

static gsfw_error topk_approx_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    return gsfw_dmo_topk_approx(spec->d, spec->s, spec->delta, spec->seed, out, err);
}

const gsfw_entry gsfw_entry_model_topk_approx = {
    GSFW_KIND_MODEL, "topk-approx",
    "delta-approximate top-s (the paper's App. C): seeded swaps until ||z_S|| >= delta max",
    "s delta seed", 0, 0, &(const gsfw_model_def){.build = topk_approx_build}, NULL};
