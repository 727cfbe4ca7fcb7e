/* The sensing matrices of compressive-sensing recovery (gsfw recover --sensing). */
#include "operators/op_internal.h"
#include "util/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The explicit Gaussian matrix, drawn exactly as recover always has: one gsfw_rng seeded
 * with seed, entries sd * N(0, 1) in column-major order (column 0 top to bottom, then
 * column 1, ...), so results of earlier runs stay bit-identical. */
gsfw_error gsfw_op_sensing_gaussian(int n, int d, uint64_t seed, int float32, gsfw_rng *rng_after,
                                    gsfw_operator **out, gsfw_err *err)
{
    double *A = gsfw_malloc_array((size_t)n * (size_t)d, sizeof(double));
    if (!A) return gsfw_fail(err, GSFW_ERR_NOMEM, "sensing operator: out of memory for a %d x %d "
                             "matrix", n, d);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    const double sd = 1.0 / sqrt((double)n);
    for (size_t k = 0; k < (size_t)n * (size_t)d; k++) A[k] = sd * gsfw_rng_normal(&rng);
    if (rng_after) *rng_after = rng;
    if (!float32) return gsfw_op_dense_adopt(n, d, A, out, err);
    gsfw_error rc = gsfw_operator_dense_to_f32(n, d, A, GSFW_COL_MAJOR, out, err);
    free(A);
    return rc;
}

gsfw_error gsfw_sensing_operator(const char *kind, int n, int height, int width, uint64_t seed,
                                 int float32, gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "sensing operator";
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    if (!kind) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: kind is NULL", what);
    int signs = !strcmp(kind, "dct-signs") || !strcmp(kind, "hadamard-signs");
    int known = !strcmp(kind, "gaussian") || !strcmp(kind, "implicit-gaussian") ||
                !strcmp(kind, "dct") || !strcmp(kind, "hadamard") || signs;
    if (!known)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: unknown kind '%.64s' (expected "
                         "gaussian, implicit-gaussian, dct, hadamard, dct-signs or "
                         "hadamard-signs)", what, kind);
    gsfw_error image_rc = gsfw_op_check_image(what, height, width, err);
    if (image_rc) return image_rc;
    int d = height * width;
    if (n < 1) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the number of measurements n "
                                "must be >= 1, got %d", what, n);
    if (float32 && strcmp(kind, "gaussian") != 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: float32 storage applies to the explicit "
                         "'gaussian' matrix only, not '%s'", what, kind);
    if (!strcmp(kind, "gaussian")) return gsfw_op_sensing_gaussian(n, d, seed, float32, NULL, out, err);
    if (!strcmp(kind, "implicit-gaussian"))
        return gsfw_operator_implicit_gaussian(n, d, seed, 1.0 / sqrt((double)n), 0, n, out, err);
    /* Orthonormal rows have unit norm, so each column of P F has expected squared norm n/d;
     * sqrt(d/n) brings it to 1, the column norm of the N(0, 1/n) matrices. */
    double scale = n <= d ? sqrt((double)d / (double)n) : 1.0;
    if (!strcmp(kind, "dct")) return gsfw_op_dct2_scaled(height, width, n, seed, scale, out, err);
    if (!strcmp(kind, "hadamard")) return gsfw_op_hadamard_scaled(d, n, seed, scale, out, err);
    gsfw_operator *rows = NULL;
    gsfw_error rc = kind[0] == 'd' ? gsfw_op_dct2_scaled(height, width, n, seed, scale, &rows, err)
                                   : gsfw_op_hadamard_scaled(d, n, seed, scale, &rows, err);
    if (rc) return rc;
    return gsfw_op_signs_before(rows, seed, kind[0] == 'd' ? "dct-signs" : "hadamard-signs", out,
                                err);
}
