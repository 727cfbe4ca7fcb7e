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
#include "fw_flags.h"
#include "models.h"
#include "png_io.h"
#include "recover_defaults.h"
#include "recover_metrics.h"
#include "util/rng.h"

static const char usage[] =
    "usage: mpirun -np K gsfw-mpi recover --image FILE(.npy|.png) --ratio R\n"
    "                    [--sensing implicit-gaussian|dct|hadamard] [--method M]\n"
    "                    [--model head|subgraph|topk] [--s S] [--g G] [--C C] [--iters T]\n"
    "                    [--step RULE] [--tol TOL] [--tol-rel R] [--polish on|off]\n"
    "                    [--noise SIGMA] [--seed N] [--L L|spectral|atom]\n"
    "                    [--time-limit SEC] [--out x.npy] [--trace trace.csv]\n"
    "                    [--oracle all|root]\n"
    "\n"
    "Recover an image from n = floor(R s) measurements y = A x* + SIGMA e, the rows of A\n"
    "split over the K ranks; each rank generates its own rows:\n"
    "  implicit-gaussian (default)  N(0, 1/n) entries, each a function of (seed, i, j)\n"
    "  dct, hadamard                the n seeded rows of the 2-D DCT / Walsh-Hadamard\n"
    "                               matrix scaled by sqrt(d/n) (gsfw recover's), every rank\n"
    "                               keeping its slice (one full transform per product)\n"
    "A and y are those of gsfw recover --sensing KIND (the same seed and noise), for any K.\n"
    "Defaults as gsfw recover: accfw, model head,\n"
    "polish on for the Frank-Wolfe methods (--tol-rel 1e-3 unless --iters/--tol given).\n"
    "Rank 0 prints one line: method, model, sensing, status, iters, n, d, s, g, f, f_star,\n"
    "rel_err, psnr, support_f1, ranks, time_s, reduce_s; --out receives the returned x.\n";

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

/* This rank's rows of the sensing matrix. */
static int make_block(mpi_ctx *m, const char *cmd, const char *sensing, int h, int w,
                      uint64_t seed, mpi_problem *p)
{
    gsfw_err err;
    gsfw_mpi_row_block(p->n, m->nprocs, m->rank, &p->row0, &p->rows);
    if (!strcmp(sensing, "implicit-gaussian")) {
        if (p->rows > 0 &&
            gsfw_operator_implicit_gaussian(p->n, p->d, seed, 1.0 / sqrt((double)p->n), p->row0,
                                            p->rows, &p->op, &err))
            return mpi_fail(m, cmd, "%s", err.message);
        return CLI_OK;
    }
    /* the same seeded rows on every rank, each keeping its slice */
    if (gsfw_sensing_operator(sensing, p->n, h, w, seed, 0, &p->base, &err))
        return mpi_fail(m, cmd, "--sensing %s: %s", sensing, err.message);
    if (p->rows > 0 && gsfw_mpi_row_select(p->base, p->row0, p->rows, &p->op, &err))
        return mpi_fail(m, cmd, "%s", err.message);
    return CLI_OK;
}

static const char CMD[] = "recover";

typedef struct {
    /* as given (NULL when absent) */
    const char *image, *ratio_text, *sensing, *method_text, *model_text, *s_text, *g_text,
        *c_text, *iters_text, *step_text, *tol_text, *tol_rel_text, *polish_text,
        *noise_text, *seed_text, *l_text, *time_text, *out_path, *trace_path, *oracle_text;
    /* the problem's values (the run's go to an mpi_run_opts) */
    const char *model;
    double ratio, noise;
    int seed, s_given, g_given;
} recover_flags;

/* x* and what the protocol derives from it */
typedef struct {
    double *xs;    /* the image flattened row-major, unit norm */
    int h, w;      /* its shape */
    int s, g;      /* nnz(x*) and the components of supp(x*), unless given */
    double f_star; /* f(x*) = ||SIGMA e||^2 / 2 */
} recover_truth;

/* --image, --ratio, --sensing, --model, --s, --g, --noise, --seed */
static int check_problem_flags(recover_flags *f)
{
    int rc = cli_require(CMD, "--image", f->image);
    if (!rc) rc = cli_require(CMD, "--ratio", f->ratio_text);
    if (!rc && !(rc = cli_parse_double(CMD, "--ratio", f->ratio_text, &f->ratio)) &&
        !(f->ratio > 0))
        rc = cli_usage_error(CMD, "--ratio must be > 0, got %s", f->ratio_text);
    if (!f->sensing) f->sensing = "implicit-gaussian";
    if (!rc && strcmp(f->sensing, "implicit-gaussian") && strcmp(f->sensing, "dct") &&
        strcmp(f->sensing, "hadamard"))
        rc = cli_usage_error(CMD, "--sensing must be implicit-gaussian, dct or hadamard (the "
                             "explicit gaussian matrix would be drawn whole on every rank), "
                             "got '%s'", f->sensing);
    f->model = f->model_text ? f->model_text : "head";
    if (!rc && strcmp(f->model, "head") && strcmp(f->model, "subgraph") && strcmp(f->model, "topk"))
        rc = cli_usage_error(CMD, "--model must be head, subgraph or topk, got '%s'", f->model);
    if (!rc && f->s_text) rc = cli_parse_int(CMD, "--s", f->s_text, 1, 1L << 30, &f->s_given);
    if (!rc && f->g_text) rc = cli_parse_int(CMD, "--g", f->g_text, 1, 1L << 30, &f->g_given);
    if (!rc && f->noise_text &&
        !(rc = cli_parse_double(CMD, "--noise", f->noise_text, &f->noise)) &&
        !(f->noise >= 0 && isfinite(f->noise)))
        rc = cli_usage_error(CMD, "--noise must be finite and >= 0, got %s", f->noise_text);
    if (!rc && f->seed_text)
        rc = cli_parse_int(CMD, "--seed", f->seed_text, 0, 2147483647L, &f->seed);
    return rc;
}

/* --method, --C, --iters, the Frank-Wolfe flags, --L, --time-limit, --oracle; the
 * defaults of gsfw recover */
static int check_run_flags(const recover_flags *f, mpi_run_opts *o)
{
    cli_run_opts *run = &o->run;
    int rc = CLI_OK;
    run->method = GSFW_METHOD_ACCFW;
    run->option = GSFW_OPTION_I;
    if (f->method_text && (run->method = gsfw_method_parse(f->method_text)) < 0)
        return cli_usage_error(CMD, "--method: unknown method '%s'", f->method_text);
    const int baseline = gsfw_method_is_baseline((gsfw_method)run->method);
    run->C = 1.0;
    if (f->c_text && !(rc = cli_parse_double(CMD, "--C", f->c_text, &run->C)) && !(run->C > 0))
        rc = cli_usage_error(CMD, "--C must be > 0, got %s", f->c_text);
    run->iters = cli_recover_default_iters(run->method);
    if (!rc && f->iters_text)
        rc = cli_parse_int(CMD, "--iters", f->iters_text, 0, 100000000L, &run->iters);
    cli_fw_flags fw;
    if (!rc)
        rc = cli_parse_fw_flags(CMD, f->step_text, f->tol_text, f->tol_rel_text, f->polish_text,
                                !baseline, &fw);
    if (rc) return rc;
    run->step = fw.step;
    run->tol = fw.tol;
    run->tol_rel = fw.tol_rel;
    run->polish = fw.polish;
    if (baseline && (f->step_text || f->tol_text || f->tol_rel_text || run->polish))
        return cli_usage_error(CMD, "--step, --tol and --polish belong to the Frank-Wolfe "
                               "methods");
    if (run->polish && !f->tol_text && !f->tol_rel_text && !f->iters_text) run->tol_rel = 1e-3;
    run->l_rule = baseline ? GSFW_L_SPECTRAL : GSFW_L_ATOM;
    if (f->l_text && (rc = cli_parse_L(CMD, f->l_text, &run->L, &run->l_rule))) return rc;
    if (baseline && run->l_rule == GSFW_L_ATOM)
        return cli_usage_error(CMD, "--L atom is a rule of the Frank-Wolfe family");
    if (f->time_text && !(rc = cli_parse_double(CMD, "--time-limit", f->time_text,
                                                &run->time_limit)) &&
        !(run->time_limit > 0))
        rc = cli_usage_error(CMD, "--time-limit must be > 0");
    if (!rc) rc = mpi_parse_oracle_flag(CMD, f->oracle_text, &o->oracle_on_root);
    return rc;
}

/* The checks give the same verdict on every rank: rank 0 alone speaks. */
static int parse_flags(mpi_ctx *m, int argc, char **argv, recover_flags *f, mpi_run_opts *o)
{
    memset(f, 0, sizeof *f);
    memset(o, 0, sizeof *o);
    cli_opt opts[] = {
        {"--image", 0, &f->image}, {"--ratio", 0, &f->ratio_text},
        {"--sensing", 0, &f->sensing}, {"--method", 0, &f->method_text},
        {"--model", 0, &f->model_text}, {"--s", 0, &f->s_text}, {"--g", 0, &f->g_text},
        {"--C", 0, &f->c_text}, {"--iters", 0, &f->iters_text}, {"--step", 0, &f->step_text},
        {"--tol", 0, &f->tol_text}, {"--tol-rel", 0, &f->tol_rel_text},
        {"--polish", 0, &f->polish_text}, {"--noise", 0, &f->noise_text},
        {"--seed", 0, &f->seed_text}, {"--L", 0, &f->l_text},
        {"--time-limit", 0, &f->time_text}, {"--out", 0, &f->out_path},
        {"--trace", 0, &f->trace_path}, {"--oracle", 0, &f->oracle_text},
    };
    mpi_quiet_begin(m);
    int rc = cli_parse(CMD, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), usage);
    if (!rc) rc = check_problem_flags(f);
    if (!rc) rc = check_run_flags(f, o);
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
    if (!local) local = make_block(m, CMD, f->sensing, t->h, t->w, (uint64_t)f->seed, p);
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
    if (!local && f->noise > 0) {
        gsfw_rng rng;
        gsfw_rng_seed(&rng, (uint64_t)f->seed ^ 0x9e3779b97f4a7c15ULL);
        for (int i = 0; i < p->n; i++) {
            double e = f->noise * gsfw_rng_normal(&rng);
            if (i >= p->row0 && i < p->row0 + p->rows) p->y[i - p->row0] += e;
            noise_sq += e * e; /* the whole stream, in gsfw recover's order */
        }
    }
    gsfw_loss_options squared;
    gsfw_loss_options_default(&squared);
    if (!local) local = mpi_problem_objective(m, CMD, p, &squared);
    t->f_star = 0.5 * noise_sq;
    return mpi_agree(m, CMD, "building the objective", local);
}

/* The model's oracles (every rank builds them; rank 0 alone speaks). Collective. */
static int make_oracles(mpi_ctx *m, const recover_flags *f, const mpi_run_opts *o,
                        mpi_problem *p, const recover_truth *t)
{
    cli_model_spec spec = {.model = f->model, .d = p->d, .s = t->s, .g = t->g,
                           .graph = p->graph, .delta = 1.0, .seed = (uint64_t)f->seed};
    mpi_quiet_begin(m);
    int local = cli_make_oracles(CMD, o->run.method, &spec, &p->dmo, &p->tail);
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
        const double *x_ret = o->run.polish ? sol->x_pol : sol->x_best;
        const char *paths[3] = {f->out_path, NULL, f->trace_path};
        local = mpi_write_outputs(m, CMD, paths, x_ret, NULL, p->d, sol->trace,
                                  sol->res.trace_len, 1);
        if (!local)
            printf("method=%s model=%s sensing=%s status=%s iters=%d returned=%s n=%d d=%d s=%d "
                   "g=%d f=%.17g f_star=%.17g rel_err=%.17g psnr=%.6f support_f1=%.6f "
                   "oracle_calls=%ld L=%.17g ranks=%d oracle=%s setup_s=%.6f time_s=%.6f "
                   "oracle_s=%.6f gradient_s=%.6f reduce_s=%.6f\n",
                   gsfw_method_name((gsfw_method)o->run.method), f->model, f->sensing,
                   sol->status, info->iterations, o->run.polish ? "polished" : "best", p->n,
                   p->d, t->s, t->g, o->run.polish ? info->f_polished : info->f_best,
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
    if (rc) return rc;
    mpi_problem p = {0};
    mpi_solution sol = {0};
    recover_truth t = {0};
    rc = set_up_rows(m, &f, &p, &t);
    if (!rc) rc = measure(m, &f, &p, &t);
    if (!rc) rc = make_oracles(m, &f, &o, &p, &t);
    o.run.x_true = t.xs;
    if (!rc) rc = mpi_run(m, CMD, &p, &o, &sol);
    if (!rc) rc = report(m, &f, &o, &p, &t, &sol);
    gsfw_free(t.xs);
    mpi_solution_free(&sol);
    mpi_problem_free(&p);
    return rc;
}
