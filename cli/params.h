/* The command line's side of the registry: a flag for every parameter of the kinds a
 * command puts in play ("--" + its name with '-' for '_'; max_iter is --iters and the
 * L_rule values are taken by --L), the values handed to gsfw_spec_set, the spec's
 * messages spelled with those flags, its warnings printed, and the usage lines listing
 * the entries and parameters. Commands spell no method, model, step rule, loss or
 * sensing name: they print what the library lists. */
#ifndef GSFW_CLI_PARAMS_H
#define GSFW_CLI_PARAMS_H

#include <stdio.h>

#include "cli.h"

#define CLI_MAX_PARAMS 64

typedef struct {
    gsfw_spec *spec;
    int n;                                 /* flags below */
    const gsfw_param *param[CLI_MAX_PARAMS];
    char flag[CLI_MAX_PARAMS][32];
    const char *text[CLI_MAX_PARAMS];      /* as given, NULL when absent */
    const char *graph_flag;                /* how messages spell the graph ("--graph" or
                                              "--edges", as given) */
    char spelled[8][40];                   /* spellings handed out (the spec keeps them) */
    int next;
    int n_warned;                          /* warnings of the spec already printed */
    const char *const *required;           /* the parameters the command requires
                                              (NULL-terminated, may be NULL): their help
                                              says so, cli_params_require checks them */
} cli_params;

/* A spec for the kinds in `uses` (GSFW_USES_*) spelling its messages as flags, and one
 * flag per parameter of those kinds except the vectors and those named in skip
 * (NULL-terminated, may be NULL). Returns CLI_OK or CLI_FAIL (message printed). */
int cli_params_init(const char *cmd, cli_params *cp, unsigned uses, const char *const *skip);
void cli_params_free(cli_params *cp);

/* Append the parameters' option entries to opts (room for cp->n); returns cp->n. */
int cli_params_opts(cli_params *cp, cli_opt *opts);
/* The text given for a parameter's flag, or NULL. */
const char *cli_params_text(const cli_params *cp, const char *param);
/* A usage error naming the first parameter of cp->required not given, else CLI_OK. */
int cli_params_require(const char *cmd, const cli_params *cp);
/* Hand every value given to the spec, in the registry's order; a bad value is a usage
 * error with the library's message. */
int cli_params_apply(const char *cmd, cli_params *cp);
/* A vector parameter (x0, x_true) given as a file. */
int cli_params_mark(const char *cmd, cli_params *cp, const char *param, const char *path);

/* gsfw_spec_check, its warnings printed ("gsfw CMD: warning: ..."); CLI_USAGE on error. */
int cli_params_check(const char *cmd, cli_params *cp);
/* gsfw_spec_bind (d unknowns, the graph and tree as loaded), its warnings printed;
 * CLI_FAIL on error. */
int cli_params_bind(const char *cmd, cli_params *cp, int d, const gsfw_graph *graph,
                    const gsfw_tree *tree);
/* Print the spec's warnings not printed yet. */
void cli_params_warn(const char *cmd, cli_params *cp);

/* The name of a CHOICE parameter's value (the first spelling of its code), in buf. */
const char *cli_choice_name(const char *param, int code, char *buf, size_t cap);

/* The entry of a kind in use (named or default). */
const gsfw_entry *cli_entry(const cli_params *cp, gsfw_kind kind);

/* The defaults a recovery (gsfw recover, gsfw-mpi recover) adds to the spec's: polish on
 * for the Frank-Wolfe methods, then --tol-rel 1e-3 and --restarts CLI_RECOVER_RESTARTS
 * unless --iters, --tol or --tol-rel is given; *iters the count given, else the method's
 * typical one, or a cap of CLI_RECOVER_TOL_ITER_CAP when a tolerance decides the stop. */
#define CLI_RECOVER_TOL_ITER_CAP 20000
#define CLI_RECOVER_RESTARTS 10
/* The --help lines of the parameters whose defaults cli_params_recovery_defaults sets (and
 * --C, whose default is x*'s unit norm), shared by gsfw recover and gsfw-mpi recover;
 * CLI_RECOVER_DESCRIBED lists them for cli_usage_text. */
#define CLI_STRINGIFY_(x) #x
#define CLI_STRINGIFY(x) CLI_STRINGIFY_(x)
#define CLI_RECOVER_RUN_HELP                                                                \
    "  --C C             radius of D(C, M) (default ||x*|| = 1)\n"                         \
    "  --iters T         iterations (default: the method's typical count, from 50 to 500)\n" \
    "  --tol, --tol-rel  stop the Frank-Wolfe methods on the certified bound; without\n"    \
    "                    --iters the cap is then " CLI_STRINGIFY(CLI_RECOVER_TOL_ITER_CAP)    \
    " iterations\n"                                                                      \
    "  --polish on|off   Frank-Wolfe methods: return the best iterate projected onto the\n"  \
    "                    model and refitted (default on; then --tol-rel 1e-3 and\n"         \
    "                    --restarts " CLI_STRINGIFY(CLI_RECOVER_RESTARTS)                  \
    " unless --iters, --tol or --tol-rel is given)\n"
#define CLI_RECOVER_DESCRIBED "C", "max_iter", "tol", "tol_rel", "polish"
int cli_params_recovery_defaults(const char *cmd, cli_params *cp, int *iters);

/* Usage lines: one per entry of a kind ("  NAME  summary"), and one per parameter flag
 * with its help. */
void cli_usage_entries(FILE *out, gsfw_kind kind, const char *indent);
void cli_usage_params(FILE *out, const cli_params *cp, const char *const *skip);

/* 1 if the command line asks for the usage text (--help or -h): it is composed only
 * then. */
int cli_asks_help(int argc, char **argv);
/* A usage text: head, the parameters' lines (but those in skip), the entries of every
 * kind the spec puts in play, tail. malloc'ed; NULL when out of memory. */
char *cli_usage_text(const char *head, const cli_params *cp, const char *const *skip,
                     const char *tail);

/* `gsfw help KIND`: one line per entry of the kind; `gsfw help params`: every
 * parameter. Returns CLI_OK, or CLI_USAGE for an unknown topic. */
int cli_help_topic(const char *topic);

#endif
