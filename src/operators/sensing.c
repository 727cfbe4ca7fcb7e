/* The sensing matrices of compressive-sensing recovery by name (gsfw recover --sensing):
 * the sensing parameters as registry rows, gsfw_sensing_operator over the sensing rows
 * (each in its operator's file), the measurement y = A x + sigma e, and the explicit
 * Gaussian matrix's row. */
#include "operators/op_internal.h"
#include "core/registry.h"
#include "util/rng.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const gsfw_param gsfw_params_sensing[] = {
    {.name = "sensing", .type = GSFW_PARAM_ENTRY, .kind = GSFW_KIND_SENSING,
     .flags = GSFW_PARAM_GENERAL, .help = "the sensing operator (gsfw help sensing)"},
    {.name = "basis", .type = GSFW_PARAM_ENTRY, .kind = GSFW_KIND_BASIS,
     .flags = GSFW_PARAM_GENERAL, .help = "the basis the image is sparse in (gsfw help bases)"},
    {.name = "float32", .type = GSFW_PARAM_BOOL, .flags = GSFW_PARAM_STRICT,
     .target = GSFW_TARGET_SENSING, .offset = offsetof(gsfw_sensing_spec, float32),
     .help = "store an explicit matrix in single precision"},
    {.name = "threads", .type = GSFW_PARAM_INT, .lo = 1, .hi = GSFW_OP_MAX_THREADS, .def = 1,
     .target = GSFW_TARGET_SENSING, .offset = offsetof(gsfw_sensing_spec, threads),
     .unused = "its products run on one thread",
     .help = "threads of the transforms and generated rows; the answers do not depend on it"},
    GSFW_PARAM_END,
};

/* The explicit Gaussian matrix, drawn exactly as recover always has: one gsfw_rng seeded
 * with seed, entries sd * N(0, 1) in column-major order (column 0 top to bottom, then
 * column 1, ...), so results of earlier runs stay bit-identical. With measure the
 * operator is the one the least-squares objective has always used (residuals in one
 * gemv), so recover's iterates stay those of earlier versions too. */
static gsfw_error gaussian_draw(int n, int d, uint64_t seed, int float32, int measured,
                                const double *x, double *y, gsfw_rng *rng_after,
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
    for (int j = 0; x && j < d; j++)
        if (x[j] != 0.0)
            for (int i = 0; i < n; i++) y[i] += A[(size_t)j * n + i] * x[j];
    if (!float32)
        return measured ? gsfw_op_dense_adopt_measured(n, d, A, out, err)
                        : gsfw_op_dense_adopt(n, d, A, out, err);
    gsfw_error rc = gsfw_operator_dense_to_f32(n, d, A, GSFW_COL_MAJOR, out, err);
    free(A);
    return rc;
}

gsfw_error gsfw_op_sensing_gaussian(int n, int d, uint64_t seed, int float32, gsfw_rng *rng_after,
                                    gsfw_operator **out, gsfw_err *err)
{
    return gaussian_draw(n, d, seed, float32, 0, NULL, NULL, rng_after, out, err);
}

/* y += sigma e with e ~ N(0, I_n) from rng; returns ||sigma e||^2. */
static double add_noise(gsfw_rng *rng, double sigma, double *y, int n)
{
    double sq = 0.0;
    if (sigma > 0)
        for (int i = 0; i < n; i++) {
            double ei = sigma * gsfw_rng_normal(rng);
            y[i] += ei;
            sq += ei * ei;
        }
    return sq;
}

double gsfw_sensing_noise(uint64_t seed, double sigma, int n, int row0, int rows, double *y)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed ^ 0x9e3779b97f4a7c15ULL);
    double sq = 0.0;
    for (int i = 0; sigma > 0 && i < n; i++) {
        double e = sigma * gsfw_rng_normal(&rng);
        if (i >= row0 && i < row0 + rows) y[i - row0] += e;
        sq += e * e; /* the whole stream, in order */
    }
    return sq;
}

static gsfw_error gaussian_build(const gsfw_sensing_spec *s, gsfw_operator **out, gsfw_err *err)
{
    return gsfw_op_sensing_gaussian(s->n, s->height * s->width, s->seed, s->float32, NULL, out,
                                    err);
}

/* the measurement noise continues the stream that drew the matrix */
static gsfw_error gaussian_measure(const gsfw_sensing_spec *s, const double *x, double sigma,
                                   double *y, double *noise_sq, gsfw_operator **out,
                                   gsfw_err *err)
{
    gsfw_rng rng;
    gsfw_error e = gaussian_draw(s->n, s->height * s->width, s->seed, s->float32, 1, x, y, &rng,
                                 out, err);
    if (!e) *noise_sq = add_noise(&rng, sigma, y, s->n);
    return e;
}

/* drawn in doubles and converted for float32: 1.5 copies at the peak */
static double gaussian_memory(const gsfw_sensing_spec *s)
{
    return (s->float32 ? 12.0 : 8.0) * (double)s->n * (double)s->height * (double)s->width;
}

const gsfw_entry gsfw_entry_sensing_gaussian = {
    GSFW_KIND_SENSING, "gaussian", "explicit n x d matrix, i.i.d. N(0, 1/n) entries (seeded)",
    "seed float32", 0, GSFW_ENTRY_DEFAULT,
    &(const gsfw_sensing_def){.build = gaussian_build, .memory = gaussian_memory,
                              .measure = gaussian_measure, .explicit_matrix = 1},
    NULL};

/* ---- by name */

gsfw_error gsfw_sensing_check(const gsfw_entry *e, const gsfw_sensing_spec *s, gsfw_err *err)
{
    static const char what[] = "sensing operator";
    gsfw_error image_rc = gsfw_op_check_image(what, s->height, s->width, err);
    if (image_rc) return image_rc;
    if (s->n < 1) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the number of measurements n "
                                   "must be >= 1, got %d", what, s->n);
    if (s->threads != 0) { /* 0: not set, one thread */
        gsfw_error rc = gsfw_op_check_threads(what, s->threads, err);
        if (rc) return rc;
    }
    if (s->float32 && !gsfw_entry_uses(e, "float32")) {
        const gsfw_entry *k;
        char users[128] = "";
        size_t used = 0;
        for (int i = 0; (k = gsfw_registry_entry(GSFW_KIND_SENSING, i)); i++)
            if (gsfw_entry_uses(k, "float32") && used < sizeof users)
                used += (size_t)snprintf(users + used, sizeof users - used, "%s'%s'",
                                         used ? " or " : "", k->name);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: float32 storage applies to the "
                         "explicit %s matrix only, not '%s'", what, users, e->name);
    }
    return GSFW_OK;
}

static gsfw_error find_kind(const char *kind, const gsfw_entry **out, gsfw_err *err)
{
    static const char what[] = "sensing operator";
    if (!kind) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: kind is NULL", what);
    *out = gsfw_registry_find(GSFW_KIND_SENSING, kind);
    if (*out) return GSFW_OK;
    char names[256];
    gsfw_registry_names(GSFW_KIND_SENSING, ", ", names, sizeof names);
    char *last = strrchr(names, ',');
    char shown[300];
    if (last) /* "a, b or c" */
        snprintf(shown, sizeof shown, "%.*s or%s", (int)(last - names), names, last + 1);
    else
        snprintf(shown, sizeof shown, "%s", names);
    return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: unknown kind '%.64s' (expected %s)", what,
                     kind, shown);
}

gsfw_error gsfw_sensing_operator_spec(const char *kind, const gsfw_sensing_spec *s,
                                      gsfw_operator **out, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!out || !s)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "sensing operator: %s is NULL",
                         !out ? "out" : "the spec");
    *out = NULL;
    const gsfw_entry *e;
    gsfw_error rc = find_kind(kind, &e, err);
    if (rc) return rc;
    if ((rc = gsfw_sensing_check(e, s, err))) return rc;
    return ((const gsfw_sensing_def *)e->def)->build(s, out, err);
}

gsfw_error gsfw_sensing_operator(const char *kind, int n, int height, int width, uint64_t seed,
                                 int float32, gsfw_operator **out, gsfw_err *err)
{
    const gsfw_sensing_spec s = {.n = n, .height = height, .width = width, .seed = seed,
                                 .float32 = float32};
    return gsfw_sensing_operator_spec(kind, &s, out, err);
}

gsfw_error gsfw_sensing_measure_entry(const gsfw_entry *e, const gsfw_sensing_spec *s,
                                      const double *x, double sigma, double *y,
                                      double *noise_sq, gsfw_operator **out, gsfw_err *err)
{
    const gsfw_sensing_def *def = e->def;
    *out = NULL;
    *noise_sq = 0.0;
    gsfw_error check = gsfw_sensing_check(e, s, err);
    if (check) return check;
    memset(y, 0, (size_t)(s->n > 0 ? s->n : 0) * sizeof(double));
    if (def->measure) return def->measure(s, x, sigma, y, noise_sq, out, err);
    gsfw_error rc = def->build(s, out, err);
    if (rc) return rc;
    if ((*out)->apply((*out)->ctx, x, y)) {
        gsfw_operator_free(*out);
        *out = NULL;
        return gsfw_fail(err, GSFW_ERR_CALLBACK, "sensing operator: measuring x failed");
    }
    *noise_sq = gsfw_sensing_noise(s->seed, sigma, s->n, 0, s->n, y);
    return GSFW_OK;
}

/* ---- the scaled transform rows shared by the dct and hadamard kinds */

double gsfw_sensing_scale(int n, int d)
{
    /* Orthonormal rows have unit norm, so each column of P F has expected squared norm
     * n/d; sqrt(d/n) brings it to 1, the column norm of the N(0, 1/n) matrices. */
    return n <= d ? sqrt((double)d / (double)n) : 1.0;
}
