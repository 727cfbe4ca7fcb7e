/* A step rule of one's own, in one file: the parabola through f(x), the slope
 * <grad f(x), d> and f(x + gamma_max d), minimised over [0, gamma_max]. One evaluation
 * along d per step (the objective keeps A x and A d: O(n) for a loss over an operator);
 * exact on quadratics, a good guess on smooth losses. The solver allocates the rule's
 * state (none here) per run, so one rule serves concurrent solves.
 *
 * The rule is added to a spec as an entry of the caller's and chosen by name, as the
 * built-in rules are; a logistic regression over a sparse support compares it with the
 * paper's open-loop 2/(t+2) at the same number of iterations.
 * Build after `make install`:
 *   cc extend_step.c $(pkg-config --cflags --libs gsfw) -lm -o extend_step
 */
#include <math.h>
#include <stdio.h>

#include "gsfw.h"

static int parabola_choose(void *state, const gsfw_step_query *q, gsfw_line_eval line,
                           void *line_ctx, double *gamma, double *L_estimate)
{
    (void)state;
    (void)L_estimate;
    *gamma = 0.0;
    if (!(q->slope < 0) || !(q->gamma_max > 0)) return 0; /* not a descent direction */
    const double g = q->gamma_max;
    double f_end;
    int rc = line(line_ctx, g, &f_end, NULL);
    if (rc) return rc;
    /* f(x + t d) ~ f + slope t + a t^2 with a from the far end */
    const double a = (f_end - q->f - q->slope * g) / (g * g);
    *gamma = a > 0 ? fmin(g, -q->slope / (2.0 * a)) : g;
    return 0;
}

static const gsfw_step_rule parabola = {.name = "parabola", .choose = parabola_choose};

static const gsfw_entry parabola_entry = {
    GSFW_KIND_STEP, "parabola", "the minimiser of the parabola through f, its slope and f at "
    "gamma_max", "", 0, 0, &parabola, NULL};

enum { N = 200, D = 50 };

/* f after 50 iterations of DMO-FW with the named step rule */
static int run(const char *step, const double *A, const double *labels, double *f_out)
{
    gsfw_spec *spec = NULL;
    gsfw_err err;
    gsfw_objective *f = NULL;
    gsfw_dmo *dmo = NULL;
    int rc = 1;
    if (gsfw_spec_create(GSFW_USES_SOLVE, &spec, &err) ||
        gsfw_spec_add_entry(spec, &parabola_entry, &err) ||
        gsfw_spec_set(spec, "step", step, &err) || gsfw_spec_set(spec, "method", "fw", &err) ||
        gsfw_spec_set(spec, "loss", "logistic", &err) ||
        gsfw_spec_set(spec, "model", "topk", &err) || gsfw_spec_set(spec, "s", "6", &err) ||
        gsfw_spec_set(spec, "C", "10", &err) || gsfw_spec_set(spec, "max_iter", "50", &err) ||
        gsfw_spec_check(spec, &err) || gsfw_spec_bind(spec, D, NULL, NULL, &err) ||
        gsfw_spec_objective_dense(spec, N, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, labels, &f,
                                  &err) ||
        gsfw_spec_oracles(spec, &dmo, NULL, &err)) {
        fprintf(stderr, "%s: %s\n", step, err.message);
        goto done;
    }
    gsfw_settings settings;
    gsfw_spec_settings(spec, &settings);
    gsfw_result result = {0};
    gsfw_info info;
    if (gsfw_spec_solve(spec, f, dmo, NULL, &settings, &result, &info, &err)) {
        fprintf(stderr, "%s: %s\n", step, err.message);
        goto done;
    }
    printf("step=%s f=%.4f\n", info.step_rule->name, info.f_last);
    *f_out = info.f_last;
    rc = 0;
done:
    gsfw_dmo_free(dmo);
    gsfw_objective_free(f);
    gsfw_spec_free(spec);
    return rc;
}

int main(void)
{
    static double A[N * D], labels[N];
    unsigned state = 99u;
    for (int i = 0; i < N; i++) {
        double m = 0.0;
        for (int j = 0; j < D; j++) {
            state = state * 1103515245u + 12345u;
            A[i * D + j] = (double)(state >> 8) / 16777216.0 - 0.5;
            if (j % 9 == 0) m += A[i * D + j] * (j % 2 ? 2.0 : -2.0); /* 6 planted weights */
        }
        labels[i] = m >= 0 ? 1.0 : -1.0;
    }
    double f_open, f_parabola;
    if (run("agnostic", A, labels, &f_open) || run("parabola", A, labels, &f_parabola)) return 1;
    return f_parabola < f_open ? 0 : 1;
}
