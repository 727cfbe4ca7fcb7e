/* The step of a Frank-Wolfe loop through its plan's rule, and L by the first atom's
 * curvature (fw_step.h). */
#include "solvers/fw_step.h"
#include "util/vec.h"

#include <math.h>

gsfw_error gsfw_fw_choose_step(gsfw_run *run, gsfw_fw_plan *plan, int t, double f,
                               double slope, double d_norm2, double gamma_max, double *gamma)
{
    gsfw_step_query q;
    q.iter = t;
    q.f = f;
    q.slope = slope;
    q.d_norm2 = d_norm2;
    q.gamma_max = gamma_max;
    q.L = plan->L;
    q.quadratic = run->obj->quadratic;
    double L_est = NAN;
    *gamma = 0.0;
    int rc = plan->rule->choose(plan->rule_state, &q, gsfw_run_line, run, gamma, &L_est);
    if (rc)
        return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the step rule '%s' failed (code %d)",
                         plan->rule->name ? plan->rule->name : "?", rc);
    if (!(*gamma >= 0 && *gamma <= gamma_max))
        return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the step rule '%s' returned gamma = %g, "
                         "outside [0, %g]", plan->rule->name ? plan->rule->name : "?", *gamma,
                         gamma_max);
    if (plan->rule->estimates_L && L_est > 0 && !plan->needs_L)
        run->info->L = L_est;
    return GSFW_OK;
}

gsfw_error gsfw_fw_atom_curvature(gsfw_run *run, gsfw_fw_plan *plan, double *x, double *grad,
                                  int *support, double *atom, double *L)
{
    const int d = run->d;
    double f0;
    gsfw_error rc = gsfw_run_eval(run, x, &f0, grad);
    if (rc) return rc;
    int size = 0;
    rc = gsfw_run_oracle(run, run->dmo, grad, support, &size);
    if (rc) return rc;
    const double nrm = gsfw_vec_nrm2_on(size, support, grad);
    if (nrm > 0) {
        double coef = -plan->C / nrm;
        double dir2 = 0.0, slope = 0.0, xv = 0.0, xx = 0.0, vv = 0.0, gx = 0.0;
        for (int k = 0; k < size; k++) {
            atom[k] = coef * grad[support[k]];
            xv += x[support[k]] * atom[k];
            vv += atom[k] * atom[k];
            slope += grad[support[k]] * atom[k];
        }
        for (int i = 0; i < d; i++) {
            xx += x[i] * x[i];
            gx += grad[i] * x[i];
        }
        dir2 = xx - 2.0 * xv + vv;
        slope -= gx; /* <g, v - x> */
        double f1 = 0.0;
        rc = gsfw_run_direction(run, x, -1.0, size, support, atom);
        if (rc) return rc;
        int lr = gsfw_run_line(run, 1.0, &f1, NULL);
        if (lr)
            return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the objective failed (code %d%s) "
                             "evaluating the first atom", lr, gsfw_run_code_text(run, lr));
        double curv = dir2 > 0 ? 2.0 * (f1 - f0 - slope) / dir2 : NAN;
        if (curv > 0 && isfinite(curv)) {
            *L = curv;
            run->info->L = curv;
            run->info->L_source = GSFW_L_ATOM;
            return GSFW_OK;
        }
    }
    const char *method = gsfw_method_name(plan->set->method);
    if (!(nrm > 0) && !run->obj->lipschitz) /* the cause is the atom, not a missing L */
        return gsfw_fail(run->err, GSFW_ERR_INVALID_ARG, "solve: %s estimates L along its "
                         "first atom, but the oracle '%s' selected %s at x_0; set L",
                         method, run->dmo->name ? run->dmo->name : "?",
                         size == 0 ? "no coordinate" : "only coordinates where the gradient "
                         "is 0");
    return gsfw_run_lipschitz(run, 0.0, method, L);
}
