/* The flags that `gsfw solve` and `gsfw-mpi solve` share: the files, the registry's
 * parameters of the methods, models, step rules and losses (params.h), and the checks
 * made on them before any file is read. */
#ifndef GSFW_CLI_SOLVE_ARGS_H
#define GSFW_CLI_SOLVE_ARGS_H

#include <stdio.h>

#include "cli.h"
#include "models.h"
#include "params.h"

typedef struct {
    /* the file flags as given (NULL when absent) */
    const char *a_path, *y_path, *trace_path, *out_path, *best_path, *xtrue_path, *x0_path;
    const char *pol_path;  /* --polished-out: in gsfw solve's table only */
    cli_model_flags model; /* --graph, --edges, --nodes, --tree */
    cli_params params;     /* the registry's flags and the spec */
} cli_solve_args;

/* How many file flags cli_solve_opts writes before the parameters' flags. */
#define CLI_SOLVE_FILE_OPTS 11
/* Room for every option of a solve command (the command's own after these). */
#define CLI_SOLVE_MAX_OPTS (CLI_SOLVE_FILE_OPTS + CLI_MAX_PARAMS + 8)

/* Clear *a, make its spec, and write the shared flags bound to its fields to opts; returns
 * their number (a command appends its own after them), or -1 with a message printed. */
int cli_solve_opts(const char *cmd, cli_solve_args *a, cli_opt *opts);
void cli_solve_args_free(cli_solve_args *a);

/* The usage text of a solve command: `head` (its synopsis and description), the files
 * and then `own_files` (the command's own file flags; may be NULL), the registry's
 * parameters, the methods, models, step rules and losses, and `extra` (the command's
 * other flags, then the summary's fields). Returned malloc'ed (NULL when out of
 * memory). */
char *cli_solve_usage(const cli_solve_args *a, const char *head, const char *own_files,
                      const char *extra);

/* The checks of the parsed flags: the required ones, every parameter's value, their
 * combination (the spec's warnings printed). Returns CLI_OK or CLI_USAGE. */
int cli_solve_check(const char *cmd, cli_solve_args *a);

/* --x-true (d finite entries) and --x0 (d entries), read once d is known; each stays
 * NULL when not given (free with gsfw_free, also after a failure). Returns CLI_OK or
 * CLI_FAIL (message printed). */
int cli_solve_load_vectors(const char *cmd, const cli_solve_args *a, int d, double **x_true,
                           double **x0);

/* " intercept=B" when the loss fits an intercept (the one of the objective at x), "" for
 * the others. */
gsfw_error cli_intercept_field(const cli_solve_args *a, gsfw_objective *obj, const double *x,
                               char *out, size_t cap, gsfw_err *err);

/* The fields the summary lines of gsfw solve and gsfw-mpi solve begin with, "method=..
 * best_iter=N " (a space last); intercept as from cli_intercept_field, status the name
 * reported. */
void cli_solve_print_head(FILE *fp, const cli_solve_args *a, const char *intercept,
                          const char *status, const gsfw_info *info);

/* A baseline's answer that separates the labels (GSFW_STATUS_UNBOUNDED): one line on
 * stderr that says so and names the bounded alternative; nothing for any other status. */
void cli_solve_warn_unbounded(const char *cmd, const cli_solve_args *a, const gsfw_info *info);

#endif
