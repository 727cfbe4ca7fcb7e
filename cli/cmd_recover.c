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
#include "fw_flags.h"
#include "interrupt.h"
#include "memory.h"
#include "outdir.h"
#include "png_io.h"
#include "models.h"
#include "recover_checks.h"
#include "recover_metrics.h"
#include "recover_plot.h"
#include "recover_problem.h"
#include "objectives/linear.h"
#include "trace_csv.h"
#include "core/internal.h"
#include "io/atomic.h"
#include "util/rng.h"

static const char usage[] =
    "usage: gsfw recover --image FILE(.npy|.png) --ratio R --out-dir DIR\n"
    "                    [--method accfw|fw|afw|pfw|bpcg|graph-iht|graph-cosamp|cosamp|\n"
    "                              gen-mp|iht]\n"
    "                    [--model head|subgraph|topk] [--s S] [--g G] [--C C] [--iters T]\n"
    "                    [--step RULE] [--tol TOL] [--tol-rel R] [--polish on|off]\n"
    "                    [--sensing gaussian|implicit-gaussian|dct|hadamard|dct-signs|\n"
    "                               hadamard-signs] [--float32]\n"
    "                    [--basis pixel|haar|db4]\n"
    "                    [--noise SIGMA] [--seed N] [--L L|spectral|atom] [--reference-compat] [--no-plot]\n"
    "                    [--max-memory SIZE] [--max-pixels N]\n"
    "\n"
    "Recover an image from n = floor(R s) measurements y = A x* + SIGMA e. x* is the image\n"
    "flattened row-major, scaled to unit l2 norm; by default A has i.i.d. N(0, 1/n) entries\n"
    "drawn from --seed.\n"
    "\n"
    "  --image FILE      2-D .npy (float64, float32 or integer: 8/16-bit images) or a PNG\n"
    "                    (grayscale or RGB, converted to luma)\n"
    "  --ratio R         sampling ratio n/s (> 0; n = floor(R s) must be >= 1)\n"
    "  --out-dir DIR     created if missing; receives recovered.npy, recovered.png,\n"
    "                    truth.png, trace.csv, convergence.png, panel.png\n"
    "  --method M        default accfw\n"
    "  --sensing K       gaussian (default: an explicit n x d matrix), implicit-gaussian\n"
    "                    (the same distribution, rows generated on demand: memory O(n + d)),\n"
    "                    dct (n rows of the orthonormal 2-D DCT chosen by --seed, scaled by\n"
    "                    sqrt(d/n)), hadamard (likewise; d a power of two),\n"
    "                    dct-signs, hadamard-signs (the same rows after random +-1 signs\n"
    "                    on the pixels: incoherent with wavelets, use these with --basis)\n"
    "  --float32         gaussian: store A in single precision (half the memory traffic)\n"
    "  --basis B         pixel (default): the image is sparse; haar or db4: the image is\n"
    "                    sparse in that orthonormal 2-D wavelet basis (square, power-of-two\n"
    "                    side); the unknowns are the coefficients theta, y = A Psi theta*\n"
    "  --model M         support model of the graph methods: head (PCSF head/tail\n"
    "                    projections, the default when built in), subgraph (top-g +\n"
    "                    neighbour growth), topk (no graph); with a wavelet basis: tree\n"
    "                    (rooted subtrees of the coefficients' quadtree, the default) or\n"
    "                    topk. iht and cosamp always use top-s.\n"
    "  --s S, --g G      sparsity and components (default: nnz(x*) and the components of\n"
    "                    supp(x*) on the 4-neighbour grid; with a wavelet basis K, the\n"
    "                    number of coefficients holding 99.9%% of the energy, and g = 1)\n"
    "  --C C             radius of D(C, M) for fw/accfw (default ||x*|| = 1)\n"
    "  --iters T         iterations (default: accfw 300, fw 500, cosamp and graph-cosamp\n"
    "                    50, the others 300)\n"
    "  --step RULE       step rule of the Frank-Wolfe methods: auto (default), agnostic,\n"
    "                    short, adaptive, line\n"
    "  --tol TOL         stop the Frank-Wolfe methods when the certified bound on\n"
    "                    f(x_t) - f* falls below TOL (status=converged); without --iters\n"
    "                    the cap is then 20000 iterations\n"
    "  --tol-rel R       ... or below R times the bound at x_0. Default when polishing and\n"
    "                    none of --iters, --tol, --tol-rel is given: 1e-3 (the polished\n"
    "                    answer needs no long run), with --iters' default as the cap\n"
    "  --polish on|off   Frank-Wolfe methods: return the best iterate projected onto the\n"
    "                    model and refitted on that support (default on); the raw_* fields\n"
    "                    describe the unpolished best iterate\n"
    "  --noise SIGMA     noise level (default 0)\n"
    "  --seed N          seed of A and e (default 0)\n"
    "  --L L|spectral|atom  smoothness constant (accfw's step point and the baselines'\n"
    "                    steps 1/L). atom: the curvature ||A v_0||^2/||v_0||^2 along accfw's\n"
    "                    first atom (accfw default); spectral: ||A||_2^2 by power iteration\n"
    "                    (default of the baselines)\n"
    "  --reference-compat  the reference scripts' baseline settings (docs/baselines.md)\n"
    "  --no-plot         skip convergence.png and panel.png (no gnuplot needed)\n"
    CLI_MEM_HELP
    "  --max-pixels N    largest PNG decoded, in pixels (default 100000000)\n"
    "\n"
    "The outputs appear together or not at all. SIGINT or SIGTERM ends the run with\n"
    "status 130 or 143 and leaves the directory as it was; a second run into a directory\n"
    "in use is refused (docs/recover.md).\n"
    "\n"
    "Prints one line of key=value fields: method, model, status, iters, n, d, s, g, time_s\n"
    "(solve), setup_s (drawing A, estimating L, building oracles), f, f_star = f(x*),\n"
    "est_err, rel_err, psnr (peak R = max|x*|), support_f1, oracle_calls, pcsf_calls, L.\n";

#define RECOVER_POWER_ITERS 50
#define RECOVER_L_MARGIN 1.02
#define RECOVER_TOL_ITER_CAP 20000
#define RECOVER_MAX_PIXELS 100000000

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
    if (a < b) return 0;
    for (size_t i = 0; i < b; i++) {
        char c = s[a - b + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return 0;
    }
    return 1;
}

/* Refuse a run that cannot fit, before its large allocations (cli/memory.h): the
 * explicit Gaussian matrix (held once by the objective; in float32 it is drawn in
 * doubles and converted, 1.5 copies at the peak; implicit operators hold none), the
 * vectors, the grid, two PCSF projections and the trace. An n beyond int is refused
 * later with its own message. */
static int check_memory(const char *cmd, int H, int W, double n, const char *sensing,
                        int float32, int iters, double ratio)
{
    const double d = (double)H * W;
    const double copies = strcmp(sensing, "gaussian") ? 0.0 : float32 ? 1.5 : 1.0;
    const double need = copies * cli_mem_dense(n, d) + cli_mem_dense(5.0 * n + 9.0 * d, 1) +
                        cli_mem_graph(d, 2.0 * d) + 2 * cli_mem_pcsf(d, 2.0 * d) +
                        cli_mem_trace(iters);
    if (n > 2147483647.0) return CLI_OK;
    char what[160];
    snprintf(what, sizeof what, "recovering a %d x %d image from %.6g measurements (--ratio "
             "%.6g, --sensing %s)", H, W, n, ratio, sensing);
    return cli_mem_check(cmd, need, what);
}

int cmd_recover(int argc, char **argv)
{
    const char *cmd = "recover";
    const char *image = NULL, *ratio_text = NULL, *noise_text = NULL, *seed_text = NULL,
               *method_text = NULL, *model = NULL, *s_text = NULL, *g_text = NULL,
               *c_text = NULL, *iters_text = NULL, *out_dir = NULL, *l_text = NULL,
               *compat_text = NULL, *noplot_text = NULL, *step_text = NULL, *tol_text = NULL,
               *polish_text = NULL, *tol_rel_text = NULL, *sensing_text = NULL,
               *f32_text = NULL, *basis_text = NULL, *mem_text = NULL, *pixels_text = NULL;
    cli_opt opts[] = {
        {"--image", 0, &image}, {"--ratio", 0, &ratio_text}, {"--noise", 0, &noise_text},
        {"--seed", 0, &seed_text}, {"--method", 0, &method_text}, {"--model", 0, &model},
        {"--s", 0, &s_text}, {"--g", 0, &g_text}, {"--C", 0, &c_text},
        {"--iters", 0, &iters_text}, {"--out-dir", 0, &out_dir}, {"--L", 0, &l_text},
        {"--reference-compat", 1, &compat_text}, {"--no-plot", 1, &noplot_text},
        {"--step", 0, &step_text}, {"--tol", 0, &tol_text}, {"--polish", 0, &polish_text},
        {"--tol-rel", 0, &tol_rel_text}, {"--sensing", 0, &sensing_text},
        {"--float32", 1, &f32_text}, {"--basis", 0, &basis_text},
        {"--max-memory", 0, &mem_text}, {"--max-pixels", 0, &pixels_text},
    };
    int rc = cli_parse(cmd, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), usage);
    if (rc) return rc;

    /* ---- flags (usage errors, exit 2) */
    if ((rc = cli_require(cmd, "--image", image))) return rc;
    if ((rc = cli_require(cmd, "--ratio", ratio_text))) return rc;
    if ((rc = cli_require(cmd, "--out-dir", out_dir))) return rc;
    double ratio, noise = 0.0, C = 1.0, L = 0.0;
    int seed = 0, iters = 0, s_given = 0, g_given = 0;
    if ((rc = cli_parse_double(cmd, "--ratio", ratio_text, &ratio))) return rc;
    if (!(ratio > 0)) return cli_usage_error(cmd, "--ratio must be > 0, got %s", ratio_text);
    if (noise_text) {
        if ((rc = cli_parse_double(cmd, "--noise", noise_text, &noise))) return rc;
        if (noise < 0) return cli_usage_error(cmd, "--noise must be >= 0, got %s", noise_text);
    }
    if (seed_text && (rc = cli_parse_int(cmd, "--seed", seed_text, 0, 2147483647L, &seed)))
        return rc;
    int method = gsfw_method_parse(method_text ? method_text : "accfw");
    if (method < 0)
        return cli_usage_error(cmd, "unknown method '%s' (known: accfw, fw, afw, pfw, bpcg, "
                               "graph-iht, graph-cosamp, cosamp, gen-mp, iht)", method_text);
    const int baseline = gsfw_method_is_baseline((gsfw_method)method);
    cli_fw_flags fw;
    if ((rc = cli_parse_fw_flags(cmd, step_text, tol_text, tol_rel_text, polish_text, !baseline,
                                 &fw)))
        return rc;
    const int step = fw.step, polish = fw.polish;
    const double tol = fw.tol;
    double tol_rel = fw.tol_rel;
    if (polish && !tol_text && !tol_rel_text && !iters_text) tol_rel = 1e-3;
    if (baseline && (step_text || tol_text || tol_rel_text || polish))
        return cli_usage_error(cmd, "--step, --tol and --polish belong to the Frank-Wolfe "
                               "methods, not to %s", gsfw_method_name((gsfw_method)method));
    recover_warn_ignored(cmd, method, model, g_text, l_text, compat_text != NULL);
    const char *sensing = sensing_text ? sensing_text : "gaussian";
    if (strcmp(sensing, "gaussian") && strcmp(sensing, "implicit-gaussian") &&
        strcmp(sensing, "dct") && strcmp(sensing, "hadamard") &&
        strcmp(sensing, "dct-signs") && strcmp(sensing, "hadamard-signs"))
        return cli_usage_error(cmd, "--sensing: unknown kind '%s' (known: gaussian, "
                               "implicit-gaussian, dct, hadamard, dct-signs, hadamard-signs)",
                               sensing);
    if (f32_text && strcmp(sensing, "gaussian"))
        return cli_usage_error(cmd, "--float32 applies to --sensing gaussian only");
    const char *basis = basis_text ? basis_text : "pixel";
    if (strcmp(basis, "pixel") && strcmp(basis, "haar") && strcmp(basis, "db4"))
        return cli_usage_error(cmd, "--basis: unknown basis '%s' (known: pixel, haar, db4)",
                               basis);
    const int wavelet = strcmp(basis, "pixel") != 0;
    if (!model) model = wavelet ? "tree" : cli_model_available("head") ? "head" : "subgraph";
    if (!wavelet && strcmp(model, "head") && strcmp(model, "subgraph") && strcmp(model, "topk"))
        return cli_usage_error(cmd, "unknown model '%s' (recover knows head, subgraph, topk; "
                               "tree with a wavelet --basis)", model);
    if (wavelet && strcmp(model, "tree") && strcmp(model, "topk"))
        return cli_usage_error(cmd, "--basis %s takes --model tree or topk, not '%s'", basis,
                               model);
    if (!cli_model_available(model))
        return cli_fail(cmd, "--model %s is not available in this build", model);
    if (s_text) {
        if ((rc = cli_parse_int(cmd, "--s", s_text, 1, 2147483647L, &s_given))) return rc;
    }
    if (g_text) {
        if ((rc = cli_parse_int(cmd, "--g", g_text, 1, 2147483647L, &g_given))) return rc;
    }
    if (c_text) {
        if ((rc = cli_parse_double(cmd, "--C", c_text, &C))) return rc;
        if (!(C > 0)) return cli_usage_error(cmd, "--C must be > 0, got %s", c_text);
    }
    /* DMO-AccFW's default L is the curvature along its first atom (GSFW_L_ATOM): on the
     * paper's images it beats both L = 1 and ||A||_2^2 (docs/recover.md); the baselines'
     * 1/L steps keep the spectral bound. */
    gsfw_lipschitz_rule l_rule = baseline ? GSFW_L_SPECTRAL : GSFW_L_ATOM;
    if (l_text && (rc = cli_parse_L(cmd, l_text, &L, &l_rule))) return rc;
    if (l_rule == GSFW_L_ATOM && baseline)
        return cli_usage_error(cmd, "--L atom is a rule of the Frank-Wolfe methods; %s takes a "
                               "number or 'spectral'", method_text);
    iters = default_iters(method);
    /* a tolerance asked for explicitly decides the stop: the default count becomes a cap
     * that only guards against a bound that never gets there */
    if (tol_text || tol_rel_text) iters = RECOVER_TOL_ITER_CAP;
    if (iters_text && (rc = cli_parse_int(cmd, "--iters", iters_text, 0, 10000000L, &iters)))
        return rc;
    const int compat = compat_text != NULL;
    if ((rc = cli_mem_set_limit(cmd, mem_text))) return rc;
    int max_pixels = RECOVER_MAX_PIXELS;
    if (pixels_text &&
        (rc = cli_parse_int(cmd, "--max-pixels", pixels_text, 1, 2147483647L, &max_pixels)))
        return rc;
    cli_interrupt_install();

    /* ---- the image (run-time errors, exit 1) */
    double *img = NULL, *x_best = NULL, *x_last = NULL, *x_pol = NULL, *theta = NULL,
           *x_img = NULL, *support_ref = NULL;
    gsfw_operator *psi = NULL;
    gsfw_tree *tree = NULL;
    recover_problem prob;
    memset(&prob, 0, sizeof prob);
    gsfw_iterate *trace = NULL;
    gsfw_graph *graph = NULL;
    gsfw_dmo *head = NULL, *tail = NULL;
    unsigned char *mask = NULL;
    int *work = NULL;
    cli_outdir od;
    memset(&od, 0, sizeof od);
    char **staged = od.staged; /* written first, moved into place at the end */
    int H = 0, W = 0;
    gsfw_err err;
    gsfw_error e;
    if (ends_with(image, ".npy")) {
        int ndim, shape[2];
        e = gsfw_npy_read_numeric(image, &img, &ndim, shape, &err);
        if (e) {
            rc = cli_fail(cmd, "--image: %s", err.message);
            goto done;
        }
        if (ndim != 2) {
            rc = cli_fail(cmd, "--image: '%s' is a 1-D array of %d entries; an image must be "
                          "a 2-D array", image, shape[0]);
            goto done;
        }
        H = shape[0];
        W = shape[1];
    } else if (ends_with(image, ".png")) {
        e = gsfw_png_read_gray_limited(image, max_pixels, &img, &H, &W, &err);
        if (e) {
            rc = cli_fail(cmd, "--image: %s", err.message);
            goto done;
        }
    } else {
        rc = cli_fail(cmd, "--image: '%s' is neither a .npy nor a .png file", image);
        goto done;
    }
    const int d = H * W;
    if (d < 1) {
        rc = cli_fail(cmd, "--image: '%s' is empty (%d x %d)", image, H, W);
        goto done;
    }
    double amax = 0.0;
    int nnz = 0;
    for (int i = 0; i < d; i++) {
        if (!isfinite(img[i])) {
            rc = cli_fail(cmd, "--image: pixel (%d, %d) of '%s' is %g; pixels must be finite",
                          i / W, i % W, image, img[i]);
            goto done;
        }
        amax = fmax(amax, fabs(img[i]));
        nnz += img[i] != 0.0;
    }
    if (nnz == 0) {
        rc = cli_fail(cmd, "--image: '%s' is all zero: there is nothing to recover", image);
        goto done;
    }
    /* x* = img / ||img||, computed on img / max|img| so that neither huge pixels (whose
     * squares overflow) nor tiny ones (whose squares underflow) break the norm */
    double nrm = 0.0;
    for (int i = 0; i < d; i++) {
        img[i] /= amax;
        nrm += img[i] * img[i];
    }
    nrm = sqrt(nrm); /* in [1, sqrt(d)] */
    for (int i = 0; i < d; i++) img[i] /= nrm; /* img is x* from here on */
    const double *xs = img;

    /* the memory of the run, checked before the grid or tree is built; for a wavelet
     * basis s (hence n) is known only from the coefficients */
    if (!wavelet && (rc = check_memory(cmd, H, W, floor(ratio * (s_given ? s_given : nnz)),
                                       sensing, f32_text != NULL, iters, ratio)))
        goto done;

    /* the unknowns (x* itself, or its wavelet coefficients), s, g, n */
    const double *truth = xs;
    int s = 0, g = 1;
    if (wavelet) {
        if (H != W) {
            rc = cli_fail(cmd, "--basis %s needs a square image, got %d x %d", basis, H, W);
            goto done;
        }
        if ((e = gsfw_operator_wavelet2d(H, basis, &psi, &err)) ||
            (e = gsfw_tree_quadtree(H, W, &tree, &err))) {
            rc = cli_fail(cmd, "--basis %s: %s", basis, err.message);
            goto done;
        }
        theta = malloc((size_t)d * sizeof(double));
        support_ref = calloc((size_t)d, sizeof(double));
        work = malloc((size_t)d * sizeof(int));
        if (!theta || !support_ref || !work) {
            rc = cli_fail(cmd, "out of memory");
            goto done;
        }
        if (psi->adjoint(psi->ctx, xs, theta)) {
            rc = cli_fail(cmd, "--basis %s: the transform failed", basis);
            goto done;
        }
        truth = theta;
        /* K: the fewest coefficients holding 99.9% of the energy */
        int K = recover_energy_count(theta, d, 0.999, work);
        s = s_given ? s_given : K;
        g = g_given ? g_given : 1;
        if (s > d) s = d;
        /* the support the recovery is scored against: the s largest coefficients */
        for (int k = 0; k < s; k++) support_ref[work[k]] = theta[work[k]];
    } else {
        e = gsfw_graph_grid(H, W, &graph, &err);
        if (e) {
            rc = cli_fail_err(cmd, e, &err);
            goto done;
        }
        mask = malloc((size_t)d);
        work = malloc(2 * (size_t)d * sizeof(int));
        if (!mask || !work) {
            rc = cli_fail(cmd, "out of memory");
            goto done;
        }
        for (int i = 0; i < d; i++) mask[i] = xs[i] != 0.0;
        const int g_true = gsfw_graph_induced_components(graph, mask, work);
        s = s_given ? s_given : nnz;
        g = g_given ? g_given : g_true;
    }
    if (s > d) {
        rc = cli_fail(cmd, "--s %d exceeds the number of pixels %d", s, d);
        goto done;
    }
    if (g > s) {
        if (g_given)
            rc = cli_fail(cmd, "--g %d exceeds s = %d", g, s);
        else
            rc = cli_fail(cmd, "the image's support has %d connected components, more than "
                          "s = %d: pass a larger --s or --g <= s", g, s);
        goto done;
    }
    if (wavelet && (rc = check_memory(cmd, H, W, floor(ratio * s), sensing, f32_text != NULL,
                                      iters, ratio)))
        goto done;
    const double n_real = floor(ratio * s);
    if (!(n_real >= 1)) {
        rc = cli_fail(cmd, "--ratio %s gives n = floor(%g * %d) = %.0f measurements; need at "
                      "least 1", ratio_text, ratio, s, n_real);
        goto done;
    }
    if (n_real > 2147483647.0 || (!strcmp(sensing, "gaussian") && n_real * d > 4e9)) {
        rc = cli_fail(cmd, "--ratio %.6g gives a %.6g x %d matrix, too large", ratio, n_real, d);
        goto done;
    }
    const int n = (int)n_real;
    if (!wavelet) recover_warn_dense(cmd, nnz, d, s, n); /* pixels; a basis has its own */

    /* ---- output directory (created now so that a bad --out-dir fails before the work) */
    static const char *const names[6] = {"recovered.npy", "recovered.png", "truth.png",
                                         "trace.csv", "convergence.png", "panel.png"};
    const int n_out = noplot_text ? 4 : 6;
    if ((rc = cli_outdir_open(&od, cmd, out_dir))) goto done;
    if ((rc = cli_outdir_files(&od, names, n_out))) goto done;

    /* ---- setup: A, y, objective, L, oracles */
    double t_setup = gsfw_now();
    recover_problem_spec pspec = {.sensing = sensing, .float32 = f32_text != NULL, .psi = psi,
                                  .n = n, .height = H, .width = W, .seed = (uint64_t)seed,
                                  .noise = noise};
    if ((rc = recover_problem_build(cmd, &pspec, truth, &prob))) goto done;
    gsfw_objective *obj = prob.obj;
    const double f_star = prob.f_star;
    if (cli_interrupted()) {
        rc = cli_interrupted_exit(cmd, "no output was changed");
        goto done;
    }
    /* L of AccFW's step point (by default the library's atom rule) and of the baselines'
     * 1/L steps (the spectral estimate below) */
    const int needs_L = method == GSFW_METHOD_ACCFW || method == GSFW_METHOD_IHT ||
                        method == GSFW_METHOD_GRAPH_IHT || method == GSFW_METHOD_GEN_MP;
    if (needs_L && !(L > 0) && l_rule == GSFW_L_SPECTRAL) {
        /* ||A||_2^2 by at most RECOVER_POWER_ITERS power iterations (Rayleigh quotient,
         * from below), inflated by RECOVER_L_MARGIN: on angio (n = 1555) 50 iterations take
         * 0.3 s and land 1.4% below the converged value, which 500 iterations (3.6 s)
         * would reach. */
        const double *A = gsfw_dense_col_major_data(prob.op);
        if (A) { /* the explicit Gaussian matrix: the estimate recover always made */
            double *pw = malloc(((size_t)n + 2 * (size_t)d) * sizeof(double));
            if (!pw) {
                rc = cli_fail(cmd, "out of memory");
                goto done;
            }
            L = RECOVER_L_MARGIN * gsfw_power_iteration_col_major(n, d, A, RECOVER_POWER_ITERS,
                                                                  1e-6, pw);
            free(pw);
        } else {
            L = recover_problem_norm2(&prob, RECOVER_POWER_ITERS, RECOVER_L_MARGIN);
        }
        if (!(L > 0) || !isfinite(L)) {
            rc = cli_fail(cmd, "could not estimate L (got %g); pass --L", L);
            goto done;
        }
    }
    /* oracles: the baselines' head/tail recipes, or the model's DMO */
    const char *tail_model =
        method == GSFW_METHOD_IHT || method == GSFW_METHOD_COSAMP ? "topk" : model;
    gsfw_model_spec mspec = {.model = model, .d = d, .s = s, .g = g, .graph = graph,
                             .tree = tree, .delta = 1.0};
    if (gsfw_method_is_baseline((gsfw_method)method))
        e = gsfw_baseline_oracles((gsfw_method)method, &mspec, compat, &head, &tail, &err);
    else
        e = gsfw_dmo_from_model(&mspec, &head, &err);
    if (e) rc = cli_fail(cmd, "--model %s: %s", model, err.message);
    if (rc) goto done;
    double setup_s = gsfw_now() - t_setup;

    /* ---- solve */
    x_best = malloc((size_t)d * sizeof(double));
    x_last = malloc((size_t)d * sizeof(double));
    trace = malloc(((size_t)iters + 1) * sizeof(gsfw_iterate));
    if (polish) x_pol = malloc((size_t)d * sizeof(double));
    if (!x_best || !x_last || !trace || (polish && !x_pol)) {
        rc = cli_fail(cmd, "out of memory for %d iterations of dimension %d", iters, d);
        goto done;
    }
    gsfw_result res = {.x_best = x_best, .x_last = x_last, .trace = trace,
                       .trace_capacity = iters + 1, .x_polished = x_pol};
    gsfw_info info;
    if (gsfw_method_is_baseline((gsfw_method)method)) {
        gsfw_baseline_settings bset;
        gsfw_baseline_settings_default(&bset);
        bset.method = (gsfw_method)method;
        bset.C = C;
        bset.L = needs_L ? L : 0.0;
        bset.max_iter = iters;
        bset.x_true = truth;
        bset.reference_compat = compat;
        bset.callback = cli_interrupt_callback; /* SIGINT / SIGTERM stop between iterations */
        e = gsfw_baseline_solve(obj, head, tail, &bset, &res, &info, &err);
    } else {
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = (gsfw_method)method;
        set.C = C;
        set.L = needs_L ? L : 0.0;
        set.L_rule = l_rule;
        set.step = (gsfw_step)step;
        set.tol = tol;
        set.tol_rel = tol_rel;
        set.polish = polish;
        set.max_iter = iters;
        set.x_true = truth;
        set.callback = cli_interrupt_callback; /* SIGINT / SIGTERM stop between iterations */
        e = gsfw_solve(obj, head, &set, &res, &info, &err);
    }
    if (cli_interrupted()) {
        rc = cli_interrupted_exit(cmd, "no output was changed");
        goto done;
    }
    if (e) {
        rc = cli_fail_err(cmd, e, &err);
        goto done;
    }
    setup_s += info.setup_time;

    /* ---- outputs */
    int shape[2] = {H, W};
    double peak = 0.0;
    for (int i = 0; i < d; i++) peak = fmax(peak, xs[i]);
    if (!(peak > 0)) peak = 1.0;
    /* the returned answer: the polished point, else the best iterate; as an image: itself,
     * or Psi theta with a wavelet basis */
    const double *x_ret = polish ? x_pol : x_best;
    const double *img_ret = x_ret;
    if (wavelet) {
        x_img = malloc((size_t)d * sizeof(double));
        if (!x_img || psi->apply(psi->ctx, x_ret, x_img)) {
            rc = cli_fail(cmd, "--basis %s: the inverse transform failed", basis);
            goto done;
        }
        img_ret = x_img;
    }
    if (gsfw_npy_write(staged[0], img_ret, 2, shape, &err)) {
        rc = cli_fail(cmd, "%s", err.message);
        goto done;
    }
    if (gsfw_png_write_gray(staged[1], img_ret, H, W, 0.0, peak, &err)) {
        rc = cli_fail(cmd, "%s", err.message);
        goto done;
    }
    if (gsfw_png_write_gray(staged[2], xs, H, W, 0.0, peak, &err)) {
        rc = cli_fail(cmd, "%s", err.message);
        goto done;
    }
    if ((rc = cli_write_trace(cmd, staged[3], trace, res.trace_len, 1))) goto done;
    if (!noplot_text) {
        char title[256];
        snprintf(title, sizeof title, "%s, %s model, n = %d, d = %d, s = %d, g = %d, seed %d",
                 gsfw_method_name((gsfw_method)method), tail_model, n, d, s, g, seed);
        if ((rc = recover_plot_convergence(cmd, staged[4], staged[3], f_star, title)) ||
            (rc = recover_plot_panel(cmd, staged[5], xs, img_ret, H, W, title)))
            goto done;
    }

    /* every output is written: move them into place together, so that a failure here
     * or above leaves the directory as it was (existing files untouched, new ones
     * removed) */
    if ((rc = cli_outdir_commit(&od, n_out))) goto done;

    double pre, rec;
    /* supports are scored against supp(x*), or against the s largest coefficients with a
     * wavelet basis (natural images have no exactly sparse expansion); errors and PSNR in
     * pixels, which equal those of the coefficients (Psi is orthonormal) */
    const double *supp_ref = wavelet ? support_ref : xs;
    const double f1 = rec_support_f1(x_ret, supp_ref, d, &pre, &rec);
    const double raw_f1 = rec_support_f1(x_best, supp_ref, d, NULL, NULL);
    int nnz_ret = 0, nnz_raw = 0;
    for (int i = 0; i < d; i++) {
        nnz_ret += x_ret[i] != 0.0;
        nnz_raw += x_best[i] != 0.0;
    }
    /* where L came from: a number given with --L, the spectral estimate (made here for
     * the baselines, or the solver's fallback), or the first atom's curvature */
    const int L_given = l_text && strcmp(l_text, "spectral") && strcmp(l_text, "atom");
    const char *L_source = !needs_L ? "unused"
                           : L_given ? "given"
                           : info.L_source == GSFW_L_ATOM ? "atom" : "spectral";
    printf("method=%s model=%s sensing=%s basis=%s status=%s iters=%d returned=%s best_iter=%d n=%d d=%d s=%d "
           "g=%d C=%.17g seed=%d ratio=%.17g noise=%.17g time_s=%.6f setup_s=%.6f "
           "polish_s=%.6f f=%.17g "
           "f_last=%.17g f_star=%.17g est_err=%.17g rel_err=%.17g psnr=%.6f support_f1=%.6f "
           "precision=%.6f recall=%.6f nnz=%d raw_f=%.17g raw_rel_err=%.17g "
           "raw_support_f1=%.6f raw_nnz=%d gap_bound=%.6g step=%s window_missed=%ld "
           "oracle_calls=%ld pcsf_calls=%ld L=%.17g L_source=%s "
           "oracle_s=%.6f gradient_s=%.6f\n",
           gsfw_method_name((gsfw_method)method),
           method == GSFW_METHOD_IHT || method == GSFW_METHOD_COSAMP ? "topk" : tail_model,
           sensing, basis,
           gsfw_status_name(info.status), info.iterations, polish ? "polished" : "best",
           info.best_iter, n, d, s, g, C, seed, ratio, noise, info.solve_time, setup_s,
           info.polish_time, polish ? info.f_polished : info.f_best, info.f_last, f_star,
           rec_dist(img_ret, xs, d), rec_rel_err(img_ret, xs, d), rec_psnr(img_ret, xs, d), f1,
           pre, rec, nnz_ret, info.f_best, rec_rel_err(x_best, truth, d), raw_f1, nnz_raw,
           info.gap_bound, baseline ? "none" : gsfw_step_name(info.step), info.window_missed,
           info.oracle_calls, info.pcsf_calls, info.L > 0 ? info.L : (needs_L ? L : 0.0),
           L_source, info.oracle_time, info.gradient_time);
    rc = CLI_OK;

done:
    /* a failure the signal caused (a killed gnuplot, say; its message was held back) */
    if (rc == CLI_FAIL && cli_interrupted()) rc = cli_interrupted_exit(cmd, "no output was changed");
    /* what is left of the staging directory (everything, after a failure) goes */
    cli_outdir_close(&od, rc != CLI_OK);
    gsfw_free(img);
    recover_problem_free(&prob);
    gsfw_operator_free(psi);
    gsfw_tree_free(tree);
    free(theta);
    free(support_ref);
    free(x_img);
    free(x_best);
    free(x_pol);
    free(x_last);
    free(trace);
    free(mask);
    free(work);
    gsfw_dmo_free(head);
    gsfw_dmo_free(tail);
    gsfw_graph_free(graph);
    return rc;
}
