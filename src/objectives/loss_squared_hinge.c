/* The squared hinge loss l(t) = max(0, 1 - y t)^2 / 2 of the margin t = (A x)_i (+ b),
 * labels y in {-1, +1}: the L2-SVM's loss, smooth (l'(t) = -y max(0, 1 - y t), l'' = 1
 * where the margin is below 1, else 0), so Frank-Wolfe and the restricted Newton-CG run
 * on it as on the logistic loss. With an intercept the labels may be of one sign (the
 * loss then has a minimiser: every margin pushed past 1). */
#include "objectives/linear.h"
#include "core/registry.h"

static inline double hinge_gap(double y, double t)
{
    double m = 1.0 - y * t;
    return m > 0 ? m : 0.0;
}

static double sq_hinge_sum(const gsfw_loss_params *p, int n, const double *z, const double *dz,
                           double gamma, double shift, double *slope)
{
    double ff = 0.0, sl = 0.0;
    for (int i = 0; i < n; i++) {
        const double t = (dz ? z[i] + gamma * dz[i] : z[i]) + shift;
        const double m = hinge_gap(p->y[i], t);
        ff += 0.5 * m * m;
        if (dz) sl -= p->y[i] * m * dz[i];
    }
    if (dz && slope) *slope = sl;
    return ff;
}

static void sq_hinge_deriv(const gsfw_loss_params *p, int n, const double *z, double shift,
                           double *g, double *h)
{
    for (int i = 0; i < n; i++) {
        const double m = hinge_gap(p->y[i], z[i] + shift);
        if (g) g[i] = -p->y[i] * m;
        if (h) h[i] = m > 0 ? 1.0 : 0.0;
    }
}

static const char *sq_hinge_target_problem(double y)
{
    return y == 1.0 || y == -1.0 ? NULL : "is not -1 or +1";
}

static const gsfw_loss_def squared_hinge = {
    .name = "squared-hinge",
    .curvature = 1.0,
    .sum = sq_hinge_sum,
    .deriv = sq_hinge_deriv,
    .target_problem = sq_hinge_target_problem,
    .target_word = "label",
    .intercept = 1,
};

const gsfw_entry gsfw_entry_loss_squared_hinge = {
    GSFW_KIND_LOSS, "squared-hinge", "sum max(0, 1 - y_i (A x)_i)^2 / 2, labels -1/+1 (L2-SVM)",
    "intercept", 0, 0, &squared_hinge, NULL};
