/* What the baseline solvers share: the tail projection's checks, and the sparse move
 * x -> x_new that keeps an incremental objective's cache (r = A x - y) up to date in
 * O(n nnz(x_new - x)). */
#include "solvers/baselines/baselines.h"

#include <math.h>
#include <string.h>

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

gsfw_error gsfw_baseline_tail(gsfw_run *run, gsfw_dmo **tail)
{
    *tail = run->set->tail ? run->set->tail : run->dmo;
    return gsfw_run_check_oracle("tail projection", *tail, run->d, run->err);
}
