/* The flags that `gsfw solve` and `gsfw-mpi solve` share: their option table and the
 * checks made on them before any file is read. */
#ifndef GSFW_CLI_SOLVE_ARGS_H
#define GSFW_CLI_SOLVE_ARGS_H

#include <stdio.h>

#include "cli.h"
#include "models.h"
#include "run_method.h"

typedef struct {
    /* the flags as given (NULL when absent) */
    const char *a_path, *y_path, *model, *s_text, *g_text, *grid, *edges, *c_text,
        *method_text, *option_text, *delta_text, *l_text, *iters_text, *trace_path,
        *out_path, *best_path, *xtrue_path, *seed_text, *time_text, *step_text, *tol_text,
        *x0_path, *polish_text, *tol_rel_text, *loss_text, *huber_text, *intercept_flag;
    const char *pol_path; /* --polished-out: in gsfw solve's table only */
    /* the values, set by cli_solve_check (run.x0 and run.x_true: the caller's) */
    cli_run_opts run;
    int baseline;
    gsfw_loss_options loss;
    cli_model_spec spec;
} cli_solve_args;

/* How many entries cli_solve_opts writes. */
#define CLI_SOLVE_NOPTS 27

/* Clear *a and write the shared flags, bound to its fields, to opts[0..CLI_SOLVE_NOPTS-1];
 * a command appends its own flags after them. */
void cli_solve_opts(cli_solve_args *a, cli_opt *opts);

/* The checks of the parsed flags, in gsfw solve's order: the required flags, --C,
 * --method, the Frank-Wolfe flags, --option, --L, --iters, --time-limit, the loss flags,
 * the model flags. Returns CLI_OK or CLI_USAGE (message printed). */
int cli_solve_check(const char *cmd, cli_solve_args *a);

/* --x-true (d finite entries) and --x0 (d entries), read once d is known; each stays
 * NULL when not given (free with gsfw_free, also after a failure). Returns CLI_OK or
 * CLI_FAIL (message printed). */
int cli_solve_load_vectors(const char *cmd, const cli_solve_args *a, int d, double **x_true,
                           double **x0);

/* " intercept=B" for a loss with an intercept (the one of the objective at x), "" for
 * the others. */
gsfw_error cli_intercept_field(const gsfw_loss_options *loss, gsfw_objective *obj,
                               const double *x, char *out, size_t cap, gsfw_err *err);

/* The fields the summary lines of gsfw solve and gsfw-mpi solve begin with, "method=..
 * best_iter=N " (a space last); intercept as from cli_intercept_field, status the name
 * reported. */
void cli_solve_print_head(FILE *fp, const cli_solve_args *a, const char *intercept,
                          const char *status, const gsfw_info *info);

#endif
