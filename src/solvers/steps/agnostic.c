/* The open-loop step 2/(t+2) of the paper's Algorithm 1 (clipped to gamma_max). */
#include "solvers/steps/steps.h"

static int agnostic_choose(void *state, const gsfw_step_query *q, gsfw_line_eval line,
                           void *line_ctx, double *gamma, double *L_estimate)
{
    (void)state;
    (void)line;
    (void)line_ctx;
    (void)L_estimate;
    double eta = 2.0 / (q->iter + 2.0);
    *gamma = eta < q->gamma_max ? eta : q->gamma_max;
    return 0;
}

const gsfw_step_rule gsfw_step_rule_agnostic = {.name = "agnostic", .choose = agnostic_choose};

const gsfw_entry gsfw_entry_step_agnostic = {
    GSFW_KIND_STEP, "agnostic", "2/(t+2), the paper's open-loop step", "", 0, 0,
    &gsfw_step_rule_agnostic, NULL};
