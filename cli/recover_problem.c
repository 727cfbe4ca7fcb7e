/* The problem of `gsfw recover` (see recover_problem.h). */
#include "recover_problem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "objectives/linear.h"
#include "util/rng.h"

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

/* The explicit Gaussian matrix, drawn as recover always has (one generator seeded with
 * seed, N(0, 1/n) entries column by column), so earlier results stay bit-identical; y is
 * measured on it, the noise continues the same stream, and the objective takes the array
 * over: the matrix is held once. */
static int build_gaussian(const char *cmd, const recover_problem_spec *spec, const double *xs,
                          recover_problem *p)
{
    const int n = spec->n, d = spec->height * spec->width;
    double *A = malloc((size_t)n * (size_t)d * sizeof(double));
    if (!A) return cli_fail(cmd, "out of memory for a %d x %d matrix", n, d);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, spec->seed);
    const double sd = 1.0 / sqrt((double)n);
    for (size_t k = 0; k < (size_t)n * (size_t)d; k++) A[k] = sd * gsfw_rng_normal(&rng);
    for (int j = 0; j < d; j++)
        if (xs[j] != 0.0)
            for (int i = 0; i < n; i++) p->y[i] += A[(size_t)j * n + i] * xs[j];
    p->f_star = 0.5 * add_noise(&rng, spec->noise, p->y, n);
    gsfw_err err;
    if (spec->float32) {
        gsfw_error e = gsfw_operator_dense_to_f32(n, d, A, GSFW_COL_MAJOR, &p->sensing, &err);
        free(A);
        if (e) return cli_fail_err(cmd, e, &err);
        p->op = p->sensing;
        if (gsfw_objective_linear(p->op, n, p->y, NULL, &p->obj, &err))
            return cli_fail(cmd, "%s", err.message);
        return CLI_OK;
    }
    if (gsfw_objective_least_squares_adopt(n, d, A, p->y, &p->obj, &err))
        return cli_fail(cmd, "%s", err.message);
    p->op = gsfw_linear_operator(p->obj->ctx, NULL);
    return CLI_OK;
}

int recover_problem_build(const char *cmd, const recover_problem_spec *spec,
                          const double *truth, recover_problem *p)
{
    memset(p, 0, sizeof *p);
    const int n = spec->n, d = spec->height * spec->width;
    p->y = calloc((size_t)n, sizeof(double));
    if (!p->y) return cli_fail(cmd, "out of memory for %d measurements", n);
    int rc;
    gsfw_err err;
    if (!strcmp(spec->sensing, "gaussian") && !spec->psi) {
        rc = build_gaussian(cmd, spec, truth, p);
        if (rc) recover_problem_free(p);
        return rc;
    }
    if (spec->float32 && strcmp(spec->sensing, "gaussian")) {
        recover_problem_free(p);
        return cli_fail(cmd, "--float32 applies to --sensing gaussian only");
    }
    if (gsfw_sensing_operator(spec->sensing, n, spec->height, spec->width, spec->seed,
                              spec->float32, &p->sensing, &err)) {
        recover_problem_free(p);
        return cli_fail(cmd, "--sensing %s: %s", spec->sensing, err.message);
    }
    p->op = p->sensing;
    if (spec->psi) {
        if (gsfw_operator_compose(p->sensing, spec->psi, &p->composed, &err)) {
            recover_problem_free(p);
            return cli_fail(cmd, "--basis: %s", err.message);
        }
        p->op = p->composed;
    }
    if (p->op->apply(p->op->ctx, truth, p->y)) {
        recover_problem_free(p);
        return cli_fail(cmd, "--sensing %s: the operator failed measuring the image",
                        spec->sensing);
    }
    /* the noise stream of the operators other than the explicit Gaussian: its own seed */
    gsfw_rng rng;
    gsfw_rng_seed(&rng, spec->seed ^ 0x9e3779b97f4a7c15ULL);
    p->f_star = 0.5 * add_noise(&rng, spec->noise, p->y, n);
    (void)d;
    if (gsfw_objective_linear(p->op, n, p->y, NULL, &p->obj, &err)) {
        recover_problem_free(p);
        return cli_fail(cmd, "%s", err.message);
    }
    return CLI_OK;
}

void recover_problem_free(recover_problem *p)
{
    gsfw_objective_free(p->obj);
    gsfw_operator_free(p->composed);
    gsfw_operator_free(p->sensing);
    free(p->y);
    memset(p, 0, sizeof *p);
}

double recover_problem_norm2(const recover_problem *p, int iters, double margin)
{
    const gsfw_operator *op = p->op;
    double *u = malloc((size_t)op->n * sizeof(double));
    double *v = malloc((size_t)op->d * sizeof(double));
    double *w = malloc((size_t)op->d * sizeof(double));
    double lambda = NAN;
    if (!u || !v || !w) goto out;
    /* the start vector of gsfw_power_iteration_col_major, so the dense case agrees */
    double nv = 0.0;
    for (int j = 0; j < op->d; j++) {
        v[j] = 1.0 + 0.5 * sin(1.0 + 0.7 * j);
        nv += v[j] * v[j];
    }
    nv = sqrt(nv);
    for (int j = 0; j < op->d; j++) v[j] /= nv;
    lambda = 0.0;
    for (int it = 0; it < iters; it++) {
        if (op->apply(op->ctx, v, u) || op->adjoint(op->ctx, u, w)) {
            lambda = NAN;
            goto out;
        }
        double rq = 0.0, nw = 0.0;
        for (int j = 0; j < op->d; j++) {
            rq += v[j] * w[j];
            nw += w[j] * w[j];
        }
        nw = sqrt(nw);
        if (nw == 0.0) break;
        for (int j = 0; j < op->d; j++) v[j] = w[j] / nw;
        double prev = lambda;
        lambda = rq;
        if (it > 0 && fabs(lambda - prev) <= 1e-6 * fabs(lambda)) break;
    }
    lambda *= margin;
out:
    free(u);
    free(v);
    free(w);
    return lambda;
}

static const double *sort_key;

static int by_magnitude(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    double x = fabs(sort_key[i]), y = fabs(sort_key[j]);
    if (x != y) return x < y ? 1 : -1;
    return (i > j) - (i < j);
}

int recover_energy_count(const double *theta, int d, double fraction, int *order)
{
    double total = 0.0;
    for (int i = 0; i < d; i++) {
        order[i] = i;
        total += theta[i] * theta[i];
    }
    /* qsort has no context argument: the key is set just before, and the command line
     * runs one recovery per process */
    sort_key = theta;
    qsort(order, (size_t)d, sizeof(int), by_magnitude);
    double acc = 0.0;
    for (int k = 0; k < d; k++) {
        acc += theta[order[k]] * theta[order[k]];
        if (acc >= fraction * total) return k + 1;
    }
    return d;
}
