/* Exact line search over [0, gamma_max]. For a quadratic objective f(x + gamma d) is a
 * parabola: its curvature is the change of the slope over gamma = 1, one evaluation along
 * d. Otherwise phi'(gamma) is increasing (f convex): if phi'(gamma_max) <= 0 the end is
 * optimal, else a safeguarded secant (Illinois regula falsi) brackets the root of phi'. */
#include "solvers/steps/steps.h"

#include <math.h>

#define MAX_EVALS 30
#define SLOPE_RTOL 1e-10

static int line_choose(void *state, const gsfw_step_query *q, gsfw_line_eval line,
                       void *line_ctx, double *gamma, double *L_estimate)
{
    (void)state;
    *gamma = 0.0;
    if (!(q->slope < 0) || !(q->gamma_max > 0)) return 0;
    int rc;
    if (q->quadratic) {
        double s1 = 0.0;
        if ((rc = line(line_ctx, 1.0, NULL, &s1))) return rc;
        double curv = s1 - q->slope; /* = phi'' */
        if (!(curv > 0)) {
            *gamma = q->gamma_max;
            return 0;
        }
        double g = -q->slope / curv;
        *gamma = g < q->gamma_max ? g : q->gamma_max;
        if (q->d_norm2 > 0) *L_estimate = curv / q->d_norm2;
        return 0;
    }
    double a = 0.0, sa = q->slope, b = q->gamma_max, sb = 0.0;
    if ((rc = line(line_ctx, b, NULL, &sb))) return rc;
    if (sb <= 0) {
        *gamma = b;
        return 0;
    }
    int side = 0;
    double g = b;
    for (int k = 0; k < MAX_EVALS; k++) {
        g = a - sa * (b - a) / (sb - sa);
        if (!(g > a && g < b)) g = 0.5 * (a + b);
        double sg = 0.0;
        if ((rc = line(line_ctx, g, NULL, &sg))) return rc;
        if (fabs(sg) <= SLOPE_RTOL * fabs(q->slope)) break;
        if (sg < 0) {
            a = g;
            sa = sg;
            if (side == -1) sb *= 0.5;
            side = -1;
        } else {
            b = g;
            sb = sg;
            if (side == 1) sa *= 0.5;
            side = 1;
        }
        if (b - a <= 1e-15 * b) break;
    }
    *gamma = g;
    return 0;
}

const gsfw_step_rule gsfw_step_rule_line = {.name = "line", .choose = line_choose};

const gsfw_entry gsfw_entry_step_line = {
    GSFW_KIND_STEP, "line",
    "exact line search (closed form on quadratics, safeguarded secant otherwise)", "", 0, 0,
    &gsfw_step_rule_line, NULL};
