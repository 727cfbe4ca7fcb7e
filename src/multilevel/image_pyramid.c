/* The levels of an image recovery for gsfw_multilevel_solve (gsfw/pursuit.h): the image
 * itself on its grid, and coarse copies of it made of block-constant images measured
 * through A U (U the block upsampling), each on its own coarser grid. */
#include "core/internal.h"
#include "operators/op_internal.h"
#include "oracles/headtail/headtail_internal.h"

#include <math.h>
#include <string.h>

enum { MAX_LEVELS = GSFW_PYRAMID_MAX_COARSE + 1 };

struct gsfw_pyramid {
    int n_levels;
    gsfw_level levels[MAX_LEVELS];
    int sparsity[MAX_LEVELS];
    gsfw_operator *up[MAX_LEVELS];      /* U_k into the full image (coarse levels whose A U
                                           is composed) */
    gsfw_operator *sensing[MAX_LEVELS]; /* A U_k (coarse levels) */
    gsfw_operator *prolong[MAX_LEVELS]; /* level k-1 -> level k */
    gsfw_graph *grid[MAX_LEVELS];
};

void gsfw_pyramid_settings_default(gsfw_pyramid_settings *s, int height, int width)
{
    if (!s) return;
    memset(s, 0, sizeof *s);
    s->sparsity_exponent = 1.75;
    s->window = 1.05;
    s->first_calls = 1;
    const double pixels = (double)height * (double)width;
    if (pixels >= (double)GSFW_PYRAMID_MIN_PIXELS) s->blocks[s->n_coarse++] = 2;
    if (pixels > (double)(1 << 21)) {
        s->blocks[0] = 4;
        s->blocks[s->n_coarse++] = 2;
    }
}

void gsfw_pyramid_free(gsfw_pyramid *p)
{
    if (!p) return;
    for (int k = 0; k < MAX_LEVELS; k++) {
        gsfw_dmo_free(p->levels[k].head);
        gsfw_dmo_free(p->levels[k].tail);
        gsfw_objective_free(p->levels[k].obj);
        gsfw_operator_free(p->sensing[k]);
        gsfw_operator_free(p->up[k]);
        gsfw_operator_free(p->prolong[k]);
        gsfw_graph_free(p->grid[k]);
    }
    free(p);
}

const gsfw_level *gsfw_pyramid_levels(const gsfw_pyramid *p, int *n_levels)
{
    if (n_levels) *n_levels = p ? p->n_levels : 0;
    return p ? p->levels : NULL;
}

int gsfw_pyramid_sparsity(const gsfw_pyramid *p, int level)
{
    return p && level >= 0 && level < p->n_levels ? p->sparsity[level] : 0;
}

static gsfw_error check_settings(const gsfw_pyramid_settings *st, gsfw_err *err)
{
    if (st->n_coarse < 0 || st->n_coarse > GSFW_PYRAMID_MAX_COARSE)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: n_coarse must be in 0..%d, got %d",
                         GSFW_PYRAMID_MAX_COARSE, st->n_coarse);
    for (int k = 0; k < st->n_coarse; k++) {
        const int b = st->blocks[k];
        if (b < 2)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: block side %d of level %d "
                             "must be >= 2", b, k);
        if (k > 0 && (b >= st->blocks[k - 1] || st->blocks[k - 1] % b))
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: the block sides must "
                             "decrease, each a multiple of the next; got %d then %d",
                             st->blocks[k - 1], b);
    }
    if (!(st->sparsity_exponent > 0) || !isfinite(st->sparsity_exponent))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: sparsity_exponent must be finite "
                         "and > 0, got %g", st->sparsity_exponent);
    if (st->first_calls < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: first_calls must be >= 0, got %d",
                         st->first_calls);
    if (!(st->window >= 1) || !isfinite(st->window))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: window must be finite and >= 1, "
                         "got %g", st->window);
    return GSFW_OK;
}

/* The identification and pruning oracles of a level: the practical projection (the
 * lambda-search) onto M(grid, s, g) for both, window [s, floor(window s)]. The
 * certified head (gsfw_dmo_head) would add theory-head runs that identification does
 * not need. */
static gsfw_error level_oracles(const gsfw_graph *grid, int s, int g,
                                const gsfw_pyramid_settings *ps, gsfw_level *l, gsfw_err *err)
{
    const double window = ps->window;
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_TAIL, s, g);
    st.first_calls = ps->first_calls;
    double high = floor(window * s);
    st.s_high = high > gsfw_graph_nodes(grid) ? gsfw_graph_nodes(grid) : (int)high;
    if (st.s_high < s) st.s_high = s;
    gsfw_error rc = gsfw_dmo_headtail(grid, &st, &l->head, err);
    return rc ? rc : gsfw_dmo_headtail(grid, &st, &l->tail, err);
}

/* Coarse level k of block side b: U_k, A U_k, its objective and grid, s_k. */
static gsfw_error coarse_level(gsfw_pyramid *p, int k, const gsfw_operator *A, const double *y,
                               int height, int width, int b, int s, int g,
                               const gsfw_loss_options *loss, const gsfw_pyramid_settings *st,
                               gsfw_err *err)
{
    const int hk = (height - 1) / b + 1, wk = (width - 1) / b + 1; /* ceil, any b >= 2 */
    const int dk = hk * wk;
    /* rows of a 2-D DCT or of the Walsh-Hadamard transform: A U straight from the coarse
     * image's transform (block^2 times smaller); any other A: through the full image */
    gsfw_error rc = gsfw_op_dct2_block_constant(A, height, width, b, &p->sensing[k], err);
    if (!rc && !p->sensing[k])
        rc = gsfw_op_hadamard_block_constant(A, height, width, b, &p->sensing[k], err);
    if (!rc && !p->sensing[k]) rc = gsfw_operator_upsample(height, width, b, &p->up[k], err);
    if (!rc && !p->sensing[k]) rc = gsfw_operator_compose(A, p->up[k], &p->sensing[k], err);
    if (!rc) rc = gsfw_objective_linear(p->sensing[k], A->n, y, loss, &p->levels[k].obj, err);
    if (!rc) rc = gsfw_graph_grid(hk, wk, &p->grid[k], err);
    if (rc) return rc;
    double sk = ceil(s / pow(b, st->sparsity_exponent));
    if (sk < g) sk = g;
    if (sk > dk) sk = dk;
    p->sparsity[k] = (int)sk;
    return level_oracles(p->grid[k], (int)sk, g < sk ? g : (int)sk, st, &p->levels[k], err);
}

gsfw_error gsfw_pyramid_image(const gsfw_operator *A, const double *y, int height, int width,
                              int s, int g, const gsfw_loss_options *loss,
                              const gsfw_pyramid_settings *settings, gsfw_pyramid **out,
                              gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: out is NULL");
    *out = NULL;
    if (!A || !y)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: %s is NULL", !A ? "A" : "y");
    if (height < 1 || width < 1 || height > 2147483647 / width)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: a %d x %d image is not possible",
                         height, width);
    const int d = height * width;
    if (A->d != d)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "pyramid: A has %d columns but the image "
                         "has %d x %d = %d pixels", A->d, height, width, d);
    if (s < 1 || s > d || g < 1 || g > s)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pyramid: need 1 <= g <= s <= %d (pixels), "
                         "got s = %d, g = %d", d, s, g);
    gsfw_pyramid_settings def;
    if (!settings) {
        gsfw_pyramid_settings_default(&def, height, width);
        settings = &def;
    }
    gsfw_error rc = check_settings(settings, err);
    if (rc) return rc;
    gsfw_pyramid *p = calloc(1, sizeof *p);
    if (!p) return gsfw_fail(err, GSFW_ERR_NOMEM, "pyramid: out of memory");
    const int nc = settings->n_coarse, fine = nc;
    p->n_levels = nc + 1;
    for (int k = 0; !rc && k < nc; k++) {
        const int b = settings->blocks[k];
        rc = coarse_level(p, k, A, y, height, width, b, s, g, loss, settings, err);
        if (!rc && k > 0)
            rc = gsfw_operator_upsample((height - 1) / b + 1, (width - 1) / b + 1,
                                        settings->blocks[k - 1] / b, &p->prolong[k], err);
    }
    if (!rc) rc = gsfw_objective_linear(A, A->n, y, loss, &p->levels[fine].obj, err);
    if (!rc) rc = gsfw_graph_grid(height, width, &p->grid[fine], err);
    if (!rc) rc = level_oracles(p->grid[fine], s, g, settings, &p->levels[fine], err);
    if (!rc && nc > 0)
        rc = gsfw_operator_upsample(height, width, settings->blocks[nc - 1], &p->prolong[fine],
                                    err);
    p->sparsity[fine] = s;
    for (int k = 1; k <= nc; k++) p->levels[k].prolong = p->prolong[k];
    /* the levels run one after another, head then tail: one PCSF workspace, grown to the
     * finest grid, serves every projection (at 2048 x 2048 each would hold over a GB) */
    for (int k = 0; !rc && k <= nc; k++) {
        if (k < fine) gsfw_dmo_headtail_share(p->levels[fine].head, p->levels[k].head);
        gsfw_dmo_headtail_share(p->levels[fine].head, p->levels[k].tail);
    }
    if (rc) {
        gsfw_pyramid_free(p);
        return rc;
    }
    *out = p;
    return GSFW_OK;
}
