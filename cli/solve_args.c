#include "solve_args.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fw_flags.h"

void cli_solve_opts(cli_solve_args *a, cli_opt *opts)
{
    memset(a, 0, sizeof *a);
    const cli_opt shared[] = {
        {"--A", 0, &a->a_path}, {"--y", 0, &a->y_path}, {"--model", 0, &a->model},
        {"--s", 0, &a->s_text}, {"--g", 0, &a->g_text}, {"--graph", 0, &a->grid},
        {"--edges", 0, &a->edges}, {"--C", 0, &a->c_text}, {"--method", 0, &a->method_text},
        {"--option", 0, &a->option_text}, {"--delta", 0, &a->delta_text},
        {"--L", 0, &a->l_text}, {"--iters", 0, &a->iters_text},
        {"--trace", 0, &a->trace_path}, {"--out", 0, &a->out_path},
        {"--best-out", 0, &a->best_path}, {"--x-true", 0, &a->xtrue_path},
        {"--seed", 0, &a->seed_text}, {"--time-limit", 0, &a->time_text},
        {"--step", 0, &a->step_text}, {"--tol", 0, &a->tol_text}, {"--x0", 0, &a->x0_path},
        {"--polish", 0, &a->polish_text}, {"--tol-rel", 0, &a->tol_rel_text},
        {"--loss", 0, &a->loss_text}, {"--huber-delta", 0, &a->huber_text},
        {"--intercept", 1, &a->intercept_flag},
    };
    _Static_assert(sizeof shared / sizeof shared[0] == CLI_SOLVE_NOPTS,
                   "CLI_SOLVE_NOPTS counts the shared flags");
    memcpy(opts, shared, sizeof shared);
}

/* --loss, --huber-delta, --intercept: usage errors for values and for flags that do not
 * belong to the chosen loss. */
static int parse_loss_flags(const char *cmd, const char *loss_text, const char *huber_text,
                            const char *intercept_flag, gsfw_loss_options *opt)
{
    gsfw_loss_options_default(opt);
    if (loss_text) {
        int kind = gsfw_loss_parse(loss_text);
        if (kind < 0)
            return cli_usage_error(cmd, "--loss must be ls, logistic or huber, got '%s'",
                                   loss_text);
        opt->loss = (gsfw_loss)kind;
    }
    if (huber_text) {
        if (opt->loss != GSFW_LOSS_HUBER)
            return cli_usage_error(cmd, "--huber-delta needs --loss huber");
        int rc = cli_parse_double(cmd, "--huber-delta", huber_text, &opt->huber_delta);
        if (rc) return rc;
        if (!(opt->huber_delta > 0) || !isfinite(opt->huber_delta))
            return cli_usage_error(cmd, "--huber-delta must be finite and > 0, got %s",
                                   huber_text);
    }
    if (intercept_flag) {
        if (opt->loss != GSFW_LOSS_LOGISTIC)
            return cli_usage_error(cmd, "--intercept needs --loss logistic");
        opt->intercept = 1;
    }
    return CLI_OK;
}

/* --C and --method; a->baseline follows the method. */
static int parse_radius_and_method(const char *cmd, cli_solve_args *a)
{
    int rc;
    if ((rc = cli_parse_double(cmd, "--C", a->c_text, &a->run.C))) return rc;
    if (!(a->run.C > 0)) return cli_usage_error(cmd, "--C must be > 0, got %s", a->c_text);
    a->run.method = gsfw_method_parse(a->method_text);
    if (a->run.method < 0)
        return cli_usage_error(cmd, "--method: unknown method '%s' (known: fw, accfw, afw, pfw, "
                               "bpcg, iht, cosamp, graph-iht, graph-cosamp, gen-mp)",
                               a->method_text);
    a->baseline = gsfw_method_is_baseline((gsfw_method)a->run.method);
    return CLI_OK;
}

/* --step, --tol, --tol-rel, --polish, --polished-out, --x0 and --option: the flags of the
 * Frank-Wolfe methods, refused for a baseline. */
static int parse_fw_method_flags(const char *cmd, cli_solve_args *a)
{
    cli_fw_flags fw;
    int rc = cli_parse_fw_flags(cmd, a->step_text, a->tol_text, a->tol_rel_text,
                                a->polish_text, 0, &fw);
    if (rc) return rc;
    a->run.step = fw.step;
    a->run.polish = fw.polish;
    a->run.tol = fw.tol;
    a->run.tol_rel = fw.tol_rel;
    if (a->pol_path && !a->run.polish)
        return cli_usage_error(cmd, "--polished-out needs --polish on");
    if (a->baseline && (a->step_text || a->tol_text || a->tol_rel_text || a->x0_path ||
                        a->run.polish || a->option_text))
        return cli_usage_error(cmd, "--step, --tol, --x0, --polish and --option belong to the "
                               "Frank-Wolfe methods, not to %s", a->method_text);
    a->run.option = GSFW_OPTION_I;
    if (a->option_text) {
        if (!strcmp(a->option_text, "I") || !strcmp(a->option_text, "1"))
            a->run.option = GSFW_OPTION_I;
        else if (!strcmp(a->option_text, "II") || !strcmp(a->option_text, "2"))
            a->run.option = GSFW_OPTION_II;
        else
            return cli_usage_error(cmd, "--option must be I or II, got '%s'", a->option_text);
    }
    return CLI_OK;
}

int cli_solve_check(const char *cmd, cli_solve_args *a)
{
    /* Flags first (usage errors, exit 2), files second (exit 1). */
    const char *required[][2] = {{"--A", a->a_path}, {"--y", a->y_path},
                                 {"--model", a->model}, {"--s", a->s_text},
                                 {"--C", a->c_text}, {"--method", a->method_text},
                                 {"--iters", a->iters_text}};
    int rc;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if ((rc = cli_require(cmd, required[i][0], required[i][1]))) return rc;
    if ((rc = parse_radius_and_method(cmd, a))) return rc;
    if ((rc = parse_fw_method_flags(cmd, a))) return rc;
    a->run.l_rule = a->baseline ? GSFW_L_SPECTRAL : GSFW_L_ATOM;
    if (a->l_text && (rc = cli_parse_L(cmd, a->l_text, &a->run.L, &a->run.l_rule))) return rc;
    if ((rc = cli_parse_int(cmd, "--iters", a->iters_text, 0, 100000000L, &a->run.iters)))
        return rc;
    if (a->time_text) {
        if ((rc = cli_parse_double(cmd, "--time-limit", a->time_text, &a->run.time_limit)))
            return rc;
        if (!(a->run.time_limit > 0)) return cli_usage_error(cmd, "--time-limit must be > 0");
    }
    if ((rc = parse_loss_flags(cmd, a->loss_text, a->huber_text, a->intercept_flag, &a->loss)))
        return rc;
    if ((rc = cli_parse_model_flags(cmd, a->model, a->s_text, a->g_text, a->delta_text,
                                    a->seed_text, &a->spec)))
        return rc;
    if (a->baseline && a->run.l_rule == GSFW_L_ATOM)
        return cli_usage_error(cmd, "--L atom is a rule of the Frank-Wolfe family; %s takes a "
                               "number or 'spectral'", a->method_text);
    a->run.delta = a->delta_text ? a->spec.delta : 0.0; /* else the oracle's */
    return CLI_OK;
}

int cli_solve_load_vectors(const char *cmd, const cli_solve_args *a, int d, double **x_true,
                           double **x0)
{
    int rc, nx;
    if (a->xtrue_path) {
        if ((rc = cli_load_vector(cmd, "--x-true", a->xtrue_path, x_true, &nx))) return rc;
        if (nx != d)
            return cli_fail(cmd, "--x-true: '%s' has %d entries but A has %d columns",
                            a->xtrue_path, nx, d);
        for (int i = 0; i < d; i++)
            if (!isfinite((*x_true)[i]))
                return cli_fail(cmd, "--x-true: '%s' entry %d is %g; it must be finite",
                                a->xtrue_path, i, (*x_true)[i]);
    }
    if (a->x0_path) {
        if ((rc = cli_load_vector(cmd, "--x0", a->x0_path, x0, &nx))) return rc;
        if (nx != d)
            return cli_fail(cmd, "--x0: '%s' has %d entries but A has %d columns", a->x0_path,
                            nx, d);
    }
    return CLI_OK;
}

gsfw_error cli_intercept_field(const gsfw_loss_options *loss, gsfw_objective *obj,
                               const double *x, char *out, size_t cap, gsfw_err *err)
{
    out[0] = '\0';
    if (!loss->intercept) return GSFW_OK;
    double b;
    gsfw_error e = gsfw_objective_intercept(obj, x, &b, err);
    if (!e) snprintf(out, cap, " intercept=%.17g", b);
    return e;
}

void cli_solve_print_head(FILE *fp, const cli_solve_args *a, const char *intercept,
                          const char *status, const gsfw_info *info)
{
    fprintf(fp, "method=%s option=%s step=%s model=%s loss=%s%s status=%s iters=%d "
            "f_last=%.17g f_best=%.17g best_iter=%d ",
            gsfw_method_name((gsfw_method)a->run.method),
            a->run.option == GSFW_OPTION_I ? "I" : "II",
            a->baseline ? "none" : gsfw_step_name(info->step), a->model,
            gsfw_loss_name(a->loss.loss), intercept, status, info->iterations, info->f_last,
            info->f_best, info->best_iter);
}
