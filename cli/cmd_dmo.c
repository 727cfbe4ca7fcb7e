/* gsfw dmo: run a dual maximisation oracle on a vector and print the support. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memory.h"
#include "models.h"

static const char synopsis[] =
    "usage: gsfw dmo --model MODEL --z z.npy --s S [--g G]\n"
    "                [--graph grid:HxW | --edges FILE [--nodes N]]\n"
    "                [--tree quadtree:HxW | --tree FILE] [--delta D] [--seed N] [--stats]\n"
    "                [--max-memory SIZE]\n"
    "\n"
    "Select a support S in the model maximising ||z_S|| (exactly or approximately) and\n"
    "print its 0-based node ids, ascending, separated by spaces.\n"
    "\n"
    "  --z FILE    input vector (.npy)\n"
    "  --graph grid:HxW | --edges FILE   graph of the graph models; an edge list uses ids\n"
    "              0..d-1 (--nodes d: the nodes it does not name are isolated)\n"
    "  --tree T    tree of the tree models: quadtree:HxW (wavelet coefficients of an H x W\n"
    "              image) or a .npy of parent ids (-1 for a root)\n"
    "  --stats     also print ||z_S||, the oracle's proven delta and PCSF calls on stderr\n"
    CLI_MEM_HELP
    "\n"
    "Parameters:\n";

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int cmd_dmo(int argc, char **argv)
{
    const char *cmd = "dmo";
    const char *z_path = NULL, *stats_flag = NULL, *mem_text = NULL;
    cli_params cp;
    cli_model_flags mf = {0};
    if (cli_params_init(cmd, &cp, GSFW_USES_MODEL, NULL)) return CLI_FAIL;
    static const char *const required[] = {"model", "s", NULL};
    cp.required = required;
    cli_opt opts[CLI_MAX_PARAMS + 8] = {
        {"--z", 0, &z_path}, {"--graph", 0, &mf.grid}, {"--edges", 0, &mf.edges},
        {"--stats", 1, &stats_flag}, {"--tree", 0, &mf.tree_spec},
        {"--max-memory", 0, &mem_text}, {"--nodes", 0, &mf.nodes_text},
    };
    int nopts = 7 + cli_params_opts(&cp, opts + 7);
    char *usage = cli_asks_help(argc, argv) ? cli_usage_text(synopsis, &cp, NULL, "")
                                            : strdup("");
    int rc = usage ? cli_parse(cmd, argc, argv, opts, nopts, usage) : cli_fail(cmd, "out of memory");
    free(usage);
    if (!rc) rc = cli_mem_set_limit(cmd, mem_text);
    if (!rc) rc = cli_require(cmd, "--z", z_path);
    if (!rc) rc = cli_params_require(cmd, &cp);
    if (!rc) rc = cli_params_apply(cmd, &cp);
    if (!rc) rc = cli_model_check_flags(cmd, &cp, &mf);
    if (!rc) rc = cli_params_check(cmd, &cp);
    if (rc) {
        cli_params_free(&cp);
        return rc;
    }

    double *z = NULL;
    int d = 0, *support = NULL;
    gsfw_graph *graph = NULL;
    gsfw_tree *tree = NULL;
    gsfw_dmo *dmo = NULL, *tail = NULL;
    if ((rc = cli_load_vector(cmd, "--z", z_path, &z, &d))) goto done;
    for (int i = 0; i < d; i++) {
        if (!isfinite(z[i])) {
            rc = cli_fail(cmd, "--z: '%s' entry %d is not finite", z_path, i);
            goto done;
        }
    }
    if ((rc = cli_model_inputs(cmd, &cp, &mf, d, &graph, &tree))) goto done;
    if ((rc = cli_model_oracles(cmd, &cp, graph, &dmo, &tail))) goto done;
    /* the graph projections work on the squares z_i^2 (the PCSF prizes), the tree
     * oracles on the weights z_i^2 */
    const gsfw_model_def *def = cli_entry(&cp, GSFW_KIND_MODEL)->def;
    const int squares = def->squares;
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
    gsfw_dmo_stats stats = {{0}};
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
    char shortfall[256];
    if (graph && (cli_entry(&cp, GSFW_KIND_MODEL)->needs & GSFW_NEEDS_GRAPH) &&
        gsfw_proj_short_support_text(graph, dmo->name, size, (int)gsfw_spec_number(cp.spec, "s"),
                                     (int)gsfw_spec_number(cp.spec, "g"), shortfall,
                                     sizeof shortfall))
        cli_warn(cmd, "%s", shortfall);
    if (stats_flag)
        fprintf(stderr, "size=%d norm=%.17g delta=%.17g pcsf_calls=%ld window_missed=%ld\n",
                size, nrm, dmo->delta, gsfw_dmo_count(dmo, &stats, "pcsf_calls"),
                gsfw_dmo_count(dmo, &stats, "window_missed"));
    rc = CLI_OK;

done:
    gsfw_free(z);
    free(support);
    gsfw_dmo_free(tail);
    gsfw_dmo_free(dmo);
    gsfw_graph_free(graph);
    gsfw_tree_free(tree);
    cli_params_free(&cp);
    return rc;
}
