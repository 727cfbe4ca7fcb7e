/* Cost of one DMO-FW iteration for each loss over an operator, against the cost of one
 * apply plus one adjoint of that operator (what a gradient from scratch needs), measured
 * side by side in one run. Operators: dense (BLAS gemv) and CSR (1% of entries).
 *   usage: bench_losses [iterations] [repeats] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
#include "gsfw.h"
#include "util/rng.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof(double), cmp_double);
    return v[count / 2];
}

int main(int argc, char **argv)
{
    const int n = 1000, d = 5000, s = 100;
    int iters = argc > 1 ? atoi(argv[1]) : 50;
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    if (iters < 1 || repeats < 1 || repeats > 99) {
        fprintf(stderr, "usage: bench_losses [iterations >= 1] [1 <= repeats <= 99]\n");
        return 2;
    }
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 3);
    double *A = malloc((size_t)n * d * sizeof(double));
    double *y_ls = malloc((size_t)n * sizeof(double)), *y_lab = malloc((size_t)n * sizeof(double));
    double *x = malloc((size_t)d * sizeof(double)), *u = malloc((size_t)n * sizeof(double));
    long cap = (long)n * d / 50 + 16, nnz = 0;
    int *rows = malloc((size_t)cap * sizeof(int)), *cols = malloc((size_t)cap * sizeof(int));
    double *vals = malloc((size_t)cap * sizeof(double));
    if (!A || !y_ls || !y_lab || !x || !u || !rows || !cols || !vals) return 1;
    for (size_t k = 0; k < (size_t)n * d; k++) A[k] = gsfw_rng_normal(&rng) / sqrt((double)n);
    for (int i = 0; i < n; i++) {
        y_ls[i] = gsfw_rng_normal(&rng);
        y_lab[i] = gsfw_rng_uniform(&rng) < 0.5 ? 1.0 : -1.0;
    }
    for (int j = 0; j < d; j++) x[j] = gsfw_rng_normal(&rng);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++)
            if (nnz < cap && gsfw_rng_uniform(&rng) < 0.01) {
                rows[nnz] = i;
                cols[nnz] = j;
                vals[nnz++] = gsfw_rng_normal(&rng) / sqrt(0.01 * n);
            }
    gsfw_err err;
    gsfw_operator *ops[2];
    if (gsfw_operator_dense(n, d, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, &ops[0], &err) ||
        gsfw_operator_csr(n, d, nnz, rows, cols, vals, &ops[1], &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    gsfw_dmo *dmo;
    if (gsfw_dmo_topk(d, s, &dmo, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    const struct {
        gsfw_loss loss;
        int intercept;
        const char *label;
    } cases[] = {{GSFW_LOSS_SQUARED, 0, "ls"},
                 {GSFW_LOSS_LOGISTIC, 0, "logistic"},
                 {GSFW_LOSS_LOGISTIC, 1, "logistic+intercept"},
                 {GSFW_LOSS_HUBER, 0, "huber"}};
    printf("bench_losses: n=%d d=%d s=%d (top-s oracle) iterations=%d repeats=%d (medians)\n",
           n, d, s, iters, repeats);
    printf("%-6s %-19s %12s %12s %12s %8s\n", "op", "loss", "apply+adj ms", "FW iter ms",
           "oracle ms", "ratio");
    for (int o = 0; o < 2; o++) {
        for (int c = 0; c < 4; c++) {
            gsfw_loss_options opt;
            gsfw_loss_options_default(&opt);
            opt.loss = cases[c].loss;
            opt.intercept = cases[c].intercept;
            gsfw_objective *obj;
            const double *y = cases[c].loss == GSFW_LOSS_LOGISTIC ? y_lab : y_ls;
            if (gsfw_objective_linear(ops[o], n, y, &opt, &obj, &err)) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
            gsfw_settings set;
            gsfw_settings_default(&set);
            set.method = GSFW_METHOD_FW;
            set.C = 1.0;
            set.max_iter = iters;
            double t_prod[99], t_iter[99], t_oracle[99];
            for (int rep = 0; rep < repeats; rep++) {
                double t0 = gsfw_now();
                for (int k = 0; k < iters; k++) {
                    ops[o]->apply(ops[o]->ctx, x, u);
                    ops[o]->adjoint(ops[o]->ctx, u, x);
                    x[k % d] = 1.0; /* keep x bounded and the products live */
                }
                t_prod[rep] = (gsfw_now() - t0) / iters;
                gsfw_info info;
                if (gsfw_solve(obj, dmo, &set, NULL, &info, &err)) {
                    fprintf(stderr, "%s\n", err.message);
                    return 1;
                }
                t_iter[rep] = info.solve_time / iters;
                t_oracle[rep] = info.oracle_time / iters;
            }
            double mp = median(t_prod, repeats), mi = median(t_iter, repeats);
            double mo = median(t_oracle, repeats);
            printf("%-6s %-19s %12.3f %12.3f %12.3f %8.3f\n", ops[o]->name, cases[c].label,
                   1e3 * mp, 1e3 * mi, 1e3 * mo, mi / mp);
            gsfw_objective_free(obj);
        }
    }
    gsfw_dmo_free(dmo);
    gsfw_operator_free(ops[0]);
    gsfw_operator_free(ops[1]);
    free(A);
    free(y_ls);
    free(y_lab);
    free(x);
    free(u);
    free(rows);
    free(cols);
    free(vals);
    return 0;
}
