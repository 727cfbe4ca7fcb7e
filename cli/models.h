/* The inputs of the support model a command line names (--model and its parameters are
 * registry flags, params.h): the graph of --graph / --edges / --nodes and the tree of
 * --tree, the model's oracles. Shared by gsfw solve, gsfw dmo and gsfw-mpi solve. */
#ifndef GSFW_CLI_MODELS_H
#define GSFW_CLI_MODELS_H

#include "gsfw.h"
#include "params.h"

/* The graph and tree flags as given (NULL when absent). */
typedef struct {
    const char *grid, *edges, *nodes_text, *tree_spec;
    int nodes; /* --nodes N (0: not stated) */
} cli_model_flags;

/* Before any file is read: --nodes, and a tree model needs --tree while other models
 * refuse it. Also tells the spec how to spell the graph. Returns CLI_OK or CLI_USAGE. */
int cli_model_check_flags(const char *cmd, cli_params *cp, cli_model_flags *f);

/* Once the dimension d is known: the graph the model needs (or one given to a model that
 * needs none, still checked), the tree, and the spec bound to them. *graph and *tree are
 * freed by the caller. Returns CLI_OK, CLI_USAGE (a graph model without a graph) or
 * CLI_FAIL. */
int cli_model_inputs(const char *cmd, cli_params *cp, const cli_model_flags *f, int d,
                     gsfw_graph **graph, gsfw_tree **tree);

/* The oracles of the method over the model (gsfw_spec_oracles), refused first when
 * their memory (the library's estimate) exceeds what the run may use. Returns CLI_OK or
 * CLI_FAIL (message printed). */
int cli_model_oracles(const char *cmd, cli_params *cp, const gsfw_graph *graph,
                      gsfw_dmo **dmo, gsfw_dmo **tail);

#endif
