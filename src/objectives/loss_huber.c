/* The Huber loss of the residual t = (A x - y)_i: h(t) = t^2/2 for |t| <= delta and
 * delta (|t| - delta/2) beyond, so h'(t) = clamp(t, -delta, delta) and h'' is 1 inside
 * the threshold, 0 outside. */
#include "objectives/linear.h"

#include <math.h>
#include <stddef.h>

static inline double huber(double t, double delta)
{
    double a = fabs(t);
    return a <= delta ? 0.5 * t * t : delta * (a - 0.5 * delta);
}

static inline double huber_prime(double t, double delta)
{
    return t > delta ? delta : t < -delta ? -delta : t;
}

static double huber_sum(const gsfw_loss_params *p, int n, const double *z, const double *dz,
                        double gamma, double shift, double *slope)
{
    (void)shift;
    double delta = p->param[0], ff = 0.0, sl = 0.0;
    if (!dz) {
        for (int i = 0; i < n; i++) ff += huber(z[i], delta);
        return ff;
    }
    for (int i = 0; i < n; i++) {
        double t = z[i] + gamma * dz[i];
        ff += huber(t, delta);
        sl += huber_prime(t, delta) * dz[i];
    }
    if (slope) *slope = sl;
    return ff;
}

static void huber_deriv(const gsfw_loss_params *p, int n, const double *z, double shift,
                        double *g, double *h)
{
    (void)shift;
    double delta = p->param[0];
    for (int i = 0; i < n; i++) {
        if (g) g[i] = huber_prime(z[i], delta);
        if (h) h[i] = fabs(z[i]) <= delta ? 1.0 : 0.0;
    }
}

static const gsfw_param huber_params[] = {
    {.name = "huber_delta", .type = GSFW_PARAM_DOUBLE, .lo = 0, .hi = INFINITY, .def = 1,
     .flags = GSFW_PARAM_LO_OPEN | GSFW_PARAM_STRICT, .target = GSFW_TARGET_LOSS,
     .offset = offsetof(gsfw_loss_options, huber_delta),
     .help = "the Huber threshold delta (> 0, default 1)"},
};

const gsfw_loss_def gsfw_loss_huber = {
    .name = "huber",
    .residual = 1,
    .curvature = 1.0,
    .sum = huber_sum,
    .deriv = huber_deriv,
    .params = huber_params,
    .n_params = 1,
};

const gsfw_entry gsfw_entry_loss_huber = {
    GSFW_KIND_LOSS, "huber",
    "sum h((A x - y)_i), h(t) = t^2/2 for |t| <= delta, else delta (|t| - delta/2)", "", 0, 0,
    &gsfw_loss_huber, NULL};
