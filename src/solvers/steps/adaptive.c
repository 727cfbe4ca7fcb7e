/* Backtracking on a local smoothness estimate (Pedregosa, Negiar, Askari & Jaggi,
 * AISTATS 2020). Each step first lowers the previous estimate by ETA (optimism), then
 * doubles it until the quadratic model f + gamma slope + gamma^2 M ||d||^2 / 2 with the
 * short step for M bounds f(x + gamma d). Every accepted step decreases f, no L is
 * needed, and the estimate never exceeds TAU times the true L (or the first estimate). */
#include "solvers/steps/steps.h"

#include <math.h>

#define ETA 0.9
#define TAU 2.0
#define MAX_TRIES 64

typedef struct {
    double M; /* the local estimate carried between steps (0 before the first step) */
} adaptive_state;

/* First estimate: the change of the slope over a short step, else the run's L, else 1. */
static int first_estimate(const gsfw_step_query *q, gsfw_line_eval line, void *line_ctx,
                          double *M)
{
    double eps = 1e-3 * (q->gamma_max < 1.0 ? q->gamma_max : 1.0), slope_eps = 0.0;
    int rc = line(line_ctx, eps, NULL, &slope_eps);
    if (rc) return rc;
    double m = (slope_eps - q->slope) / (eps * q->d_norm2);
    if (!(m > 0) || !isfinite(m)) m = q->L > 0 ? q->L : 1.0;
    *M = m;
    return 0;
}

static int adaptive_choose(void *state, const gsfw_step_query *q, gsfw_line_eval line,
                           void *line_ctx, double *gamma, double *L_estimate)
{
    adaptive_state *st = state;
    *gamma = 0.0;
    if (!(q->slope < 0) || !(q->d_norm2 > 0) || !(q->gamma_max > 0)) return 0;
    int rc;
    if (!(st->M > 0) && (rc = first_estimate(q, line, line_ctx, &st->M))) return rc;
    const double gap = -q->slope;
    double M = ETA * st->M;
    for (int k = 0; k < MAX_TRIES; k++) {
        double g = gap / (M * q->d_norm2);
        if (g > q->gamma_max) g = q->gamma_max;
        double f_new = 0.0;
        if ((rc = line(line_ctx, g, &f_new, NULL))) return rc;
        double model = q->f - g * gap + 0.5 * g * g * M * q->d_norm2;
        /* a relative slack of a few ulps of f: the model and f(x + gamma d) are both
         * computed in floating point */
        if (f_new <= model + 4.0 * 2.220446049250313e-16 * fabs(q->f)) {
            *gamma = g;
            st->M = M;
            *L_estimate = M;
            return 0;
        }
        M *= TAU;
    }
    /* no decrease found at any scale (f is not smooth there, or the slope is rounding
     * noise): stay */
    st->M = M;
    *L_estimate = M;
    return 0;
}

const gsfw_step_rule gsfw_step_rule_adaptive = {.name = "adaptive",
                                                .state_size = sizeof(adaptive_state),
                                                .choose = adaptive_choose,
                                                .estimates_L = 1};

const gsfw_entry gsfw_entry_step_adaptive = {
    GSFW_KIND_STEP, "adaptive",
    "backtracking on a local L (Pedregosa et al. 2020): no L needed, f decreases", "L L_rule",
    0, 0, &gsfw_step_rule_adaptive, NULL};
