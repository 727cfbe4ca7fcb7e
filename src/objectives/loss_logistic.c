/* The logistic loss l(t) = log(1 + exp(-y t)) of the margin t = (A x)_i (+ b), labels
 * y in {-1, +1}. With m = y t: l = max(-m, 0) + log1p(exp(-|m|)), never overflowing;
 * l'(t) = -y sigma(-m) and l''(t) = sigma(m) sigma(-m), with sigma(-m) = 1 / (1 + e^m)
 * evaluated through exp(-|m|) <= 1. */
#include "objectives/linear.h"

#include <math.h>

static inline double logistic(double m)
{
    return (m < 0 ? -m : 0.0) + log1p(exp(-fabs(m)));
}

/* sigma(-m) = 1 / (1 + exp(m)) */
static inline double sigma_neg(double m)
{
    if (m >= 0) {
        double e = exp(-m);
        return e / (1.0 + e);
    }
    return 1.0 / (1.0 + exp(m));
}

static double logistic_sum(const gsfw_loss_params *p, int n, const double *z, const double *dz,
                           double gamma, double shift, double *slope)
{
    const double *y = p->y;
    double ff = 0.0, sl = 0.0;
    if (!dz) {
        for (int i = 0; i < n; i++) ff += logistic(y[i] * (z[i] + shift));
        return ff;
    }
    for (int i = 0; i < n; i++) {
        double m = y[i] * (z[i] + gamma * dz[i] + shift);
        ff += logistic(m);
        sl -= y[i] * sigma_neg(m) * dz[i];
    }
    if (slope) *slope = sl;
    return ff;
}

static void logistic_deriv(const gsfw_loss_params *p, int n, const double *z, double shift,
                           double *g, double *h)
{
    const double *y = p->y;
    for (int i = 0; i < n; i++) {
        double m = y[i] * (z[i] + shift);
        double s = sigma_neg(m);
        if (g) g[i] = -y[i] * s;
        if (h) h[i] = s * (1.0 - s);
    }
}

static void logistic_intercept_sums(const gsfw_loss_params *p, int n, const double *z,
                                    const double *dz, double gamma, double b, double out[2])
{
    const double *y = p->y;
    double g = 0.0, h = 0.0;
    for (int i = 0; i < n; i++) {
        double t = dz ? z[i] + gamma * dz[i] + b : z[i] + b;
        double s = sigma_neg(y[i] * t);
        g -= y[i] * s;
        h += s * (1.0 - s);
    }
    out[0] = g;
    out[1] = h;
}

/* the rows whose margin is not positive: with none, f(s x) -> 0 as s -> infinity, an
 * infimum no point attains (the labels are separable) */
static int logistic_unseparated(const gsfw_loss_params *p, int n, const double *z,
                                double shift)
{
    int count = 0;
    for (int i = 0; i < n; i++) count += !(p->y[i] * (z[i] + shift) > 0);
    return count;
}

static const char *logistic_target_problem(double y)
{
    return y == 1.0 || y == -1.0 ? NULL : "is not -1 or +1";
}

const gsfw_loss_def gsfw_loss_logistic = {
    .name = "logistic",
    .residual = 0,
    .curvature = 0.25,
    .sum = logistic_sum,
    .deriv = logistic_deriv,
    .intercept_sums = logistic_intercept_sums,
    .target_problem = logistic_target_problem,
    .target_word = "label",
    .intercept = 1,
    .two_classes = 1,
    .unseparated = logistic_unseparated,
};

const gsfw_entry gsfw_entry_loss_logistic = {
    GSFW_KIND_LOSS, "logistic", "sum log(1 + exp(-y_i (A x)_i)), labels -1/+1", "intercept",
    0, 0, &gsfw_loss_logistic, NULL};
