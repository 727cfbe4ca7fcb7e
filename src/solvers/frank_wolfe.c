/* DMO-FW and DMO-AccFW, Options I and II: the paper's Algorithm 1.
 *
 *   eta_t = 2/(t+2), x_0 = 0
 *   DMO-FW:    z = grad f(x_t),                 S = DMO(z), v = -C z_S/||z_S||
 *   DMO-AccFW: w = x_t - grad f(x_t)/(L eta_t), S = DMO(w), v = +C w_S/||w_S||
 *   Option I:  x_{t+1} = x_t + eta_t (v - x_t)         (iterates in D)
 *   Option II: x_{t+1} = x_t + eta_t (v/delta - x_t)   (iterates in D/delta)
 *
 * The AccFW atom is the extreme point NEAREST to the gradient-step point w (all extreme
 * points have norm C, so it maximises <v, w>). The paper's Algorithm 1 prints the
 * opposite sign, which selects the farthest extreme point; its own proof (and the
 * authors' code) need the nearest one. */
#include "solvers/run.h"

#include <math.h>
#include <string.h>


static gsfw_error resolve_parameters(gsfw_run *run, double *L, double *delta)
{
    const gsfw_settings *set = run->set;
    double t0 = gsfw_now();
    *L = 0.0;
    *delta = set->delta > 0 ? set->delta : run->dmo->delta;
    /* set->option is I or II (checked by gsfw_run_init) */
    if (set->option == GSFW_OPTION_II && !(*delta > 0 && *delta <= 1))
        return gsfw_fail(run->err, GSFW_ERR_INVALID_ARG, "solve: Option II needs delta in (0, 1]; "
                         "the oracle '%s' proves none, so set delta explicitly",
                         run->dmo->name ? run->dmo->name : "?");
    run->info->delta = *delta;
    run->info->setup_time += gsfw_now() - t0;
    if (set->method == GSFW_METHOD_ACCFW && !(set->L <= 0 && set->L_rule == GSFW_L_ATOM))
        return gsfw_run_lipschitz(run, L);
    return GSFW_OK;
}

/* GSFW_L_ATOM: L = the curvature of f along the first AccFW atom v_0 from x_0,
 *   2 (f(v_0) - f(x_0) - <grad f(x_0), v_0 - x_0>) / ||v_0 - x_0||^2,
 * which for least squares is ||A (v_0 - x_0)||^2 / ||v_0 - x_0||^2: the curvature in a
 * direction supported on the model rather than the worst case over R^d (||A||_2^2), and
 * typically several times smaller. The support of the first atom does not depend on L
 * (w_0 = x_0 - grad/(L eta_0) with x_0 = 0 is a positive multiple of -grad), so it is
 * found by one oracle call on -grad. Falls back to the spectral estimate when the
 * curvature is not positive and finite. x must be x_0; w, support and atom are
 * scratch. */
static gsfw_error atom_curvature(gsfw_run *run, const double *x, double *grad, double *w,
                                 int *support, double *atom, double *L)
{
    const int d = run->d;
    double f0, f1;
    gsfw_error rc = gsfw_run_eval(run, x, &f0, grad);
    if (rc) return rc;
    for (int i = 0; i < d; i++) w[i] = x[i] - grad[i];
    int size = 0;
    rc = gsfw_run_oracle(run, run->dmo, w, support, &size);
    if (rc) return rc;
    double nrm2 = 0.0;
    for (int k = 0; k < size; k++) nrm2 += w[support[k]] * w[support[k]];
    if (nrm2 > 0) {
        double coef = run->set->C / sqrt(nrm2), dir2 = 0.0, slope = 0.0;
        for (int k = 0; k < size; k++) atom[k] = coef * w[support[k]];
        memcpy(w, x, (size_t)d * sizeof(double)); /* w <- v_0 (x_0 off the support) */
        for (int k = 0; k < size; k++) w[support[k]] = atom[k];
        for (int i = 0; i < d; i++) {
            double dir = w[i] - x[i];
            dir2 += dir * dir;
            slope += grad[i] * dir;
        }
        double t0 = gsfw_now();
        int bad = run->obj->value(run->obj->ctx, w, &f1);
        run->info->gradient_time += gsfw_now() - t0;
        if (bad) return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the objective failed (code %d)", bad);
        double curv = 2.0 * (f1 - f0 - slope) / dir2;
        if (curv > 0 && isfinite(curv)) {
            *L = curv;
            run->info->L = curv;
            run->info->L_estimated = 2;
            return GSFW_OK;
        }
    }
    return gsfw_run_lipschitz(run, L);
}

gsfw_error gsfw_solve_frank_wolfe(gsfw_run *run)
{
    const gsfw_settings *set = run->set;
    const int d = run->d;
    const int accelerated = set->method == GSFW_METHOD_ACCFW;
    double L, delta;
    double t_setup = gsfw_now();
    gsfw_error rc = resolve_parameters(run, &L, &delta);
    if (rc) return rc;

    double *x = calloc((size_t)d, sizeof(double));
    double *grad = gsfw_malloc_array((size_t)d, sizeof(double));
    double *w = accelerated ? gsfw_malloc_array((size_t)d, sizeof(double)) : NULL;
    int *support = gsfw_malloc_array((size_t)run->dmo->max_support, sizeof(int));
    double *atom = gsfw_malloc_array((size_t)run->dmo->max_support, sizeof(double));
    if (!x || !grad || (accelerated && !w) || !support || !atom) {
        rc = gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for a problem of dimension %d", d);
        goto done;
    }
    rc = gsfw_run_reset(run, x);
    if (rc) goto done;
    if (accelerated && !(set->L > 0) && set->L_rule == GSFW_L_ATOM) {
        rc = atom_curvature(run, x, grad, w, support, atom, &L);
        if (rc) goto done;
    }
    gsfw_run_start_clock(run, t_setup);

    const double scale_option = set->option == GSFW_OPTION_II ? 1.0 / delta : 1.0;
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
            const double c = 1.0 / (L * eta);
            for (int i = 0; i < d; i++) w[i] = x[i] - c * grad[i];
            z = w;
        }
        int size = 0;
        rc = gsfw_run_oracle(run, run->dmo, z, support, &size);
        if (rc) goto done;
        double nrm2 = 0.0;
        for (int k = 0; k < size; k++) nrm2 += z[support[k]] * z[support[k]];
        if (!(nrm2 > 0)) {
            status = GSFW_STATUS_ZERO_DIRECTION;
            gsfw_run_record(run, t, f, NAN, x);
            break;
        }
        /* FW: v = -C z_S/||z_S||; AccFW: v = +C w_S/||w_S|| (nearest extreme point). */
        const double coef = (accelerated ? set->C : -set->C) / sqrt(nrm2) * scale_option;
        double gx = 0.0, gv = 0.0;
        for (int i = 0; i < d; i++) gx += grad[i] * x[i];
        for (int k = 0; k < size; k++) {
            atom[k] = coef * z[support[k]];
            gv += grad[support[k]] * atom[k];
        }
        if (gsfw_run_record(run, t, f, gx - gv, x)) {
            status = GSFW_STATUS_CALLBACK_STOP;
            break;
        }
        /* x <- (1 - eta) x + eta v */
        const double keep = 1.0 - eta;
        for (int i = 0; i < d; i++) x[i] *= keep;
        for (int k = 0; k < size; k++) x[support[k]] += eta * atom[k];
        rc = gsfw_run_update(run, keep, eta, size, support, atom);
        if (rc) goto done;
    }
    gsfw_run_finish(run, t, f, x, status);

done:
    free(x);
    free(grad);
    free(w);
    free(support);
    free(atom);
    return rc;
}
