/* "No allocation after construction" for the losses over an operator: every hook of
 * gsfw_objective_linear (value, gradient, the incremental hooks, lipschitz, minimize_on,
 * the intercept accessor) runs without a single allocation, counted by this executable's
 * own allocator entry points as in tests/test_no_alloc.c. Skipped in the sanitizer builds,
 * which replace the allocator themselves. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"
#include "support/ref_operator.h"

#include "support/alloc_counter.h"

enum { N = 50, D = 16 };

/* Every hook, several times; returns the allocations made. */
static long allocations_of_hooks(gsfw_objective *obj, int intercept)
{
    double x[D], g[D], f, L, w[4] = {0.1, -0.2, 0.3, 0.0}, b;
    for (int j = 0; j < D; j++) x[j] = 0.2 * cos(1.0 + j);
    int idx[3] = {0, 5, 9}, S[4] = {1, 4, 7, 15};
    double val[3] = {0.5, -0.3, 0.2};
#if COUNTING
    long before = allocations;
#endif
    for (int rep = 0; rep < 3; rep++) {
        assert_int_equal(obj->value(obj->ctx, x, &f), 0);
        assert_int_equal(obj->gradient(obj->ctx, x, g), 0);
        assert_int_equal(obj->value_grad(obj->ctx, x, &f, g), 0);
        assert_int_equal(obj->reset(obj->ctx, x), 0);
        assert_int_equal(obj->set_direction(obj->ctx, rep - 1.0, 3, idx, val), 0);
        assert_int_equal(obj->along(obj->ctx, 0.3, &f, &g[0]), 0);
        assert_int_equal(obj->step(obj->ctx, 0.3), 0);
        assert_int_equal(obj->cached_value_grad(obj->ctx, &f, g), 0);
        assert_int_equal(obj->lipschitz(obj->ctx, &L), 0);
        assert_int_equal(obj->minimize_on(obj->ctx, 4, S, w, 20, 1e-10, &f), 0);
        if (intercept) {
            assert_int_equal(gsfw_objective_intercept(obj, x, &b, NULL), GSFW_OK);
            assert_int_equal(gsfw_objective_intercept(obj, NULL, &b, NULL), GSFW_OK);
        }
    }
#if COUNTING
    return allocations - before;
#else
    return 0;
#endif
}

static void test_hooks_do_not_allocate(void **state)
{
    (void)state;
    if (!COUNTING) skip();
    static double A[N * D], y_ls[N], y_lab[N];
    int rows[N * D], cols[N * D];
    double vals[N * D];
    long nnz = 0;
    for (int i = 0; i < N; i++) {
        y_ls[i] = sin(0.3 * i);
        y_lab[i] = (i * 7) % 3 ? 1.0 : -1.0;
        for (int j = 0; j < D; j++) {
            double a = (i + 2 * j) % 5 ? sin(1.0 + i * D + j) / sqrt((double)N) : 0.0;
            A[i * D + j] = a;
            if (a != 0.0) {
                rows[nnz] = i;
                cols[nnz] = j;
                vals[nnz++] = a;
            }
        }
    }
    const struct {
        gsfw_loss loss;
        int intercept;
    } cases[] = {{GSFW_LOSS_SQUARED, 0}, {GSFW_LOSS_LOGISTIC, 0}, {GSFW_LOSS_LOGISTIC, 1},
                 {GSFW_LOSS_HUBER, 0}};
    for (int c = 0; c < 4; c++) {
        gsfw_operator *ops[3];
        ops[0] = ref_dense_operator(N, D, A);
        assert_int_equal(gsfw_operator_csr(N, D, nnz, rows, cols, vals, &ops[1], NULL), GSFW_OK);
        assert_int_equal(gsfw_operator_dense(N, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, &ops[2], NULL),
                         GSFW_OK);
        for (int o = 0; o < 3; o++) {
            gsfw_loss_options opt;
            gsfw_loss_options_default(&opt);
            opt.loss = cases[c].loss;
            opt.intercept = cases[c].intercept;
            gsfw_objective *obj;
            const double *y = cases[c].loss == GSFW_LOSS_LOGISTIC ? y_lab : y_ls;
            assert_int_equal(gsfw_objective_linear(ops[o], N, y, &opt, &obj, NULL), GSFW_OK);
            long made = allocations_of_hooks(obj, cases[c].intercept);
            if (made) fail_msg("loss %d over '%s': %ld allocations in the hooks", c, ops[o]->name, made);
            gsfw_objective_free(obj);
        }
        ref_operator_free(ops[0]);
        gsfw_operator_free(ops[1]);
        gsfw_operator_free(ops[2]);
    }
    /* the dense least-squares shortcut */
    gsfw_objective *ls;
    assert_int_equal(gsfw_objective_least_squares(N, D, A, GSFW_ROW_MAJOR, y_ls, &ls, NULL), GSFW_OK);
    assert_int_equal(allocations_of_hooks(ls, 0), 0);
    gsfw_objective_free(ls);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hooks_do_not_allocate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
