/* Armijo backtracking: from the longest feasible step, halve gamma until f(x + gamma d)
 * <= f(x) + c gamma <grad f(x), d> (c = 1e-4). No L needed, f never increases, one
 * objective evaluation along d per trial (O(n) for a loss over an operator); 0 when d is
 * not a descent direction. Cruder than the line search on quadratics, but it takes long
 * steps early, where the open-loop 2/(t+2) is timid. */
#include "solvers/steps/steps.h"

#define ARMIJO_C 1e-4
#define ARMIJO_HALVINGS 60

static int armijo_choose(void *state, const gsfw_step_query *q, gsfw_line_eval line,
                         void *line_ctx, double *gamma, double *L_estimate)
{
    (void)state;
    (void)L_estimate;
    *gamma = 0.0;
    if (!(q->slope < 0) || !(q->gamma_max > 0)) return 0;
    double g = q->gamma_max;
    for (int k = 0; k < ARMIJO_HALVINGS; k++, g *= 0.5) {
        double f;
        int rc = line(line_ctx, g, &f, NULL);
        if (rc) return rc;
        if (f <= q->f + ARMIJO_C * g * q->slope) {
            *gamma = g;
            return 0;
        }
    }
    return 0;
}

static const gsfw_step_rule armijo = {.name = "armijo", .choose = armijo_choose};

const gsfw_entry gsfw_entry_step_armijo = {
    GSFW_KIND_STEP, "armijo",
    "backtracking from the longest feasible step until f decreases enough (no L needed)", "",
    0, 0, &armijo, NULL};
