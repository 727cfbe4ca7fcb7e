/* Cost of one least-squares DMO-FW iteration (exact top-s oracle) against the cost of
 * the two gemv calls a gradient A^T (A x - y) needs, measured side by side in one run.
 * Sizes of the angio experiment: n = 1555, d = 10000, s = 622.
 *   usage: bench_fw_iteration [iterations] [repeats] */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
#include "objectives/linear.h"
#include "operators/op_internal.h"
#include "gsfw.h"
#include "util/rng.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const int n = 1555, d = 10000, s = 622;
    int iters = argc > 1 ? atoi(argv[1]) : 50;
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    if (iters < 1 || repeats < 1) {
        fprintf(stderr, "usage: bench_fw_iteration [iterations >= 1] [repeats >= 1]\n");
        return 2;
    }
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 1);
    double *A = malloc((size_t)n * d * sizeof(double));
    double *y = malloc((size_t)n * sizeof(double));
    double *x = malloc((size_t)d * sizeof(double));
    double *r = malloc((size_t)n * sizeof(double));
    double *g = malloc((size_t)d * sizeof(double));
    if (!A || !y || !x || !r || !g) return 1;
    for (size_t k = 0; k < (size_t)n * d; k++) A[k] = gsfw_rng_normal(&rng) / sqrt((double)n);
    for (int i = 0; i < n; i++) y[i] = gsfw_rng_normal(&rng);
    for (int j = 0; j < d; j++) x[j] = gsfw_rng_normal(&rng);

    gsfw_objective *obj = NULL;
    gsfw_dmo *dmo = NULL;
    gsfw_err err;
    if (gsfw_objective_least_squares(n, d, A, GSFW_ROW_MAJOR, y, &obj, &err) ||
        gsfw_dmo_topk(d, s, &dmo, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    /* the objective's own column-major copy, for the gemv baseline */
    const double *Acol = gsfw_op_dense_data(gsfw_linear_operator(obj->ctx, NULL));

    gsfw_settings set;
    gsfw_settings_default(&set);
    set.method = GSFW_METHOD_FW;
    set.C = 1.0;
    set.max_iter = iters;

    double *t_gemv = malloc(repeats * sizeof(double)), *t_iter = malloc(repeats * sizeof(double));
    double *t_oracle = malloc(repeats * sizeof(double));
    for (int rep = 0; rep < repeats; rep++) {
        /* two gemv calls, iters times */
        double t0 = gsfw_now();
        for (int k = 0; k < iters; k++) {
            for (int i = 0; i < n; i++) r[i] = y[i];
            cblas_dgemv(CblasColMajor, CblasNoTrans, n, d, 1.0, Acol, n, x, 1, -1.0, r, 1);
            cblas_dgemv(CblasColMajor, CblasTrans, n, d, 1.0, Acol, n, r, 1, 0.0, g, 1);
            x[k % d] += 1e-12 * g[k % d]; /* keep the products live */
        }
        t_gemv[rep] = (gsfw_now() - t0) / iters;
        gsfw_info info;
        if (gsfw_solve(obj, dmo, &set, NULL, &info, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        t_iter[rep] = info.solve_time / iters;
        t_oracle[rep] = info.oracle_time / iters;
    }
    qsort(t_gemv, repeats, sizeof(double), cmp_double);
    qsort(t_iter, repeats, sizeof(double), cmp_double);
    qsort(t_oracle, repeats, sizeof(double), cmp_double);
    double mg = t_gemv[repeats / 2], mi = t_iter[repeats / 2], mo = t_oracle[repeats / 2];
    printf("bench_fw_iteration: n=%d d=%d s=%d iterations=%d repeats=%d (medians)\n", n, d, s,
           iters, repeats);
    printf("  two gemv (A x - y, A^T r):   %8.3f ms\n", 1e3 * mg);
    printf("  one DMO-FW iteration:         %8.3f ms  (of which top-s oracle %.3f ms)\n",
           1e3 * mi, 1e3 * mo);
    printf("  ratio iteration / two gemv:   %8.3f  (bar: <= 1.25)\n", mi / mg);
    free(t_gemv);
    free(t_iter);
    free(t_oracle);
    gsfw_dmo_free(dmo);
    gsfw_objective_free(obj);
    free(A);
    free(y);
    free(x);
    free(r);
    free(g);
    return 0;
}
