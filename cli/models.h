/* Support models selectable on the command line (--model NAME), shared by the solve,
 * dmo and recover subcommands. */
#ifndef GSFW_CLI_MODELS_H
#define GSFW_CLI_MODELS_H

#include <stdint.h>

#include "gsfw.h"

typedef struct {
    const char *model;        /* topk | topk-approx | l1 | subgraph | head | tail */
    int d;                    /* vector length */
    int s;                    /* sparsity */
    int g;                    /* components (graph models) */
    const gsfw_graph *graph;  /* required by graph models */
    double delta;             /* target delta of topk-approx / l1 approximations */
    uint64_t seed;            /* randomised oracles */
} cli_model_spec;

/* 1 if the model needs a graph, 0 if not, -1 if the name is unknown. */
int cli_model_needs_graph(const char *model);
/* 1 if this build can construct the model's oracle (head / tail need the PCSF head and
 * tail projections), 0 if not or unknown. */
int cli_model_available(const char *model);
/* Comma-separated list of the known model names, for messages. */
const char *cli_model_names(void);
/* Build the oracle; prints a message naming the problem and returns CLI_FAIL on error. */
int cli_make_dmo(const char *cmd, const cli_model_spec *spec, gsfw_dmo **out);



/* Parse and validate the model flags shared by solve / dmo / recover (the raw strings,
 * NULL when absent), load the graph when the model needs one (graph must then be freed
 * by the caller with gsfw_graph_free), and fill spec. Checks 1 <= s <= d, 1 <= g <= s,
 * that graph models have a graph with d nodes. Returns CLI_OK, CLI_USAGE or CLI_FAIL. */
int cli_setup_model(const char *cmd, const char *model, const char *s_text, const char *g_text,
                    const char *grid_spec, const char *edges_path, const char *delta_text,
                    const char *seed_text, int d, cli_model_spec *spec, gsfw_graph **graph);
#endif
