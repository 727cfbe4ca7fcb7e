/* Pieces shared by the baseline solvers: the step-size constant L and the sparse move
 * x -> x_new that keeps an incremental objective's cache (r = A x - y) up to date. */
#include "solvers/baselines/baselines.h"

#include <math.h>
#include <string.h>

gsfw_error gsfw_baseline_lipschitz(gsfw_run *run, double *L)
{
    const gsfw_settings *set = run->set;
    double t0 = gsfw_now();
    *L = 0.0;
    if (set->L > 0) {
        *L = set->L;
    } else if (run->obj->lipschitz) {
        if (run->obj->lipschitz(run->obj->ctx, L) || !(*L > 0) || !isfinite(*L))
            return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "solve: could not estimate L (got "
                             "%g); set L explicitly", *L);
        run->info->L_estimated = 1;
    } else {
        return gsfw_fail(run->err, GSFW_ERR_INVALID_ARG, "solve: %s takes steps 1/L: set L, or "
                         "use an objective that can estimate it",
                         gsfw_method_name(set->method));
    }
    run->info->L = *L;
    run->info->setup_time += gsfw_now() - t0;
    return GSFW_OK;
}

gsfw_error gsfw_baseline_move(gsfw_run *run, double *x, const double *xnew, int *idx,
                              double *val)
{
    int k = 0;
    for (int i = 0; i < run->d; i++) {
        if (xnew[i] != x[i]) {
            idx[k] = i;
            val[k] = xnew[i] - x[i];
            k++;
        }
    }
    memcpy(x, xnew, (size_t)run->d * sizeof(double));
    if (k == 0) return GSFW_OK;
    return gsfw_run_update(run, 1.0, 1.0, k, idx, val);
}
