/* The problem of `gsfw recover` (see recover_problem.h). */
#include "recover_problem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outputs.h"
#include "operators/op_internal.h"

/* Entries generated per block of rows of measure_by_rows: a few tens of milliseconds. */
#define MEASURE_BLOCK_ENTRIES (1 << 22)

/* y = A x* for a kind whose rows are generated on demand (implicit-gaussian), block of
 * rows by block, with SIGINT / SIGTERM polled in between: with a huge --ratio this one
 * product is most of the set-up. Each row's product is computed as the whole operator
 * computes it, so y is that of gsfw_spec_measure bit for bit. CLI_OK, CLI_FAIL or the
 * interruption's status (message printed). */
static int measure_by_rows(const char *cmd, const gsfw_entry *kind, const gsfw_sensing_spec *ss,
                           const double *truth, double *y)
{
    const gsfw_sensing_def *def = kind->def;
    const int d = ss->height * ss->width;
    const int block = d < MEASURE_BLOCK_ENTRIES ? MEASURE_BLOCK_ENTRIES / d : 1;
    gsfw_err err;
    for (int row0 = 0; row0 < ss->n; row0 += block) {
        const int rows = ss->n - row0 < block ? ss->n - row0 : block;
        gsfw_operator *op = NULL;
        if (def->build_rows(ss, row0, rows, &op, &err))
            return cli_fail(cmd, "--sensing %s: %s", kind->name, err.message);
        int bad = op->apply(op->ctx, truth, y + row0);
        gsfw_operator_free(op);
        if (bad)
            return cli_fail(cmd, "--sensing %s: the operator failed measuring the image",
                            kind->name);
        if (cli_interrupted()) return cli_interrupted_exit(cmd, "no output was changed");
    }
    return CLI_OK;
}

int recover_problem_build(const char *cmd, const recover_problem_spec *spec,
                          const double *truth, recover_problem *p)
{
    memset(p, 0, sizeof *p);
    const int n = spec->n;
    p->y = calloc((size_t)n, sizeof(double));
    if (!p->y) return cli_fail(cmd, "out of memory for %d measurements", n);
    gsfw_err err;
    const gsfw_sensing_spec sizes = {.n = n, .height = spec->height, .width = spec->width};
    const gsfw_entry *entry = gsfw_spec_entry(spec->spec, GSFW_KIND_SENSING);
    const gsfw_sensing_def *def = entry->def;
    const char *kind = entry->name;
    double noise_sq = 0.0;
    if (!spec->psi && !def->measure && def->build_rows && !def->explicit_matrix) {
        /* as gsfw_spec_measure: build, apply (here by blocks of rows), draw the noise */
        const uint64_t seed = (uint64_t)gsfw_spec_number(spec->spec, "seed");
        const gsfw_sensing_spec ss = {.n = n, .height = spec->height, .width = spec->width,
                                      .seed = seed};
        int rc = gsfw_spec_sensing(spec->spec, &sizes, &p->sensing, &err)
                     ? cli_fail(cmd, "--sensing %s: %s", kind, err.message)
                     : measure_by_rows(cmd, entry, &ss, truth, p->y);
        if (rc) {
            recover_problem_free(p);
            return rc;
        }
        p->op = p->sensing;
        noise_sq = gsfw_sensing_noise(seed, spec->noise, n, 0, n, p->y);
    } else if (!spec->psi) {
        /* y = A x* + sigma e, the noise drawn as the kind draws it */
        if (gsfw_spec_measure(spec->spec, &sizes, truth, spec->noise, p->y, &noise_sq,
                              &p->sensing, &err)) {
            recover_problem_free(p);
            return cli_fail(cmd, "--sensing %s: %s", kind, err.message);
        }
        p->op = p->sensing;
    } else {
        /* y = A Psi theta* + sigma e */
        if (gsfw_spec_sensing(spec->spec, &sizes, &p->sensing, &err)) {
            recover_problem_free(p);
            return cli_fail(cmd, "--sensing %s: %s", kind, err.message);
        }
        if (gsfw_operator_compose(p->sensing, spec->psi, &p->composed, &err)) {
            recover_problem_free(p);
            return cli_fail(cmd, "--basis: %s", err.message);
        }
        p->op = p->composed;
        if (p->op->apply(p->op->ctx, truth, p->y)) {
            recover_problem_free(p);
            return cli_fail(cmd, "--sensing %s: the operator failed measuring the image", kind);
        }
        noise_sq = gsfw_sensing_noise((uint64_t)gsfw_spec_number(spec->spec, "seed"),
                                      spec->noise, n, 0, n, p->y);
    }
    p->f_star = 0.5 * noise_sq;
    if (gsfw_spec_objective(spec->spec, p->op, n, p->y, NULL, &p->obj, &err)) {
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
        if (cli_interrupted()) { /* the caller reports the interruption */
            lambda = NAN;
            goto out;
        }
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
