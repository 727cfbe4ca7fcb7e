/* Bookkeeping shared by every solver: settings validation, per-iterate records (trace,
 * callback, best iterate), oracle calls with statistics, timings. */
#ifndef GSFW_SOLVER_RUN_H
#define GSFW_SOLVER_RUN_H

#include "core/internal.h"

typedef struct {
    gsfw_objective *obj;
    gsfw_dmo *dmo;
    const gsfw_settings *set;
    gsfw_result *res;
    gsfw_info *info;
    gsfw_err *err;
    int d;
    double t_start;        /* start of the iterations */
    unsigned char *mark;   /* d bytes, all zero between oracle calls */
    double *scaled;        /* d doubles: scratch for a scaled sparse vector */
    int incremental;       /* objective has the incremental hooks */
} gsfw_run;

/* Validate what all solvers share; fills run and zeroes info. */
/* An oracle fit for a solve over d entries: a select callback, dimension d and
 * 1 <= max_support <= d. role names it in the error ("oracle", "tail projection"). */
gsfw_error gsfw_run_check_oracle(const char *role, const gsfw_dmo *oracle, int d,
                                 gsfw_err *err);
gsfw_error gsfw_run_init(gsfw_run *run, gsfw_objective *obj, gsfw_dmo *dmo,
                         const gsfw_settings *set, gsfw_result *res, gsfw_info *info,
                         gsfw_err *err);
void gsfw_run_free(gsfw_run *run);

/* f and gradient at x (cached point when incremental). */
gsfw_error gsfw_run_eval(gsfw_run *run, const double *x, double *f, double *grad);
/* Tell the objective x was replaced (incremental objectives recompute their cache). */
gsfw_error gsfw_run_reset(gsfw_run *run, const double *x);
/* Tell the objective x <- alpha x + beta v (v sparse); no-op for plain objectives. */
gsfw_error gsfw_run_update(gsfw_run *run, double alpha, double beta, int nnz, const int *idx,
                           const double *val);

/* Call a support oracle on z, check its output (size, range, distinct ids) and account
 * for its time and statistics. */
gsfw_error gsfw_run_oracle(gsfw_run *run, gsfw_dmo *oracle, const double *z, int *support,
                           int *size);

/* Record iterate t (f, gap, x): trace, best iterate, callback. Returns 1 when the
 * callback asks to stop. */
int gsfw_run_record(gsfw_run *run, int t, double f, double gap, const double *x);
/* 1 when the time limit is exceeded. */
int gsfw_run_out_of_time(const gsfw_run *run);
/* Start the iterations at x_0: give the objective its point (incremental objectives
 * compute their cache), add the time since t_setup_begin to the setup time and start the
 * solve clock. */
gsfw_error gsfw_run_start(gsfw_run *run, const double *x0, double t_setup_begin);
/* The clock part alone, for a solver that has already given the objective x_0 (and used
 * it during setup). */
void gsfw_run_start_clock(gsfw_run *run, double t_setup_begin);
/* Start iteration t at x: refresh the objective's cache periodically, evaluate f and the
 * gradient, and end the run at the iteration or time limit (recording x_t with gap NaN).
 * Returns 1 when the loop must stop: *status is set, or *rc holds an error. */
int gsfw_run_begin_iteration(gsfw_run *run, int t, const double *x, double *f, double *grad,
                             gsfw_status *status, gsfw_error *rc);
/* The smoothness constant: settings.L when > 0, else the objective's estimate (recorded
 * in info.L / info.L_estimated; the estimate's time counts as setup). */
gsfw_error gsfw_run_lipschitz(gsfw_run *run, double *L);
/* Final bookkeeping: last iterate, status, totals. */
void gsfw_run_finish(gsfw_run *run, int t_last, double f_last, const double *x,
                     gsfw_status status);

/* Solvers. */
gsfw_error gsfw_solve_frank_wolfe(gsfw_run *run);
/* Baselines (src/solvers/baselines): IHT and Graph-IHT, CoSaMP and Graph-CoSaMP, Gen-MP. */
gsfw_error gsfw_solve_iht(gsfw_run *run);
gsfw_error gsfw_solve_cosamp(gsfw_run *run);
gsfw_error gsfw_solve_gen_mp(gsfw_run *run);

#endif
