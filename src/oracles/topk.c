/* Exact DMO for the s-sparse model {S : |S| <= s}: the s largest |z_i| maximise
 * ||z_S||_2 because the objective is a sum of non-negative weights z_i^2. O(d) per call
 * through linear-time selection (no sort), delta = 1. */
#include "oracles/dmo_internal.h"
#include "util/select.h"

typedef struct {
    int d;
    int s;
    int *work; /* d ints: the selection's index array, allocated once */
} topk_ctx;

static int topk_select(void *vctx, const double *z, int *support, int *size,
                       gsfw_dmo_stats *stats)
{
    (void)stats;
    topk_ctx *c = vctx;
    if (!gsfw_all_finite(z, (size_t)c->d)) return GSFW_DMO_BAD_INPUT;
    gsfw_select_top_abs(z, c->d, c->s, c->work, support);
    *size = c->s;
    return 0;
}

static int topk_contains(void *ctx, const int *support, int size)
{
    (void)support;
    return gsfw_dmo_contains_size(((topk_ctx *)ctx)->s, size);
}

static void topk_destroy(gsfw_dmo *dmo)
{
    if (!dmo) return;
    topk_ctx *c = dmo->ctx;
    if (c) free(c->work);
    gsfw_dmo_release(dmo);
}

gsfw_error gsfw_dmo_topk(int d, int s, gsfw_dmo **out, gsfw_err *err)
{
    static const char who[] = "top-s DMO";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: output pointer is NULL", who);
    *out = NULL;
    gsfw_error rc = gsfw_dmo_check_sparsity(who, s, d, "dimension", err);
    if (rc) return rc;
    gsfw_dmo *dmo;
    rc = gsfw_dmo_new(d, s, 1.0, "topk", "s-sparse (|S| <= s)", sizeof(topk_ctx),
                      topk_select, topk_destroy, &dmo, err);
    if (rc) return rc;
    topk_ctx *c = dmo->ctx;
    dmo->contains = topk_contains;
    dmo->model_size = s;
    c->d = d;
    c->s = s;
    c->work = gsfw_malloc_array((size_t)d, sizeof(int));
    if (!c->work) {
        topk_destroy(dmo);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for d = %d", who, d);
    }
    *out = dmo;
    return GSFW_OK;
}

static gsfw_error topk_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    return gsfw_dmo_topk(spec->d, spec->s, out, err);
}

const gsfw_entry gsfw_entry_model_topk = {
    GSFW_KIND_MODEL, "topk", "exact top-s: the s largest |z_i| (delta = 1)", "s", 0,
    GSFW_ENTRY_DEFAULT, &(const gsfw_model_def){.build = topk_build}, NULL};
