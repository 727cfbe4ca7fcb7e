/* gsfw quickstart: recover a 3-sparse vector from 40 random measurements with DMO-AccFW
 * and the exact top-s oracle. Build after `make install` (-lm for this file's own sqrt):
 *   cc quickstart.c $(pkg-config --cflags --libs gsfw) -lm -o quickstart
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gsfw.h"

int main(void)
{
    enum { n = 40, d = 100, s = 3 };
    static double A[n * d], y[n], x_true[d], x[d];
    unsigned state = 12345u;
    for (int k = 0; k < n * d; k++) { /* a small deterministic pseudo-random matrix */
        state = state * 1103515245u + 12345u;
        A[k] = ((double)(state >> 8) / 16777216.0 - 0.5) * sqrt(12.0 / n);
    }
    x_true[7] = 0.6, x_true[42] = -0.48, x_true[77] = 0.64; /* ||x_true|| = 1 */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++) y[i] += A[i * d + j] * x_true[j];

    gsfw_err err;
    gsfw_objective *f = NULL;
    gsfw_dmo *oracle = NULL;
    if (gsfw_objective_least_squares(n, d, A, GSFW_ROW_MAJOR, y, &f, &err) ||
        gsfw_dmo_topk(d, s, &oracle, &err)) {
        fprintf(stderr, "setup failed: %s\n", err.message);
        return 1;
    }
    gsfw_settings settings;
    gsfw_settings_default(&settings);      /* DMO-AccFW, Option I, L estimated */
    settings.C = 1.0;
    settings.max_iter = 200;
    settings.x_true = x_true;

    gsfw_result result = {0};
    result.x_best = x;                      /* caller-owned output buffer */
    gsfw_info info;
    if (gsfw_solve(f, oracle, &settings, &result, &info, &err)) {
        fprintf(stderr, "solve failed: %s\n", err.message);
        return 1;
    }
    double e = 0;
    for (int j = 0; j < d; j++) e += (x[j] - x_true[j]) * (x[j] - x_true[j]);
    printf("status=%s iterations=%d f=%.3e ||x - x*||=%.3e L=%.3f (%s) "
           "oracle calls=%ld\n", gsfw_status_name(info.status), info.iterations, info.f_best,
           sqrt(e), info.L,
           info.L_source == GSFW_L_GIVEN ? "given" : info.L_source == GSFW_L_ATOM ? "atom" : "spectral",
           info.oracle_calls);
    gsfw_dmo_free(oracle);
    gsfw_objective_free(f);
    return sqrt(e) < 1e-3 ? 0 : 1;          /* the example checks its own result */
}
