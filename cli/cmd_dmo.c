/* gsfw dmo: run a dual maximisation oracle on a vector and print the support. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memory.h"
#include "models.h"
#include "tree_load.h"

static const char usage[] =
    "usage: gsfw dmo --model MODEL --z z.npy --s S [--g G]\n"
    "                [--graph grid:HxW | --edges FILE [--nodes N]]\n"
    "                [--tree quadtree:HxW | --tree FILE] [--delta D] [--seed N] [--stats]\n"
    "                [--max-memory SIZE]\n"
    "\n"
    "Select a support S in the model maximising ||z_S|| (exactly or approximately) and\n"
    "print its 0-based node ids, ascending, separated by spaces.\n"
    "\n"
    "  --model M   topk | topk-approx | l1 | subgraph | head | tail | tree | tree-connected\n"
    "  --z FILE    input vector (.npy)\n"
    "  --s S       sparsity; --g G: number of connected components (default 1)\n"
    "  --graph grid:HxW | --edges FILE   graph (required by subgraph, head, tail); an edge\n"
    "              list uses ids 0..d-1 (--nodes d: the nodes it does not name are isolated)\n"
    "  --tree T    tree of the tree models: quadtree:HxW (wavelet coefficients of an H x W\n"
    "              image) or a .npy of parent ids (-1 for a root); --model tree with --g G\n"
    "              selects at most G rooted subtrees\n"
    "  --delta D   target delta of topk-approx and l1 (default 1)\n"
    "  --seed N    seed of randomised oracles\n"
    "  --stats     also print ||z_S||, the oracle's proven delta and PCSF calls on stderr\n"
    CLI_MEM_HELP;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int cmd_dmo(int argc, char **argv)
{
    const char *cmd = "dmo";
    const char *model = NULL, *z_path = NULL, *s_text = NULL, *g_text = NULL, *grid = NULL,
               *edges = NULL, *delta_text = NULL, *seed_text = NULL, *stats_flag = NULL,
               *tree_spec = NULL, *mem_text = NULL, *nodes_text = NULL;
    cli_opt opts[] = {
        {"--model", 0, &model}, {"--z", 0, &z_path}, {"--s", 0, &s_text},
        {"--g", 0, &g_text}, {"--graph", 0, &grid}, {"--edges", 0, &edges},
        {"--delta", 0, &delta_text}, {"--seed", 0, &seed_text}, {"--stats", 1, &stats_flag},
        {"--tree", 0, &tree_spec}, {"--max-memory", 0, &mem_text},
        {"--nodes", 0, &nodes_text},
    };
    int rc = cli_parse(cmd, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), usage);
    if (rc) return rc;
    if ((rc = cli_mem_set_limit(cmd, mem_text))) return rc;
    if ((rc = cli_require(cmd, "--model", model))) return rc;
    if ((rc = cli_require(cmd, "--z", z_path))) return rc;
    if ((rc = cli_require(cmd, "--s", s_text))) return rc;
    cli_model_spec spec;
    if ((rc = cli_parse_model_flags(cmd, model, s_text, g_text, delta_text, seed_text, &spec)))
        return rc;
    if ((rc = cli_check_tree_flag(cmd, model, tree_spec))) return rc;
    if ((rc = cli_parse_nodes(cmd, nodes_text, &spec.nodes))) return rc;
    if (delta_text && strcmp(model, "topk-approx") && strcmp(model, "l1"))
        cli_warn(cmd, "--delta is ignored by --model %s", model);

    double *z = NULL;
    int d = 0, *support = NULL;
    gsfw_graph *graph = NULL;
    gsfw_tree *tree = NULL;
    gsfw_dmo *dmo = NULL;
    if ((rc = cli_load_vector(cmd, "--z", z_path, &z, &d))) goto done;
    for (int i = 0; i < d; i++) {
        if (!isfinite(z[i])) {
            rc = cli_fail(cmd, "--z: '%s' entry %d is not finite", z_path, i);
            goto done;
        }
    }
    if ((rc = cli_bind_model(cmd, &spec, grid, edges, d, &graph))) goto done;
    if ((rc = cli_bind_tree(cmd, &spec, tree_spec, d, &tree))) goto done;
    if ((rc = cli_make_dmo(cmd, &spec, &dmo))) goto done;
    /* the graph projections work on the squares z_i^2 (the PCSF prizes), the tree
     * oracles on the weights z_i^2 */
    const int squares = !strcmp(dmo->name, "head") || !strcmp(dmo->name, "tail") ||
                        cli_model_needs_tree(model);
    for (int i = 0; squares && i < d; i++) {
        if (!isfinite(z[i] * z[i])) {
            rc = cli_fail(cmd, "--z: '%s' entry %d is %g, whose square overflows; the %s "
                          "projection needs |z| below 1e154", z_path, i, z[i], dmo->name);
            goto done;
        }
    }
    support = malloc((size_t)dmo->max_support * sizeof(int));
    if (!support) {
        rc = cli_fail(cmd, "out of memory");
        goto done;
    }
    int size = 0;
    gsfw_dmo_stats stats = {0, 0};
    int code = dmo->select(dmo->ctx, z, support, &size, &stats);
    if (code) {
        rc = cli_fail(cmd, "the oracle '%s' failed (code %d)", dmo->name, code);
        goto done;
    }
    qsort(support, (size_t)size, sizeof(int), cmp_int);
    double nrm = 0.0;
    if (stats_flag) {
        /* ||z_S|| scaled by max |z_S|, so that squares of entries above 1e154 do not
         * overflow while the norm itself is finite; checked before anything is printed */
        double big = 0.0, nrm2 = 0.0;
        for (int k = 0; k < size; k++) big = fmax(big, fabs(z[support[k]]));
        for (int k = 0; big > 0 && k < size; k++) {
            double r = z[support[k]] / big;
            nrm2 += r * r;
        }
        nrm = big * sqrt(nrm2);
        if (!isfinite(nrm)) {
            rc = cli_fail(cmd, "--stats: ||z_S|| overflows (the support's %d entries reach "
                          "|z| = %.6g); rescale z", size, big);
            goto done;
        }
    }
    cli_print_ids(support, size);
    if (squares) cli_warn_short_support(cmd, dmo->name, graph, size, spec.s, spec.g);
    if (stats_flag)
        fprintf(stderr, "size=%d norm=%.17g delta=%.17g pcsf_calls=%ld window_missed=%d\n", size,
                nrm, dmo->delta, stats.pcsf_calls, stats.window_missed);
    rc = CLI_OK;

done:
    gsfw_free(z);
    free(support);
    gsfw_dmo_free(dmo);
    gsfw_graph_free(graph);
    gsfw_tree_free(tree);
    return rc;
}
