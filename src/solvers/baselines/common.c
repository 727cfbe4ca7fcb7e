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
    gsfw_dmo *t = run->set->tail ? run->set->tail : run->dmo;
    const char *name = t->name ? t->name : "?";
    *tail = t;
    if (!t->select)
        return gsfw_fail(run->err, GSFW_ERR_INVALID_ARG, "solve: the tail projection '%s' has "
                         "no select callback", name);
    if (t->d != run->d)
        return gsfw_fail(run->err, GSFW_ERR_DIMENSION, "solve: the tail projection '%s' works "
                         "on %d entries but the objective has dimension %d", name, t->d,
                         run->d);
    if (t->max_support < 1 || t->max_support > t->d)
        return gsfw_fail(run->err, GSFW_ERR_INVALID_ARG, "solve: the tail projection '%s' has "
                         "max_support = %d, outside 1..%d (its dimension)", name,
                         t->max_support, t->d);
    return GSFW_OK;
}
