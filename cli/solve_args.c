#include "solve_args.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_solve_opts(const char *cmd, cli_solve_args *a, cli_opt *opts)
{
    memset(a, 0, sizeof *a);
    if (cli_params_init(cmd, &a->params, GSFW_USES_SOLVE, NULL)) return -1;
    static const char *const required[] = {"model", "s", "C", "method", "max_iter", NULL};
    a->params.required = required;
    const cli_opt files[] = {
        {"--A", 0, &a->a_path},          {"--y", 0, &a->y_path},
        {"--graph", 0, &a->model.grid},  {"--edges", 0, &a->model.edges},
        {"--trace", 0, &a->trace_path},  {"--out", 0, &a->out_path},
        {"--best-out", 0, &a->best_path}, {"--x-true", 0, &a->xtrue_path},
        {"--x0", 0, &a->x0_path},        {"--tree", 0, &a->model.tree_spec},
        {"--nodes", 0, &a->model.nodes_text},
    };
    _Static_assert(sizeof files / sizeof files[0] == CLI_SOLVE_FILE_OPTS,
                   "CLI_SOLVE_FILE_OPTS counts the file flags");
    memcpy(opts, files, sizeof files);
    return CLI_SOLVE_FILE_OPTS + cli_params_opts(&a->params, opts + CLI_SOLVE_FILE_OPTS);
}

void cli_solve_args_free(cli_solve_args *a)
{
    cli_params_free(&a->params);
}

char *cli_solve_usage(const cli_solve_args *a, const char *head, const char *own_files,
                      const char *extra)
{
    static const char files[] =
        "\n"
        "  --A FILE        n x d matrix: .npy (float64, float32 or integer; dense) or .mtx\n"
        "                  (Matrix Market coordinate; kept sparse, CSR)\n"
        "  --y FILE        n-vector .npy, any numeric dtype (labels -1/+1 for the\n"
        "                  classification losses)\n"
        "  --graph grid:HxW | --edges FILE   graph for graph models (d nodes); an edge list\n"
        "                  must use ids 0..d-1, or state --nodes d when the last are isolated\n"
        "  --tree quadtree:HxW | FILE  tree for tree models (d nodes): wavelet quadtree or a\n"
        "                  .npy of parent ids (-1 for a root)\n"
        "  --x0 FILE       starting point (.npy, d entries), in D: ||x0|| <= C, support in M\n"
        "  --trace FILE    CSV, one row per iterate:\n"
        "                  iter,time_s,f,gap,[est_err,]support,gap_bound,step,active\n"
        "  --out FILE      last iterate x_T (.npy); --best-out: argmin_t f(x_t)\n"
        "                  (FILE '-' is standard output, for one of the outputs; the summary\n"
        "                  line then goes to stderr)\n"
        "  --x-true FILE   ground truth: est_err = ||x_t - x_true|| in the trace, and est_err\n"
        "                  (of x_T) and est_err_best in the summary\n";
    static const char params[] = "\nParameters (gsfw help params):\n";
    if (!own_files) own_files = "";
    char *whole = malloc(strlen(head) + sizeof files + strlen(own_files) + sizeof params);
    if (!whole) return NULL;
    strcpy(whole, head);
    strcat(whole, files);
    strcat(whole, own_files);
    strcat(whole, params);
    char *text = cli_usage_text(whole, &a->params, NULL, extra);
    free(whole);
    return text;
}

int cli_solve_check(const char *cmd, cli_solve_args *a)
{
    /* Flags first (usage errors, exit 2), files second (exit 1). */
    cli_params *cp = &a->params;
    int rc;
    if ((rc = cli_require(cmd, "--A", a->a_path)) || (rc = cli_require(cmd, "--y", a->y_path)) ||
        (rc = cli_params_require(cmd, cp)))
        return rc;
    if ((rc = cli_params_apply(cmd, cp))) return rc;
    if ((rc = cli_params_mark(cmd, cp, "x0", a->x0_path))) return rc;
    if ((rc = cli_params_mark(cmd, cp, "x_true", a->xtrue_path))) return rc;
    if (a->pol_path && !gsfw_spec_number(cp->spec, "polish"))
        return cli_usage_error(cmd, "--polished-out needs --polish on");
    if ((rc = cli_model_check_flags(cmd, cp, &a->model))) return rc;
    return cli_params_check(cmd, cp);
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

gsfw_error cli_intercept_field(const cli_solve_args *a, gsfw_objective *obj, const double *x,
                               char *out, size_t cap, gsfw_err *err)
{
    out[0] = '\0';
    if (!gsfw_spec_number(a->params.spec, "intercept")) return GSFW_OK;
    double b;
    gsfw_error e = gsfw_objective_intercept(obj, x, &b, err);
    if (!e) snprintf(out, cap, " intercept=%.17g", b);
    return e;
}

void cli_solve_print_head(FILE *fp, const cli_solve_args *a, const char *intercept,
                          const char *status, const gsfw_info *info)
{
    const gsfw_spec *spec = a->params.spec;
    char option[16];
    fprintf(fp, "method=%s option=%s step=%s model=%s loss=%s%s status=%s iters=%d "
            "f_last=%.17g f_best=%.17g best_iter=%d ",
            gsfw_spec_entry(spec, GSFW_KIND_METHOD)->name,
            cli_choice_name("option", (int)gsfw_spec_number(spec, "option"), option,
                            sizeof option),
            info->step_rule ? info->step_rule->name : "none",
            gsfw_spec_entry(spec, GSFW_KIND_MODEL)->name,
            gsfw_spec_entry(spec, GSFW_KIND_LOSS)->name, intercept, status, info->iterations,
            info->f_last, info->f_best, info->best_iter);
}

void cli_solve_warn_unbounded(const char *cmd, const cli_solve_args *a, const gsfw_info *info)
{
    if (info->status != GSFW_STATUS_UNBOUNDED) return;
    const gsfw_spec *spec = a->params.spec;
    fflush(stdout); /* after the summary line, when both go to one place */
    cli_warn(cmd, "status=unbounded: x (or, for a method that refits on merged supports, "
             "its last refit) separates the labels on its support (every margin "
             "positive), so the %s loss has no minimiser there and %s's x grows with the "
             "iterations, its scale meaningless; use --method %s or %s, whose --C bounds "
             "||x||", gsfw_spec_entry(spec, GSFW_KIND_LOSS)->name,
             gsfw_spec_entry(spec, GSFW_KIND_METHOD)->name, gsfw_method_name(GSFW_METHOD_ACCFW),
             gsfw_method_name(GSFW_METHOD_FW));
}
