/* What the Frank-Wolfe family's loops share once gsfw_solve has set a run up (the
 * plan: the resolved step rule and its per-run state, C, the Option II scale, delta, L),
 * and the two steps every loop takes through it. The loops call these, never their
 * dispatcher (solve.c). */
#ifndef GSFW_FW_STEP_H
#define GSFW_FW_STEP_H

#include "solvers/run.h"

typedef struct gsfw_fw_plan {
    const gsfw_settings *set;
    const gsfw_step_rule *rule;
    void *rule_state;     /* rule->state_size zeroed bytes */
    double C;
    double delta;         /* Option II scale and the bound's delta (0: none proven) */
    double scale;         /* 1, or 1/delta for Option II */
    double L;             /* resolved smoothness (0 when nothing needs it) */
    int needs_L;          /* AccFW or a rule that needs L */
} gsfw_fw_plan;

/* The step along the direction fixed by gsfw_run_direction: asks the plan's rule.
 * f, slope = <grad, d>, d_norm2, gamma_max describe the step. Updates info.L with the
 * adaptive rule's estimate. */
gsfw_error gsfw_fw_choose_step(gsfw_run *run, gsfw_fw_plan *plan, int t, double f,
                               double slope, double d_norm2, double gamma_max, double *gamma);

/* L by GSFW_L_ATOM from x: the curvature of f along v_0 - x, v_0 = -C g_S/||g_S|| the FW
 * atom of the gradient g at x (S = DMO(g)); falls back to the spectral estimate when it is
 * not positive and finite. grad, support, atom are scratch (d, max_support, max_support). */
gsfw_error gsfw_fw_atom_curvature(gsfw_run *run, gsfw_fw_plan *plan, double *x, double *grad,
                                  int *support, double *atom, double *L);

#endif
