/* Parsing and checking the flags of `gsfw recover` (docs/recover.md). */
#include "recover_args.h"

#include <string.h>

#include "cli.h"
#include "fw_flags.h"
#include "memory.h"
#include "models.h"
#include "recover_checks.h"
#include "recover_defaults.h"

#define RECOVER_TOL_ITER_CAP 20000
#define RECOVER_MAX_PIXELS 100000000
#define RECOVER_PURSUIT_NAME "graph-sp"
#define RECOVER_PURSUIT_ITERS 50

const char *recover_method_name(const recover_args *a)
{
    return a->pursuit ? RECOVER_PURSUIT_NAME : gsfw_method_name((gsfw_method)a->method);
}

void recover_args_use_pursuit(recover_args *a)
{
    a->pursuit = 1;
    a->method = -1;
    a->baseline = 0;
    a->polish = 1;
    a->step = GSFW_STEP_AUTO;
    if (!a->iters_given) a->iters = RECOVER_PURSUIT_ITERS;
    if (!a->tol_given) a->tol = a->tol_rel = 0.0;
}

/* --method graph-sp: the flags it takes, and the model and basis it works with. */
static int check_pursuit(const char *cmd, const recover_args *a)
{
    if (a->fw_only_given)
        return cli_usage_error(cmd, "--step, --polish, --L and --reference-compat belong to "
                               "other methods; %s always polishes and needs no L",
                               RECOVER_PURSUIT_NAME);
    if (a->wavelet || strcmp(a->model, "head"))
        return cli_usage_error(cmd, "--method %s works on pixels with the head model, not "
                               "--basis %s --model %s", RECOVER_PURSUIT_NAME, a->basis,
                               a->model);
    return CLI_OK;
}

/* --sensing, --float32, --basis and --model. */
static int parse_problem_kind(const char *cmd, const char *sensing_text, int float32,
                              const char *basis_text, const char *model, recover_args *a)
{
    a->sensing = sensing_text ? sensing_text : "gaussian";
    const char *sensing = a->sensing;
    if (strcmp(sensing, "gaussian") && strcmp(sensing, "implicit-gaussian") &&
        strcmp(sensing, "dct") && strcmp(sensing, "hadamard") &&
        strcmp(sensing, "dct-signs") && strcmp(sensing, "hadamard-signs"))
        return cli_usage_error(cmd, "--sensing: unknown kind '%s' (known: gaussian, "
                               "implicit-gaussian, dct, hadamard, dct-signs, hadamard-signs)",
                               sensing);
    if (float32 && strcmp(sensing, "gaussian"))
        return cli_usage_error(cmd, "--float32 applies to --sensing gaussian only");
    a->float32 = float32;
    const char *basis = a->basis = basis_text ? basis_text : "pixel";
    if (strcmp(basis, "pixel") && strcmp(basis, "haar") && strcmp(basis, "db4"))
        return cli_usage_error(cmd, "--basis: unknown basis '%s' (known: pixel, haar, db4)",
                               basis);
    a->wavelet = strcmp(basis, "pixel") != 0;
    if (!model) model = a->wavelet ? "tree" : cli_model_available("head") ? "head" : "subgraph";
    a->model = model;
    if (!a->wavelet && strcmp(model, "head") && strcmp(model, "subgraph") &&
        strcmp(model, "topk"))
        return cli_usage_error(cmd, "unknown model '%s' (recover knows head, subgraph, topk; "
                               "tree with a wavelet --basis)", model);
    if (a->wavelet && strcmp(model, "tree") && strcmp(model, "topk"))
        return cli_usage_error(cmd, "--basis %s takes --model tree or topk, not '%s'", basis,
                               model);
    if (!cli_model_available(model))
        return cli_fail(cmd, "--model %s is not available in this build", model);
    return CLI_OK;
}

int recover_args_parse(int argc, char **argv, const char *usage, recover_args *a)
{
    const char *cmd = "recover";
    const char *noise_text = NULL, *seed_text = NULL, *model = NULL, *s_text = NULL,
               *g_text = NULL, *c_text = NULL, *iters_text = NULL, *compat_text = NULL,
               *noplot_text = NULL, *step_text = NULL, *tol_text = NULL, *polish_text = NULL,
               *tol_rel_text = NULL, *sensing_text = NULL, *f32_text = NULL,
               *basis_text = NULL, *mem_text = NULL, *pixels_text = NULL;
    memset(a, 0, sizeof *a);
    cli_opt opts[] = {
        {"--image", 0, &a->image}, {"--ratio", 0, &a->ratio_text},
        {"--noise", 0, &noise_text}, {"--seed", 0, &seed_text},
        {"--method", 0, &a->method_text}, {"--model", 0, &model}, {"--s", 0, &s_text},
        {"--g", 0, &g_text}, {"--C", 0, &c_text}, {"--iters", 0, &iters_text},
        {"--out-dir", 0, &a->out_dir}, {"--L", 0, &a->l_text},
        {"--reference-compat", 1, &compat_text}, {"--no-plot", 1, &noplot_text},
        {"--step", 0, &step_text}, {"--tol", 0, &tol_text}, {"--polish", 0, &polish_text},
        {"--tol-rel", 0, &tol_rel_text}, {"--sensing", 0, &sensing_text},
        {"--float32", 1, &f32_text}, {"--basis", 0, &basis_text},
        {"--max-memory", 0, &mem_text}, {"--max-pixels", 0, &pixels_text},
        {"--levels", 0, &a->levels_text},
    };
    int rc = cli_parse(cmd, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), usage);
    if (rc) return rc;

    if ((rc = cli_require(cmd, "--image", a->image))) return rc;
    if ((rc = cli_require(cmd, "--ratio", a->ratio_text))) return rc;
    if ((rc = cli_require(cmd, "--out-dir", a->out_dir))) return rc;
    a->C = 1.0;
    if ((rc = cli_parse_double(cmd, "--ratio", a->ratio_text, &a->ratio))) return rc;
    if (!(a->ratio > 0))
        return cli_usage_error(cmd, "--ratio must be > 0, got %s", a->ratio_text);
    if (noise_text) {
        if ((rc = cli_parse_double(cmd, "--noise", noise_text, &a->noise))) return rc;
        if (a->noise < 0) return cli_usage_error(cmd, "--noise must be >= 0, got %s", noise_text);
    }
    if (seed_text && (rc = cli_parse_int(cmd, "--seed", seed_text, 0, 2147483647L, &a->seed)))
        return rc;
    const char *method_text = a->method_text;
    const int pursuit = method_text && !strcmp(method_text, RECOVER_PURSUIT_NAME);
    a->method_auto = !method_text;
    a->fw_only_given = step_text || polish_text || a->l_text || compat_text;
    a->iters_given = iters_text != NULL;
    a->tol_given = tol_text || tol_rel_text;
    /* graph-sp is parsed as accfw first (the flags they share), then switched */
    a->method = gsfw_method_parse(pursuit || !method_text ? "accfw" : method_text);
    if (a->method < 0)
        return cli_usage_error(cmd, "unknown method '%s' (known: accfw, fw, afw, pfw, bpcg, "
                               "graph-iht, graph-cosamp, cosamp, gen-mp, iht, "
                               RECOVER_PURSUIT_NAME ")", method_text);
    const int baseline = a->baseline = gsfw_method_is_baseline((gsfw_method)a->method);
    cli_fw_flags fw;
    if ((rc = cli_parse_fw_flags(cmd, step_text, tol_text, tol_rel_text, polish_text, !baseline,
                                 &fw)))
        return rc;
    a->step = fw.step;
    a->polish = fw.polish;
    a->tol = fw.tol;
    a->tol_rel = fw.tol_rel;
    if (a->polish && !tol_text && !tol_rel_text && !iters_text) a->tol_rel = 1e-3;
    if (baseline && (step_text || tol_text || tol_rel_text || a->polish))
        return cli_usage_error(cmd, "--step, --tol and --polish belong to the Frank-Wolfe "
                               "methods, not to %s", gsfw_method_name((gsfw_method)a->method));
    if (!pursuit)
        recover_warn_ignored(cmd, a->method, model, g_text, a->l_text, compat_text != NULL);
    if ((rc = parse_problem_kind(cmd, sensing_text, f32_text != NULL, basis_text, model, a)))
        return rc;
    if (pursuit && (rc = check_pursuit(cmd, a))) return rc;
    if (s_text && (rc = cli_parse_int(cmd, "--s", s_text, 1, 2147483647L, &a->s_given)))
        return rc;
    if (g_text && (rc = cli_parse_int(cmd, "--g", g_text, 1, 2147483647L, &a->g_given)))
        return rc;
    if (c_text) {
        if ((rc = cli_parse_double(cmd, "--C", c_text, &a->C))) return rc;
        if (!(a->C > 0)) return cli_usage_error(cmd, "--C must be > 0, got %s", c_text);
    }
    /* DMO-AccFW's default L is the curvature along its first atom (GSFW_L_ATOM): on the
     * paper's images it beats both L = 1 and ||A||_2^2 (docs/recover.md); the baselines'
     * 1/L steps keep the spectral bound. */
    a->l_rule = baseline ? GSFW_L_SPECTRAL : GSFW_L_ATOM;
    if (a->l_text && (rc = cli_parse_L(cmd, a->l_text, &a->L, &a->l_rule))) return rc;
    if (a->l_rule == GSFW_L_ATOM && baseline)
        return cli_usage_error(cmd, "--L atom is a rule of the Frank-Wolfe methods; %s takes a "
                               "number or 'spectral'", method_text);
    a->iters = cli_recover_default_iters(a->method);
    /* a tolerance asked for explicitly decides the stop: the default count becomes a cap
     * that only guards against a bound that never gets there */
    if (tol_text || tol_rel_text) a->iters = RECOVER_TOL_ITER_CAP;
    if (iters_text && (rc = cli_parse_int(cmd, "--iters", iters_text, 0, 10000000L, &a->iters)))
        return rc;
    a->compat = compat_text != NULL;
    a->no_plot = noplot_text != NULL;
    if (pursuit) recover_args_use_pursuit(a);
    if ((rc = cli_mem_set_limit(cmd, mem_text))) return rc;
    a->max_pixels = RECOVER_MAX_PIXELS;
    if (pixels_text &&
        (rc = cli_parse_int(cmd, "--max-pixels", pixels_text, 1, 2147483647L, &a->max_pixels)))
        return rc;
    return CLI_OK;
}
