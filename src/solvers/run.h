/* Per-run bookkeeping shared by every solver: checks of the pieces, per-iterate records
 * (trace, callback, best iterate, certified bound, tolerance), oracle calls with their
 * statistics, moves of the iterate told to the objective, timings. The public entry
 * points (src/solvers/solve.c) set a run up and hand it to one solver loop. */
#ifndef GSFW_SOLVER_RUN_H
#define GSFW_SOLVER_RUN_H

#include "core/internal.h"

/* What ends a run and what is recorded, common to both families' settings. */
typedef struct {
    int max_iter;
    double time_limit;
    double tol, tol_rel;       /* certified-bound tolerance (0, 0: off) */
    const double *x_true;
    gsfw_callback callback;
    void *callback_data;
} gsfw_run_limits;

typedef struct gsfw_run {
    gsfw_objective *obj;
    gsfw_dmo *dmo;             /* the oracle whose support the bound uses (may be NULL) */
    gsfw_run_limits lim;
    gsfw_result *res;
    gsfw_info *info;
    gsfw_err *err;
    int d;
    int incremental;           /* the objective has the incremental hooks */
    double t_setup_begin;      /* when the entry point started */
    double t_start;            /* start of the iterations */
    unsigned char *mark;       /* d bytes, all zero between oracle calls */
    double *scaled;            /* d doubles of scratch for a scaled sparse vector */
    int *top_work;             /* d ints: top-s selection (checks of x0) */
    double *top_values;        /* d doubles: the certified bound's top-s selection */
    /* the current direction d = dir_cx x + u (u = dir_val on dir_idx) from x = dir_x */
    double dir_cx;
    int dir_nnz;
    const int *dir_idx;
    const double *dir_val;
    const double *dir_x;
    double bound_C;            /* radius for the certified bound (0: no bound) */
    double bound0;             /* the first certified bound of the run (NaN before) */
    int check_invariants;      /* tests: active-set loops verify x = sum_i w_i a_i */
    int check_answer;          /* the baselines: gsfw_run_finish checks whether the answer
                                  shows f to have no minimiser */
    const double *refit;       /* the refitting loops: their last refit on a merged support
                                  (d entries, zero off it; NULL before one), which that
                                  check reads too */
    /* objectives without the incremental hooks: the direction materialised */
    double *dir_dense, *x_trial, *g_trial; /* d each, NULL when incremental */
    char code_text[160];       /* gsfw_run_code_text's answer */
} gsfw_run;

/* An oracle fit for a solve over d entries: a select callback, dimension d and
 * 1 <= max_support <= d. role names it in the error ("oracle", "tail projection"). */
gsfw_error gsfw_run_check_oracle(const char *role, const gsfw_dmo *oracle, int d,
                                 gsfw_err *err);
/* The stopping tolerances of every method (the baselines that ignore them too): finite
 * and >= 0, 0 = off. */
gsfw_error gsfw_run_check_tol(double tol, double tol_rel, gsfw_err *err);
/* Check the objective and the limits, allocate the run's scratch, zero info (nothing is
 * touched before every check passed). dmo may be NULL. */
gsfw_error gsfw_run_init(gsfw_run *run, gsfw_objective *obj, gsfw_dmo *dmo,
                         const gsfw_run_limits *lim, gsfw_result *res, gsfw_info *info,
                         gsfw_err *err);
void gsfw_run_free(gsfw_run *run);

/* f and gradient at x (the cached point when incremental). */
gsfw_error gsfw_run_eval(gsfw_run *run, const double *x, double *f, double *grad);
/* Tell the objective the iterate was replaced by x (incremental objectives recompute). */
gsfw_error gsfw_run_reset(gsfw_run *run, const double *x);

/* The failure of a value f(x) that is not finite, naming the likely cause: the point's
 * scale (C) against the data's, or at x = 0 the objective itself. `who` prefixes the
 * message ("" or "pursuit: "). */
gsfw_error gsfw_run_nonfinite_value(gsfw_run *run, const char *who, const double *x, double f);

/* ": what the code means" for a failure code the objective explains (its code_text
 * hook), "" for any other; valid until the next call on this run. */
const char *gsfw_run_code_text(gsfw_run *run, int code);

/* Let the objective prepare minimize_on for supports of up to max_support ids (its
 * reserve hook, when it has one): once, before a loop that calls minimize_on. */
gsfw_error gsfw_run_reserve(gsfw_run *run, int max_support);

/* Add an oracle call's counts to info's totals of the oracle's counters (counters.c). */
void gsfw_info_add_counts(gsfw_info *info, const gsfw_dmo *dmo, const gsfw_dmo_stats *stats);
/* Add part's oracle counters into total, by name (the levels of a multilevel run). */
void gsfw_info_add_info_counts(gsfw_info *total, const gsfw_info *part);
/* Call a support oracle on z, check its output (size, range, distinct ids) and account
 * for its time and statistics. */
gsfw_error gsfw_run_oracle(gsfw_run *run, gsfw_dmo *oracle, const double *z, int *support,
                           int *size);

/* Moves. gsfw_run_direction fixes d = cx x + u (u sparse, the arrays stay valid until
 * the step); gsfw_run_line evaluates f(x + gamma d) and its slope (a gsfw_line_eval);
 * gsfw_run_step moves x (dense, the solver's iterate, the same x given to the direction)
 * to x + gamma d and tells the objective. */
gsfw_error gsfw_run_direction(gsfw_run *run, const double *x, double cx, int nnz,
                              const int *idx, const double *val);
int gsfw_run_line(void *run, double gamma, double *f, double *slope);
gsfw_error gsfw_run_step(gsfw_run *run, double *x, double gamma);
/* x <- alpha x + beta v (v sparse): the step gamma = 1 along (alpha - 1) x + beta v. */
gsfw_error gsfw_run_update(gsfw_run *run, double *x, double alpha, double beta, int nnz,
                           const int *idx, const double *val);
/* Replace x by xnew (dense), telling the objective the sparse difference (idx, val: d
 * entries of scratch). */
gsfw_error gsfw_run_move(gsfw_run *run, double *x, const double *xnew, int *idx, double *val);

/* The certified bound <g, x> + C min(head_norm / delta, ||top_{model_size}(g)||) with g the
 * gradient at x: head_norm = ||g_S|| for the support S the oracle chose on g itself (NaN
 * when it chose on another vector), delta the oracle's proven delta. NaN when neither
 * term is available. */
double gsfw_run_bound(gsfw_run *run, const double *x, const double *grad, double C,
                      double head_norm, double delta);

/* Record iterate t: trace, best iterate, callback; returns 1 when the callback asks to
 * stop. step and active may be NaN / 0. */
int gsfw_run_record(gsfw_run *run, int t, double f, double gap, double bound, double step,
                    int active, const double *x);
/* 1 when the bound meets the tolerance (tol + tol_rel times the run's first bound, which
 * the first call records). */
int gsfw_run_converged(gsfw_run *run, double f, double bound);
/* 1 when the time limit is exceeded. */
int gsfw_run_out_of_time(const gsfw_run *run);
/* Setup is over: info.setup_time = now - t_setup_begin (counted once, everything done
 * since the entry point), and the solve clock starts. */
void gsfw_run_start_clock(gsfw_run *run);
/* Start iteration t at x: refresh the objective's cache periodically, evaluate f and the
 * gradient, and end the run at the iteration or time limit (recording x_t with gap NaN).
 * Returns 1 when the loop must stop: *status is set, or *rc holds an error. */
int gsfw_run_begin_iteration(gsfw_run *run, int t, const double *x, double *f, double *grad,
                             gsfw_status *status, gsfw_error *rc);
/* The smoothness constant: L_given when > 0 (info.L_source = GIVEN), else the objective's
 * lipschitz hook (SPECTRAL); an error naming `who` when neither exists. */
gsfw_error gsfw_run_lipschitz(gsfw_run *run, double L_given, const char *who, double *L);
/* Whether one of points[0..k) (NULL entries skipped) shows f to have no minimiser (the
 * objective's no_minimiser hook; *unbounded = 0 without one). A point equal to the one
 * before it is not checked again: with several processes each check is a sum over them. */
gsfw_error gsfw_run_shows_unbounded(gsfw_objective *obj, const double *const *points, int k,
                                    int *unbounded, gsfw_err *err);
/* Final bookkeeping: last iterate, status, totals. With check_answer, unless the callback
 * stopped the run, the status is GSFW_STATUS_UNBOUNDED when the best iterate, the last
 * one x or the last refit shows f to have no minimiser; a check that fails leaves it. */
void gsfw_run_finish(gsfw_run *run, int t_last, double f_last, const double *x,
                     gsfw_status status);

#endif
