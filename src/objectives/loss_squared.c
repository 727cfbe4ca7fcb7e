/* The squared loss l(t) = t^2 / 2 of the residual t = (A x - y)_i. The value is
 * 0.5 ||r||^2 with the norm of gsfw_vec_nrm2 (scaled where the squares would overflow);
 * along the direction the sums are one fused loop. */
#include "objectives/linear.h"
#include "util/vec.h"


static double squared_sum(const gsfw_loss_params *p, int n, const double *z, const double *dz,
                          double gamma, double shift, double *slope)
{
    (void)p;
    (void)shift; /* no intercept */
    if (!dz) {
        double nr = gsfw_vec_nrm2(n, z);
        return 0.5 * nr * nr;
    }
    double ff = 0.0, sl = 0.0;
    for (int i = 0; i < n; i++) {
        double ri = z[i] + gamma * dz[i];
        ff += ri * ri;
        sl += ri * dz[i];
    }
    if (slope) *slope = sl;
    return 0.5 * ff;
}

static void squared_deriv(const gsfw_loss_params *p, int n, const double *z, double shift,
                          double *g, double *h)
{
    (void)p;
    (void)shift;
    for (int i = 0; i < n; i++) {
        if (g) g[i] = z[i];
        if (h) h[i] = 1.0;
    }
}

const gsfw_loss_def gsfw_loss_squared = {
    .name = "least-squares",
    .residual = 1,
    .quadratic = 1,
    .curvature = 1.0,
    .sum = squared_sum,
    .deriv = squared_deriv,
};

const gsfw_entry gsfw_entry_loss_ls = {
    GSFW_KIND_LOSS, "ls", "0.5 ||A x - y||^2 (least squares)", "", 0, GSFW_ENTRY_DEFAULT,
    &gsfw_loss_squared, "squared"};
