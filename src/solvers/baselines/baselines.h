/* Internal interface of the baseline solvers (IHT, CoSaMP, Graph-IHT, Graph-CoSaMP,
 * Gen-MP). Not public API. */
#ifndef GSFW_BASELINES_H
#define GSFW_BASELINES_H

#include "solvers/run.h"

/* ---------------------------------------------------------------- solvers */

/* The loops, dispatched by gsfw_baseline_solve (src/solvers/solve.c): head is the
 * identification oracle, tail the pruning projection (the head when none was given). */
gsfw_error gsfw_solve_iht(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head,
                          gsfw_dmo *tail);
gsfw_error gsfw_solve_cosamp(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head,
                             gsfw_dmo *tail);
gsfw_error gsfw_solve_gen_mp(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head);

#endif
