/* The Rademacher sensing matrix: i.i.d. entries +-1/sqrt(n), each sign a fair coin of
 * gsfw_rng seeded with seed, drawn column by column. It satisfies the restricted
 * isometry property as the Gaussian matrix does (columns of unit norm exactly), and its
 * entries take one bit of randomness each. Stored explicitly (double, or float32). */
#include "operators/op_internal.h"
#include "core/registry.h"
#include "util/rng.h"

#include <math.h>
#include <stdlib.h>

static gsfw_error rademacher_build(const gsfw_sensing_spec *s, gsfw_operator **out,
                                   gsfw_err *err)
{
    const int n = s->n, d = s->height * s->width;
    double *A = gsfw_malloc_array((size_t)n * (size_t)d, sizeof(double));
    if (!A) return gsfw_fail(err, GSFW_ERR_NOMEM, "rademacher sensing: out of memory for a "
                             "%d x %d matrix", n, d);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, s->seed);
    const double a = 1.0 / sqrt((double)n);
    for (size_t k = 0; k < (size_t)n * (size_t)d; k++) A[k] = gsfw_rng_uniform(&rng) < 0.5 ? -a : a;
    if (!s->float32) return gsfw_op_dense_adopt(n, d, A, out, err);
    gsfw_error rc = gsfw_operator_dense_to_f32(n, d, A, GSFW_COL_MAJOR, out, err);
    free(A);
    return rc;
}

static double rademacher_memory(const gsfw_sensing_spec *s)
{
    return (s->float32 ? 12.0 : 8.0) * (double)s->n * (double)s->height * (double)s->width;
}

const gsfw_entry gsfw_entry_sensing_rademacher = {
    GSFW_KIND_SENSING, "rademacher",
    "explicit n x d matrix of i.i.d. +-1/sqrt(n) entries (seeded fair signs)", "seed float32",
    0, 0,
    &(const gsfw_sensing_def){.build = rademacher_build, .memory = rademacher_memory,
                              .explicit_matrix = 1},
    NULL};
