/* Support models selectable on the command line (--model NAME), shared by the solve,
 * dmo and recover subcommands. */
#ifndef GSFW_CLI_MODELS_H
#define GSFW_CLI_MODELS_H

#include <stdint.h>

#include "gsfw.h"

typedef struct {
    const char *model;        /* topk | topk-approx | l1 | subgraph | head | tail | tree |
                                 tree-connected */
    int d;                    /* vector length */
    int s;                    /* sparsity */
    int g;                    /* components (graph models) */
    const gsfw_graph *graph;  /* required by graph models */
    const gsfw_tree *tree;    /* required by tree models (cli/tree_load.h) */
    double delta;             /* target delta of topk-approx / l1 approximations */
    uint64_t seed;            /* randomised oracles */
    int nodes;                /* --nodes N of an --edges graph (0: not stated) */
} cli_model_spec;

/* 1 if the model needs a graph, 0 if not, -1 if the name is unknown. */
int cli_model_needs_graph(const char *model);
/* 1 if the model needs a tree (--tree), 0 if not or unknown. */
int cli_model_needs_tree(const char *model);
/* 1 if this build can construct the model's oracle (head / tail need the PCSF head and
 * tail projections), 0 if not or unknown. */
int cli_model_available(const char *model);
/* Comma-separated list of the known model names, for messages. */
const char *cli_model_names(void);
/* Build the oracle; prints a message naming the problem and returns CLI_FAIL on error. */
int cli_make_dmo(const char *cmd, const cli_model_spec *spec, gsfw_dmo **out);
/* The oracles of a method: for a baseline its DMO and tail oracle (*tail may stay NULL)
 * by the library's recipes for the model, for the Frank-Wolfe methods the model's DMO
 * (cli_make_dmo). Returns CLI_OK or CLI_FAIL (message printed). */
int cli_make_oracles(const char *cmd, int method, const cli_model_spec *spec, gsfw_dmo **dmo,
                     gsfw_dmo **tail);



/* Parse and validate the model flags shared by solve / dmo (the raw strings, NULL when
 * absent) before any file is read: model name, 1 <= s, 1 <= g <= s (g defaults to 1),
 * s = 1 for l1, delta in (0, 1], seed >= 0. Returns CLI_OK or CLI_USAGE (message printed). */
int cli_parse_model_flags(const char *cmd, const char *model, const char *s_text,
                          const char *g_text, const char *delta_text, const char *seed_text,
                          cli_model_spec *spec);
/* Once the dimension d is known: check s <= d, load the graph when the model needs one
 * (or check a graph given to a graph-free model), with d nodes; *graph is freed by the
 * caller with gsfw_graph_free. Returns CLI_OK, CLI_USAGE or CLI_FAIL. */
int cli_bind_model(const char *cmd, cli_model_spec *spec, const char *grid_spec,
                   const char *edges_path, int d, gsfw_graph **graph);

#endif
