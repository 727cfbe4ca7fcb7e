/* Sparse logistic regression over a graph: labels from a logistic model whose weights
 * live on a connected 2 x 3 block of a 6 x 6 grid, fitted with DMO-AccFW and the
 * connected-subgraph oracle, with an unpenalised intercept. The design matrix is a
 * gsfw_operator (here dense), so the same code runs on a sparse or implicit one.
 * Build after `make install`:
 *   cc logistic.c $(pkg-config --cflags --libs gsfw) -lm -o logistic
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gsfw.h"

int main(void)
{
    enum { side = 6, d = side * side, n = 300, s = 6 };
    static double A[n * d], y[n], w_true[d], x[d];
    const int block[s] = {14, 15, 16, 20, 21, 22};
    for (int k = 0; k < s; k++) w_true[block[k]] = k % 2 ? -2.0 : 2.0;
    unsigned state = 2024u;
    for (int i = 0; i < n; i++) { /* deterministic pseudo-random features and labels */
        double u = 0.5; /* true intercept */
        for (int j = 0; j < d; j++) {
            state = state * 1103515245u + 12345u;
            A[i * d + j] = ((double)(state >> 8) / 16777216.0 - 0.5) * sqrt(12.0);
            u += A[i * d + j] * w_true[j];
        }
        state = state * 1103515245u + 12345u;
        y[i] = (double)(state >> 8) / 16777216.0 < 1.0 / (1.0 + exp(-u)) ? 1.0 : -1.0;
    }

    gsfw_err err;
    gsfw_operator *op = NULL;
    gsfw_objective *f = NULL;
    gsfw_graph *grid = NULL;
    gsfw_dmo *oracle = NULL;
    gsfw_loss_options opt;
    gsfw_loss_options_default(&opt);
    opt.loss = GSFW_LOSS_LOGISTIC;
    opt.intercept = 1;
    if (gsfw_operator_dense(n, d, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, &op, &err) ||
        gsfw_objective_linear(op, n, y, &opt, &f, &err) ||
        gsfw_graph_grid(side, side, &grid, &err) ||
        gsfw_dmo_subgraph(grid, s, 1, &oracle, &err)) {
        fprintf(stderr, "setup failed: %s\n", err.message);
        return 1;
    }
    gsfw_settings settings;
    gsfw_settings_default(&settings);
    settings.method = GSFW_METHOD_ACCFW;
    settings.C = 2.0 * sqrt((double)s); /* ||w_true|| */
    settings.max_iter = 300;
    gsfw_result result = {.x_best = x};
    gsfw_info info;
    double b = 0.0;
    if (gsfw_solve(f, oracle, &settings, &result, &info, &err) ||
        gsfw_objective_intercept(f, x, &b, &err)) {
        fprintf(stderr, "solve failed: %s\n", err.message);
        return 1;
    }
    double xmax = 0.0;
    for (int j = 0; j < d; j++) xmax = fmax(xmax, fabs(x[j]));
    int found = 0;
    printf("loss %.4f after %d iterations, intercept %.3f\nsupport (|x_j| > xmax/2):",
           info.f_best, info.iterations, b);
    for (int j = 0; j < d; j++) {
        if (fabs(x[j]) > 0.5 * xmax) {
            printf(" %d", j);
            found += w_true[j] != 0.0;
        }
    }
    printf("\n%d of the %d true nodes found\n", found, s);

    gsfw_dmo_free(oracle);
    gsfw_graph_free(grid);
    gsfw_objective_free(f); /* before the operator it borrows */
    gsfw_operator_free(op);
    return found >= s - 1 ? 0 : 1;
}
