#include "models.h"

#include <string.h>

#include "memory.h"
#include "tree_load.h"

int cli_model_check_flags(const char *cmd, cli_params *cp, cli_model_flags *f)
{
    int rc = cli_parse_nodes(cmd, f->nodes_text, &f->nodes);
    if (rc) return rc;
    cp->graph_flag = f->grid ? "--graph" : f->edges ? "--edges" : NULL;
    return cli_check_tree_flag(cmd, cli_entry(cp, GSFW_KIND_MODEL), f->tree_spec);
}

int cli_model_inputs(const char *cmd, cli_params *cp, const cli_model_flags *f, int d,
                     gsfw_graph **graph, gsfw_tree **tree)
{
    int rc;
    *graph = NULL;
    *tree = NULL;
    const gsfw_entry *model = cli_entry(cp, GSFW_KIND_MODEL);
    const int s = (int)gsfw_spec_number(cp->spec, "s");
    if (s > d) return cli_fail(cmd, "--s %d exceeds the dimension d = %d", s, d);
    if ((model->needs & GSFW_NEEDS_GRAPH) && !f->grid && !f->edges)
        return cli_usage_error(cmd, "--model %s needs a graph: --graph grid:HxW or --edges FILE",
                               model->name);
    /* a graph given to a model without one is still checked, so that a mistyped
     * dimension does not pass silently; the spec then says it is ignored */
    if ((f->grid || f->edges) &&
        (rc = cli_load_graph_sized(cmd, f->grid, f->edges, f->nodes, d, graph)))
        return rc;
    if ((rc = cli_bind_tree(cmd, f->tree_spec, d, tree))) return rc;
    return cli_params_bind(cmd, cp, d, *graph, *tree);
}

int cli_model_oracles(const char *cmd, cli_params *cp, const gsfw_graph *graph,
                      gsfw_dmo **dmo, gsfw_dmo **tail)
{
    gsfw_err err;
    *dmo = *tail = NULL;
    const char *model = gsfw_spec_model_used(cp->spec);
    /* the oracles' workspaces (PCSF projections) are a model's large allocation */
    if (graph) {
        const gsfw_sizes sizes = {.nodes = gsfw_graph_nodes(graph),
                                  .edges = gsfw_graph_edge_count(graph)};
        char what[96];
        snprintf(what, sizeof what, "--model %s (its oracles)", model);
        if (cli_mem_check(cmd, gsfw_spec_memory(cp->spec, &sizes), what)) return CLI_FAIL;
    }
    if (gsfw_spec_oracles(cp->spec, dmo, tail, &err))
        return cli_fail(cmd, "--model %s: %s", cli_entry(cp, GSFW_KIND_MODEL)->name,
                        err.message);
    return CLI_OK;
}
