/* gsfw_objective_least_squares: the squared loss (linear.c) over a column-major copy of
 * a dense matrix, held by the measured dense operator (src/operators/dense.c), which the
 * objective owns. */
#include "objectives/linear.h"
#include "operators/op_internal.h"

#include <math.h>

gsfw_error gsfw_objective_least_squares_adopt(int n, int d, double *A_col_major,
                                              const double *y, gsfw_objective **out,
                                              gsfw_err *err)
{
    *out = NULL;
    gsfw_operator *op;
    gsfw_error e = gsfw_op_dense_adopt_measured(n, d, A_col_major, &op, err);
    if (e) return e;
    gsfw_loss_options opt;
    gsfw_loss_options_default(&opt);
    e = gsfw_objective_linear_owning(op, n, y, &opt, out, err);
    return e;
}

gsfw_error gsfw_objective_least_squares(int n, int d, const double *A, gsfw_layout layout,
                                        const double *y, gsfw_objective **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "least squares: output pointer is NULL");
    *out = NULL;
    if (n < 1 || d < 1)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "least squares: A must be at least 1 x 1, got "
                         "%d x %d", n, d);
    if (!A || !y)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "least squares: %s is NULL", !A ? "A" : "y");
    /* Any other value would be read as row-major without a word. */
    if (layout != GSFW_ROW_MAJOR && layout != GSFW_COL_MAJOR)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "least squares: unknown layout %d "
                         "(GSFW_ROW_MAJOR = 0, GSFW_COL_MAJOR = 1)", (int)layout);
    size_t nd = (size_t)n * (size_t)d;
    for (size_t k = 0; k < nd; k++) {
        if (!isfinite(A[k])) {
            size_t row = layout == GSFW_ROW_MAJOR ? k / (size_t)d : k % (size_t)n;
            size_t col = layout == GSFW_ROW_MAJOR ? k % (size_t)d : k / (size_t)n;
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "A[%zu, %zu] is %g; A must be finite",
                             row, col, A[k]);
        }
    }
    for (int i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "y[%d] is %g; y must be finite", i, y[i]);

    double *copy = gsfw_malloc_array(nd, sizeof(double));
    if (!copy) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a %d x %d matrix", n, d);
    gsfw_op_dense_copy_col_major(n, d, A, layout, copy);
    return gsfw_objective_least_squares_adopt(n, d, copy, y, out, err);
}
