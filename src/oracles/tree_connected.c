/* Exact DMO for connected subtrees of an unrooted tree (or forest), at most s nodes.
 * Rooting each tree at its root, every connected node set has one top node v (the node
 * whose parent is outside the set) and lies in v's subtree, closed upwards to v: exactly
 * the sets behind the knapsack tables F_v (tree_dp.c). The optimum is therefore
 * max_v F_v[min(size_v, s)] (the tables grow with j since weights are >= 0); among
 * equal optima the most nodes, then the smallest top node, win. */
#include "oracles/dmo_internal.h"
#include "oracles/tree_dp.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    tree_dp dp;
    char model[96];
} connected_ctx;

static int connected_select(void *vctx, const double *z, int *support, int *size,
                            gsfw_dmo_stats *stats)
{
    (void)stats;
    connected_ctx *c = vctx;
    tree_dp *dp = &c->dp;
    int rc = tree_dp_fill(dp, z);
    if (rc) return rc;
    int best_v = 0;
    double best = -INFINITY;
    for (int v = 0; v < dp->tree->n; v++) {
        double val = tree_dp_value(dp, v, tree_dp_cap(dp, v));
        /* on a tie, the larger table: an optimum grown to min(s, its tree's size) */
        if (val > best || (val == best && tree_dp_cap(dp, v) > tree_dp_cap(dp, best_v))) {
            best = val;
            best_v = v;
        }
    }
    int count = 0;
    tree_dp_trace(dp, best_v, tree_dp_cap(dp, best_v), support, &count);
    *size = count;
    return 0;
}

static int connected_contains(void *vctx, const int *support, int size)
{
    connected_ctx *c = vctx;
    tree_dp *dp = &c->dp;
    if (!tree_dp_mark(dp, support, size)) return 0;
    int tops = 0;
    for (int k = 0; k < size; k++) {
        int p = dp->tree->parent[support[k]];
        tops += p < 0 || !dp->mark[p];
    }
    tree_dp_unmark(dp, support, size);
    return tops <= 1;
}

static int connected_reset(void *vctx)
{
    (void)vctx; /* no state survives a call */
    return 0;
}

static void connected_destroy(gsfw_dmo *dmo)
{
    if (!dmo) return;
    connected_ctx *c = dmo->ctx;
    if (c) tree_dp_free(&c->dp);
    gsfw_dmo_release(dmo);
}

gsfw_error gsfw_dmo_tree_connected(const gsfw_tree *tree, int s, gsfw_dmo **out, gsfw_err *err)
{
    static const char who[] = "tree-connected DMO";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: output pointer is NULL", who);
    *out = NULL;
    if (!tree) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the tree is NULL", who);
    gsfw_error rc = gsfw_dmo_check_sparsity(who, s, tree->n, "number of nodes", err);
    if (rc) return rc;
    gsfw_dmo *dmo;
    rc = gsfw_dmo_new(tree->n, s, 1.0, "tree-connected", NULL, sizeof(connected_ctx),
                      connected_select, connected_destroy, &dmo, err);
    if (rc) return rc;
    dmo->reset = connected_reset;
    dmo->contains = connected_contains;
    dmo->model_size = s;
    connected_ctx *c = dmo->ctx;
    snprintf(c->model, sizeof c->model,
             "tree-connected: one connected subtree of <= %d nodes", s);
    dmo->model = c->model;
    if ((rc = tree_dp_init(&c->dp, tree, s, who, err))) {
        connected_destroy(dmo);
        return rc;
    }
    *out = dmo;
    return GSFW_OK;
}

static gsfw_error tree_connected_build(const gsfw_model_spec *spec, gsfw_dmo **out,
                                       gsfw_err *err)
{
    return gsfw_dmo_tree_connected(spec->tree, spec->s, out, err);
}

const gsfw_entry gsfw_entry_model_tree_connected = {
    GSFW_KIND_MODEL, "tree-connected", "one connected subtree of a tree (exact)", "s g=1",
    GSFW_NEEDS_TREE, 0,
    &(const gsfw_model_def){.build = tree_connected_build, .squares = 1}, NULL};
