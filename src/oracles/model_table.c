/* Oracles by model name: the one table behind gsfw_dmo_from_model, the command line's
 * --model and Python's gsfw.dmo(model=...). A new model is a row here and its
 * constructor's file. */
#include "oracles/dmo_internal.h"

#include <string.h>

typedef struct {
    const char *name;
    int needs; /* 0 nothing, 1 a graph, 2 a tree */
} model_row;

static const model_row models[] = {
    {"topk", 0}, {"topk-approx", 0}, {"l1", 0}, {"subgraph", 1}, {"head", 1}, {"tail", 1},
    {"tree", 2}, {"tree-connected", 2},
};

int gsfw_model_needs_graph(const char *model)
{
    if (!model) return -1;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (!strcmp(model, models[i].name)) return models[i].needs;
    return -1;
}

const char *gsfw_model_names(void)
{
    return "topk, topk-approx, l1, subgraph, head, tail, tree, tree-connected";
}

gsfw_error gsfw_dmo_from_model(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    if (!out || !spec)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model: %s is NULL",
                         !out ? "the output pointer" : "spec");
    *out = NULL;
    const char *m = spec->model;
    int needs = gsfw_model_needs_graph(m);
    if (needs < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "unknown model '%s' (known: %s)",
                         m ? m : "(null)", gsfw_model_names());
    if (needs == 1 && !spec->graph)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model '%s' needs a graph", m);
    if (needs == 2 && !spec->tree)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model '%s' needs a tree", m);
    int g = spec->g > 0 ? spec->g : 1;
    double delta = spec->delta > 0 ? spec->delta : 1.0;
    if (!strcmp(m, "topk")) return gsfw_dmo_topk(spec->d, spec->s, out, err);
    if (!strcmp(m, "topk-approx"))
        return gsfw_dmo_topk_approx(spec->d, spec->s, delta, spec->seed, out, err);
    if (!strcmp(m, "l1")) return gsfw_dmo_l1(spec->d, delta, spec->seed, out, err);
    if (!strcmp(m, "subgraph")) return gsfw_dmo_subgraph(spec->graph, spec->s, g, out, err);
    if (!strcmp(m, "head")) return gsfw_dmo_head(spec->graph, spec->s, g, out, err);
    if (!strcmp(m, "tail")) return gsfw_dmo_tail(spec->graph, spec->s, g, out, err);
    /* tree: g rooted subtrees (g = 1: the rooted model); tree-connected: one subtree */
    if (!strcmp(m, "tree") && g > 1) return gsfw_dmo_tree_forest(spec->tree, spec->s, g, out, err);
    if (!strcmp(m, "tree")) return gsfw_dmo_tree_rooted(spec->tree, spec->s, out, err);
    return gsfw_dmo_tree_connected(spec->tree, spec->s, out, err);
}
