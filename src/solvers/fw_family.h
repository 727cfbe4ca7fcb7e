/* What the Frank-Wolfe family's loops share once gsfw_solve has set a run up: the
 * resolved step rule (and its per-run state), C, the Option II scale, delta, L. */
#ifndef GSFW_FW_FAMILY_H
#define GSFW_FW_FAMILY_H

#include "core/registry.h"
#include "solvers/run.h"

/* What every method of the family reads (gsfw_entry.uses), and its name in messages. */
#define GSFW_FW_USES "step option tol tol_rel x0 polish polish_iters delta"
#define GSFW_FW_FAMILY "Frank-Wolfe"

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

/* DMO-FW and DMO-AccFW (frank_wolfe.c). x holds x_0 on entry. */
gsfw_error gsfw_fw_loop(gsfw_run *run, gsfw_fw_plan *plan, double *x);
/* Away-step, pairwise and blended pairwise FW (active_set_fw.c). */
gsfw_error gsfw_active_set_loop(gsfw_run *run, gsfw_fw_plan *plan, double *x);
/* Polish (polish.c): project x onto the model with the polish oracle, minimise f on that
 * support, scale into the C-ball; writes x_out and info's polish fields. */
gsfw_error gsfw_polish(gsfw_run *run, gsfw_fw_plan *plan, const double *x, double *x_out);

/* gsfw_solve for the tests: the active-set loops also verify, at every iterate, that x
 * equals the weighted sum of the atoms to 1e-12 (relative to C), that the weights are
 * >= 0 and sum to 1 (1e-12); a violation fails with GSFW_ERR_INTERNAL. Not exported. */
gsfw_error gsfw_solve_checked(gsfw_objective *obj, gsfw_dmo *dmo, const gsfw_settings *settings,
                              gsfw_result *result, gsfw_info *info, gsfw_err *err);

#endif
