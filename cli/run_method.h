/* One run of a Frank-Wolfe method or a baseline from the settings the commands take from
 * their flags (gsfw solve, gsfw-mpi solve and recover). */
#ifndef GSFW_CLI_RUN_METHOD_H
#define GSFW_CLI_RUN_METHOD_H

#include "gsfw.h"

typedef struct {
    int method;              /* a gsfw_method */
    gsfw_option option;
    int step;                /* a gsfw_step */
    double C, L;             /* L <= 0: estimated by l_rule */
    gsfw_lipschitz_rule l_rule;
    double delta;            /* <= 0: the oracle's */
    int iters;
    double time_limit;       /* <= 0: none */
    double tol, tol_rel;     /* <= 0: not used */
    const double *x0;        /* NULL: x_0 = 0 */
    int polish;
    const double *x_true;    /* NULL: no est_err */
    int reference_compat;    /* baselines: the reference scripts' settings */
} cli_run_opts;

/* gsfw_solve (the Frank-Wolfe methods) or gsfw_baseline_solve (the baselines, which use
 * neither option, step, L_rule, delta, tol, tol_rel, x0 nor polish, and alone use
 * reference_compat; tail may be NULL for those that need no tail oracle) with the
 * settings of o and the given callback. */
gsfw_error cli_run_method(const cli_run_opts *o, gsfw_objective *obj, gsfw_dmo *dmo,
                          gsfw_dmo *tail, gsfw_callback callback, void *callback_data,
                          gsfw_result *res, gsfw_info *info, gsfw_err *err);

#endif
