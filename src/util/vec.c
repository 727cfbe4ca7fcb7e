/* One summation order for the level-1 vector kernels (vec.h says why). */
#include "util/vec.h"

#include <math.h>

#define LANES 8

/* The lanes' partial sums, combined in a fixed tree. */
static double combine(const double acc[LANES])
{
    return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

double gsfw_vec_dot(int n, const double *x, const double *y)
{
    double acc[LANES] = {0};
    int i = 0;
    for (; i <= n - LANES; i += LANES)
        for (int j = 0; j < LANES; j++) acc[j] += x[i + j] * y[i + j];
    for (int j = 0; i < n; i++, j++) acc[j] += x[i] * y[i];
    return combine(acc);
}

/* sum (x_i / scale)^2, in the same lane order as the dot product */
static double scaled_squares(int n, const double *x, double scale)
{
    double acc[LANES] = {0};
    int i = 0;
    for (; i <= n - LANES; i += LANES)
        for (int j = 0; j < LANES; j++) {
            double v = x[i + j] / scale;
            acc[j] += v * v;
        }
    for (int j = 0; i < n; i++, j++) {
        double v = x[i] / scale;
        acc[j] += v * v;
    }
    return combine(acc);
}

double gsfw_vec_nrm2(int n, const double *x)
{
    /* a plain sum in [2^-900, 2^900] had no term overflow, and the terms that underflowed
     * add at most n 2^-1074 to it, far below its rounding */
    const double tiny = 0x1p-900, huge = 0x1p900;
    double ss = gsfw_vec_dot(n, x, x);
    if (ss >= tiny && ss <= huge) return sqrt(ss);
    if (isnan(ss)) return ss;
    double big = 0.0;
    for (int i = 0; i < n; i++) {
        double a = fabs(x[i]);
        if (a > big) big = a;
    }
    if (big == 0.0 || isinf(big)) return big;
    return big * sqrt(scaled_squares(n, x, big));
}

double gsfw_vec_nrm2_on(int size, const int *idx, const double *x)
{
    const double tiny = 0x1p-900, huge = 0x1p900;
    double ss = 0.0, big = 0.0;
    for (int k = 0; k < size; k++) ss += x[idx[k]] * x[idx[k]];
    if (ss >= tiny && ss <= huge) return sqrt(ss);
    if (isnan(ss)) return ss;
    for (int k = 0; k < size; k++) big = fmax(big, fabs(x[idx[k]]));
    if (big == 0.0 || isinf(big)) return big;
    double scaled = 0.0;
    for (int k = 0; k < size; k++) {
        double v = x[idx[k]] / big;
        scaled += v * v;
    }
    return big * sqrt(scaled);
}

void gsfw_vec_axpy(int n, double a, const double *x, double *y)
{
    for (int i = 0; i < n; i++) y[i] += a * x[i];
}

void gsfw_vec_axpy4(int n, const double a[4], const double *restrict x0,
                    const double *restrict x1, const double *restrict x2,
                    const double *restrict x3, double *restrict y)
{
    const double a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    for (int i = 0; i < n; i++) {
        double t = y[i] + a0 * x0[i];
        t += a1 * x1[i];
        t += a2 * x2[i];
        y[i] = t + a3 * x3[i];
    }
}

void gsfw_vec_scal(int n, double a, double *x)
{
    for (int i = 0; i < n; i++) x[i] *= a;
}
