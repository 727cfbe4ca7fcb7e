/* The short step (Demyanov-Rubinov): the minimiser over [0, gamma_max] of the quadratic
 * upper bound f + gamma slope + gamma^2 L ||d||^2 / 2. Never worse than the open-loop step
 * in that bound, so every rate of the paper survives; 0 when d is not a descent
 * direction (an inexact oracle can return such an atom). */
#include "solvers/steps/steps.h"

static int short_choose(void *state, const gsfw_step_query *q, gsfw_line_eval line,
                        void *line_ctx, double *gamma, double *L_estimate)
{
    (void)state;
    (void)line;
    (void)line_ctx;
    (void)L_estimate;
    if (!(q->slope < 0) || !(q->d_norm2 > 0) || !(q->L > 0)) {
        *gamma = 0.0;
        return 0;
    }
    double g = -q->slope / (q->L * q->d_norm2);
    *gamma = g < q->gamma_max ? g : q->gamma_max;
    return 0;
}

const gsfw_step_rule gsfw_step_rule_short = {.name = "short", .needs_L = 1, .choose = short_choose};

const gsfw_entry gsfw_entry_step_short = {
    GSFW_KIND_STEP, "short", "min(gamma_max, -<grad, d> / (L ||d||^2)): needs L", "L L_rule", 0,
    0, &gsfw_step_rule_short, NULL};
