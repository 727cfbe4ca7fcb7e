/* Plugging in a new support model and a new objective without touching the solvers.
 *
 * Model: "one interval of at most s consecutive coordinates" (the g = 1 subgraph model of a
 * path graph). Its exact DMO is a sliding window: the s consecutive entries with the
 * largest sum of z_i^2, found in O(d).
 * Objective: logistic regression, f(x) = sum_i log(1 + exp(-b_i <a_i, x>)), given as
 * callbacks. DMO-FW then fits a classifier whose weights live on one interval.
 *
 * Build after `make install`:
 *   cc custom_oracle.c $(pkg-config --cflags --libs gsfw) -lm -o custom_oracle
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gsfw.h"

enum { N = 200, D = 60, S = 8 };

/* ---- the oracle: best window of S consecutive entries (exact, delta = 1) */
static int window_select(void *ctx, const double *z, int *support, int *size,
                         gsfw_dmo_stats *stats)
{
    (void)ctx;
    (void)stats;
    double sum = 0.0, best = -1.0;
    int best_start = 0;
    for (int i = 0; i < D; i++) {
        sum += z[i] * z[i];
        if (i >= S) sum -= z[i - S] * z[i - S];
        if (i >= S - 1 && sum > best) {
            best = sum;
            best_start = i - S + 1;
        }
    }
    for (int k = 0; k < S; k++) support[k] = best_start + k;
    *size = S;
    return 0;
}

/* ---- the objective: logistic loss on (a_i, b_i) */
typedef struct {
    double a[N][D];
    double b[N];
} data;

static int logistic_value_grad(void *ctx, const double *x, double *f, double *grad)
{
    const data *p = ctx;
    double total = 0.0;
    if (grad)
        for (int j = 0; j < D; j++) grad[j] = 0.0;
    for (int i = 0; i < N; i++) {
        double m = 0.0;
        for (int j = 0; j < D; j++) m += p->a[i][j] * x[j];
        m *= p->b[i];
        total += m > 0 ? log1p(exp(-m)) : -m + log1p(exp(m)); /* stable log(1 + e^-m) */
        if (grad) {
            double c = -p->b[i] / (1.0 + exp(m));
            for (int j = 0; j < D; j++) grad[j] += c * p->a[i][j];
        }
    }
    if (f) *f = total;
    return 0;
}
static int logistic_value(void *ctx, const double *x, double *f)
{
    return logistic_value_grad(ctx, x, f, NULL);
}
static int logistic_grad(void *ctx, const double *x, double *g)
{
    return logistic_value_grad(ctx, x, NULL, g);
}

int main(void)
{
    static data p;
    unsigned st = 7u;
    double w_true[D] = {0};
    for (int j = 20; j < 28; j++) w_true[j] = (j % 2 ? 1.0 : 0.5); /* one interval */
    for (int i = 0; i < N; i++) {
        double m = 0.0;
        for (int j = 0; j < D; j++) {
            st = st * 1664525u + 1013904223u;
            p.a[i][j] = (double)(st >> 8) / 16777216.0 - 0.5;
            m += p.a[i][j] * w_true[j];
        }
        p.b[i] = m >= 0 ? 1.0 : -1.0;
    }

    gsfw_err err;
    gsfw_objective *f = NULL;
    if (gsfw_objective_callback(D, &p, logistic_value, logistic_grad, logistic_value_grad, &f,
                                &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    gsfw_dmo window = {.d = D, .max_support = S, .delta = 1.0, .name = "window",
                       .model = "one interval of <= 8 coordinates", .select = window_select,
                       .model_size = S};

    gsfw_settings settings;
    gsfw_settings_default(&settings);
    settings.method = GSFW_METHOD_FW;
    settings.C = 10.0;
    settings.max_iter = 300;
    double x[D];
    gsfw_result result = {0};
    result.x_best = x;
    gsfw_info info;
    if (gsfw_solve(f, &window, &settings, &result, &info, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    int correct = 0, outside = 0;
    for (int i = 0; i < N; i++) {
        double m = 0.0;
        for (int j = 0; j < D; j++) m += p.a[i][j] * x[j];
        correct += (m >= 0 ? 1.0 : -1.0) == p.b[i];
    }
    for (int j = 0; j < D; j++) outside += (j < 20 || j >= 28) && fabs(x[j]) > 1e-3 * fabs(x[24]);
    printf("logistic loss %.4f (from %.4f), training accuracy %d/%d, %d weights outside the "
           "planted interval, %ld oracle calls\n", info.f_best, N * log(2.0), correct, N,
           outside, info.oracle_calls);
    gsfw_objective_free(f);
    return correct >= 0.9 * N ? 0 : 1;
}
