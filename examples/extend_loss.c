/* A loss of one's own, in one file: the log-cosh loss of the residual,
 *   l(t) = c^2 log(cosh(t / c)),  t = (A x - y)_i,
 * quadratic near 0 and linear beyond |t| ~ c (robust to outliers, like Huber's, but
 * smooth to every order), with its scale c as a parameter. The library builds every hook
 * of the objective on top of the row-wise sum and derivatives below: values and
 * gradients, the incremental line searches, the Lipschitz bound (curvature 1), the
 * restricted Newton-CG of polishing, and the sums over MPI ranks.
 *
 * The loss is added to a spec as an entry of the caller's (gsfw_spec_add_entry: that spec
 * alone knows it) and then chosen by name, its parameter set by name, as for a built-in.
 * Build after `make install`:
 *   cc extend_loss.c $(pkg-config --cflags --libs gsfw) -lm -o extend_loss
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "gsfw.h"

/* log(cosh(u)), without overflow for large |u| */
static double log_cosh(double u)
{
    const double a = fabs(u);
    return a + log1p(exp(-2.0 * a)) - log(2.0);
}

/* sum_i l(t_i), t = z + gamma dz (+ shift); with dz also the slope sum_i l'(t_i) dz_i */
static double logcosh_sum(const gsfw_loss_params *p, int n, const double *z, const double *dz,
                          double gamma, double shift, double *slope)
{
    const double c = p->param[0];
    double f = 0.0, sl = 0.0;
    for (int i = 0; i < n; i++) {
        const double t = (dz ? z[i] + gamma * dz[i] : z[i]) + shift;
        f += c * c * log_cosh(t / c);
        if (dz) sl += c * tanh(t / c) * dz[i];
    }
    if (dz && slope) *slope = sl;
    return f;
}

/* l'(t) = c tanh(t / c), l''(t) = 1 - tanh(t / c)^2 */
static void logcosh_deriv(const gsfw_loss_params *p, int n, const double *z, double shift,
                          double *g, double *h)
{
    const double c = p->param[0];
    for (int i = 0; i < n; i++) {
        const double th = tanh((z[i] + shift) / c);
        if (g) g[i] = c * th;
        if (h) h[i] = 1.0 - th * th;
    }
}

/* the scale c: set by name ("logcosh_scale"), kept in gsfw_loss_options.param[0] */
static const gsfw_param logcosh_params[] = {
    {.name = "logcosh_scale", .type = GSFW_PARAM_DOUBLE, .lo = 0, .hi = INFINITY, .def = 1,
     .flags = GSFW_PARAM_LO_OPEN | GSFW_PARAM_STRICT, .target = GSFW_TARGET_LOSS,
     .offset = offsetof(gsfw_loss_options, param[0]),
     .help = "where log-cosh turns from quadratic to linear"},
};

static const gsfw_loss_def logcosh = {
    .name = "logcosh", .residual = 1, .curvature = 1.0, .sum = logcosh_sum,
    .deriv = logcosh_deriv, .params = logcosh_params, .n_params = 1};

static const gsfw_entry logcosh_entry = {
    GSFW_KIND_LOSS, "logcosh", "sum c^2 log cosh((A x - y)_i / c): robust, smooth", "", 0, 0,
    &logcosh, NULL};

/* ---- a regression with outliers: 5-sparse x*, 80 rows, 8 of them corrupted */

enum { N = 80, D = 40, S = 5 };

/* One solve by names: DMO-FW with line search over the 5-sparse vectors of norm <= 3, the
 * answer polished onto its support; scale: the log-cosh scale, or NULL. */
static int solve_with(const char *loss, const char *scale, const double *A, const double *y,
                      double *x)
{
    gsfw_spec *spec = NULL;
    gsfw_err err;
    gsfw_objective *f = NULL;
    gsfw_dmo *dmo = NULL;
    int rc = 1;
    if (gsfw_spec_create(GSFW_USES_SOLVE, &spec, &err) ||
        gsfw_spec_add_entry(spec, &logcosh_entry, &err) ||
        gsfw_spec_set(spec, "loss", loss, &err) ||
        (scale && gsfw_spec_set(spec, "logcosh_scale", scale, &err)) ||
        gsfw_spec_set(spec, "model", "topk", &err) || gsfw_spec_set(spec, "s", "5", &err) ||
        gsfw_spec_set(spec, "C", "3", &err) || gsfw_spec_set(spec, "method", "fw", &err) ||
        gsfw_spec_set(spec, "step", "line", &err) ||
        gsfw_spec_set(spec, "max_iter", "400", &err) ||
        gsfw_spec_set(spec, "polish", "on", &err) || gsfw_spec_check(spec, &err) ||
        gsfw_spec_bind(spec, D, NULL, NULL, &err) ||
        gsfw_spec_objective_dense(spec, N, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, y, &f, &err) ||
        gsfw_spec_oracles(spec, &dmo, NULL, &err)) {
        fprintf(stderr, "%s: %s\n", loss, err.message);
        goto done;
    }
    gsfw_settings settings;
    gsfw_spec_settings(spec, &settings);
    gsfw_result result = {.x_polished = x};
    gsfw_info info;
    if (gsfw_spec_solve(spec, f, dmo, NULL, &settings, &result, &info, &err)) {
        fprintf(stderr, "%s: %s\n", loss, err.message);
        goto done;
    }
    rc = 0;
done:
    gsfw_dmo_free(dmo);
    gsfw_objective_free(f);
    gsfw_spec_free(spec);
    return rc;
}

int main(void)
{
    static double A[N * D], y[N], x_true[D], x[D];
    unsigned state = 2024u;
    for (int k = 0; k < N * D; k++) {
        state = state * 1103515245u + 12345u;
        A[k] = ((double)(state >> 8) / 16777216.0 - 0.5) * sqrt(12.0 / N);
    }
    const int planted[S] = {3, 11, 19, 27, 35};
    for (int k = 0; k < S; k++) x_true[planted[k]] = k % 2 ? -1.0 : 1.0;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < D; j++) y[i] += A[i * D + j] * x_true[j];
        if (i % 10 == 3) y[i] += 5.0; /* an outlier in every tenth row */
    }
    const char *losses[2] = {"ls", "logcosh"};
    double errors[2];
    for (int l = 0; l < 2; l++) {
        if (solve_with(losses[l], l ? "0.01" : NULL, A, y, x)) return 1;
        double e2 = 0.0;
        for (int j = 0; j < D; j++) e2 += (x[j] - x_true[j]) * (x[j] - x_true[j]);
        errors[l] = sqrt(e2);
        printf("loss=%s error=%.4f\n", losses[l], errors[l]);
    }
    /* the robust loss sees through the outliers; least squares does not */
    return errors[1] < 0.05 && errors[1] < 0.2 * errors[0] ? 0 : 1;
}
