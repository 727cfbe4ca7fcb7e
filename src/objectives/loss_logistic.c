/* The logistic loss l(t) = log(1 + exp(-y t)) of the margin t = (A x)_i (+ b), labels
 * y in {-1, +1}. With m = y t: l = max(-m, 0) + log1p(exp(-|m|)), never overflowing;
 * l'(t) = -y sigma(-m) and l''(t) = sigma(m) sigma(-m), with sigma(-m) = 1 / (1 + e^m)
 * evaluated through exp(-|m|) <= 1.
 *
 * Sums of l' over rows: a misclassified row (m < 0) contributes -y (1 - sigma(m)), nearly
 * a whole unit. In the intercept's sums rows of both labels cancel their units exactly,
 * and what is left is the sum of the small parts, which rounding 1 - sigma(m) to 1 would
 * lose (from m < -37 on): the intercept's search then saw phi' > 0 beyond its minimiser.
 * The sums below keep the units apart from the small parts (in the line search's slope
 * the units are weighted by dz and cancel only approximately; keeping them apart still
 * saves the small parts from being absorbed one by one). */
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

/* sigma(-|m|) = e / (1 + e), e = exp(-|m|), and l'' = sigma(m) sigma(-m) = e / (1 + e)^2,
 * without the cancellation of sigma(-m) (1 - sigma(-m)) */
static inline double sigma_small(double m, double *curvature)
{
    double e = exp(-fabs(m)), r = 1.0 / (1.0 + e);
    if (curvature) *curvature = e * r * r;
    return e * r;
}

/* -y sigma(-m) = -y + y sigma(m) when m < 0: its unit goes to *units, the rest is returned */
static inline double slope_part(double y, double m, double *units, double *curvature)
{
    double q = sigma_small(m, curvature);
    if (m >= 0) return -y * q;
    *units -= y;
    return y * q;
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
    double units = 0.0;
    for (int i = 0; i < n; i++) {
        double m = y[i] * (z[i] + gamma * dz[i] + shift), unit = 0.0;
        ff += logistic(m);
        sl += slope_part(y[i], m, &unit, NULL) * dz[i];
        units += unit * dz[i];
    }
    if (slope) *slope = units + sl;
    return ff;
}

static void logistic_deriv(const gsfw_loss_params *p, int n, const double *z, double shift,
                           double *g, double *h)
{
    const double *y = p->y;
    for (int i = 0; i < n; i++) {
        double m = y[i] * (z[i] + shift);
        if (g) g[i] = -y[i] * sigma_neg(m);
        if (h) sigma_small(m, &h[i]);
    }
}

static void logistic_intercept_sums(const gsfw_loss_params *p, int n, const double *z,
                                    const double *dz, double gamma, double b, double out[3])
{
    const double *y = p->y;
    double units = 0.0, g = 0.0, h = 0.0;
    for (int i = 0; i < n; i++) {
        double t = dz ? z[i] + gamma * dz[i] + b : z[i] + b, curvature;
        g += slope_part(y[i], y[i] * t, &units, &curvature);
        h += curvature;
    }
    out[0] = units;
    out[1] = g;
    out[2] = h;
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
