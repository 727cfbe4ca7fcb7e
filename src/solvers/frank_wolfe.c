/* DMO-FW and DMO-AccFW, Options I and II: the paper's Algorithm 1 with a step rule.
 *
 *   eta_t = 2/(t+2) (nominal), x_0 = settings.x0 or 0
 *   DMO-FW:    z = grad f(x_t),                 S = DMO(z), v = -C z_S/||z_S||
 *   DMO-AccFW: w = x_t - grad f(x_t)/(L eta_t), S = DMO(w), v = +C w_S/||w_S||
 *   Option I:  v as above (iterates in D); Option II: v/delta (iterates in D/delta)
 *   x_{t+1} = x_t + gamma_t (v - x_t), gamma_t from the step rule (eta_t for the
 *   agnostic rule, which is the paper's method)
 *
 * The AccFW atom is the extreme point NEAREST to the gradient-step point w (all extreme
 * points have norm C, so it maximises <v, w>). The paper's Algorithm 1 prints the
 * opposite sign, which selects the farthest extreme point; its own proof (and the
 * authors' code) need the nearest one. Any rule whose step does at least as well as eta_t
 * in the smoothness bound keeps the paper's rates (the short and line steps do). */
#include "solvers/fw_family.h"
#include "util/vec.h"

#include <math.h>
#include <string.h>

gsfw_error gsfw_fw_loop(gsfw_run *run, gsfw_fw_plan *plan, double *x)
{
    const gsfw_settings *set = plan->set;
    const int d = run->d;
    const int accelerated = set->method == GSFW_METHOD_ACCFW;
    /* the scratch: the plan's (a solve with restarts runs this loop several times), else
     * allocated here and freed on return */
    gsfw_fw_work own = {0};
    const gsfw_fw_work *work = plan->work;
    if (!work) {
        own.grad = gsfw_malloc_array((size_t)d, sizeof(double));
        own.w = accelerated ? gsfw_malloc_array((size_t)d, sizeof(double)) : NULL;
        own.support = gsfw_malloc_array((size_t)run->dmo->max_support, sizeof(int));
        own.atom = gsfw_malloc_array((size_t)run->dmo->max_support, sizeof(double));
        work = &own;
    }
    double *grad = work->grad, *w = work->w, *atom = work->atom;
    int *support = work->support;
    gsfw_error rc = GSFW_OK;
    if (!grad || (accelerated && !w) || !support || !atom) {
        rc = gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for a problem of dimension %d", d);
        goto done;
    }
    if (plan->L < 0) {
        rc = gsfw_fw_atom_curvature(run, plan, x, grad, support, atom, &plan->L);
        if (rc) goto done;
    }
    gsfw_run_start_clock(run);

    gsfw_status status = GSFW_STATUS_MAX_ITER;
    double f = 0.0;
    int t = 0;
    for (;; t++) {
        if (gsfw_run_begin_iteration(run, t, x, &f, grad, &status, &rc)) {
            if (rc) goto done;
            break;
        }
        const double eta = 2.0 / (t + 2.0);
        const double *z = grad;
        if (accelerated) {
            const double c = 1.0 / (plan->L * eta);
            for (int i = 0; i < d; i++) w[i] = x[i] - c * grad[i];
            z = w;
        }
        int size = 0;
        rc = gsfw_run_oracle(run, run->dmo, z, support, &size);
        if (rc) goto done;
        double nrm = gsfw_vec_nrm2_on(size, support, z);
        int toward_w = accelerated;
        if (accelerated && !(nrm > 0)) {
            /* w_S = 0: the gradient step landed on 0, where every extreme point is equally
               near w and AccFW's model ties; w = 0 certifies nothing (x need not be
               stationary). The FW atom is one of the model's minimisers and the one that
               decreases the linearisation most, so this iteration takes it. */
            z = grad;
            toward_w = 0;
            rc = gsfw_run_oracle(run, run->dmo, z, support, &size);
            if (rc) goto done;
            nrm = gsfw_vec_nrm2_on(size, support, z);
        }
        /* the bound needs the oracle's answer on the gradient itself */
        double bound = gsfw_run_bound(run, x, grad, plan->C, toward_w ? NAN : nrm,
                                      plan->delta);
        if (!(nrm > 0)) {
            status = GSFW_STATUS_ZERO_DIRECTION;
            gsfw_run_record(run, t, f, NAN, bound, NAN, 0, x);
            break;
        }
        if (gsfw_run_converged(run, f, bound)) {
            status = GSFW_STATUS_CONVERGED;
            gsfw_run_record(run, t, f, NAN, bound, NAN, 0, x);
            break;
        }
        /* FW: v = -C z_S/||z_S||; AccFW: v = +C w_S/||w_S|| (nearest extreme point). */
        const double coef = (toward_w ? plan->C : -plan->C) / nrm * plan->scale;
        double gx = 0.0, gv = 0.0, xx = 0.0, xv = 0.0, vv = 0.0;
        for (int i = 0; i < d; i++) {
            gx += grad[i] * x[i];
            xx += x[i] * x[i];
        }
        for (int k = 0; k < size; k++) {
            int i = support[k];
            atom[k] = coef * z[i];
            gv += grad[i] * atom[k];
            xv += x[i] * atom[k];
            vv += atom[k] * atom[k];
        }
        const double gap = gx - gv;
        rc = gsfw_run_direction(run, x, -1.0, size, support, atom);
        if (rc) goto done;
        double gamma;
        rc = gsfw_fw_choose_step(run, plan, t, f, -gap, xx - 2.0 * xv + vv, 1.0, &gamma);
        if (rc) goto done;
        if (gsfw_run_record(run, t, f, gap, bound, gamma, 0, x)) {
            status = GSFW_STATUS_CALLBACK_STOP;
            break;
        }
        rc = gsfw_run_step(run, x, gamma);
        if (rc) goto done;
    }
    gsfw_run_finish(run, t, f, x, status);

done:
    free(own.grad);
    free(own.w);
    free(own.support);
    free(own.atom);
    return rc;
}

static const gsfw_method_def fw_def = {
    .id = GSFW_METHOD_FW, .family = GSFW_FW_FAMILY, .auto_step = {"agnostic", "agnostic"},
    .typical_iters = 500, .oracles = 1, .fw_loop = gsfw_fw_loop};
static const gsfw_method_def accfw_def = {
    .id = GSFW_METHOD_ACCFW, .family = GSFW_FW_FAMILY, .auto_step = {"agnostic", "agnostic"},
    .typical_iters = 300, .oracles = 1, .fw_loop = gsfw_fw_loop};

const gsfw_entry gsfw_entry_method_fw = {
    GSFW_KIND_METHOD, "fw", "DMO-FW: S = DMO(grad f(x)), v = -C grad_S / ||grad_S||",
    GSFW_FW_USES, 0, 0, &fw_def, NULL};
const gsfw_entry gsfw_entry_method_accfw = {
    GSFW_KIND_METHOD, "accfw",
    "DMO-AccFW: w = x - grad/(L eta), S = DMO(w), v = C w_S / ||w_S|| (nearest extreme point)",
    GSFW_FW_USES " L L_rule", 0, GSFW_ENTRY_DEFAULT, &accfw_def, NULL};
