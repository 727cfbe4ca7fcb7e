/* One level of graph subspace pursuit (pursuit_level.c), run by the public entry points
 * of multilevel.c. Not public API. */
#ifndef GSFW_PURSUIT_LEVEL_H
#define GSFW_PURSUIT_LEVEL_H

#include "solvers/run.h"

typedef struct {
    const gsfw_pursuit_settings *set;
    int level;              /* passed to the callback */
    int inner_iters;        /* minimize_on iterations per refit */
    double stall;           /* progress threshold of this level */
    int patience;           /* iterations without progress that end this level */
    double time_limit;      /* seconds left for this level (<= 0: none) */
    const double *x_true;   /* NULL on coarse levels */
    const double *start;    /* d entries or NULL (0) */
    int check_answer;       /* the finest level: its answer is checked for a loss without a
                               minimiser (a coarse level's answer is only a start) */
} gsfw_pursuit_plan;

/* Pursuit on one level from plan->start. result->x_best must hold obj->d entries (the
 * best iterate); x_last, the trace and x_polished are optional. info is this level's own
 * (zeroed here). */
gsfw_error gsfw_pursuit_level(gsfw_objective *obj, gsfw_dmo *head, gsfw_dmo *tail,
                              const gsfw_pursuit_plan *plan, gsfw_result *result,
                              gsfw_info *info, gsfw_err *err);

#endif
