/* gsfw solve: minimise a loss of A x (least squares, logistic, Huber) over D(C, M) with
 * DMO-FW / DMO-AccFW. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "fw_flags.h"
#include "interrupt.h"
#include "memory.h"
#include "models.h"
#include "outdir.h"
#include "tree_load.h"
#include "atomic_group.h"
#include "io/npy.h"
#include "trace_csv.h"

static const char usage[] =
    "usage: gsfw solve --A A.npy|A.mtx --y y.npy --model MODEL --s S [--g G]\n"
    "                  [--graph grid:HxW | --edges FILE [--nodes N]]\n"
    "                  [--tree quadtree:HxW | --tree FILE] --C C --method METHOD\n"
    "                  [--option I|II] [--delta D] [--L L] [--step RULE] --iters T\n"
    "                  [--tol TOL] [--tol-rel R] [--x0 x0.npy] [--polish on|off]\n"
    "                  [--trace trace.csv] [--out x.npy] [--best-out x.npy]\n"
    "                  [--polished-out x.npy] [--x-true xstar.npy] [--seed N]\n"
    "                  [--time-limit SEC] [--loss ls|logistic|huber] [--huber-delta D]\n"
    "                  [--intercept]\n"
    "\n"
    "Minimise f(x) = loss(A x, y) over D(C, M) = conv{x : ||x|| <= C, supp(x) in M}\n"
    "with a Frank-Wolfe method (the paper's Algorithm 1 and active-set variants) or a\n"
    "baseline, from x_0 = 0 (or --x0).\n"
    "\n"
    "  --A FILE        n x d matrix: .npy (float64, float32 or integer; dense) or .mtx\n"
    "                  (Matrix Market coordinate; kept sparse, CSR)\n"
    "  --y FILE        n-vector .npy, any numeric dtype (labels -1/+1 for --loss logistic)\n"
    "  --loss L        ls: 0.5 ||A x - y||^2 (default); logistic: sum log(1 + exp(-y_i\n"
    "                  (A x)_i)); huber: sum h((A x - y)_i), h(t) = t^2/2 for |t| <= D,\n"
    "                  else D (|t| - D/2)\n"
    "  --huber-delta D Huber threshold (> 0, default 1)\n"
    "  --intercept     logistic: fit an unpenalised intercept b (reported as intercept=)\n"
    "  --model M       topk (exact top-s), topk-approx (delta-approximate top-s, App. C),\n"
    "                  l1 (s = 1), subgraph (top-g + best-neighbour growth over M(G,s,g)),\n"
    "                  head (PCSF head projection), tail, tree (rooted subtrees; at most\n"
    "                  g of them with --g), tree-connected (one connected subtree)\n"
    "  --s S, --g G    sparsity and number of connected components (g defaults to 1)\n"
    "  --graph grid:HxW | --edges FILE   graph for graph models (d nodes); an edge list\n"
    "                  must use ids 0..d-1, or state --nodes d when the last are isolated\n"
    "  --tree quadtree:HxW | FILE  tree for tree models (d nodes): wavelet quadtree or a\n"
    "                  .npy of parent ids (-1 for a root)\n"
    "  --C C           radius (> 0)\n"
    "  --method M      fw (DMO-FW), accfw (DMO-AccFW, nearest extreme point), afw (away\n"
    "                  steps), pfw (pairwise), bpcg (blended pairwise); baselines: iht,\n"
    "                  cosamp, graph-iht, graph-cosamp, gen-mp (head/tail oracles built\n"
    "                  from --model by the library's recipes)\n"
    "  --step RULE     auto (default: agnostic 2/(t+2) for fw/accfw, line for the active-set\n"
    "                  methods), agnostic, short, adaptive, line\n"
    "  --tol TOL       stop (status=converged) when the certified bound on f(x_t) - f*\n"
    "                  falls below TOL\n"
    "  --tol-rel R     ... or below R times the bound at x_0\n"
    "  --x0 FILE       starting point (.npy, d entries), in D: ||x0|| <= C, support in M\n"
    "  --polish on|off end by projecting onto the model and refitting on that support\n"
    "                  (default off); --polished-out writes the polished x\n"
    "  --option I|II   I: iterates in D; II: atoms scaled by 1/delta (iterates in D/delta)\n"
    "  --delta D       delta for Option II (default: the oracle's proven delta) and the\n"
    "                  target of topk-approx / l1\n"
    "  --L L|spectral|atom  smoothness constant for accfw, the short step and the baselines;\n"
    "                  atom (default for the FW family): the curvature ||A v_0||^2/||v_0||^2\n"
    "                  along the first atom; spectral (the baselines' default): ||A||_2^2\n"
    "  --iters T       number of iterations; iterates x_0..x_T are produced\n"
    "  --trace FILE    CSV, one row per iterate:\n"
    "                  iter,time_s,f,gap,[est_err,]support,gap_bound,step,active\n"
    "  --out FILE      last iterate x_T (.npy); --best-out: argmin_t f(x_t)\n"
    "                  (FILE '-' is standard output, for one of the outputs; the summary\n"
    "                  line then goes to stderr)\n"
    "  --x-true FILE   ground truth: est_err = ||x_t - x_true|| in the trace, and est_err\n"
    "                  (of x_T) and est_err_best in the summary\n"
    "  --seed N        seed of randomised oracles (default 0)\n"
    "  --time-limit S  stop after S seconds\n"
    "\n"
    "Prints one line of key=value fields: method, option, step, model, loss, [intercept,]\n"
    "status, iters, f_last, f_best, best_iter, [est_err, est_err_best,] gap_bound,\n"
    "f_polished, polished_nnz, window_missed, L, L_source, delta, oracle_calls, pcsf_calls,\n"
    "setup_s, time_s, oracle_s, gradient_s.\n"
    CLI_MEM_HELP
    "\n"
    "SIGINT or SIGTERM stops the run between iterations with status 130 or 143; no output\n"
    "is written then.\n";

/* Two outputs naming one file (however spelt) would overwrite each other: refused before
 * any work. Special files such as /dev/null may be given more than once. */
static int distinct_outputs(const char *cmd, const char *out_path, const char *best_path,
                            const char *trace_path, const char *pol_path)
{
    const char *flags[4] = {"--out", "--best-out", "--trace", "--polished-out"};
    const char *paths[4] = {out_path, best_path, trace_path, pol_path};
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < i; j++) {
            if (!paths[i] || !paths[j]) continue;
            /* written in place (/dev/null may repeat), or a directory (refused at open) */
            struct stat a;
            if (gsfw_atomic_in_place(paths[i]) ||
                (stat(paths[i], &a) == 0 && S_ISDIR(a.st_mode)))
                continue;
            if (gsfw_same_output(paths[i], paths[j]))
                return cli_usage_error(cmd, "%s and %s name the same file '%s'", flags[j],
                                       flags[i], paths[i]);
        }
    }
    return CLI_OK;
}

/* How long a run waits for another that is moving its outputs into the same directory
 * (a recover run holds its directory for its whole run) */
#define SOLVE_LOCK_WAIT_S 30

/* Write the requested outputs together: every file goes to a temporary first and they
 * are renamed into place only when all were written, so a failure leaves neither a
 * partial file nor a mix of old and new outputs, and never deletes a file that existed. */
static int write_outputs(const char *cmd, const char *out_path, const char *best_path,
                         const char *trace_path, const char *pol_path, const double *x_last,
                         const double *x_best, const double *x_pol, int d,
                         const gsfw_iterate *trace, int trace_len, int with_est_err)
{
    const char *flags[4] = {"--out", "--best-out", "--trace", "--polished-out"};
    const char *paths[4] = {out_path, best_path, trace_path, pol_path};
    const double *vecs[4] = {x_last, x_best, NULL, x_pol};
    gsfw_atomic_file files[4];
    memset(files, 0, sizeof files);
    gsfw_err err;
    int shape[2] = {d, 1};
    int rc = CLI_OK, k;
    /* open every output before writing any: an output written in place (/dev/stdout)
     * cannot be taken back when a later one turns out unusable */
    for (k = 0; k < 4 && rc == CLI_OK; k++) {
        if (paths[k] && gsfw_atomic_open(&files[k], paths[k], &err))
            rc = cli_fail(cmd, "%s: %s", flags[k], err.message);
    }
    for (k = 0; k < 4 && rc == CLI_OK; k++) {
        if (!paths[k]) continue;
        if (k != 2) {
            if (gsfw_npy_write_stream(files[k].fp, paths[k], vecs[k], 1, shape, &err))
                rc = cli_fail(cmd, "%s: %s", flags[k], err.message);
        } else if (cli_write_trace_stream(files[k].fp, trace, trace_len, with_est_err)) {
            rc = cli_fail(cmd, "--trace: error writing '%s': %s", paths[k], strerror(errno));
        }
    }
    /* the move into place: one run at a time per directory, and with SIGINT / SIGTERM
     * held until it is complete or rolled back */
    int locks[4], nlocks = 0;
    if (rc == CLI_OK)
        rc = cli_outdir_lock_paths(cmd, paths, 4, locks, &nlocks, SOLVE_LOCK_WAIT_S);
    if (rc != CLI_OK) {
        for (k = 0; k < 4; k++) gsfw_atomic_abort(&files[k]);
        return rc;
    }
    cli_interrupt_block(1);
    if (gsfw_atomic_commit_group(files, 4, &err)) rc = cli_fail(cmd, "%s", err.message);
    cli_interrupt_block(0);
    cli_outdir_unlock_paths(locks, nlocks);
    return rc;
}

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
    if (fro2 >= DBL_MIN || !nonzero) return CLI_OK; /* A = 0 is the solver's to report */
    return cli_fail(cmd, "L <= ||A||_F^2 = %.2g underflows: the objective's curvature is too "
                    "small to estimate; rescale A or pass --L", fro2);
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

static int has_suffix(const char *path, const char *suffix)
{
    size_t lp = strlen(path), ls = strlen(suffix);
    return lp >= ls && !strcmp(path + lp - ls, suffix);
}

/* --A: a Matrix Market file becomes a CSR operator (*op); an .npy of any numeric dtype a
 * row-major array (*A) for the dense constructors. */
static int load_operator(const char *cmd, const char *path, double **A, gsfw_operator **op,
                         int *n, int *d)
{
    gsfw_err err;
    if (has_suffix(path, ".mtx")) {
        long nnz;
        int *rows = NULL, *cols = NULL;
        double *vals = NULL;
        if (gsfw_mtx_read(path, n, d, &nnz, &rows, &cols, &vals, &err))
            return cli_fail(cmd, "--A: %s", err.message);
        gsfw_error e = gsfw_operator_csr(*n, *d, nnz, rows, cols, vals, op, &err);
        gsfw_free(rows);
        gsfw_free(cols);
        gsfw_free(vals);
        return e ? cli_fail(cmd, "--A: '%s': %s", path, err.message) : CLI_OK;
    }
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

/* Options that the chosen method or model does not use are reported, not silently
 * dropped; two outputs on standard output would interleave, so that is refused. */
static int solve_warnings(const char *cmd, int method, int step, gsfw_option option,
                          const char *l_text, const char *delta_text, const char *model,
                          const char *const outputs[4])
{
    int dashes = 0;
    for (int k = 0; k < 4; k++) dashes += outputs[k] && !strcmp(outputs[k], "-");
    if (dashes > 1)
        return cli_usage_error(cmd, "only one of --out, --best-out, --trace and --polished-out "
                               "can be '-' (standard output)");
    const char *name = gsfw_method_name((gsfw_method)method);
    if ((method == GSFW_METHOD_IHT || method == GSFW_METHOD_COSAMP) && strcmp(model, "topk"))
        cli_warn(cmd, "--model %s is ignored by --method %s (it always uses top-s)%s", model,
                 name, cli_model_needs_graph(model) > 0 ? ", and so is the graph" : "");
    if (l_text && (method == GSFW_METHOD_COSAMP || method == GSFW_METHOD_GRAPH_COSAMP))
        cli_warn(cmd, "--L is ignored by --method %s (it takes no 1/L steps)", name);
    /* the Frank-Wolfe methods other than accfw read L only in the short step (and as the
     * adaptive step's first guess); auto is agnostic for fw, line for the others */
    const int open_loop = step == GSFW_STEP_AGNOSTIC || step == GSFW_STEP_LINE ||
                          (step == GSFW_STEP_AUTO && method != GSFW_METHOD_ACCFW);
    if (l_text && !gsfw_method_is_baseline((gsfw_method)method) &&
        method != GSFW_METHOD_ACCFW && open_loop)
        cli_warn(cmd, "--L is ignored by --method %s with the %s step", name,
                 step == GSFW_STEP_AUTO ? (method == GSFW_METHOD_FW ? "agnostic" : "line")
                                        : gsfw_step_name((gsfw_step)step));
    if (delta_text && option == GSFW_OPTION_I && strcmp(model, "topk-approx") &&
        strcmp(model, "l1"))
        cli_warn(cmd, "--delta is ignored by --option I with --model %s", model);
    return CLI_OK;
}

int cmd_solve(int argc, char **argv)
{
    const char *cmd = "solve";
    const char *a_path = NULL, *y_path = NULL, *model = NULL, *s_text = NULL, *g_text = NULL,
               *grid = NULL, *edges = NULL, *c_text = NULL, *method_text = NULL,
               *option_text = NULL, *delta_text = NULL, *l_text = NULL, *iters_text = NULL,
               *trace_path = NULL, *out_path = NULL, *best_path = NULL, *xtrue_path = NULL,
               *seed_text = NULL, *time_text = NULL, *step_text = NULL, *tol_text = NULL,
               *x0_path = NULL, *polish_text = NULL, *pol_path = NULL, *tol_rel_text = NULL,
               *loss_text = NULL, *huber_text = NULL, *intercept_flag = NULL,
               *tree_spec = NULL, *mem_text = NULL, *nodes_text = NULL;
    cli_opt opts[] = {
        {"--A", 0, &a_path}, {"--y", 0, &y_path}, {"--model", 0, &model},
        {"--s", 0, &s_text}, {"--g", 0, &g_text}, {"--graph", 0, &grid},
        {"--edges", 0, &edges}, {"--C", 0, &c_text}, {"--method", 0, &method_text},
        {"--option", 0, &option_text}, {"--delta", 0, &delta_text}, {"--L", 0, &l_text},
        {"--iters", 0, &iters_text}, {"--trace", 0, &trace_path}, {"--out", 0, &out_path},
        {"--best-out", 0, &best_path}, {"--x-true", 0, &xtrue_path}, {"--seed", 0, &seed_text},
        {"--time-limit", 0, &time_text}, {"--step", 0, &step_text}, {"--tol", 0, &tol_text},
        {"--x0", 0, &x0_path}, {"--polish", 0, &polish_text},
        {"--polished-out", 0, &pol_path}, {"--tol-rel", 0, &tol_rel_text},
        {"--loss", 0, &loss_text}, {"--huber-delta", 0, &huber_text},
        {"--intercept", 1, &intercept_flag}, {"--tree", 0, &tree_spec},
        {"--max-memory", 0, &mem_text},
        {"--nodes", 0, &nodes_text},
    };
    int rc = cli_parse(cmd, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), usage);
    if (rc) return rc;

    /* Flags first (usage errors, exit 2), files second (exit 1). */
    const char *required[][2] = {{"--A", a_path}, {"--y", y_path}, {"--model", model},
                                 {"--s", s_text}, {"--C", c_text}, {"--method", method_text},
                                 {"--iters", iters_text}};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if ((rc = cli_require(cmd, required[i][0], required[i][1]))) return rc;
    double C, L = 0.0, time_limit = 0.0;
    int iters;
    if ((rc = cli_parse_double(cmd, "--C", c_text, &C))) return rc;
    if (!(C > 0)) return cli_usage_error(cmd, "--C must be > 0, got %s", c_text);
    int method = gsfw_method_parse(method_text);
    if (method < 0)
        return cli_usage_error(cmd, "--method: unknown method '%s' (known: fw, accfw, afw, pfw, bpcg, "
                               "iht, cosamp, graph-iht, graph-cosamp, gen-mp)", method_text);
    const int baseline = gsfw_method_is_baseline((gsfw_method)method);
    cli_fw_flags fw;
    if ((rc = cli_parse_fw_flags(cmd, step_text, tol_text, tol_rel_text, polish_text, 0,
                                 &fw)))
        return rc;
    const int step = fw.step, polish = fw.polish;
    const double tol = fw.tol;
    double tol_rel = fw.tol_rel;
    if (pol_path && !polish)
        return cli_usage_error(cmd, "--polished-out needs --polish on");
    if (baseline && (step_text || tol_text || tol_rel_text || x0_path || polish || option_text))
        return cli_usage_error(cmd, "--step, --tol, --x0, --polish and --option belong to the "
                               "Frank-Wolfe methods, not to %s", method_text);
    gsfw_option option = GSFW_OPTION_I;
    if (option_text) {
        if (!strcmp(option_text, "I") || !strcmp(option_text, "1"))
            option = GSFW_OPTION_I;
        else if (!strcmp(option_text, "II") || !strcmp(option_text, "2"))
            option = GSFW_OPTION_II;
        else
            return cli_usage_error(cmd, "--option must be I or II, got '%s'", option_text);
    }
    gsfw_lipschitz_rule l_rule = baseline ? GSFW_L_SPECTRAL : GSFW_L_ATOM;
    if (l_text && (rc = cli_parse_L(cmd, l_text, &L, &l_rule))) return rc;
    if ((rc = cli_parse_int(cmd, "--iters", iters_text, 0, 100000000L, &iters))) return rc;
    if (time_text) {
        if ((rc = cli_parse_double(cmd, "--time-limit", time_text, &time_limit))) return rc;
        if (!(time_limit > 0)) return cli_usage_error(cmd, "--time-limit must be > 0");
    }
    gsfw_loss_options loss;
    if ((rc = parse_loss_flags(cmd, loss_text, huber_text, intercept_flag, &loss))) return rc;
    cli_model_spec spec;
    if ((rc = cli_parse_model_flags(cmd, model, s_text, g_text, delta_text, seed_text, &spec)))
        return rc;
    if (baseline && l_rule == GSFW_L_ATOM)
        return cli_usage_error(cmd, "--L atom is a rule of the Frank-Wolfe family; %s takes a "
                               "number or 'spectral'", method_text);
    if ((rc = cli_check_tree_flag(cmd, model, tree_spec))) return rc;
    if ((rc = cli_parse_nodes(cmd, nodes_text, &spec.nodes))) return rc;
    const char *outputs[4] = {out_path, best_path, trace_path, pol_path};
    if ((rc = solve_warnings(cmd, method, step, option, l_text, delta_text, model, outputs)))
        return rc;
    FILE *summary = stdout;
    for (int k = 0; k < 4; k++)
        if (outputs[k] && !strcmp(outputs[k], "-")) summary = stderr; /* stdout is taken */
    out_path = cli_output_path(out_path);
    best_path = cli_output_path(best_path);
    trace_path = cli_output_path(trace_path);
    pol_path = cli_output_path(pol_path);
    if ((rc = distinct_outputs(cmd, out_path, best_path, trace_path, pol_path))) return rc;
    if ((rc = cli_mem_set_limit(cmd, mem_text))) return rc;
    {
        /* A as read, the objective's copy of it, and the trace; the graph and oracle are
         * checked where the graph is loaded */
        char what[64];
        snprintf(what, sizeof what, "--A and %d iterations", iters);
        double need = 2 * cli_mem_file_size(a_path) + (trace_path ? cli_mem_trace(iters) : 0);
        if ((rc = cli_mem_check(cmd, need, what))) return rc;
    }
    cli_interrupt_install();

    double *A = NULL, *y = NULL, *x_true = NULL, *x_last = NULL, *x_best = NULL, *x0 = NULL,
           *x_pol = NULL;
    gsfw_iterate *trace = NULL;
    gsfw_graph *graph = NULL;
    gsfw_tree *tree = NULL;
    gsfw_objective *obj = NULL;
    gsfw_operator *op = NULL;
    gsfw_dmo *dmo = NULL, *tail = NULL;
    int n, d, ny, nx;
    if ((rc = load_operator(cmd, a_path, &A, &op, &n, &d))) goto done;
    if ((rc = load_targets(cmd, y_path, &y, &ny))) goto done;
    if (ny != n) {
        rc = cli_fail(cmd, "--y: '%s' has %d entries but A ('%s') has %d rows", y_path, ny,
                      a_path, n);
        goto done;
    }
    /* the methods whose steps use L, when it is not given (a dense --A; a sparse .mtx
     * operator is not scanned) */
    const int needs_L = method != GSFW_METHOD_FW && method != GSFW_METHOD_COSAMP &&
                        method != GSFW_METHOD_GRAPH_COSAMP;
    if (needs_L && !(L > 0) && A && (rc = check_curvature(cmd, A, n, d))) goto done;
    if (xtrue_path) {
        if ((rc = cli_load_vector(cmd, "--x-true", xtrue_path, &x_true, &nx))) goto done;
        if (nx != d) {
            rc = cli_fail(cmd, "--x-true: '%s' has %d entries but A has %d columns", xtrue_path,
                          nx, d);
            goto done;
        }
        for (int i = 0; i < d; i++) {
            if (!isfinite(x_true[i])) {
                rc = cli_fail(cmd, "--x-true: '%s' entry %d is %g; it must be finite",
                              xtrue_path, i, x_true[i]);
                goto done;
            }
        }
    }
    if (x0_path) {
        int n0;
        if ((rc = cli_load_vector(cmd, "--x0", x0_path, &x0, &n0))) goto done;
        if (n0 != d) {
            rc = cli_fail(cmd, "--x0: '%s' has %d entries but A has %d columns", x0_path, n0, d);
            goto done;
        }
    }
    if ((rc = cli_bind_model(cmd, &spec, grid, edges, d, &graph))) goto done;
    if ((rc = cli_bind_tree(cmd, &spec, tree_spec, d, &tree))) goto done;

    gsfw_err err;
    gsfw_error e;
    /* least squares on a dense matrix: the dedicated constructor (BLAS on a column-major
     * copy); otherwise the loss over the operator */
    if (A && loss.loss == GSFW_LOSS_SQUARED) {
        e = gsfw_objective_least_squares(n, d, A, GSFW_ROW_MAJOR, y, &obj, &err);
    } else {
        e = A ? gsfw_operator_dense(n, d, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, &op, &err) : GSFW_OK;
        if (!e) e = gsfw_objective_linear(op, n, y, &loss, &obj, &err);
    }
    if (e) {
        rc = cli_fail(cmd, "--A/--y: %s", err.message);
        goto done;
    }
    gsfw_free(A);
    A = NULL;
    if (baseline) {
        gsfw_model_spec m = {.model = spec.model, .d = spec.d, .s = spec.s, .g = spec.g,
                             .graph = spec.graph, .tree = spec.tree, .delta = spec.delta,
                             .seed = spec.seed};
        if (gsfw_baseline_oracles((gsfw_method)method, &m, 0, &dmo, &tail, &err)) {
            rc = cli_fail(cmd, "--model %s: %s", spec.model, err.message);
            goto done;
        }
    } else if ((rc = cli_make_dmo(cmd, &spec, &dmo))) {
        goto done;
    }

    x_last = malloc((size_t)d * sizeof(double));
    x_best = malloc((size_t)d * sizeof(double));
    if (polish) x_pol = malloc((size_t)d * sizeof(double));
    if (trace_path) trace = malloc(((size_t)iters + 1) * sizeof(gsfw_iterate));
    if (!x_last || !x_best || (polish && !x_pol) || (trace_path && !trace)) {
        rc = cli_fail(cmd, "out of memory for %d iterations of dimension %d", iters, d);
        goto done;
    }
    gsfw_result res = {.x_best = x_best, .x_last = x_last, .trace = trace,
                       .trace_capacity = trace ? iters + 1 : 0, .x_polished = x_pol};
    gsfw_info info;
    if (baseline) {
        gsfw_baseline_settings bset;
        gsfw_baseline_settings_default(&bset);
        bset.method = (gsfw_method)method;
        bset.C = C;
        bset.L = L;
        bset.max_iter = iters;
        bset.time_limit = time_limit;
        bset.x_true = x_true;
        bset.callback = cli_interrupt_callback; /* SIGINT / SIGTERM stop between iterations */
        e = gsfw_baseline_solve(obj, dmo, tail, &bset, &res, &info, &err);
    } else {
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = (gsfw_method)method;
        set.option = option;
        set.step = (gsfw_step)step;
        set.C = C;
        set.L = L;
        set.L_rule = l_rule;
        set.delta = delta_text ? spec.delta : 0.0;
        set.max_iter = iters;
        set.time_limit = time_limit;
        set.tol = tol;
        set.tol_rel = tol_rel;
        set.x0 = x0;
        set.polish = polish;
        set.x_true = x_true;
        set.callback = cli_interrupt_callback; /* SIGINT / SIGTERM stop between iterations */
        e = gsfw_solve(obj, dmo, &set, &res, &info, &err);
    }
    if (cli_interrupted()) {
        rc = cli_interrupted_exit(cmd, "no output was written");
        goto done;
    }
    if (e) {
        const char *msg = err.message;
        if (!strncmp(msg, "solve: ", 7)) msg += 7; /* the command already says "solve" */
        rc = cli_fail(cmd, "%s", msg[0] ? msg : gsfw_error_message(e));
        goto done;
    }
    rc = write_outputs(cmd, out_path, best_path, trace_path, pol_path, x_last, x_best, x_pol, d,
                       trace, res.trace_len, x_true != NULL);
    if (cli_interrupted()) { /* during the wait for a lock, or the move */
        rc = cli_interrupted_exit(cmd, rc == CLI_OK ? "it came during the final move, which "
                                                      "was completed: the outputs are the new "
                                                      "ones"
                                                    : "no output was changed");
        goto done;
    }
    if (rc) goto done;
    char intercept[64] = "";
    if (loss.intercept) {
        double b;
        if (gsfw_objective_intercept(obj, x_best, &b, &err)) {
            rc = cli_fail(cmd, "%s", err.message);
            goto done;
        }
        snprintf(intercept, sizeof intercept, " intercept=%.17g", b);
    }
    char est[128] = "";
    if (x_true)
        snprintf(est, sizeof est, "est_err=%.17g est_err_best=%.17g ",
                 distance(x_last, x_true, d), distance(x_best, x_true, d));
    fprintf(summary, "method=%s option=%s step=%s model=%s loss=%s%s status=%s iters=%d "
           "f_last=%.17g f_best=%.17g best_iter=%d %sgap_bound=%.6g f_polished=%.17g polished_nnz=%d "
           "window_missed=%ld L=%.17g L_source=%s delta=%.17g oracle_calls=%ld pcsf_calls=%ld "
           "setup_s=%.6f time_s=%.6f polish_s=%.6f oracle_s=%.6f gradient_s=%.6f\n",
           gsfw_method_name((gsfw_method)method), option == GSFW_OPTION_I ? "I" : "II",
           baseline ? "none" : gsfw_step_name(info.step), model, gsfw_loss_name(loss.loss),
           intercept, gsfw_status_name(info.status), info.iterations, info.f_last, info.f_best,
           info.best_iter, est, info.gap_bound, info.f_polished, info.polished_size,
           info.window_missed, info.L,
           !(info.L > 0)                        ? "unused"
           : info.L_source == GSFW_L_ATOM       ? "atom"
           : info.L_source == GSFW_L_SPECTRAL   ? "spectral"
                                                : "given",
           info.delta,
           info.oracle_calls, info.pcsf_calls, info.setup_time, info.solve_time,
           info.polish_time, info.oracle_time, info.gradient_time);
    rc = CLI_OK;

done:
    gsfw_free(A);
    gsfw_free(y);
    gsfw_free(x_true);
    gsfw_free(x0);
    free(x_pol);
    gsfw_dmo_free(tail);
    free(x_last);
    free(x_best);
    free(trace);
    gsfw_dmo_free(dmo);
    gsfw_objective_free(obj);
    gsfw_operator_free(op); /* after the objective, which borrows it */
    gsfw_graph_free(graph);
    gsfw_tree_free(tree);
    return rc;
}
