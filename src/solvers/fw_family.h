/* The Frank-Wolfe family's loops, which gsfw_solve (solve.c) sets up and dispatches to;
 * what they share is in fw_step.h. */
#ifndef GSFW_FW_FAMILY_H
#define GSFW_FW_FAMILY_H

#include "core/registry.h"
#include "solvers/fw_step.h"

/* What every method of the family reads (gsfw_entry.uses), and its name in messages. */
#define GSFW_FW_USES "step option tol tol_rel x0 polish polish_iters delta"
#define GSFW_FW_FAMILY "Frank-Wolfe"

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
