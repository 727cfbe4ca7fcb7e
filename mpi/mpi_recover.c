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
#include "models.h"
#include "png_io.h"
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

static int default_iters(int method)
{
    switch (method) {
    case GSFW_METHOD_FW: return 500;
    case GSFW_METHOD_COSAMP:
    case GSFW_METHOD_GRAPH_COSAMP: return 50;
    default: return 300;
    }
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* x* from the image (every rank reads it: d values), unit norm. */
static int load_image(mpi_ctx *m, const char *cmd, const char *path, double **xs, int *h,
                      int *w)
{
    gsfw_err err;
    if (ends_with(path, ".png") || ends_with(path, ".PNG")) {
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

int mpi_cmd_recover(mpi_ctx *m, int argc, char **argv)
{
    const char *cmd = "recover";
    const char *image = NULL, *ratio_text = NULL, *sensing = NULL, *method_text = NULL,
               *model_text = NULL, *s_text = NULL, *g_text = NULL, *c_text = NULL,
               *iters_text = NULL, *step_text = NULL, *tol_text = NULL, *tol_rel_text = NULL,
               *polish_text = NULL, *noise_text = NULL, *seed_text = NULL, *l_text = NULL,
               *time_text = NULL, *out_path = NULL, *trace_path = NULL, *oracle_text = NULL;
    cli_opt opts[] = {
        {"--image", 0, &image}, {"--ratio", 0, &ratio_text}, {"--sensing", 0, &sensing},
        {"--method", 0, &method_text}, {"--model", 0, &model_text}, {"--s", 0, &s_text},
        {"--g", 0, &g_text}, {"--C", 0, &c_text}, {"--iters", 0, &iters_text},
        {"--step", 0, &step_text}, {"--tol", 0, &tol_text}, {"--tol-rel", 0, &tol_rel_text},
        {"--polish", 0, &polish_text}, {"--noise", 0, &noise_text}, {"--seed", 0, &seed_text},
        {"--L", 0, &l_text}, {"--time-limit", 0, &time_text}, {"--out", 0, &out_path},
        {"--trace", 0, &trace_path}, {"--oracle", 0, &oracle_text},
    };
    mpi_run_opts o;
    memset(&o, 0, sizeof o);
    double ratio = 0.0, noise = 0.0;
    int seed = 0, s_given = 0, g_given = 0;
    mpi_quiet_begin(m);
    int rc = cli_parse(cmd, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), usage);
    if (!rc) rc = cli_require(cmd, "--image", image);
    if (!rc) rc = cli_require(cmd, "--ratio", ratio_text);
    if (!rc && !(rc = cli_parse_double(cmd, "--ratio", ratio_text, &ratio)) && !(ratio > 0))
        rc = cli_usage_error(cmd, "--ratio must be > 0, got %s", ratio_text);
    if (!sensing) sensing = "implicit-gaussian";
    if (!rc && strcmp(sensing, "implicit-gaussian") && strcmp(sensing, "dct") &&
        strcmp(sensing, "hadamard"))
        rc = cli_usage_error(cmd, "--sensing must be implicit-gaussian, dct or hadamard (the "
                             "explicit gaussian matrix would be drawn whole on every rank), "
                             "got '%s'", sensing);
    o.method = GSFW_METHOD_ACCFW;
    o.option = GSFW_OPTION_I;
    if (!rc && method_text && (o.method = gsfw_method_parse(method_text)) < 0)
        rc = cli_usage_error(cmd, "--method: unknown method '%s'", method_text);
    const int baseline = !rc && gsfw_method_is_baseline((gsfw_method)o.method);
    const char *model = model_text ? model_text : "head";
    if (!rc && strcmp(model, "head") && strcmp(model, "subgraph") && strcmp(model, "topk"))
        rc = cli_usage_error(cmd, "--model must be head, subgraph or topk, got '%s'", model);
    if (!rc && s_text) rc = cli_parse_int(cmd, "--s", s_text, 1, 1L << 30, &s_given);
    if (!rc && g_text) rc = cli_parse_int(cmd, "--g", g_text, 1, 1L << 30, &g_given);
    o.C = 1.0;
    if (!rc && c_text && !(rc = cli_parse_double(cmd, "--C", c_text, &o.C)) && !(o.C > 0))
        rc = cli_usage_error(cmd, "--C must be > 0, got %s", c_text);
    if (!rc) o.iters = default_iters(o.method);
    if (!rc && iters_text) rc = cli_parse_int(cmd, "--iters", iters_text, 0, 100000000L, &o.iters);
    o.step = GSFW_STEP_AUTO;
    if (!rc && step_text && (o.step = gsfw_step_parse(step_text)) < 0)
        rc = cli_usage_error(cmd, "unknown step rule '%s'", step_text);
    if (!rc && tol_text && !(rc = cli_parse_double(cmd, "--tol", tol_text, &o.tol)) && !(o.tol > 0))
        rc = cli_usage_error(cmd, "--tol must be > 0, got %s", tol_text);
    if (!rc && tol_rel_text && !(rc = cli_parse_double(cmd, "--tol-rel", tol_rel_text, &o.tol_rel))
        && !(o.tol_rel > 0 && o.tol_rel < 1))
        rc = cli_usage_error(cmd, "--tol-rel must be in (0, 1), got %s", tol_rel_text);
    o.polish = !baseline;
    if (!rc && polish_text) {
        if (!strcmp(polish_text, "on") || !strcmp(polish_text, "off"))
            o.polish = !strcmp(polish_text, "on");
        else
            rc = cli_usage_error(cmd, "--polish must be on or off, got '%s'", polish_text);
    }
    if (!rc && baseline && (step_text || tol_text || tol_rel_text || o.polish))
        rc = cli_usage_error(cmd, "--step, --tol and --polish belong to the Frank-Wolfe methods");
    if (o.polish && !tol_text && !tol_rel_text && !iters_text) o.tol_rel = 1e-3;
    if (!rc && noise_text && !(rc = cli_parse_double(cmd, "--noise", noise_text, &noise)) &&
        !(noise >= 0 && isfinite(noise)))
        rc = cli_usage_error(cmd, "--noise must be finite and >= 0, got %s", noise_text);
    if (!rc && seed_text) rc = cli_parse_int(cmd, "--seed", seed_text, 0, 2147483647L, &seed);
    o.l_rule = baseline ? GSFW_L_SPECTRAL : GSFW_L_ATOM;
    if (!rc && l_text) rc = cli_parse_L(cmd, l_text, &o.L, &o.l_rule);
    if (!rc && baseline && o.l_rule == GSFW_L_ATOM)
        rc = cli_usage_error(cmd, "--L atom is a rule of the Frank-Wolfe family");
    if (!rc && time_text && !(rc = cli_parse_double(cmd, "--time-limit", time_text, &o.time_limit))
        && !(o.time_limit > 0))
        rc = cli_usage_error(cmd, "--time-limit must be > 0");
    if (!rc && oracle_text) {
        if (!strcmp(oracle_text, "root"))
            o.oracle_on_root = 1;
        else if (strcmp(oracle_text, "all"))
            rc = cli_usage_error(cmd, "--oracle must be all or root, got '%s'", oracle_text);
    }
    mpi_quiet_end(m);
    if (rc) return rc;

    mpi_problem p;
    memset(&p, 0, sizeof p);
    double *xs = NULL, *x_last = NULL, *x_best = NULL, *x_pol = NULL;
    gsfw_iterate *trace = NULL;
    gsfw_graph *graph = NULL;
    gsfw_dmo *dmo = NULL, *tail = NULL;
    gsfw_err err;
    int h = 0, w = 0, s = 0, g = 0;
    rc = mpi_agree(m, cmd, "reading --image", load_image(m, cmd, image, &xs, &h, &w));
    if (rc) goto done;
    p.d = h * w;
    for (int i = 0; i < p.d; i++) s += xs[i] != 0.0;
    int local = gsfw_graph_grid(h, w, &graph, &err) ? mpi_fail(m, cmd, "%s", err.message) : CLI_OK;
    if (!local) {
        unsigned char *mask = malloc((size_t)p.d);
        int *work = malloc(2 * (size_t)p.d * sizeof(int));
        if (mask && work) {
            for (int i = 0; i < p.d; i++) mask[i] = xs[i] != 0.0;
            g = gsfw_graph_induced_components(graph, mask, work);
        }
        free(mask);
        free(work);
        if (g < 1) local = mpi_fail(m, cmd, "out of memory");
    }
    if (s_given) s = s_given;
    if (g_given) g = g_given;
    if (g > s) g = s;
    double nd = floor(ratio * s);
    p.n = nd > 2147483647.0 ? 0 : (int)nd;
    if (!local && p.n < 1)
        local = mpi_fail(m, cmd, "--ratio %g with s = %d gives n = %.0f measurements; at least 1 "
                         "(and below 2^31) is needed", ratio, s, nd);
    if (!local) local = make_block(m, cmd, sensing, h, w, (uint64_t)seed, &p);
    if ((rc = mpi_agree(m, cmd, "building the sensing rows", local))) goto done;

    /* y = A x* + SIGMA e on this rank's rows */
    double noise_sq = 0.0;
    p.y = calloc(p.rows > 0 ? (size_t)p.rows : 1, sizeof(double));
    local = p.y && (p.rows == 0 || !p.op->apply(p.op->ctx, xs, p.y)) ? CLI_OK
            : mpi_fail(m, cmd, "computing A x* failed");
    if (!local && noise > 0) {
        gsfw_rng rng;
        gsfw_rng_seed(&rng, (uint64_t)seed ^ 0x9e3779b97f4a7c15ULL);
        for (int i = 0; i < p.n; i++) {
            double e = noise * gsfw_rng_normal(&rng);
            if (i >= p.row0 && i < p.row0 + p.rows) p.y[i - p.row0] += e;
            noise_sq += e * e; /* the whole stream, in gsfw recover's order */
        }
    }
    gsfw_loss_options squared;
    gsfw_loss_options_default(&squared);
    if (!local) local = mpi_problem_objective(m, cmd, &p, &squared);
    if ((rc = mpi_agree(m, cmd, "building the objective", local))) goto done;
    const double f_star = 0.5 * noise_sq;

    cli_model_spec spec = {.model = model, .d = p.d, .s = s, .g = g, .graph = graph,
                           .delta = 1.0, .seed = (uint64_t)seed};
    mpi_quiet_begin(m);
    local = CLI_OK;
    if (baseline) {
        gsfw_model_spec ms = {.model = !strcmp(model, "head") ? "head" : model, .d = p.d,
                              .s = s, .g = g, .graph = graph, .delta = 1.0, .seed = (uint64_t)seed};
        if (gsfw_baseline_oracles((gsfw_method)o.method, &ms, 0, &dmo, &tail, &err))
            local = cli_fail(cmd, "--model %s: %s", model, err.message);
    } else {
        local = cli_make_dmo(cmd, &spec, &dmo);
    }
    mpi_quiet_end(m);
    if ((rc = mpi_agree(m, cmd, "building the oracles", local))) goto done;

    x_last = malloc((size_t)p.d * sizeof(double));
    x_best = malloc((size_t)p.d * sizeof(double));
    if (o.polish) x_pol = malloc((size_t)p.d * sizeof(double));
    trace = malloc(((size_t)o.iters + 1) * sizeof(gsfw_iterate));
    local = (!x_last || !x_best || (o.polish && !x_pol) || !trace)
                ? mpi_fail(m, cmd, "out of memory for %d iterations of dimension %d", o.iters, p.d)
                : CLI_OK;
    if ((rc = mpi_agree(m, cmd, "allocating the outputs", local))) goto done;
    o.x_true = xs;
    gsfw_result res = {.x_best = x_best, .x_last = x_last, .trace = trace,
                       .trace_capacity = o.iters + 1, .x_polished = x_pol};
    gsfw_info info;
    const char *status = NULL;
    if ((rc = mpi_run(m, cmd, &p, dmo, tail, &o, &res, &info, &status))) goto done;
    local = CLI_OK;
    if (m->rank == 0) {
        const double *x_ret = o.polish ? x_pol : x_best;
        const char *paths[3] = {out_path, NULL, trace_path};
        local = mpi_write_outputs(m, cmd, paths, x_ret, NULL, p.d, trace, res.trace_len, 1);
        if (!local)
            printf("method=%s model=%s sensing=%s status=%s iters=%d returned=%s n=%d d=%d s=%d "
                   "g=%d f=%.17g f_star=%.17g rel_err=%.17g psnr=%.6f support_f1=%.6f "
                   "oracle_calls=%ld L=%.17g ranks=%d oracle=%s setup_s=%.6f time_s=%.6f "
                   "oracle_s=%.6f gradient_s=%.6f reduce_s=%.6f\n",
                   gsfw_method_name((gsfw_method)o.method), model, sensing, status,
                   info.iterations, o.polish ? "polished" : "best", p.n, p.d, s, g,
                   o.polish ? info.f_polished : info.f_best, f_star, rec_rel_err(x_ret, xs, p.d),
                   rec_psnr(x_ret, xs, p.d), rec_support_f1(x_ret, xs, p.d, NULL, NULL),
                   info.oracle_calls, info.L, m->nprocs, o.oracle_on_root ? "root" : "all",
                   info.setup_time, info.solve_time, info.oracle_time, info.gradient_time,
                   p.red.seconds);
    }
    rc = mpi_agree(m, cmd, "writing the outputs", local);

done:
    gsfw_free(xs);
    free(x_last);
    free(x_best);
    free(x_pol);
    free(trace);
    gsfw_dmo_free(tail);
    gsfw_dmo_free(dmo);
    mpi_problem_free(&p);
    gsfw_graph_free(graph);
    return rc;
}
