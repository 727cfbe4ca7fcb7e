/* Exact DMO for "at most g rooted subtrees, at most s nodes in all" on a forest (g = 1:
 * one rooted subtree, gsfw_dmo_tree_rooted). Each root's table F_r comes from the tree
 * knapsack (tree_dp.c); the roots are then merged in increasing id order into H[k][j],
 * the best sum over exactly k trees and j nodes. When g >= the number of roots the tree
 * count cannot bind and a single layer (k ignored) is kept. The answer is the largest
 * H[k][j] with k <= g, j <= s, taking the most nodes, then the fewest trees, on ties
 * (each entry also keeps its number of trees, which breaks ties within the one layer). */
#include "oracles/dmo_internal.h"
#include "oracles/tree_dp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    tree_dp dp;
    int g;
    int layers;       /* g + 1 when the tree count binds, else 1 */
    double *H[2];     /* layers * (s + 1) doubles each */
    int *T[2];        /* the trees used by each entry of H (ties: fewer win) */
    int *rsplit;      /* per root t: layers * (rcap[t] + 1) ints: nodes given to root t */
    size_t *roff;     /* num_roots */
    int *rcap;        /* num_roots: min(nodes of roots 0..t, s) */
    char model[112];
} forest_ctx;

static int min_int(int a, int b) { return a < b ? a : b; }

/* Index of entry (k, j) of a table with rows of `width` entries (in size_t: g * s can
 * exceed an int). */
static size_t cell(int k, size_t width, int j) { return (size_t)k * width + (size_t)j; }

static int forest_select(void *vctx, const double *z, int *support, int *size,
                         gsfw_dmo_stats *stats)
{
    (void)stats;
    forest_ctx *c = vctx;
    tree_dp *dp = &c->dp;
    const gsfw_tree *t = dp->tree;
    int rc = tree_dp_fill(dp, z);
    if (rc) return rc;
    const int L = c->layers, s = dp->s;
    const size_t W = (size_t)s + 1;
    double *H = c->H[0], *N = c->H[1];
    int *TH = c->T[0], *TN = c->T[1];
    for (int k = 0; k < L; k++)
        for (int j = 0; j <= s; j++) {
            H[cell(k, W, j)] = (k == 0 && j == 0) ? 0.0 : -INFINITY;
            TH[cell(k, W, j)] = 0;
        }
    int len = 0;
    for (int r = 0; r < t->num_roots; r++) {
        int root = t->roots[r], cr = tree_dp_cap(dp, root), newlen = c->rcap[r];
        int *split = c->rsplit + c->roff[r];
        for (int k = 0; k < L; k++) {
            /* with one layer the count is not tracked: a root stays in its layer */
            const double *from = NULL;
            const int *tfrom = NULL;
            if (L == 1 || k >= 1) {
                const size_t fk = L == 1 ? 0 : (size_t)(k - 1) * W;
                from = H + fk;
                tfrom = TH + fk;
            }
            for (int j = 0; j <= newlen; j++) {
                double best = j <= len ? H[cell(k, W, j)] : -INFINITY;
                int best_a = 0, best_t = j <= len ? TH[cell(k, W, j)] : t->num_roots + 1;
                if (from) {
                    int a_hi = min_int(cr, j);
                    for (int a = j > len ? j - len : 1; a <= a_hi; a++) {
                        double cand = from[j - a] + tree_dp_value(dp, root, a);
                        /* equal sums: the fewer trees (with one layer the count is not
                         * the layer's) */
                        if (cand > best || (cand == best && tfrom[j - a] + 1 < best_t)) {
                            best = cand;
                            best_a = a;
                            best_t = tfrom[j - a] + 1;
                        }
                    }
                }
                N[cell(k, W, j)] = best;
                TN[cell(k, W, j)] = best_t;
                split[cell(k, (size_t)newlen + 1, j)] = best_a;
            }
        }
        len = newlen;
        double *tmp = H;
        H = N;
        N = tmp;
        int *ttmp = TH;
        TH = TN;
        TN = ttmp;
    }
    int bk = 0, bj = 0;
    double best = -INFINITY;
    for (int j = len; j >= 0; j--)
        for (int k = 0; k < L; k++)
            if (H[cell(k, W, j)] > best) {
                best = H[cell(k, W, j)];
                bk = k;
                bj = j;
            }
    int count = 0;
    for (int r = t->num_roots - 1; r >= 0 && bj > 0; r--) {
        int a = c->rsplit[c->roff[r] + cell(bk, (size_t)c->rcap[r] + 1, bj)];
        if (a > 0) {
            tree_dp_trace(dp, t->roots[r], a, support, &count);
            bj -= a;
            if (L > 1) bk--;
        }
    }
    *size = count;
    return 0;
}

static int forest_contains(void *vctx, const int *support, int size)
{
    forest_ctx *c = vctx;
    tree_dp *dp = &c->dp;
    if (!tree_dp_mark(dp, support, size)) return 0;
    int roots = 0, ok = 1;
    for (int k = 0; k < size && ok; k++) {
        int p = dp->tree->parent[support[k]];
        if (p < 0)
            roots++;
        else if (!dp->mark[p])
            ok = 0; /* a node without its parent: not closed upwards */
    }
    tree_dp_unmark(dp, support, size);
    return ok && roots <= c->g;
}

static int forest_reset(void *vctx)
{
    (void)vctx; /* no state survives a call */
    return 0;
}

static void forest_destroy(gsfw_dmo *dmo)
{
    if (!dmo) return;
    forest_ctx *c = dmo->ctx;
    if (c) {
        tree_dp_free(&c->dp);
        free(c->H[0]);
        free(c->H[1]);
        free(c->T[0]);
        free(c->T[1]);
        free(c->rsplit);
        free(c->roff);
        free(c->rcap);
    }
    gsfw_dmo_release(dmo);
}

gsfw_error gsfw_dmo_tree_forest_named(const gsfw_tree *tree, int s, int g, const char *who,
                                      const char *name, gsfw_dmo **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: output pointer is NULL", who);
    *out = NULL;
    if (!tree) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the tree is NULL", who);
    gsfw_error rc = gsfw_dmo_check_sparsity(who, s, tree->n, "number of nodes", err);
    if (!rc) rc = gsfw_dmo_check_components(who, g, s, err);
    if (rc) return rc;
    gsfw_dmo *dmo;
    rc = gsfw_dmo_new(tree->n, s, 1.0, name, NULL, sizeof(forest_ctx), forest_select,
                      forest_destroy, &dmo, err);
    if (rc) return rc;
    dmo->reset = forest_reset;
    dmo->contains = forest_contains;
    dmo->model_size = s;
    forest_ctx *c = dmo->ctx;
    c->g = g;
    if (g == 1)
        snprintf(c->model, sizeof c->model,
                 "tree-sparse: one rooted subtree of <= %d nodes (contains a root)", s);
    else
        snprintf(c->model, sizeof c->model,
                 "tree-sparse: <= %d rooted subtrees, <= %d nodes in all", g, s);
    dmo->model = c->model;
    if ((rc = tree_dp_init(&c->dp, tree, s, who, err))) {
        forest_destroy(dmo);
        return rc;
    }
    int R = tree->num_roots;
    c->layers = g < R ? g + 1 : 1;
    c->roff = gsfw_malloc_array((size_t)R, sizeof(size_t));
    c->rcap = gsfw_malloc_array((size_t)R, sizeof(int));
    int ok = c->roff && c->rcap;
    size_t total = 0;
    int nodes = 0;
    for (int r = 0; ok && r < R; r++) {
        nodes += tree->size[tree->roots[r]];
        c->rcap[r] = min_int(nodes, s);
        c->roff[r] = total;
        size_t add = (size_t)c->layers * ((size_t)c->rcap[r] + 1);
        if (total > SIZE_MAX / sizeof(int) - add) ok = 0;
        total += add;
    }
    if (ok) {
        size_t h = (size_t)c->layers * ((size_t)s + 1);
        c->H[0] = gsfw_malloc_array(h, sizeof(double));
        c->H[1] = gsfw_malloc_array(h, sizeof(double));
        c->T[0] = gsfw_malloc_array(h, sizeof(int));
        c->T[1] = gsfw_malloc_array(h, sizeof(int));
        c->rsplit = gsfw_malloc_array(total, sizeof(int));
        ok = c->H[0] && c->H[1] && c->T[0] && c->T[1] && c->rsplit;
    }
    if (!ok) {
        forest_destroy(dmo);
        return gsfw_fail(err, GSFW_ERR_NOMEM,
                         "%s: out of memory for the merge of %d roots with g = %d, s = %d",
                         who, R, g, s);
    }
    *out = dmo;
    return GSFW_OK;
}

gsfw_error gsfw_dmo_tree_forest(const gsfw_tree *tree, int s, int g, gsfw_dmo **out,
                                gsfw_err *err)
{
    return gsfw_dmo_tree_forest_named(tree, s, g, "tree-forest DMO", "tree-forest", out, err);
}

/* g rooted subtrees; g = 1 is the rooted model (as gsfw_dmo_tree_rooted builds it) */
static gsfw_error tree_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    if (spec->g > 1) return gsfw_dmo_tree_forest(spec->tree, spec->s, spec->g, out, err);
    return gsfw_dmo_tree_forest_named(spec->tree, spec->s, 1, "tree-rooted DMO", "tree-rooted",
                                      out, err);
}

const gsfw_entry gsfw_entry_model_tree = {
    GSFW_KIND_MODEL, "tree", "at most g rooted subtrees of a tree (exact; g = 1: one)", "s g",
    GSFW_NEEDS_TREE, GSFW_ENTRY_DEFAULT, &(const gsfw_model_def){.build = tree_build,
                                                                 .squares = 1}, NULL};
