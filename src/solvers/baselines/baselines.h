/* Internal interface of the baseline solvers (IHT, CoSaMP, Graph-IHT, Graph-CoSaMP,
 * Gen-MP). Not public API. */
#ifndef GSFW_BASELINES_H
#define GSFW_BASELINES_H

#include "core/registry.h"
#include "solvers/run.h"

/* ---------------------------------------------------------------- solvers */

/* The loops, dispatched by gsfw_baseline_solve (src/solvers/solve.c): head is the
 * identification oracle, tail the pruning projection (the head when none was given). */
gsfw_error gsfw_solve_iht(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head,
                          gsfw_dmo *tail);
gsfw_error gsfw_solve_cosamp(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head,
                             gsfw_dmo *tail);
gsfw_error gsfw_solve_gen_mp(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head);

/* An oracle of the model of base (or of the model called model, when not NULL) with
 * sparsity s and g components, clamped to 1 <= s <= d, 1 <= g <= s; tail: the model's
 * tail projection (gsfw_model_def.tail) rather than its head. */
gsfw_error gsfw_baseline_make(const gsfw_model_spec *base, const char *model, int tail, int s,
                              int g, gsfw_dmo **out, gsfw_err *err);

/* Whether the best or the last iterate of res shows that f has no minimiser (the
 * objective's no_minimiser hook; *unbounded = 0 for an objective without one): the check
 * of the answer by which the baselines' runs report GSFW_STATUS_UNBOUNDED unless the
 * callback stopped them (gsfw_run_finish, which also reads CoSaMP's last refit), and
 * which gsfw-mpi runs itself when its time limit, a callback stop, did. */
gsfw_error gsfw_baseline_answer_unbounded(gsfw_objective *obj, const gsfw_result *res,
                                          int *unbounded, gsfw_err *err);

/* The family name of the baselines in messages. */
#define GSFW_BASELINE_FAMILY "baseline"

#endif
