/* gsfw recover: graph-structured compressive sensing of an image.
 *
 * Protocol (docs/recover.md): x* = the image flattened row-major and normalised to unit
 * l2 norm; s = nnz(x*), g = number of connected components of supp(x*) on the
 * 4-neighbour grid and C = ||x*|| = 1 unless given; n = floor(R s); A has i.i.d.
 * N(0, 1/n) entries from a seeded generator; y = A x* + SIGMA e with e ~ N(0, I_n).
 * The chosen method runs from x_0 = 0; the returned iterate is the best one
 * (argmin_t f(x_t)), as in the paper's Algorithm 1. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memory.h"
#include "outputs.h"
#include "png_io.h"
#include "recover_args.h"
#include "recover_checks.h"
#include "recover_metrics.h"
#include "recover_plot.h"
#include "recover_problem.h"
#include "recover_pursuit.h"
#include "operators/op_internal.h"
#include "trace_csv.h"
#include "core/internal.h"
#include "io/atomic.h"
#include "params.h"
#include "util/rng.h"

#define RECOVER_POWER_ITERS 50
#define RECOVER_L_MARGIN 1.02

/* Refuse a run that cannot fit, before its large allocations (cli/memory.h): the
 * explicit Gaussian matrix (held once by the objective; in float32 it is drawn in
 * doubles and converted, 1.5 copies at the peak; implicit operators hold none) with the
 * copy of a support's columns that its restricted least squares keep (up to 3 s columns
 * for CoSaMP, at most 2^25 doubles), the vectors, the grid, two PCSF projections and
 * the trace. An n beyond int is refused later with its own message. */
static int check_memory(const char *cmd, const recover_args *a, int H, int W, double n)
{
    const double d = (double)H * W;
    const int explicit = a->explicit_matrix;
    const double copies = !explicit ? 0.0 : a->float32 ? 1.5 : 1.0;
    const double support_cols = explicit ? fmin(fmin(3.0 * n / a->ratio, d),
                                                (double)(1L << 25) / fmax(n, 1.0))
                                         : 0.0;
    /* the pursuit: its own objective, grid and two projections per level, the coarse
     * levels adding a third (blocks of 2) or a fifteenth (4) */
    const double levels = a->pursuit ? 4.0 / 3.0 : 1.0;
    const double need = copies * gsfw_memory_estimate("dense", n, d) +
                        gsfw_memory_estimate("dense", n, support_cols) +
                        gsfw_memory_estimate("dense", 5.0 * n + 9.0 * d, 1) +
                        levels * (gsfw_memory_estimate("graph", d, 2.0 * d) +
                                  2 * gsfw_memory_estimate("pcsf", d, 2.0 * d)) +
                        (a->pursuit ? levels * gsfw_memory_estimate("dense", 9.0 * n + 9.0 * d, 1)
                                    : 0.0) +
                        gsfw_memory_estimate("trace", a->iters, 0);
    if (n > 2147483647.0) return CLI_OK;
    char what[160];
    snprintf(what, sizeof what, "recovering a %d x %d image from %.6g measurements (--ratio "
             "%.6g, --sensing %s)", H, W, n, a->ratio, a->sensing);
    return cli_mem_check(cmd, need, what);
}

/* Everything one run holds, freed by run_free. */
typedef struct {
    double *xs;                 /* x*: the image scaled to unit norm (H x W) */
    int H, W, d, nnz;
    /* the unknowns: x* itself, or its coefficients theta in the wavelet basis psi */
    gsfw_operator *psi;
    gsfw_tree *tree;
    gsfw_graph *graph;
    double *theta, *support_ref; /* wavelet: coefficients and the s largest of them */
    unsigned char *mask;
    int *work;
    const double *truth;        /* xs or theta */
    int s, g, n;
    recover_problem prob;
    double L;                   /* the spectral estimate or --L; 0 for the solver's rule */
    int needs_L;
    gsfw_dmo *head, *tail;
    gsfw_pyramid *pyr;          /* the pursuit's levels */
    gsfw_info level_info[GSFW_PYRAMID_MAX_COARSE + 1];
    double setup_s;
    double *x_best, *x_last, *x_pol, *x_img;
    gsfw_iterate *trace;
    gsfw_result res;
    gsfw_info info;
    const double *x_ret, *img_ret; /* the answer: coefficients and image */
} recover_run;

static void run_free(recover_run *r)
{
    gsfw_free(r->xs);
    recover_problem_free(&r->prob);
    gsfw_operator_free(r->psi);
    gsfw_tree_free(r->tree);
    free(r->theta);
    free(r->support_ref);
    free(r->x_img);
    free(r->x_best);
    free(r->x_pol);
    free(r->x_last);
    free(r->trace);
    free(r->mask);
    free(r->work);
    gsfw_dmo_free(r->head);
    gsfw_dmo_free(r->tail);
    gsfw_pyramid_free(r->pyr);
    gsfw_graph_free(r->graph);
}

/* Read --image (.npy of any numeric type, or PNG), check it and scale it to unit norm. */
static int load_image(const char *cmd, const recover_args *a, recover_run *r)
{
    const char *image = a->image;
    gsfw_err err;
    double *img = NULL;
    if (cli_ends_with_nocase(image, ".npy")) {
        int ndim, shape[2];
        if (gsfw_npy_read_numeric(image, &img, &ndim, shape, &err))
            return cli_fail(cmd, "--image: %s", err.message);
        r->xs = img;
        if (ndim != 2)
            return cli_fail(cmd, "--image: '%s' is a 1-D array of %d entries; an image must "
                            "be a 2-D array", image, shape[0]);
        r->H = shape[0];
        r->W = shape[1];
    } else if (cli_ends_with_nocase(image, ".png")) {
        if (gsfw_png_read_gray_limited(image, a->max_pixels, &img, &r->H, &r->W, &err))
            return cli_fail(cmd, "--image: %s", err.message);
        r->xs = img;
    } else {
        return cli_fail(cmd, "--image: '%s' is neither a .npy nor a .png file", image);
    }
    const int d = r->d = r->H * r->W, W = r->W;
    if (d < 1) return cli_fail(cmd, "--image: '%s' is empty (%d x %d)", image, r->H, W);
    double amax = 0.0;
    int nnz = 0;
    for (int i = 0; i < d; i++) {
        if (!isfinite(img[i]))
            return cli_fail(cmd, "--image: pixel (%d, %d) of '%s' is %g; pixels must be "
                            "finite", i / W, i % W, image, img[i]);
        amax = fmax(amax, fabs(img[i]));
        nnz += img[i] != 0.0;
    }
    if (nnz == 0)
        return cli_fail(cmd, "--image: '%s' is all zero: there is nothing to recover", image);
    r->nnz = nnz;
    /* x* = img / ||img||, computed on img / max|img| so that neither huge pixels (whose
     * squares overflow) nor tiny ones (whose squares underflow) break the norm */
    double nrm = 0.0;
    for (int i = 0; i < d; i++) {
        img[i] /= amax;
        nrm += img[i] * img[i];
    }
    nrm = sqrt(nrm); /* in [1, sqrt(d)] */
    for (int i = 0; i < d; i++) img[i] /= nrm;
    return CLI_OK;
}

/* The wavelet coefficients theta* = Psi^T x*, their quadtree, and s (the fewest
 * coefficients holding 99.9% of the energy unless --s) and g (1 unless --g). */
static int wavelet_target(const char *cmd, const recover_args *a, recover_run *r)
{
    const int d = r->d;
    gsfw_err err;
    if (r->H != r->W)
        return cli_fail(cmd, "--basis %s needs a square image, got %d x %d", a->basis, r->H,
                        r->W);
    if (a->basis_def->build(r->H, &r->psi, &err) ||
        gsfw_tree_quadtree(r->H, r->W, &r->tree, &err))
        return cli_fail(cmd, "--basis %s: %s", a->basis, err.message);
    r->theta = malloc((size_t)d * sizeof(double));
    r->support_ref = calloc((size_t)d, sizeof(double));
    r->work = malloc((size_t)d * sizeof(int));
    if (!r->theta || !r->support_ref || !r->work) return cli_fail(cmd, "out of memory");
    if (r->psi->adjoint(r->psi->ctx, r->xs, r->theta))
        return cli_fail(cmd, "--basis %s: the transform failed", a->basis);
    r->truth = r->theta;
    int K = recover_energy_count(r->theta, d, 0.999, r->work);
    r->s = a->s_given ? a->s_given : K;
    r->g = a->g_given ? a->g_given : 1;
    if (r->s > d) r->s = d;
    /* the support the recovery is scored against: the s largest coefficients */
    for (int k = 0; k < r->s; k++) r->support_ref[r->work[k]] = r->theta[r->work[k]];
    return CLI_OK;
}

/* The pixels themselves on the 4-neighbour grid: s = nnz(x*) and g = the components of
 * supp(x*) unless given. */
static int pixel_target(const char *cmd, const recover_args *a, recover_run *r)
{
    const int d = r->d;
    gsfw_err err;
    gsfw_error e = gsfw_graph_grid(r->H, r->W, &r->graph, &err);
    if (e) return cli_fail_err(cmd, e, &err);
    r->mask = malloc((size_t)d);
    r->work = malloc(2 * (size_t)d * sizeof(int));
    if (!r->mask || !r->work) return cli_fail(cmd, "out of memory");
    for (int i = 0; i < d; i++) r->mask[i] = r->xs[i] != 0.0;
    const int g_true = gsfw_graph_induced_components(r->graph, r->mask, r->work);
    r->truth = r->xs;
    r->s = a->s_given ? a->s_given : r->nnz;
    r->g = a->g_given ? a->g_given : g_true;
    return CLI_OK;
}

/* The unknowns, s, g and n = floor(ratio s), with the memory the run needs checked before
 * the grid or tree is built (for a wavelet basis s, hence n, is known only from the
 * coefficients). */
static int choose_target(const char *cmd, const recover_args *a, recover_run *r)
{
    int rc;
    const int d = r->d;
    if (!a->wavelet &&
        (rc = check_memory(cmd, a, r->H, r->W, floor(a->ratio * (a->s_given ? a->s_given
                                                                          : r->nnz)))))
        return rc;
    if ((rc = a->wavelet ? wavelet_target(cmd, a, r) : pixel_target(cmd, a, r))) return rc;
    const int s = r->s, g = r->g;
    if (s > d) return cli_fail(cmd, "--s %d exceeds the number of pixels %d", s, d);
    if (g > s) {
        if (a->g_given) return cli_fail(cmd, "--g %d exceeds s = %d", g, s);
        return cli_fail(cmd, "the image's support has %d connected components, more than "
                        "s = %d: pass a larger --s or --g <= s", g, s);
    }
    if (a->wavelet && (rc = check_memory(cmd, a, r->H, r->W, floor(a->ratio * s)))) return rc;
    const double n_real = floor(a->ratio * s);
    if (!(n_real >= 1))
        return cli_fail(cmd, "--ratio %s gives n = floor(%g * %d) = %.0f measurements; need "
                        "at least 1", a->ratio_text, a->ratio, s, n_real);
    if (n_real > 2147483647.0 || (a->explicit_matrix && n_real * d > 4e9))
        return cli_fail(cmd, "--ratio %.6g gives a %.6g x %d matrix, too large", a->ratio,
                        n_real, d);
    r->n = (int)n_real;
    return CLI_OK;
}

/* L of AccFW's step point (by default the library's atom rule) and of the baselines' 1/L
 * steps: ||A||_2^2 by at most RECOVER_POWER_ITERS power iterations (Rayleigh quotient,
 * from below), inflated by RECOVER_L_MARGIN: on angio (n = 1555) 50 iterations take
 * 0.3 s and land 1.4% below the converged value, which 500 iterations (3.6 s) would
 * reach. */
static int estimate_L(const char *cmd, const recover_args *a, recover_run *r)
{
    /* the methods whose own steps take L (a step rule's L is the solver's to find) */
    r->needs_L = gsfw_entry_uses(gsfw_spec_entry(a->params.spec, GSFW_KIND_METHOD), "L");
    r->L = a->L;
    if (!r->needs_L || r->L > 0 || a->l_rule != GSFW_L_SPECTRAL) return CLI_OK;
    const int n = r->n, d = r->d;
    const double *A = gsfw_op_dense_data(r->prob.op);
    if (A) { /* the explicit Gaussian matrix: the estimate recover always made */
        double *pw = malloc(((size_t)n + 2 * (size_t)d) * sizeof(double));
        if (!pw) return cli_fail(cmd, "out of memory");
        r->L = RECOVER_L_MARGIN *
               gsfw_power_iteration_col_major(n, d, A, RECOVER_POWER_ITERS, 1e-6, pw);
        free(pw);
    } else {
        r->L = recover_problem_norm2(&r->prob, RECOVER_POWER_ITERS, RECOVER_L_MARGIN);
        if (cli_interrupted()) return cli_interrupted_exit(cmd, "no output was changed");
    }
    if (!(r->L > 0) || !isfinite(r->L))
        return cli_fail(cmd, "could not estimate L (got %g); pass --L", r->L);
    return CLI_OK;
}

/* The sensing problem, L and the oracles (the baselines' head/tail recipes, or the
 * model's DMO); their time is setup_s. */
static int setup(const char *cmd, const recover_args *a, recover_run *r)
{
    double t0 = gsfw_now();
    recover_problem_spec pspec = {.spec = a->params.spec, .psi = r->psi, .n = r->n,
                                  .height = r->H, .width = r->W, .noise = a->noise};
    int rc = recover_problem_build(cmd, &pspec, r->truth, &r->prob);
    if (rc) return rc;
    /* after the sensing operator accepted n: a refusal there is the message to read */
    if (!a->wavelet) recover_warn_dense(cmd, r->nnz, r->d, r->s, r->n); /* a basis has its own */
    if (cli_interrupted()) return cli_interrupted_exit(cmd, "no output was changed");
    if (a->pursuit) {
        rc = recover_pursuit_setup(cmd, a, r->prob.op, r->prob.y, r->H, r->W, r->s, r->g,
                                   &r->pyr);
        r->setup_s = gsfw_now() - t0;
        return rc;
    }
    if ((rc = estimate_L(cmd, a, r))) return rc;
    /* the model over the unknowns: s and g as chosen, on the grid or the quadtree */
    gsfw_spec *spec = a->params.spec;
    const gsfw_entry *used = gsfw_spec_find(spec, GSFW_KIND_MODEL, gsfw_spec_model_used(spec));
    gsfw_err err;
    if (gsfw_spec_set_number(spec, "s", r->s, &err) ||
        gsfw_spec_set_number(spec, "g", r->g, &err) ||
        gsfw_spec_bind(spec, r->d, (used->needs & GSFW_NEEDS_GRAPH) ? r->graph : NULL,
                       (used->needs & GSFW_NEEDS_TREE) ? r->tree : NULL, &err) ||
        gsfw_spec_oracles(spec, &r->head, &r->tail, &err))
        return cli_fail(cmd, "--model %s: %s", a->model, err.message);
    r->setup_s = gsfw_now() - t0;
    return CLI_OK;
}

/* The chosen method from x_0 = 0, stopped between iterations by SIGINT / SIGTERM. */
static int solve(const char *cmd, const recover_args *a, recover_run *r)
{
    const int d = r->d, iters = a->iters;
    r->x_best = malloc((size_t)d * sizeof(double));
    r->x_last = malloc((size_t)d * sizeof(double));
    r->trace = malloc(((size_t)iters + 1) * sizeof(gsfw_iterate));
    if (a->polish) r->x_pol = malloc((size_t)d * sizeof(double));
    if (!r->x_best || !r->x_last || !r->trace || (a->polish && !r->x_pol))
        return cli_fail(cmd, "out of memory for %d iterations of dimension %d", iters, d);
    r->res = (gsfw_result){.x_best = r->x_best, .x_last = r->x_last, .trace = r->trace,
                           .trace_capacity = iters + 1, .x_polished = r->x_pol};
    gsfw_settings set;
    gsfw_spec_settings(a->params.spec, &set);
    set.L = r->needs_L ? r->L : 0.0;
    set.L_rule = a->l_rule;
    set.x_true = r->truth;
    set.callback = cli_interrupt_callback; /* SIGINT / SIGTERM stop between iterations */
    gsfw_err err;
    gsfw_error e = a->pursuit ? recover_pursuit_run(r->pyr, a, r->truth, &r->res, &r->info,
                                                    r->level_info, &err)
                              : gsfw_spec_solve(a->params.spec, r->prob.obj, r->head, r->tail,
                                                &set, &r->res, &r->info, &err);
    if (cli_interrupted()) return cli_interrupted_exit(cmd, "no output was changed");
    if (e) return cli_fail_err(cmd, e, &err);
    r->setup_s += r->info.setup_time;
    /* the returned answer: the polished point, else the best iterate; as an image: itself,
     * or Psi theta with a wavelet basis */
    r->x_ret = r->img_ret = a->polish ? r->x_pol : r->x_best;
    if (a->wavelet) {
        r->x_img = malloc((size_t)d * sizeof(double));
        if (!r->x_img || r->psi->apply(r->psi->ctx, r->x_ret, r->x_img))
            return cli_fail(cmd, "--basis %s: the inverse transform failed", a->basis);
        r->img_ret = r->x_img;
    }
    return CLI_OK;
}

/* The model the oracles of the run project on. */
static const char *model_used(const recover_args *a)
{
    return gsfw_spec_model_used(a->params.spec);
}

/* recovered.npy, recovered.png, truth.png, trace.csv (and the two plots) into their
 * temporary files. */
static int write_outputs(const char *cmd, const recover_args *a, const recover_run *r,
                         const gsfw_atomic_file *out)
{
    const int H = r->H, W = r->W, d = r->d;
    int shape[2] = {H, W};
    double peak = 0.0;
    for (int i = 0; i < d; i++) peak = fmax(peak, r->xs[i]);
    if (!(peak > 0)) peak = 1.0;
    gsfw_err err;
    if (gsfw_npy_write(out[0].tmp_path, r->img_ret, 2, shape, &err) ||
        gsfw_png_write_gray(out[1].tmp_path, r->img_ret, H, W, 0.0, peak, &err) ||
        gsfw_png_write_gray(out[2].tmp_path, r->xs, H, W, 0.0, peak, &err))
        return cli_fail(cmd, "%s", err.message);
    int rc = cli_write_trace(cmd, out[3].tmp_path, r->trace, r->res.trace_len, 1);
    if (rc || a->no_plot) return rc;
    char title[256];
    snprintf(title, sizeof title, "%s, %s model, n = %d, d = %d, s = %d, g = %d, seed %d",
             a->method, model_used(a), r->n, d, r->s, r->g,
             a->seed);
    if ((rc = recover_plot_convergence(cmd, out[4].tmp_path, out[3].tmp_path, r->prob.f_star,
                                       title)))
        return rc;
    return recover_plot_panel(cmd, out[5].tmp_path, r->xs, r->img_ret, H, W, title);
}

/* The one summary line (usage above lists its fields). */
static void print_summary(const recover_args *a, const recover_run *r)
{
    const int d = r->d;
    const gsfw_info *info = &r->info;
    const double *xs = r->xs, *x_ret = r->x_ret, *img_ret = r->img_ret;
    double pre, rec;
    /* supports are scored against supp(x*), or against the s largest coefficients with a
     * wavelet basis (natural images have no exactly sparse expansion); errors and PSNR in
     * pixels, which equal those of the coefficients (Psi is orthonormal) */
    const double *supp_ref = a->wavelet ? r->support_ref : xs;
    const double f1 = rec_support_f1(x_ret, supp_ref, d, &pre, &rec);
    const double raw_f1 = rec_support_f1(r->x_best, supp_ref, d, NULL, NULL);
    int nnz_ret = 0, nnz_raw = 0;
    for (int i = 0; i < d; i++) {
        nnz_ret += x_ret[i] != 0.0;
        nnz_raw += r->x_best[i] != 0.0;
    }
    /* where L came from: a number given with --L, the spectral estimate (made here for
     * the baselines, or the solver's fallback), or the first atom's curvature */
    const int L_given = gsfw_spec_given(a->params.spec, "L");
    char rule[16];
    char extra[512] = ""; /* the fields of the restart rounds, or of the pursuit's levels */
    if (a->pursuit)
        recover_pursuit_fields(r->pyr, r->level_info, extra, sizeof extra);
    else if (gsfw_spec_number(a->params.spec, "restarts") > 0 && a->polish && !a->baseline)
        snprintf(extra, sizeof extra, " restarts=%d restart_best=%d", info->restarts,
                 info->restart_best);
    const char *L_source = !r->needs_L ? "unused"
                           : L_given ? "given"
                           : cli_choice_name("L_rule", info->L_source == GSFW_L_ATOM
                                                           ? GSFW_L_ATOM : GSFW_L_SPECTRAL,
                                             rule, sizeof rule);
    printf("method=%s model=%s sensing=%s basis=%s status=%s iters=%d returned=%s best_iter=%d n=%d d=%d s=%d "
           "g=%d C=%.17g seed=%d ratio=%.17g noise=%.17g time_s=%.6f setup_s=%.6f "
           "polish_s=%.6f f=%.17g "
           "f_last=%.17g f_star=%.17g est_err=%.17g rel_err=%.17g psnr=%.6f support_f1=%.6f "
           "precision=%.6f recall=%.6f nnz=%d raw_f=%.17g raw_rel_err=%.17g "
           "raw_support_f1=%.6f raw_nnz=%d gap_bound=%.6g step=%s window_missed=%ld "
           "oracle_calls=%ld pcsf_calls=%ld L=%.17g L_source=%s "
           "oracle_s=%.6f gradient_s=%.6f%s\n",
           a->method, model_used(a), a->sensing, a->basis,
           gsfw_status_name(info->status), info->iterations, a->polish ? "polished" : "best",
           info->best_iter, r->n, d, r->s, r->g, a->C, a->seed, a->ratio, a->noise,
           info->solve_time, r->setup_s, info->polish_time,
           a->polish ? info->f_polished : info->f_best, info->f_last, r->prob.f_star,
           rec_dist(img_ret, xs, d), rec_rel_err(img_ret, xs, d), rec_psnr(img_ret, xs, d), f1,
           pre, rec, nnz_ret, info->f_best, rec_rel_err(r->x_best, r->truth, d), raw_f1,
           nnz_raw, info->gap_bound, info->step_rule ? info->step_rule->name : "none",
           gsfw_info_count(info, "window_missed"), info->oracle_calls, gsfw_info_count(info, "pcsf_calls"),
           info->L > 0 ? info->L : (r->needs_L ? r->L : 0.0), L_source, info->oracle_time,
           info->gradient_time, extra);
}

int cmd_recover(int argc, char **argv)
{
    const char *cmd = "recover";
    recover_args a;
    int rc = recover_args_parse(argc, argv, &a);
    if (rc) {
        recover_args_free(&a);
        return rc;
    }
    cli_interrupt_install();

    recover_run r;
    memset(&r, 0, sizeof r);
    cli_outdir od;
    memset(&od, 0, sizeof od);
    static const char *const names[6] = {"recovered.npy", "recovered.png", "truth.png",
                                         "trace.csv", "convergence.png", "panel.png"};
    const int n_out = a.no_plot ? 4 : 6;
    if ((rc = load_image(cmd, &a, &r)) || (rc = recover_pursuit_choose(cmd, &a, r.H, r.W)) ||
        (rc = choose_target(cmd, &a, &r)))
        goto done;
    /* the output directory, opened now so that a bad --out-dir fails before the work */
    if ((rc = cli_outdir_open(&od, cmd, a.out_dir, names, n_out))) goto done;
    if ((rc = setup(cmd, &a, &r)) || (rc = solve(cmd, &a, &r)) ||
        (rc = write_outputs(cmd, &a, &r, od.files)))
        goto done;
    /* every output is written: move them into place together, so that a failure here
     * or above leaves the directory as it was (existing files untouched, new ones
     * removed) */
    if ((rc = cli_outdir_commit(&od))) goto done;
    print_summary(&a, &r);

done:
    /* a failure the signal caused (a killed gnuplot, say; its message was held back) */
    if (rc == CLI_FAIL && cli_interrupted()) rc = cli_interrupted_exit(cmd, "no output was changed");
    /* the temporary files left (all of them, after a failure) go */
    cli_outdir_close(&od, rc != CLI_OK);
    run_free(&r);
    recover_args_free(&a);
    return rc;
}
