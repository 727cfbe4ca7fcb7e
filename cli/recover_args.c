/* Parsing and checking the flags of `gsfw recover` (docs/recover.md). */
#include "recover_args.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memory.h"

#define RECOVER_MAX_PIXELS 100000000

static const char synopsis[] =
    "usage: gsfw recover --image FILE(.npy|.png) --ratio R --out-dir DIR [--method M]\n"
    "                    [--model M] [--s S] [--g G] [--C C] [--iters T] [--step RULE]\n"
    "                    [--tol TOL] [--tol-rel R] [--polish on|off] [--sensing KIND]\n"
    "                    [--float32] [--basis B] [--noise SIGMA] [--seed N]\n"
    "                    [--L L|spectral|atom] [--reference-compat] [--no-plot]\n"
    "                    [--max-memory SIZE] [--max-pixels N] [--pursuit on|off]\n"
    "                    [--levels none|B1,B2,...] [--PARAMETER VALUE ...]\n"
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
    "  --s S, --g G      sparsity and components (default: nnz(x*) and the components of\n"
    "                    supp(x*) on the 4-neighbour grid; with a wavelet basis, the\n"
    "                    number of coefficients holding 99.9% of the energy, and g = 1)\n"
    CLI_RECOVER_RUN_HELP
    "                    (the raw_* fields describe the unpolished best iterate)\n"
    "  --restarts N      warm restarts from the polished point (rounds of AccFW with line\n"
    "                    search; they stop at an exact fit or when f stops falling)\n"
    "  --model M         the support model (default: the one for the basis' structure:\n"
    "                    the grid's for the pixels, the quadtree's for a wavelet basis)\n"
    "  --noise SIGMA     noise level (default 0)\n"
    "  --seed N          seed of A and e (default 0)\n"
    "  --L L|spectral|atom  smoothness constant; atom is the default of the Frank-Wolfe\n"
    "                    methods, spectral (||A||_2^2 by power iteration) the baselines'\n"
    "  --pursuit on|off  graph subspace pursuit coarse to fine (few projections at full\n"
    "                    size, every iterate polished; --iters per level, default 50;\n"
    "                    --tol, --tol-rel on f relative to f(0)). Without the flag it is\n"
    "                    taken for pixel images of at least 262144 pixels (512 x 512)\n"
    "                    when no --method, --model, --step, --polish, --L or --restarts\n"
    "                    is given, and at every size when the method is the pursuit's\n"
    "  --levels L        its coarse levels: none, or their block sides, coarsest first\n"
    "                    (e.g. 4,2; default: by the image's size)\n"
    "  --no-plot         skip convergence.png and panel.png (no gnuplot needed)\n"
    CLI_MEM_HELP
    "  --max-pixels N    largest PNG decoded, in pixels (default 100000000)\n"
    "\n"
    "Parameters (gsfw help params):\n";

static const char epilogue[] =
    "\n"
    "The outputs appear together or not at all. SIGINT or SIGTERM ends the run with\n"
    "status 130 or 143 and leaves the directory as it was; a second run into a directory\n"
    "in use is refused (docs/recover.md).\n"
    "\n"
    "Prints one line of key=value fields: method, model, status, iters, n, d, s, g, time_s\n"
    "(solve), setup_s (drawing A, estimating L, building oracles), f, f_star = f(x*),\n"
    "est_err, rel_err, psnr (peak R = max|x*|), support_f1, oracle_calls, pcsf_calls, L;\n"
    "with restarts, restarts (rounds run) and restart_best (the round returned).\n";

/* the recovery's own flags that are registry parameters take their help from the rows */
static const char *const described[] = {"s", "g", CLI_RECOVER_DESCRIBED, "restarts", "model",
                                        "seed", "L", NULL};

/* The basis' structure picks the models that fit; then the recovery's defaults. */
static int recovery_defaults(const char *cmd, recover_args *a)
{
    const gsfw_entry *basis = gsfw_spec_entry(a->params.spec, GSFW_KIND_BASIS);
    a->basis_def = basis->def;
    gsfw_spec_available(a->params.spec, a->basis_def->structure);
    a->baseline = gsfw_spec_is_baseline(a->params.spec);
    int rc = cli_params_recovery_defaults(cmd, &a->params, &a->iters);
    a->polish = (int)gsfw_spec_number(a->params.spec, "polish");
    return rc;
}

/* The values the run reads, from the spec. */
static void take_values(recover_args *a)
{
    const gsfw_spec *spec = a->params.spec;
    a->method = gsfw_spec_entry(spec, GSFW_KIND_METHOD)->name;
    a->model = gsfw_spec_entry(spec, GSFW_KIND_MODEL)->name;
    const gsfw_entry *sensing = gsfw_spec_entry(spec, GSFW_KIND_SENSING);
    a->sensing = sensing->name;
    a->explicit_matrix = ((const gsfw_sensing_def *)sensing->def)->explicit_matrix;
    a->basis = gsfw_spec_entry(spec, GSFW_KIND_BASIS)->name;
    a->wavelet = a->basis_def->build != NULL;
    a->float32 = (int)gsfw_spec_number(spec, "float32");
    a->C = gsfw_spec_number(spec, "C");
    a->seed = (int)gsfw_spec_number(spec, "seed");
    a->s_given = gsfw_spec_given(spec, "s") ? (int)gsfw_spec_number(spec, "s") : 0;
    a->g_given = gsfw_spec_given(spec, "g") ? (int)gsfw_spec_number(spec, "g") : 0;
    a->L = gsfw_spec_given(spec, "L") ? gsfw_spec_number(spec, "L") : 0.0;
    /* DMO-AccFW's default L is the curvature along its first atom: on the paper's images
     * it beats both L = 1 and ||A||_2^2 (docs/recover.md); the baselines' 1/L steps keep
     * the spectral bound */
    a->l_rule = gsfw_spec_given(spec, "L_rule") ? (gsfw_lipschitz_rule)gsfw_spec_number(spec, "L_rule")
                : a->baseline ? GSFW_L_SPECTRAL : GSFW_L_ATOM;
}

int recover_args_parse(int argc, char **argv, recover_args *a)
{
    const char *cmd = "recover";
    const char *noise_text = NULL, *noplot_text = NULL, *mem_text = NULL, *pixels_text = NULL;
    memset(a, 0, sizeof *a);
    static const char *const skip[] = {"option", "delta", NULL};
    if (cli_params_init(cmd, &a->params, GSFW_USES_METHOD | GSFW_USES_MODEL | GSFW_USES_STEP |
                                             GSFW_USES_SENSING | GSFW_USES_BASIS, skip))
        return CLI_FAIL;
    cli_opt opts[CLI_MAX_PARAMS + 10] = {
        {"--image", 0, &a->image}, {"--ratio", 0, &a->ratio_text},
        {"--noise", 0, &noise_text}, {"--out-dir", 0, &a->out_dir},
        {"--no-plot", 1, &noplot_text}, {"--max-memory", 0, &mem_text},
        {"--max-pixels", 0, &pixels_text}, {"--pursuit", 0, &a->pursuit_text},
        {"--levels", 0, &a->levels_text},
    };
    int nopts = 9 + cli_params_opts(&a->params, opts + 9);
    char *usage = cli_asks_help(argc, argv)
                      ? cli_usage_text(synopsis, &a->params, described, epilogue)
                      : strdup("");
    if (!usage) return cli_fail(cmd, "out of memory");
    int rc = cli_parse(cmd, argc, argv, opts, nopts, usage);
    free(usage);
    if (rc) return rc;

    if ((rc = cli_require(cmd, "--image", a->image))) return rc;
    if ((rc = cli_require(cmd, "--ratio", a->ratio_text))) return rc;
    if ((rc = cli_require(cmd, "--out-dir", a->out_dir))) return rc;
    if ((rc = cli_parse_double(cmd, "--ratio", a->ratio_text, &a->ratio))) return rc;
    if (!(a->ratio > 0))
        return cli_usage_error(cmd, "--ratio must be > 0, got %s", a->ratio_text);
    if (noise_text) {
        if ((rc = cli_parse_double(cmd, "--noise", noise_text, &a->noise))) return rc;
        if (a->noise < 0) return cli_usage_error(cmd, "--noise must be >= 0, got %s", noise_text);
    }
    a->l_text = cli_params_text(&a->params, "L");
    if ((rc = cli_params_apply(cmd, &a->params))) return rc;
    if ((rc = recovery_defaults(cmd, a))) return rc;
    if ((rc = cli_params_check(cmd, &a->params))) return rc;
    take_values(a);
    a->no_plot = noplot_text != NULL;
    if ((rc = cli_mem_set_limit(cmd, mem_text))) return rc;
    a->max_pixels = RECOVER_MAX_PIXELS;
    if (pixels_text &&
        (rc = cli_parse_int(cmd, "--max-pixels", pixels_text, 1, 2147483647L, &a->max_pixels)))
        return rc;
    return CLI_OK;
}

void recover_args_free(recover_args *a)
{
    cli_params_free(&a->params);
}
