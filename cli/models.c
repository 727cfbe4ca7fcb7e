#include "models.h"

#include <string.h>

#include "cli.h"
#include "memory.h"

typedef struct {
    const char *name;
    int needs_graph;
    int needs_tree;
} model_info;

static const model_info models[] = {
    {"topk", 0, 0}, {"topk-approx", 0, 0}, {"l1", 0, 0}, {"subgraph", 1, 0}, {"head", 1, 0},
    {"tail", 1, 0}, {"tree", 0, 1}, {"tree-connected", 0, 1},
};

int cli_model_needs_graph(const char *model)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (!strcmp(model, models[i].name)) return models[i].needs_graph;
    return -1;
}

int cli_model_needs_tree(const char *model)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (!strcmp(model, models[i].name)) return models[i].needs_tree;
    return 0;
}

int cli_model_available(const char *model)
{
    return cli_model_needs_graph(model) >= 0;
}

const char *cli_model_names(void)
{
    return "topk, topk-approx, l1, subgraph, head, tail, tree, tree-connected";
}

int cli_make_dmo(const char *cmd, const cli_model_spec *spec, gsfw_dmo **out)
{
    gsfw_err err;
    gsfw_model_spec m = {.model = spec->model, .d = spec->d, .s = spec->s, .g = spec->g,
                         .graph = spec->graph, .tree = spec->tree, .delta = spec->delta,
                         .seed = spec->seed};
    *out = NULL;
    /* the PCSF projections' workspaces are the large allocation of a model */
    if ((!strcmp(spec->model, "head") || !strcmp(spec->model, "tail")) && spec->graph &&
        cli_mem_check(cmd,
                      gsfw_memory_estimate("pcsf", gsfw_graph_nodes(spec->graph),
                                           gsfw_graph_edge_count(spec->graph)),
                      !strcmp(spec->model, "head") ? "the head projection's PCSF workspace"
                                                   : "the tail projection's PCSF workspace"))
        return CLI_FAIL;
    if (gsfw_dmo_from_model(&m, out, &err))
        return cli_fail(cmd, "--model %s: %s", spec->model, err.message);
    return CLI_OK;
}

int cli_make_oracles(const char *cmd, int method, const cli_model_spec *spec, gsfw_dmo **dmo,
                     gsfw_dmo **tail)
{
    *tail = NULL;
    if (!gsfw_method_is_baseline((gsfw_method)method)) return cli_make_dmo(cmd, spec, dmo);
    gsfw_err err;
    gsfw_model_spec m = {.model = spec->model, .d = spec->d, .s = spec->s, .g = spec->g,
                         .graph = spec->graph, .tree = spec->tree, .delta = spec->delta,
                         .seed = spec->seed};
    if (gsfw_baseline_oracles((gsfw_method)method, &m, 0, dmo, tail, &err))
        return cli_fail(cmd, "--model %s: %s", spec->model, err.message);
    return CLI_OK;
}

int cli_parse_model_flags(const char *cmd, const char *model, const char *s_text,
                          const char *g_text, const char *delta_text, const char *seed_text,
                          cli_model_spec *spec)
{
    int rc;
    memset(spec, 0, sizeof *spec);
    if ((rc = cli_require(cmd, "--model", model))) return rc;
    if (cli_model_needs_graph(model) < 0)
        return cli_usage_error(cmd, "unknown model '%s' (known: %s)", model, cli_model_names());
    if ((rc = cli_require(cmd, "--s", s_text))) return rc;
    if ((rc = cli_parse_int(cmd, "--s", s_text, 1, 2147483647L, &spec->s))) return rc;
    if (!strcmp(model, "l1") && spec->s != 1)
        return cli_usage_error(cmd, "--model l1 is the s = 1 model; got --s %d", spec->s);
    spec->g = 1;
    if (g_text && (rc = cli_parse_int(cmd, "--g", g_text, 1, 2147483647L, &spec->g))) return rc;
    if (!strcmp(model, "tree-connected") && spec->g != 1)
        return cli_usage_error(cmd, "--model tree-connected selects one subtree; --g %d is "
                               "not allowed (use --model tree --g G for G rooted subtrees)",
                               spec->g);
    if (spec->g > spec->s)
        return cli_usage_error(cmd, "--g %d exceeds --s %d (at most s nodes in at most g "
                               "components needs g <= s)", spec->g, spec->s);
    if (g_text && !cli_model_needs_graph(model))
        cli_warn(cmd, "--g is ignored by --model %s (it has no graph)", model);
    if (seed_text && strcmp(model, "topk-approx") && strcmp(model, "l1"))
        cli_warn(cmd, "--seed is ignored by --model %s (it is deterministic)", model);
    spec->delta = 1.0;
    if (delta_text) {
        if ((rc = cli_parse_double(cmd, "--delta", delta_text, &spec->delta))) return rc;
        if (!(spec->delta > 0 && spec->delta <= 1))
            return cli_usage_error(cmd, "--delta must be in (0, 1], got %s", delta_text);
    }
    if (seed_text) {
        int seed;
        if ((rc = cli_parse_int(cmd, "--seed", seed_text, 0, 2147483647L, &seed))) return rc;
        spec->seed = (uint64_t)seed;
    }
    spec->model = model;
    return CLI_OK;
}

int cli_bind_model(const char *cmd, cli_model_spec *spec, const char *grid_spec,
                   const char *edges_path, int d, gsfw_graph **graph)
{
    int rc;
    *graph = NULL;
    if (spec->s > d) return cli_fail(cmd, "--s %d exceeds the dimension d = %d", spec->s, d);
    spec->d = d;
    if (cli_model_needs_graph(spec->model)) {
        if (!grid_spec && !edges_path)
            return cli_usage_error(cmd, "--model %s needs a graph: --graph grid:HxW or --edges "
                                   "FILE", spec->model);
        if ((rc = cli_load_graph_sized(cmd, grid_spec, edges_path, spec->nodes, d, graph)))
            return rc;
        spec->graph = *graph;
    } else if (grid_spec || edges_path) {
        /* A graph given to a graph-free model is still checked, so that a mistyped
         * dimension does not pass silently. */
        if ((rc = cli_load_graph_sized(cmd, grid_spec, edges_path, spec->nodes, d, graph)))
            return rc;
        cli_warn(cmd, "%s is ignored by --model %s", grid_spec ? "--graph" : "--edges",
                 spec->model);
    }
    return CLI_OK;
}
