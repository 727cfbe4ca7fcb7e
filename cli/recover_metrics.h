/* Summary metrics of `gsfw recover` (header-only so the unit tests can check them
 * against hand-computed values). x is the recovered vector, xs the ground truth x*.
 *
 *   rel_err    = ||x - x*||_2 / ||x*||_2
 *   psnr       = 10 log10(R^2 / MSE), MSE = ||x - x*||^2 / d, R = max_i |x*_i|
 *                (the peak of the normalised ground truth; +inf when MSE = 0)
 *   support_f1 = 2 pre rec / (pre + rec), pre = |T & P| / |P|, rec = |T & P| / |T|,
 *                T = supp(x*), P = supp(x) = {i : x_i != 0}; each ratio is 0 when its
 *                denominator is 0, and F1 is 0 when pre + rec = 0. */
#ifndef GSFW_CLI_RECOVER_METRICS_H
#define GSFW_CLI_RECOVER_METRICS_H

#include <math.h>

static inline double rec_dist(const double *x, const double *xs, int d)
{
    double s = 0.0;
    for (int i = 0; i < d; i++) {
        double e = x[i] - xs[i];
        s += e * e;
    }
    return sqrt(s);
}

static inline double rec_rel_err(const double *x, const double *xs, int d)
{
    double nx = 0.0;
    for (int i = 0; i < d; i++) nx += xs[i] * xs[i];
    return rec_dist(x, xs, d) / sqrt(nx);
}

static inline double rec_psnr(const double *x, const double *xs, int d)
{
    double peak = 0.0;
    for (int i = 0; i < d; i++) peak = fmax(peak, fabs(xs[i]));
    double e = rec_dist(x, xs, d);
    double mse = e * e / d;
    if (mse == 0.0) return INFINITY;
    return 10.0 * log10(peak * peak / mse);
}

/* precision, recall and F1 of supp(x) against supp(xs); pre/rec may be NULL. */
static inline double rec_support_f1(const double *x, const double *xs, int d, double *pre,
                                    double *rec)
{
    long both = 0, np = 0, nt = 0;
    for (int i = 0; i < d; i++) {
        int p = x[i] != 0.0, t = xs[i] != 0.0;
        np += p;
        nt += t;
        both += p && t;
    }
    double pr = np ? (double)both / (double)np : 0.0;
    double rc = nt ? (double)both / (double)nt : 0.0;
    if (pre) *pre = pr;
    if (rec) *rec = rc;
    return pr + rc > 0 ? 2.0 * pr * rc / (pr + rc) : 0.0;
}

#endif
