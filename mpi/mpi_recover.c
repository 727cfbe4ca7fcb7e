/* gsfw-mpi recover: compressive sensing of an image with each rank generating its own
 * rows of the sensing matrix (never stored whole anywhere).
 *
 * Protocol as gsfw recover (docs/recover.md): x* = the image flattened row-major, scaled
 * to unit norm; s = nnz(x*), g = the components of supp(x*) on the 4-neighbour grid,
 * C = 1 unless given; n = floor(R s); y = A x* + SIGMA e, with e drawn as gsfw recover
 * draws it for these operators (one gsfw_rng stream of n normals from seed ^ 0x9e37...):
 * every rank draws the whole stream (n numbers) and keeps its slice, so A and y are
 * those of gsfw recover --sensing KIND, whatever the number of ranks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_cli.h"
#include "png_io.h"
#include "recover_metrics.h"
#include "solve_outputs.h"
#include "operators/op_internal.h"

static const char synopsis[] =
    "usage: mpirun -np K gsfw-mpi recover --image FILE(.npy|.png) --ratio R\n"
    "                    [--sensing KIND] [--method M] [--model M] [--s S] [--g G] [--C C]\n"
    "                    [--iters T] [--step RULE] [--tol TOL] [--tol-rel R]\n"
    "                    [--polish on|off] [--noise SIGMA] [--seed N] [--L L|spectral|atom]\n"
    "                    [--time-limit SEC] [--out x.npy] [--trace trace.csv]\n"
    "                    [--oracle all|root] [--PARAMETER VALUE ...]\n"
    "\n"
    "Recover an image from n = floor(R s) measurements y = A x* + SIGMA e, the rows of A\n"
    "split over the K ranks, each rank building its own rows (generated, or its slice of\n"
    "the seeded transform rows). A and y are those of gsfw recover --sensing KIND (the same\n"
    "seed and noise), for any K; the kinds that store the whole matrix are refused (every\n"
    "rank would draw it). Defaults as gsfw recover (the first kind that fits here, the\n"
    "grid's model, polish on for the Frank-Wolfe methods with --tol-rel 1e-3 unless\n"
    "--iters, --tol or --tol-rel is given). Rank 0 prints one line: method, model,\n"
    "sensing, status, iters, n, d, s, g, f, f_star, rel_err, psnr, support_f1, ranks,\n"
    "time_s, reduce_s; --out receives the returned x.\n"
    "\n"
    CLI_RECOVER_RUN_HELP
    "  --noise SIGMA     noise level (default 0)\n"
    "  --out FILE        the returned x (.npy); --trace FILE: one CSV row per iterate\n"
    "  --oracle WHERE    all (default) or root (rank 0 runs the oracle and broadcasts)\n"
    "\n"
    "Parameters (gsfw help params):\n";

/* x* from the image (every rank reads it: d values), unit norm. */
static int load_image(mpi_ctx *m, const char *cmd, const char *path, double **xs, int *h,
                      int *w)
{
    gsfw_err err;
    if (cli_ends_with_nocase(path, ".png")) {
        if (gsfw_png_read_gray(path, xs, h, w, &err))
            return mpi_fail(m, cmd, "--image: %s", err.message);
    } else {
        int ndim, shape[2];
        if (gsfw_npy_read(path, xs, &ndim, shape, &err))
            return mpi_fail(m, cmd, "--image: %s", err.message);
        if (ndim != 2) return mpi_fail(m, cmd, "--image: '%s' must be a 2-D array", path);
        *h = shape[0];
        *w = shape[1];
    }
    int d = *h * *w;
    double nrm = 0.0;
    for (int i = 0; i < d; i++) {
        if (!isfinite((*xs)[i]))
            return mpi_fail(m, cmd, "--image: '%s' has a non-finite pixel", path);
        nrm += (*xs)[i] * (*xs)[i];
    }
    if (!(nrm > 0)) return mpi_fail(m, cmd, "--image: '%s' is all zero", path);
    nrm = sqrt(nrm);
    for (int i = 0; i < d; i++) (*xs)[i] /= nrm;
    return CLI_OK;
}

/* This rank's rows of the sensing matrix: generated alone when the kind can, else the
 * same seeded operator on every rank, each keeping its slice. */
static int make_block(mpi_ctx *m, const char *cmd, const gsfw_spec *spec, int h, int w,
                      mpi_problem *p)
{
    gsfw_err err;
    const gsfw_entry *kind = gsfw_spec_entry(spec, GSFW_KIND_SENSING);
    const gsfw_sensing_def *def = kind->def;
    const gsfw_sensing_spec sizes = {.n = p->n, .height = h, .width = w,
                                     .seed = (uint64_t)gsfw_spec_number(spec, "seed")};
    gsfw_mpi_row_block(p->n, m->nprocs, m->rank, &p->row0, &p->rows);
    if (def->build_rows) {
        if (p->rows > 0 && (gsfw_sensing_check(kind, &sizes, &err) ||
                            def->build_rows(&sizes, p->row0, p->rows, &p->op, &err)))
            return mpi_fail(m, cmd, "--sensing %s: %s", kind->name, err.message);
        return CLI_OK;
    }
    if (gsfw_spec_sensing(spec, &sizes, &p->base, &err))
        return mpi_fail(m, cmd, "--sensing %s: %s", kind->name, err.message);
    if (p->rows > 0 && gsfw_mpi_row_select(p->base, p->row0, p->rows, &p->op, &err))
        return mpi_fail(m, cmd, "%s", err.message);
    return CLI_OK;
}

static const char CMD[] = "recover";

typedef struct {
    /* as given (NULL when absent) */
    const char *image, *ratio_text, *noise_text, *out_path, *trace_path, *oracle_text;
    double ratio, noise;
    int s_given, g_given;
    cli_params params; /* the spec: method, model, step, sensing and their values */
} recover_flags;

/* x* and what the protocol derives from it */
typedef struct {
    double *xs;    /* the image flattened row-major, unit norm */
    int h, w;      /* its shape */
    int s, g;      /* nnz(x*) and the components of supp(x*), unless given */
    double f_star; /* f(x*) = ||SIGMA e||^2 / 2 */
} recover_truth;

/* --sensing: the first kind that fits when not given; one that stores the whole matrix is
 * refused (every rank would draw it whole) */
static int choose_sensing(cli_params *cp)
{
    const gsfw_entry *e = cli_entry(cp, GSFW_KIND_SENSING);
    gsfw_err err;
    char fit[256] = "";
    size_t used = 0;
    const gsfw_entry *k, *first = NULL;
    for (int i = 0; (k = gsfw_registry_entry(GSFW_KIND_SENSING, i)); i++) {
        if (((const gsfw_sensing_def *)k->def)->explicit_matrix) continue;
        if (!first) first = k;
        if (used < sizeof fit)
            used += (size_t)snprintf(fit + used, sizeof fit - used, "%s%s", used ? ", " : "",
                                     k->name);
    }
    if (!gsfw_spec_given(cp->spec, "sensing"))
        return first && !gsfw_spec_set(cp->spec, "sensing", first->name, &err)
                   ? CLI_OK : cli_fail(CMD, "no sensing kind fits");
    if (((const gsfw_sensing_def *)e->def)->explicit_matrix)
        return cli_usage_error(CMD, "--sensing %s stores the whole matrix, which every rank "
                               "would draw; use one of %s", e->name, fit);
    return CLI_OK;
}

/* --image, --ratio, --noise, then the registry's flags with gsfw recover's defaults, and
 * --oracle */
static int check_flags(recover_flags *f, mpi_run_opts *o)
{
    int rc = cli_require(CMD, "--image", f->image);
    if (!rc) rc = cli_require(CMD, "--ratio", f->ratio_text);
    if (!rc && !(rc = cli_parse_double(CMD, "--ratio", f->ratio_text, &f->ratio)) &&
        !(f->ratio > 0))
        rc = cli_usage_error(CMD, "--ratio must be > 0, got %s", f->ratio_text);
    if (!rc && f->noise_text &&
        !(rc = cli_parse_double(CMD, "--noise", f->noise_text, &f->noise)) &&
        !(f->noise >= 0 && isfinite(f->noise)))
        rc = cli_usage_error(CMD, "--noise must be finite and >= 0, got %s", f->noise_text);
    cli_params *cp = &f->params;
    if (!rc) rc = cli_params_apply(CMD, cp);
    if (!rc) rc = choose_sensing(cp);
    gsfw_spec_available(cp->spec, GSFW_NEEDS_GRAPH); /* the pixel grid */
    int iters;
    if (!rc) rc = cli_params_recovery_defaults(CMD, cp, &iters);
    if (!rc) rc = cli_params_check(CMD, cp);
    if (!rc) rc = mpi_parse_oracle_flag(CMD, f->oracle_text, &o->oracle_on_root);
    if (!rc) rc = cli_solve_distinct_outputs(CMD, f->out_path, NULL, f->trace_path, NULL);
    f->s_given = gsfw_spec_given(cp->spec, "s") ? (int)gsfw_spec_number(cp->spec, "s") : 0;
    f->g_given = gsfw_spec_given(cp->spec, "g") ? (int)gsfw_spec_number(cp->spec, "g") : 0;
    o->spec = cp->spec;
    return rc;
}

/* The checks give the same verdict on every rank: rank 0 alone speaks. */
static int parse_flags(mpi_ctx *m, int argc, char **argv, recover_flags *f, mpi_run_opts *o)
{
    memset(f, 0, sizeof *f);
    memset(o, 0, sizeof *o);
    static const char *const skip[] = {"option", "delta", "float32", NULL};
    mpi_quiet_begin(m);
    int rc = cli_params_init(CMD, &f->params, GSFW_USES_METHOD | GSFW_USES_MODEL |
                                                  GSFW_USES_STEP | GSFW_USES_SENSING, skip);
    cli_opt opts[CLI_MAX_PARAMS + 8] = {
        {"--image", 0, &f->image}, {"--ratio", 0, &f->ratio_text},
        {"--noise", 0, &f->noise_text}, {"--out", 0, &f->out_path},
        {"--trace", 0, &f->trace_path}, {"--oracle", 0, &f->oracle_text},
    };
    char *usage = NULL;
    if (!rc) {
        int n = 6 + cli_params_opts(&f->params, opts + 6);
        static const char *const described[] = {CLI_RECOVER_DESCRIBED, NULL};
        usage = cli_asks_help(argc, argv) ? cli_usage_text(synopsis, &f->params, described, "")
                                          : strdup("");
        rc = usage ? cli_parse(CMD, argc, argv, opts, n, usage) : cli_fail(CMD, "out of memory");
    }
    free(usage);
    if (!rc) rc = check_flags(f, o);
    mpi_quiet_end(m);
    return rc;
}

/* The components of supp(x*) on the grid graph, or 0 when out of memory. */
static int support_components(const gsfw_graph *graph, const double *xs, int d)
{
    int g = 0;
    unsigned char *mask = malloc((size_t)d);
    int *work = malloc(2 * (size_t)d * sizeof(int));
    if (mask && work) {
        for (int i = 0; i < d; i++) mask[i] = xs[i] != 0.0;
        g = gsfw_graph_induced_components(graph, mask, work);
    }
    free(mask);
    free(work);
    return g;
}

/* x* from the image, s and g from its support (unless given), n = floor(R s), the grid
 * graph and this rank's rows of A. Collective (agreed). */
static int set_up_rows(mpi_ctx *m, const recover_flags *f, mpi_problem *p, recover_truth *t)
{
    gsfw_err err;
    int rc = mpi_agree(m, CMD, "reading --image",
                       load_image(m, CMD, f->image, &t->xs, &t->h, &t->w));
    if (rc) return rc;
    p->d = t->h * t->w;
    t->s = t->g = 0;
    for (int i = 0; i < p->d; i++) t->s += t->xs[i] != 0.0;
    int local = gsfw_graph_grid(t->h, t->w, &p->graph, &err) ? mpi_fail(m, CMD, "%s", err.message)
                                                         : CLI_OK;
    if (!local && (t->g = support_components(p->graph, t->xs, p->d)) < 1)
        local = mpi_fail(m, CMD, "out of memory");
    if (f->s_given) t->s = f->s_given;
    if (f->g_given) t->g = f->g_given;
    if (t->g > t->s) t->g = t->s;
    double nd = floor(f->ratio * t->s);
    p->n = nd > 2147483647.0 ? 0 : (int)nd;
    if (!local && p->n < 1)
        local = mpi_fail(m, CMD, "--ratio %g with s = %d gives n = %.0f measurements; at least "
                         "1 (and below 2^31) is needed", f->ratio, t->s, nd);
    if (!local) local = make_block(m, CMD, f->params.spec, t->h, t->w, p);
    return mpi_agree(m, CMD, "building the sensing rows", local);
}

/* y = A x* + SIGMA e on this rank's rows and the least-squares objective over them;
 * *f_star = f(x*) = ||SIGMA e||^2 / 2. Collective (agreed). */
static int measure(mpi_ctx *m, const recover_flags *f, mpi_problem *p, recover_truth *t)
{
    double noise_sq = 0.0;
    p->y = calloc(p->rows > 0 ? (size_t)p->rows : 1, sizeof(double));
    int local = p->y && (p->rows == 0 || !p->op->apply(p->op->ctx, t->xs, p->y))
                    ? CLI_OK
                    : mpi_fail(m, CMD, "computing A x* failed");
    /* the whole stream on every rank, in gsfw recover's order; this rank keeps its rows */
    if (!local)
        noise_sq = gsfw_sensing_noise((uint64_t)gsfw_spec_number(f->params.spec, "seed"),
                                      f->noise, p->n, p->row0, p->rows, p->y);
    if (!local) local = mpi_problem_objective(m, CMD, p, f->params.spec);
    t->f_star = 0.5 * noise_sq;
    return mpi_agree(m, CMD, "building the objective", local);
}

/* The model's oracles (every rank builds them; rank 0 alone speaks). Collective. */
static int make_oracles(mpi_ctx *m, recover_flags *f, mpi_problem *p, const recover_truth *t)
{
    gsfw_spec *spec = f->params.spec;
    const gsfw_entry *used = gsfw_spec_find(spec, GSFW_KIND_MODEL, gsfw_spec_model_used(spec));
    gsfw_err err;
    mpi_quiet_begin(m);
    int local = CLI_OK;
    if (gsfw_spec_set_number(spec, "s", t->s, &err) ||
        gsfw_spec_set_number(spec, "g", t->g, &err) ||
        gsfw_spec_bind(spec, p->d, (used->needs & GSFW_NEEDS_GRAPH) ? p->graph : NULL, NULL,
                       &err) ||
        gsfw_spec_oracles(spec, &p->dmo, &p->tail, &err))
        local = cli_fail(CMD, "--model %s: %s", cli_entry(&f->params, GSFW_KIND_MODEL)->name,
                         err.message);
    mpi_quiet_end(m);
    return mpi_agree(m, CMD, "building the oracles", local);
}

/* Rank 0: --out (the returned x: polished, or the best iterate), --trace and the
 * summary line. Collective (agreed). */
static int report(mpi_ctx *m, const recover_flags *f, const mpi_run_opts *o,
                  const mpi_problem *p, const recover_truth *t, const mpi_solution *sol)
{
    int local = CLI_OK;
    if (m->rank == 0) {
        const gsfw_info *info = &sol->info;
        const gsfw_spec *spec = f->params.spec;
        const int polish = (int)gsfw_spec_number(spec, "polish");
        const double *x_ret = polish ? sol->x_pol : sol->x_best;
        const char *paths[3] = {f->out_path, NULL, f->trace_path};
        local = mpi_write_outputs(m, CMD, paths, x_ret, NULL, p->d, sol->trace,
                                  sol->res.trace_len, 1);
        if (!local)
            printf("method=%s model=%s sensing=%s status=%s iters=%d returned=%s n=%d d=%d s=%d "
                   "g=%d f=%.17g f_star=%.17g rel_err=%.17g psnr=%.6f support_f1=%.6f "
                   "oracle_calls=%ld L=%.17g ranks=%d oracle=%s setup_s=%.6f time_s=%.6f "
                   "oracle_s=%.6f gradient_s=%.6f reduce_s=%.6f\n",
                   gsfw_spec_entry(spec, GSFW_KIND_METHOD)->name,
                   gsfw_spec_entry(spec, GSFW_KIND_MODEL)->name,
                   gsfw_spec_entry(spec, GSFW_KIND_SENSING)->name, sol->status,
                   info->iterations, polish ? "polished" : "best", p->n, p->d, t->s, t->g,
                   polish ? info->f_polished : info->f_best,
                   t->f_star, rec_rel_err(x_ret, t->xs, p->d), rec_psnr(x_ret, t->xs, p->d),
                   rec_support_f1(x_ret, t->xs, p->d, NULL, NULL), info->oracle_calls,
                   info->L, m->nprocs, o->oracle_on_root ? "root" : "all", info->setup_time,
                   info->solve_time, info->oracle_time, info->gradient_time, p->red.seconds);
    }
    return mpi_agree(m, CMD, "writing the outputs", local);
}

int mpi_cmd_recover(mpi_ctx *m, int argc, char **argv)
{
    recover_flags f;
    mpi_run_opts o;
    int rc = parse_flags(m, argc, argv, &f, &o);
    if (rc) {
        cli_params_free(&f.params);
        return rc;
    }
    mpi_problem p = {0};
    mpi_solution sol = {0};
    recover_truth t = {0};
    rc = set_up_rows(m, &f, &p, &t);
    if (!rc) rc = measure(m, &f, &p, &t);
    if (!rc) rc = make_oracles(m, &f, &p, &t);
    o.x_true = t.xs;
    if (!rc) rc = mpi_run(m, CMD, &p, &o, &sol);
    if (!rc) rc = report(m, &f, &o, &p, &t, &sol);
    gsfw_free(t.xs);
    mpi_solution_free(&sol);
    mpi_problem_free(&p);
    cli_params_free(&f.params);
    return rc;
}
