/* gsfw solve: minimise a loss of A x (least squares, logistic, Huber, squared hinge) over
 * D(C, M) with a Frank-Wolfe method or a baseline. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outputs.h"
#include "memory.h"
#include "solve_args.h"
#include "solve_outputs.h"
#include "tree_load.h"
#include "io/mtx.h"
#include "operators/op_internal.h"

static const char CMD[] = "solve";

static const char synopsis[] =
    "usage: gsfw solve --A A.npy|A.mtx --y y.npy --model MODEL --s S [--g G]\n"
    "                  [--graph grid:HxW | --edges FILE [--nodes N]]\n"
    "                  [--tree quadtree:HxW | --tree FILE] --C C --method METHOD\n"
    "                  --iters T [--PARAMETER VALUE ...] [--x0 x0.npy]\n"
    "                  [--trace trace.csv] [--out x.npy] [--best-out x.npy]\n"
    "                  [--polished-out x.npy] [--x-true xstar.npy] [--max-memory SIZE]\n"
    "\n"
    "Minimise f(x) = loss(A x, y) over D(C, M) = conv{x : ||x|| <= C, supp(x) in M}\n"
    "with a Frank-Wolfe method (the paper's Algorithm 1 and active-set variants) or a\n"
    "baseline, from x_0 = 0 (or --x0).\n";

static const char own_files[] =
    "  --polished-out FILE  the polished x (with --polish on)\n"
    CLI_MEM_HELP;

static const char extra[] =
    "\n"
    "Prints one line of key=value fields: method, option, step, model, loss, [intercept,]\n"
    "status, iters, f_last, f_best, best_iter, [est_err, est_err_best,] gap_bound,\n"
    "f_polished, polished_nnz, [polished_intercept,] window_missed, L, L_source, delta,\n"
    "oracle_calls, pcsf_calls, setup_s, time_s, polish_s, oracle_s, gradient_s, [restarts,\n"
    "restart_best].\n"
    "\n"
    "SIGINT or SIGTERM stops the run between iterations with status 130 or 143; no output\n"
    "is written then.\n";

/* The methods that estimate L (the curvature of f along a direction, at most ||A||_F^2)
 * when it is not given: when ||A||_F^2 itself underflows, so does that estimate, and the
 * steps 1/L overflow. Refused here, naming the cause, rather than where the infinities
 * surface later (in the oracle's input). */
static int check_curvature(const char *cmd, const double *A, int n, int d)
{
    double fro2 = 0.0;
    int nonzero = 0;
    for (size_t k = 0; k < (size_t)n * (size_t)d; k++) {
        fro2 += A[k] * A[k];
        nonzero |= A[k] != 0.0;
    }
    /* A = 0 is the solver's to report, a NaN or infinite entry the objective's (by name) */
    if (!(fro2 < DBL_MIN) || !nonzero) return CLI_OK;
    return cli_fail(cmd, "L <= ||A||_F^2 = %.2g underflows: the objective's curvature is too "
                    "small to estimate; rescale A or pass --L", fro2);
}

/* --A as a Matrix Market file, a CSR operator (*op). Its size line comes first: rows
 * that do not match --y (ny entries), or a run that cannot fit, are refused before the
 * entries are read (a wide matrix's memory is its d-sized vectors, not its file). The
 * read stops on SIGINT / SIGTERM. */
static int load_mtx(const cli_solve_args *a, int ny, gsfw_operator **op, int *n, int *d)
{
    gsfw_err err;
    long entries, nnz;
    if (gsfw_mtx_read_size(a->a_path, n, d, &entries, &err))
        return cli_fail(CMD, "--A: %s", err.message);
    if (ny != *n)
        return cli_fail(CMD, "--y: '%s' has %d entries but A ('%s') has %d rows", a->y_path, ny,
                        a->a_path, *n);
    const int iters = (int)gsfw_spec_number(a->params.spec, "max_iter");
    const gsfw_sizes sizes = {.n = *n, .d = *d, .iters = a->trace_path ? iters : 0};
    /* the reader's triplets (grown by doubling), the operator, the objective and solver */
    double need = 32.0 * (double)entries + gsfw_operator_csr_memory(*n, *d, (double)entries) +
                  gsfw_spec_memory(a->params.spec, &sizes);
    char what[128];
    snprintf(what, sizeof what, "--A (%d x %d with %ld entries) and %d iterations", *n, *d,
             entries, iters);
    int rc = cli_mem_check(CMD, need, what);
    if (rc) return rc;
    int *rows = NULL, *cols = NULL;
    double *vals = NULL;
    if (gsfw_mtx_read_stoppable(a->a_path, cli_interrupt_callback, NULL, n, d, &nnz, &rows,
                                &cols, &vals, &err))
        return cli_interrupted() ? cli_interrupted_exit(CMD, "no output was written")
                                 : cli_fail(CMD, "--A: %s", err.message);
    gsfw_error e = gsfw_operator_csr(*n, *d, nnz, rows, cols, vals, op, &err);
    gsfw_free(rows);
    gsfw_free(cols);
    gsfw_free(vals);
    return e ? cli_fail(CMD, "--A: '%s': %s", a->a_path, err.message) : CLI_OK;
}

/* --A as an .npy of any numeric dtype: a row-major array (*A) for the dense constructors. */
static int load_operator(const char *cmd, const char *path, double **A, int *n, int *d)
{
    gsfw_err err;
    int ndim, shape[2];
    if (gsfw_npy_read_numeric(path, A, &ndim, shape, &err))
        return cli_fail(cmd, "--A: %s", err.message);
    if (ndim != 2) {
        gsfw_free(*A);
        *A = NULL;
        return cli_fail(cmd, "--A: '%s' must hold a 2-D matrix, but it is 1-D", path);
    }
    *n = shape[0];
    *d = shape[1];
    return CLI_OK;
}

/* --y of any numeric dtype (integer labels -1/+1 are common), as a vector. */
static int load_targets(const char *cmd, const char *path, double **y, int *len)
{
    gsfw_err err;
    int ndim, shape[2];
    if (gsfw_npy_read_numeric(path, y, &ndim, shape, &err))
        return cli_fail(cmd, "--y: %s", err.message);
    return cli_vector_length(cmd, "--y", path, y, ndim, shape, len);
}

static double distance(const double *a, const double *b, int d)
{
    double s = 0.0;
    for (int i = 0; i < d; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

/* The command line: the flags shared with gsfw-mpi solve and gsfw solve's own. */
typedef struct {
    cli_solve_args a;
    const char *mem_text;
    FILE *summary; /* stdout, or stderr when an output goes to standard output */
} solve_flags;

/* What one run holds; everything is freed by free_run. */
typedef struct {
    double *A; /* --A as read, dense (NULL once the objective has its copy) */
    gsfw_operator *op;
    double *y, *x_true, *x0;
    int n, d;
    gsfw_graph *graph;
    gsfw_tree *tree;
    gsfw_objective *obj;
    gsfw_dmo *dmo, *tail;
    double *x_last, *x_best, *x_pol;
    gsfw_iterate *trace;
    gsfw_result res;
    gsfw_info info;
} solve_run;

/* --max-memory, and what the run is known to need before anything is read */
static int check_memory(const solve_flags *f)
{
    int rc = cli_mem_set_limit(CMD, f->mem_text);
    if (rc) return rc;
    /* A as read, the objective's copy of it, the copy of a support's columns that its
     * restricted least squares keep (CoSaMP, polish: at most A's size and 2^25 doubles),
     * and the trace; the graph and oracle are checked where the graph is loaded */
    char what[64];
    const int iters = (int)gsfw_spec_number(f->a.params.spec, "max_iter");
    snprintf(what, sizeof what, "--A and %d iterations", iters);
    const double a_bytes = cli_mem_file_size(f->a.a_path);
    double need = 2 * a_bytes + fmin(a_bytes, 8.0 * (double)(1L << 25)) +
                  (f->a.trace_path ? gsfw_memory_estimate("trace", iters, 0) : 0);
    return cli_mem_check(CMD, need, what);
}

/* Every check that needs no file but --A's size: usage errors (exit 2) come before any
 * file is read (exit 1). */
static int parse_flags(int argc, char **argv, solve_flags *f)
{
    cli_solve_args *a = &f->a;
    cli_opt opts[CLI_SOLVE_MAX_OPTS];
    int n = cli_solve_opts(CMD, a, opts);
    if (n < 0) return CLI_FAIL;
    f->mem_text = NULL;
    opts[n++] = (cli_opt){"--polished-out", 0, &a->pol_path};
    opts[n++] = (cli_opt){"--max-memory", 0, &f->mem_text};
    char *usage = cli_asks_help(argc, argv) ? cli_solve_usage(a, synopsis, own_files, extra) : strdup("");
    if (!usage) return cli_fail(CMD, "out of memory");
    int rc = cli_parse(CMD, argc, argv, opts, n, usage);
    free(usage);
    if (rc) return rc;
    if ((rc = cli_solve_check(CMD, a))) return rc;
    const char **const outputs[4] = {&a->out_path, &a->best_path, &a->trace_path,
                                     &a->pol_path};
    if ((rc = cli_solve_plan_outputs(CMD, outputs, &f->summary))) return rc;
    return check_memory(f);
}

/* The files: A, y, x_true, x0, the graph and the tree. */
static int load_problem(solve_flags *f, solve_run *r)
{
    cli_solve_args *a = &f->a;
    int rc, ny;
    if (cli_ends_with(a->a_path, ".mtx")) {
        if ((rc = load_targets(CMD, a->y_path, &r->y, &ny)) ||
            (rc = load_mtx(a, ny, &r->op, &r->n, &r->d)))
            return rc;
    } else {
        if ((rc = load_operator(CMD, a->a_path, &r->A, &r->n, &r->d))) return rc;
        if ((rc = load_targets(CMD, a->y_path, &r->y, &ny))) return rc;
        if (ny != r->n)
            return cli_fail(CMD, "--y: '%s' has %d entries but A ('%s') has %d rows", a->y_path,
                            ny, a->a_path, r->n);
    }
    /* when the run estimates L (a dense --A; a sparse .mtx operator is not scanned) */
    const gsfw_spec *spec = a->params.spec;
    if (gsfw_spec_uses(spec, "L") && !gsfw_spec_given(spec, "L") && r->A &&
        (rc = check_curvature(CMD, r->A, r->n, r->d)))
        return rc;
    if ((rc = cli_solve_load_vectors(CMD, a, r->d, &r->x_true, &r->x0))) return rc;
    return cli_model_inputs(CMD, &a->params, &a->model, r->d, &r->graph, &r->tree);
}

/* The objective over A and y, and the method's oracles. */
static int build_objective(cli_solve_args *a, solve_run *r)
{
    gsfw_err err;
    const gsfw_spec *spec = a->params.spec;
    gsfw_error e = r->A ? gsfw_spec_objective_dense(spec, r->n, r->d, r->A, GSFW_ROW_MAJOR,
                                                     GSFW_OP_COPY, r->y, &r->obj, &err)
                        : gsfw_spec_objective(spec, r->op, r->n, r->y, NULL, &r->obj, &err);
    if (e) return cli_fail(CMD, "--A/--y: %s", err.message);
    gsfw_free(r->A);
    r->A = NULL;
    return cli_model_oracles(CMD, &a->params, r->graph, &r->dmo, &r->tail);
}

/* x_last, x_best, x_polished and the trace, as the solvers fill them */
static int alloc_outputs(const cli_solve_args *a, solve_run *r)
{
    const size_t d = (size_t)r->d;
    const int iters = (int)gsfw_spec_number(a->params.spec, "max_iter");
    const int polish = (int)gsfw_spec_number(a->params.spec, "polish");
    r->x_last = malloc(d * sizeof(double));
    r->x_best = malloc(d * sizeof(double));
    if (polish) r->x_pol = malloc(d * sizeof(double));
    if (a->trace_path) r->trace = malloc(((size_t)iters + 1) * sizeof(gsfw_iterate));
    if (!r->x_last || !r->x_best || (polish && !r->x_pol) || (a->trace_path && !r->trace))
        return cli_fail(CMD, "out of memory for %d iterations of dimension %d", iters, r->d);
    r->res = (gsfw_result){.x_best = r->x_best, .x_last = r->x_last, .trace = r->trace,
                           .trace_capacity = r->trace ? iters + 1 : 0, .x_polished = r->x_pol};
    return CLI_OK;
}

/* The run and its outputs: nothing is written when the run failed or was interrupted. */
static int run_and_write(const cli_solve_args *a, solve_run *r)
{
    gsfw_err err;
    gsfw_settings set;
    gsfw_spec_settings(a->params.spec, &set);
    set.x0 = r->x0;
    set.x_true = r->x_true;
    set.callback = cli_interrupt_callback; /* SIGINT / SIGTERM stop between iterations */
    gsfw_error e = gsfw_spec_solve(a->params.spec, r->obj, r->dmo, r->tail, &set, &r->res,
                                   &r->info, &err);
    if (cli_interrupted()) return cli_interrupted_exit(CMD, "no output was written");
    if (e) {
        const char *msg = err.message;
        if (!strncmp(msg, "solve: ", 7)) msg += 7; /* the command already says "solve" */
        return cli_fail(CMD, "%s", msg[0] ? msg : gsfw_error_message(e));
    }
    int rc = cli_solve_write_outputs(CMD, a->out_path, a->best_path, a->trace_path, a->pol_path,
                                     r->x_last, r->x_best, r->x_pol, r->d, r->trace,
                                     r->res.trace_len, r->x_true != NULL);
    if (rc == CLI_FAIL && cli_interrupted()) /* its message was held back */
        return cli_interrupted_exit(CMD, "no output was changed");
    return rc;
}

static const char *l_source_name(const gsfw_info *info, char *buf, size_t cap)
{
    if (!(info->L > 0)) return "unused";
    if (info->L_source != GSFW_L_ATOM && info->L_source != GSFW_L_SPECTRAL) return "given";
    return cli_choice_name("L_rule", (int)info->L_source, buf, cap);
}

/* The key=value line. */
static int print_summary(const solve_flags *f, solve_run *r)
{
    const cli_solve_args *a = &f->a;
    const gsfw_info *info = &r->info;
    gsfw_err err;
    char intercept[64];
    if (cli_intercept_field(a, r->obj, r->x_best, intercept, sizeof intercept, &err))
        return cli_fail(CMD, "%s", err.message);
    /* the intercept of the polished point, which is the answer when polishing */
    char pol_intercept[64] = "";
    if (r->x_pol && gsfw_spec_number(a->params.spec, "intercept")) {
        double b;
        if (gsfw_objective_intercept(r->obj, r->x_pol, &b, &err))
            return cli_fail(CMD, "%s", err.message);
        snprintf(pol_intercept, sizeof pol_intercept, "polished_intercept=%.17g ", b);
    }
    char est[128] = "";
    if (r->x_true)
        snprintf(est, sizeof est, "est_err=%.17g est_err_best=%.17g ",
                 distance(r->x_last, r->x_true, r->d), distance(r->x_best, r->x_true, r->d));
    char l_source[16], restarts[64] = "";
    if (gsfw_spec_number(a->params.spec, "restarts") > 0 && r->x_pol)
        snprintf(restarts, sizeof restarts, " restarts=%d restart_best=%d", info->restarts,
                 info->restart_best);
    cli_solve_print_head(f->summary, a, intercept, gsfw_status_name(info->status), info);
    fprintf(f->summary, "%sgap_bound=%.6g f_polished=%.17g polished_nnz=%d %swindow_missed=%ld "
            "L=%.17g L_source=%s delta=%.17g oracle_calls=%ld pcsf_calls=%ld setup_s=%.6f "
            "time_s=%.6f polish_s=%.6f oracle_s=%.6f gradient_s=%.6f%s\n",
            est, info->gap_bound, info->f_polished, info->polished_size, pol_intercept,
            gsfw_info_count(info, "window_missed"), info->L,
            l_source_name(info, l_source, sizeof l_source), info->delta, info->oracle_calls,
            gsfw_info_count(info, "pcsf_calls"),
            info->setup_time, info->solve_time, info->polish_time, info->oracle_time,
            info->gradient_time, restarts);
    cli_solve_warn_unbounded(CMD, a, info);
    return CLI_OK;
}

static void free_run(solve_run *r)
{
    gsfw_free(r->A);
    gsfw_free(r->y);
    gsfw_free(r->x_true);
    gsfw_free(r->x0);
    free(r->x_pol);
    gsfw_dmo_free(r->tail);
    free(r->x_last);
    free(r->x_best);
    free(r->trace);
    gsfw_dmo_free(r->dmo);
    gsfw_objective_free(r->obj);
    gsfw_operator_free(r->op); /* after the objective, which borrows it */
    gsfw_graph_free(r->graph);
    gsfw_tree_free(r->tree);
}

int cmd_solve(int argc, char **argv)
{
    solve_flags f;
    int rc = parse_flags(argc, argv, &f);
    if (rc) {
        cli_solve_args_free(&f.a);
        return rc;
    }
    cli_interrupt_install();
    solve_run r;
    memset(&r, 0, sizeof r);
    if (!(rc = load_problem(&f, &r)) && !(rc = build_objective(&f.a, &r)) &&
        !(rc = alloc_outputs(&f.a, &r)) && !(rc = run_and_write(&f.a, &r)))
        rc = print_summary(&f, &r);
    free_run(&r);
    cli_solve_args_free(&f.a);
    return rc;
}
