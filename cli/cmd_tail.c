/* gsfw tail: tail projection of a vector onto M(G, s, g); prints the support.
 *
 *   gsfw tail --z z.npy --s S --g G (--graph grid:HxW | --edges FILE)
 *             [--method practical|theory] [--stats]
 */
#include "cli.h"
#include "memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const USAGE =
    "usage: gsfw tail --z z.npy --s S --g G (--graph grid:HxW | --edges FILE [--nodes N])\n"
    "                 [--method practical|theory] [--stats] [--max-memory SIZE]\n"
    "\n"
    "Tail projection of z onto M(G, s, g) (supports of at most about s nodes in at most g\n"
    "connected pieces) through the PCSF: prizes z_i^2, edge costs scaled by a searched\n"
    "lambda.\n"
    "\n"
    "  --z FILE         float64 .npy vector, one entry per node\n"
    "  --s S            sparsity (1 <= S <= number of nodes)\n"
    "  --g G            number of connected components (1 <= G <= S)\n"
    "  --graph grid:HxW H x W 4-neighbour grid (node r*W+c), or\n"
    "  --edges FILE     edge list 'u v [cost]' per line, ids 0..d-1 for a d-vector z\n"
    "  --nodes N        the node count of --edges (= d) when its last nodes are isolated\n"
    "  --method M       practical (default): lambda-search for an output size in\n"
    "                   [s, floor(1.05 s)] as in the paper's experiments; theory: the cost-\n"
    "                   scaling tail of Hegde, Indyk & Schmidt (2015), nu = 2.5\n"
    "  --stats          print PCSF calls, size and energy on stderr (window_missed=1:\n"
    "                   the lambda-search missed the window; size_repaired=1: the size\n"
    "                   was then repaired by growing or pruning a forest)\n"
    CLI_MEM_HELP
    "\n"
    "Prints the support (0-based node ids, ascending) on one line.\n";

int cmd_tail(int argc, char **argv)
{
    const char *z_path = NULL, *s_text = NULL, *g_text = NULL, *grid = NULL, *edges = NULL,
               *method = NULL, *stats = NULL, *mem_text = NULL, *nodes_text = NULL;
    cli_opt opts[] = {
        {"--z", 0, &z_path},   {"--s", 0, &s_text},      {"--g", 0, &g_text},
        {"--graph", 0, &grid}, {"--edges", 0, &edges},   {"--method", 0, &method},
        {"--stats", 1, &stats}, {"--max-memory", 0, &mem_text}, {"--nodes", 0, &nodes_text},
    };
    int rc = cli_parse("tail", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), USAGE);
    if (rc) return rc;
    if ((rc = cli_mem_set_limit("tail", mem_text))) return rc;
    if ((rc = cli_require("tail", "--z", z_path)) || (rc = cli_require("tail", "--s", s_text)) ||
        (rc = cli_require("tail", "--g", g_text)))
        return rc;
    int s = 0, g = 0;
    if ((rc = cli_parse_int("tail", "--s", s_text, 1, 2147483647L, &s))) return rc;
    if ((rc = cli_parse_int("tail", "--g", g_text, 1, 2147483647L, &g))) return rc;
    if (g > s) return cli_usage_error("tail", "--g %d exceeds --s %d", g, s);
    int nodes = 0;
    if ((rc = cli_parse_nodes("tail", nodes_text, &nodes))) return rc;
    gsfw_proj_method pm = GSFW_PROJ_PRACTICAL;
    if (method) {
        if (!strcmp(method, "practical"))
            pm = GSFW_PROJ_PRACTICAL;
        else if (!strcmp(method, "theory"))
            pm = GSFW_PROJ_THEORY;
        else
            return cli_usage_error("tail", "unknown --method '%s' (practical or theory)", method);
    }
    if (!grid && !edges)
        return cli_usage_error("tail", "a graph is required: --graph grid:HxW or --edges FILE");
    double *z = NULL;
    int d = 0;
    if ((rc = cli_load_vector("tail", "--z", z_path, &z, &d))) return rc;
    if (s > d) {
        gsfw_free(z);
        return cli_fail("tail", "--s %d exceeds the length %d of --z", s, d);
    }
    gsfw_graph *graph = NULL;
    if ((rc = cli_load_graph_sized("tail", grid, edges, nodes, d, &graph))) {
        gsfw_free(z);
        return rc;
    }
    if ((rc = cli_mem_check("tail",
                            gsfw_memory_estimate("pcsf", gsfw_graph_nodes(graph),
                                                 gsfw_graph_edge_count(graph)),
                            "the tail projection's PCSF workspace"))) {
        gsfw_free(z);
        gsfw_graph_free(graph);
        return rc;
    }
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_TAIL, s, g);
    st.method = pm;
    gsfw_headtail *ht = NULL;
    gsfw_err err;
    int *support = malloc((size_t)d * sizeof *support);
    int size = 0;
    gsfw_proj_info info;
    gsfw_error e = GSFW_OK;
    if (!support) {
        rc = cli_fail("tail", "out of memory");
    } else if ((e = gsfw_headtail_create(graph, &st, &ht, &err)) ||
               (e = gsfw_headtail_project(ht, z, support, &size, &info, &err))) {
        rc = cli_fail_err("tail", e, &err);
    } else {
        cli_print_ids(support, size);
        char shortfall[256];
        if (pm == GSFW_PROJ_PRACTICAL &&
            gsfw_proj_short_support_text(graph, "tail", size, s, g, shortfall, sizeof shortfall))
            cli_warn("tail", "%s", shortfall);
        if (stats)
            fprintf(stderr, "tail: size=%d pcsf_calls=%d window_missed=%d lambda=%.9g "
                    "energy=%.9g size_repaired=%d\n", size, info.pcsf_calls,
                    info.window_missed, info.lambda, info.energy, info.size_repaired);
    }
    gsfw_headtail_free(ht);
    free(support);
    gsfw_graph_free(graph);
    gsfw_free(z);
    return rc;
}
