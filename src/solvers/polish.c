/* Polish: an answer inside the model. A Frank-Wolfe iterate is a convex combination of
 * up to T atoms, so its support is the union of theirs; the polished point is
 *
 *   S  = the polish oracle's selection on x (the Euclidean projection onto the union of
 *        the model's subspaces keeps the support maximising ||x_S||, which is what a DMO
 *        selects on z = x: head/tail projections for graph models, top-s for s-sparse)
 *   w  = argmin f over the vectors supported on S, from x_S (the objective's
 *        minimize_on: for least squares QR on few columns, else CGLS; otherwise
 *        gradient steps on S with backtracking)
 *   x+ = w scaled into the C-ball (w C/||w|| when ||w|| > C)
 *
 * so x+ has a support of the model and ||x+|| <= C: it lies in D. Its f may exceed the
 * raw iterate's (the raw iterate uses more coordinates); both are reported. */
#include "solvers/fw_family.h"
#include "util/vec.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* f(x) and grad f(x) of a dense point, outside the incremental cache. */
static int eval_dense(gsfw_objective *o, const double *x, double *f, double *g)
{
    if (o->value_grad) return o->value_grad(o->ctx, x, f, g);
    int rc = o->value(o->ctx, x, f);
    return rc ? rc : o->gradient(o->ctx, x, g);
}

/* Gradient steps restricted to S with Armijo backtracking on a curvature estimate M. */
static int descend_on(gsfw_objective *o, int k, const int *S, double *w, int iters, double M,
                      double *x, double *g, double *w_try, double *f_out)
{
    const int d = o->d;
    memset(x, 0, (size_t)d * sizeof(double));
    for (int j = 0; j < k; j++) x[S[j]] = w[j];
    double f = 0.0;
    int rc = eval_dense(o, x, &f, g);
    if (rc) return rc;
    if (!(M > 0)) M = 1.0;
    for (int it = 0; it < iters; it++) {
        double gg = 0.0;
        for (int j = 0; j < k; j++) gg += g[S[j]] * g[S[j]];
        if (!(gg > 0)) break;
        double f_try = INFINITY;
        int accepted = 0;
        for (int tries = 0; tries < 60; tries++) {
            for (int j = 0; j < k; j++) {
                w_try[j] = w[j] - g[S[j]] / M;
                x[S[j]] = w_try[j];
            }
            if ((rc = o->value(o->ctx, x, &f_try))) return rc;
            if (f_try <= f - 0.5 * gg / M) {
                accepted = 1;
                break;
            }
            M *= 2.0;
        }
        if (!accepted) {
            for (int j = 0; j < k; j++) x[S[j]] = w[j];
            break;
        }
        memcpy(w, w_try, (size_t)k * sizeof(double));
        if ((rc = eval_dense(o, x, &f, g))) return rc;
        M *= 0.9;
    }
    *f_out = f;
    return 0;
}

gsfw_error gsfw_polish(gsfw_run *run, gsfw_fw_plan *plan, const double *x, double *x_out)
{
    const gsfw_settings *set = plan->set;
    const int d = run->d;
    double t0 = gsfw_now();
    gsfw_dmo *oracle = set->polish_oracle ? set->polish_oracle : run->dmo;
    /* the plan's scratch when a solve polishes several times (restarts), else our own */
    gsfw_fw_work own = {0};
    const gsfw_fw_work *work = plan->work;
    if (!work) {
        own.pol_support = gsfw_malloc_array((size_t)oracle->max_support, sizeof(int));
        own.pol_w = gsfw_malloc_array((size_t)oracle->max_support, sizeof(double));
        work = &own;
    }
    int *support = work->pol_support;
    double *w = work->pol_w, *g = work->pol_g, *w_try = work->pol_w_try;
    gsfw_error rc = GSFW_OK;
    if (!support || !w) {
        rc = gsfw_fail(run->err, GSFW_ERR_NOMEM, "polish: out of memory");
        goto done;
    }
    int k = 0;
    rc = gsfw_run_oracle(run, oracle, x, support, &k);
    if (rc) goto done;
    for (int j = 0; j < k; j++) w[j] = x[support[j]];
    gsfw_objective *o = run->obj;
    double f = NAN;
    if (k > 0 && set->polish_iters > 0) {
        int hr;
        if (o->minimize_on) {
            rc = gsfw_run_reserve(run, k);
            if (rc) goto done;
            hr = o->minimize_on(o->ctx, k, support, w, set->polish_iters, 1e-13, &f);
        } else {
            if (!g) g = own.pol_g = gsfw_malloc_array((size_t)d, sizeof(double));
            if (!w_try) w_try = own.pol_w_try = gsfw_malloc_array((size_t)k, sizeof(double));
            if (!g || !w_try) {
                rc = gsfw_fail(run->err, GSFW_ERR_NOMEM, "polish: out of memory");
                goto done;
            }
            hr = descend_on(o, k, support, w, set->polish_iters, plan->L, x_out, g, w_try, &f);
        }
        if (hr) {
            rc = gsfw_fail(run->err, GSFW_ERR_CALLBACK, "polish: the objective failed (code %d%s) "
                           "minimising on the %d selected coordinates", hr,
                           gsfw_run_code_text(run, hr), k);
            goto done;
        }
    }
    /* the radius clip, with the guarded norm: a plain sum of squares overflows to inf
     * for entries above ~1e154 and would scale the answer to 0 (the support's ids are
     * distinct, so x_out on it is w, summed in the same order: the same bits in range) */
    memset(x_out, 0, (size_t)d * sizeof(double));
    for (int j = 0; j < k; j++) x_out[support[j]] = w[j];
    double nrm = gsfw_vec_nrm2_on(k, support, x_out);
    if (nrm > plan->C) {
        const double c = plan->C / nrm;
        if (c >= DBL_MIN) {
            for (int j = 0; j < k; j++) x_out[support[j]] = w[j] * c;
        } else { /* c is subnormal or 0 (a norm near 1e308, a tiny C): normalise first */
            for (int j = 0; j < k; j++) x_out[support[j]] = w[j] / nrm * plan->C;
        }
    }
    int nnz = 0;
    for (int j = 0; j < k; j++) nnz += x_out[support[j]] != 0.0;
    int vr = o->value(o->ctx, x_out, &f);
    if (vr) {
        rc = gsfw_fail(run->err, GSFW_ERR_CALLBACK, "polish: the objective failed (code %d%s)",
                       vr, gsfw_run_code_text(run, vr));
        goto done;
    }
    run->info->f_polished = f;
    run->info->polished_size = nnz;

done:
    run->info->polish_time = gsfw_now() - t0;
    free(own.pol_support);
    free(own.pol_w);
    free(own.pol_g);
    free(own.pol_w_try);
    return rc;
}
