/* gsfw-mpi solve: gsfw solve with the rows of A and y spread over MPI ranks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_cli.h"
#include "models.h"

static const char usage[] =
    "usage: mpirun -np K gsfw-mpi solve --A A.npy|A.mtx --y y.npy --model MODEL --s S\n"
    "                  [--g G] [--graph grid:HxW | --edges FILE] --C C --method METHOD\n"
    "                  [--option I|II] [--delta D] [--L L] [--step RULE] --iters T\n"
    "                  [--tol TOL] [--tol-rel R] [--x0 x0.npy] [--polish on|off]\n"
    "                  [--trace trace.csv] [--out x.npy] [--best-out x.npy]\n"
    "                  [--x-true xstar.npy] [--seed N] [--time-limit SEC]\n"
    "                  [--loss ls|logistic|huber] [--huber-delta D] [--intercept]\n"
    "                  [--oracle all|root]\n"
    "\n"
    "gsfw solve with the rows of A and y split over the K ranks (rank r holds rows\n"
    "floor(r n / K) .. floor((r + 1) n / K) - 1, read from the file by that rank alone;\n"
    "x is kept whole on every rank). The flags are those of gsfw solve; the iterates are\n"
    "the same for every K up to the rounding of the sums over ranks. Rank 0 writes the\n"
    "outputs and prints the summary line (with ranks=K and the reduction's time).\n"
    "\n"
    "  --A FILE        .npy (float64, float32 or integer, C or Fortran order: each rank\n"
    "                  seeks to its rows) or .mtx (each rank keeps the entries of its rows)\n"
    "  --loss L        ls (default), huber, logistic (every rank must hold a row: a\n"
    "                  stand-in zero row would add log 2 per rank to the loss)\n"
    "  --oracle WHERE  all (default): every rank runs the oracle on the same gradient;\n"
    "                  root: rank 0 runs it and broadcasts the support\n"
    "  --time-limit S  rank 0's clock decides; every rank stops at the same iterate\n"
    "  (the other flags: gsfw solve --help)\n";

static int has_suffix(const char *path, const char *suffix)
{
    size_t lp = strlen(path), ls = strlen(suffix);
    return lp >= ls && !strcmp(path + lp - ls, suffix);
}

/* This rank's rows of A: a dense block read from .npy, or a CSR block from .mtx. */
static int load_block(mpi_ctx *m, const char *cmd, const char *path, mpi_problem *p)
{
    gsfw_err err;
    if (has_suffix(path, ".mtx")) {
        long nnz;
        int *ri = NULL, *ci = NULL;
        double *v = NULL;
        if (gsfw_mpi_mtx_read_block(path, m->rank, m->nprocs, &p->n, &p->d, &p->row0, &p->rows,
                                    &nnz, &ri, &ci, &v, &err))
            return mpi_fail(m, cmd, "--A: %s", err.message);
        gsfw_error e = p->rows > 0 ? gsfw_operator_csr(p->rows, p->d, nnz, ri, ci, v, &p->op,
                                                       &err)
                                   : GSFW_OK;
        free(ri);
        free(ci);
        free(v);
        return e ? mpi_fail(m, cmd, "--A: '%s': %s", path, err.message) : CLI_OK;
    }
    int ndim, shape[2];
    if (gsfw_mpi_npy_shape(path, &ndim, shape, &err))
        return mpi_fail(m, cmd, "--A: %s", err.message);
    if (ndim != 2) return mpi_fail(m, cmd, "--A: '%s' must hold a 2-D matrix, but it is 1-D", path);
    p->n = shape[0];
    p->d = shape[1];
    if (p->n < 1 || p->d < 1)
        return mpi_fail(m, cmd, "--A: '%s' is %d x %d; it must be at least 1 x 1", path, p->n,
                        p->d);
    gsfw_mpi_row_block(p->n, m->nprocs, m->rank, &p->row0, &p->rows);
    if (gsfw_mpi_npy_read_rows(path, p->row0, p->rows, &p->block, shape, &err))
        return mpi_fail(m, cmd, "--A: %s", err.message);
    /* the block is used in place (row-major): one copy of the rows in memory */
    if (p->rows > 0 && gsfw_operator_dense(p->rows, p->d, p->block, GSFW_ROW_MAJOR,
                                           GSFW_OP_BORROW, &p->op, &err))
        return mpi_fail(m, cmd, "--A: '%s': %s", path, err.message);
    return CLI_OK;
}

static int load_targets(mpi_ctx *m, const char *cmd, const char *path, mpi_problem *p)
{
    gsfw_err err;
    int ndim, shape[2];
    if (gsfw_mpi_npy_shape(path, &ndim, shape, &err))
        return mpi_fail(m, cmd, "--y: %s", err.message);
    long len = (long)shape[0] * shape[1];
    if ((ndim == 2 && shape[0] != 1 && shape[1] != 1) || len != p->n)
        return mpi_fail(m, cmd, "--y: '%s' has shape %d x %d; a vector of the %d rows of A is "
                        "needed", path, shape[0], shape[1], p->n);
    if (p->rows == 0) return CLI_OK;
    if (ndim == 2 && shape[0] == 1) {
        double *all;
        int sh[2];
        /* a 1 x n row: read it and keep the block */
        if (gsfw_mpi_npy_read_rows(path, 0, 1, &all, sh, &err))
            return mpi_fail(m, cmd, "--y: %s", err.message);
        p->y = malloc((size_t)p->rows * sizeof(double));
        if (p->y) memcpy(p->y, all + p->row0, (size_t)p->rows * sizeof(double));
        free(all);
        return p->y ? CLI_OK : mpi_fail(m, cmd, "out of memory");
    }
    if (gsfw_mpi_npy_read_rows(path, p->row0, p->rows, &p->y, shape, &err))
        return mpi_fail(m, cmd, "--y: %s", err.message);
    return CLI_OK;
}

int mpi_cmd_solve(mpi_ctx *m, int argc, char **argv)
{
    const char *cmd = "solve";
    const char *a_path = NULL, *y_path = NULL, *model = NULL, *s_text = NULL, *g_text = NULL,
               *grid = NULL, *edges = NULL, *c_text = NULL, *method_text = NULL,
               *option_text = NULL, *delta_text = NULL, *l_text = NULL, *iters_text = NULL,
               *trace_path = NULL, *out_path = NULL, *best_path = NULL, *xtrue_path = NULL,
               *seed_text = NULL, *time_text = NULL, *step_text = NULL, *tol_text = NULL,
               *x0_path = NULL, *polish_text = NULL, *tol_rel_text = NULL, *loss_text = NULL,
               *huber_text = NULL, *oracle_text = NULL, *intercept_flag = NULL;
    cli_opt opts[] = {
        {"--A", 0, &a_path}, {"--y", 0, &y_path}, {"--model", 0, &model},
        {"--s", 0, &s_text}, {"--g", 0, &g_text}, {"--graph", 0, &grid},
        {"--edges", 0, &edges}, {"--C", 0, &c_text}, {"--method", 0, &method_text},
        {"--option", 0, &option_text}, {"--delta", 0, &delta_text}, {"--L", 0, &l_text},
        {"--iters", 0, &iters_text}, {"--trace", 0, &trace_path}, {"--out", 0, &out_path},
        {"--best-out", 0, &best_path}, {"--x-true", 0, &xtrue_path}, {"--seed", 0, &seed_text},
        {"--time-limit", 0, &time_text}, {"--step", 0, &step_text}, {"--tol", 0, &tol_text},
        {"--x0", 0, &x0_path}, {"--polish", 0, &polish_text}, {"--tol-rel", 0, &tol_rel_text},
        {"--loss", 0, &loss_text}, {"--huber-delta", 0, &huber_text},
        {"--oracle", 0, &oracle_text}, {"--intercept", 1, &intercept_flag},
    };
    mpi_run_opts o;
    memset(&o, 0, sizeof o);
    gsfw_loss_options loss;
    gsfw_loss_options_default(&loss);
    cli_model_spec spec;
    /* argument checks give the same verdict on every rank: rank 0 alone speaks */
    mpi_quiet_begin(m);
    int rc = cli_parse(cmd, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), usage);
    const char *required[][2] = {{"--A", a_path}, {"--y", y_path}, {"--model", model},
                                 {"--s", s_text}, {"--C", c_text}, {"--method", method_text},
                                 {"--iters", iters_text}};
    for (size_t i = 0; !rc && i < sizeof required / sizeof required[0]; i++)
        rc = cli_require(cmd, required[i][0], required[i][1]);
    if (!rc) rc = cli_parse_double(cmd, "--C", c_text, &o.C);
    if (!rc && !(o.C > 0)) rc = cli_usage_error(cmd, "--C must be > 0, got %s", c_text);
    if (!rc && (o.method = gsfw_method_parse(method_text)) < 0)
        rc = cli_usage_error(cmd, "--method: unknown method '%s'", method_text);
    const int baseline = !rc && gsfw_method_is_baseline((gsfw_method)o.method);
    o.step = GSFW_STEP_AUTO;
    if (!rc && step_text && (o.step = gsfw_step_parse(step_text)) < 0)
        rc = cli_usage_error(cmd, "unknown step rule '%s'", step_text);
    if (!rc && tol_text && !(rc = cli_parse_double(cmd, "--tol", tol_text, &o.tol)) && !(o.tol > 0))
        rc = cli_usage_error(cmd, "--tol must be > 0, got %s", tol_text);
    if (!rc && tol_rel_text && !(rc = cli_parse_double(cmd, "--tol-rel", tol_rel_text, &o.tol_rel))
        && !(o.tol_rel > 0 && o.tol_rel < 1))
        rc = cli_usage_error(cmd, "--tol-rel must be in (0, 1), got %s", tol_rel_text);
    if (!rc && polish_text) {
        if (!strcmp(polish_text, "on"))
            o.polish = 1;
        else if (strcmp(polish_text, "off"))
            rc = cli_usage_error(cmd, "--polish must be on or off, got '%s'", polish_text);
    }
    if (!rc && baseline &&
        (step_text || tol_text || tol_rel_text || x0_path || o.polish || option_text))
        rc = cli_usage_error(cmd, "--step, --tol, --x0, --polish and --option belong to the "
                             "Frank-Wolfe methods, not to %s", method_text);
    o.option = GSFW_OPTION_I;
    if (!rc && option_text) {
        if (!strcmp(option_text, "II") || !strcmp(option_text, "2"))
            o.option = GSFW_OPTION_II;
        else if (strcmp(option_text, "I") && strcmp(option_text, "1"))
            rc = cli_usage_error(cmd, "--option must be I or II, got '%s'", option_text);
    }
    o.l_rule = baseline ? GSFW_L_SPECTRAL : GSFW_L_ATOM;
    if (!rc && l_text) rc = cli_parse_L(cmd, l_text, &o.L, &o.l_rule);
    if (!rc) rc = cli_parse_int(cmd, "--iters", iters_text, 0, 100000000L, &o.iters);
    if (!rc && time_text && !(rc = cli_parse_double(cmd, "--time-limit", time_text, &o.time_limit))
        && !(o.time_limit > 0))
        rc = cli_usage_error(cmd, "--time-limit must be > 0");
    if (!rc && loss_text) {
        int kind = gsfw_loss_parse(loss_text);
        if (kind < 0)
            rc = cli_usage_error(cmd, "--loss must be ls, logistic or huber, got '%s'",
                                 loss_text);
        loss.loss = (gsfw_loss)kind;
    }
    if (!rc && huber_text) {
        if (loss.loss != GSFW_LOSS_HUBER)
            rc = cli_usage_error(cmd, "--huber-delta needs --loss huber");
        else if (!(rc = cli_parse_double(cmd, "--huber-delta", huber_text, &loss.huber_delta)) &&
                 !(loss.huber_delta > 0 && isfinite(loss.huber_delta)))
            rc = cli_usage_error(cmd, "--huber-delta must be finite and > 0, got %s", huber_text);
    }
    if (!rc && intercept_flag) {
        if (loss.loss != GSFW_LOSS_LOGISTIC)
            rc = cli_usage_error(cmd, "--intercept needs --loss logistic");
        loss.intercept = 1;
    }
    if (!rc && oracle_text) {
        if (!strcmp(oracle_text, "root"))
            o.oracle_on_root = 1;
        else if (strcmp(oracle_text, "all"))
            rc = cli_usage_error(cmd, "--oracle must be all or root, got '%s'", oracle_text);
    }
    if (!rc) rc = cli_parse_model_flags(cmd, model, s_text, g_text, delta_text, seed_text, &spec);
    if (!rc && baseline && o.l_rule == GSFW_L_ATOM)
        rc = cli_usage_error(cmd, "--L atom is a rule of the Frank-Wolfe family");
    mpi_quiet_end(m);
    if (rc) return rc == CLI_HELP ? CLI_HELP : rc;
    o.delta = delta_text ? spec.delta : 0.0;

    mpi_problem p;
    memset(&p, 0, sizeof p);
    double *x_true = NULL, *x0 = NULL, *x_last = NULL, *x_best = NULL, *x_pol = NULL;
    gsfw_iterate *trace = NULL;
    gsfw_graph *graph = NULL;
    gsfw_dmo *dmo = NULL, *tail = NULL;
    gsfw_err err;
    double t_load = MPI_Wtime();
    rc = mpi_agree(m, cmd, "reading --A", load_block(m, cmd, a_path, &p));
    if (!rc) rc = mpi_agree(m, cmd, "reading --y", load_targets(m, cmd, y_path, &p));
    t_load = MPI_Wtime() - t_load;
    if (rc) goto done;
    /* the replicated inputs: read by every rank (d entries each) */
    int local = CLI_OK, nx;
    mpi_quiet_begin(m);
    if (xtrue_path && !(local = cli_load_vector(cmd, "--x-true", xtrue_path, &x_true, &nx)) &&
        nx != p.d)
        local = cli_fail(cmd, "--x-true has %d entries but A has %d columns", nx, p.d);
    if (!local && x0_path && !(local = cli_load_vector(cmd, "--x0", x0_path, &x0, &nx)) &&
        nx != p.d)
        local = cli_fail(cmd, "--x0 has %d entries but A has %d columns", nx, p.d);
    if (!local) local = cli_bind_model(cmd, &spec, grid, edges, p.d, &graph);
    if (!local) {
        if (baseline) {
            gsfw_model_spec ms = {.model = spec.model, .d = spec.d, .s = spec.s, .g = spec.g,
                                  .graph = spec.graph, .delta = spec.delta, .seed = spec.seed};
            if (gsfw_baseline_oracles((gsfw_method)o.method, &ms, 0, &dmo, &tail, &err))
                local = cli_fail(cmd, "--model %s: %s", spec.model, err.message);
        } else {
            local = cli_make_dmo(cmd, &spec, &dmo);
        }
    }
    mpi_quiet_end(m);
    if ((rc = mpi_agree(m, cmd, "setting up the model", local))) goto done;
    rc = mpi_problem_objective(m, cmd, &p, &loss);
    if ((rc = mpi_agree(m, cmd, "building the objective", rc))) goto done;

    x_last = malloc((size_t)p.d * sizeof(double));
    x_best = malloc((size_t)p.d * sizeof(double));
    if (o.polish) x_pol = malloc((size_t)p.d * sizeof(double));
    trace = malloc(((size_t)o.iters + 1) * sizeof(gsfw_iterate));
    local = (!x_last || !x_best || (o.polish && !x_pol) || !trace)
                ? mpi_fail(m, cmd, "out of memory for %d iterations of dimension %d", o.iters, p.d)
                : CLI_OK;
    if ((rc = mpi_agree(m, cmd, "allocating the outputs", local))) goto done;
    o.x0 = x0;
    o.x_true = x_true;
    gsfw_result res = {.x_best = x_best, .x_last = x_last, .trace = trace,
                       .trace_capacity = o.iters + 1, .x_polished = x_pol};
    gsfw_info info;
    const char *status = NULL;
    if ((rc = mpi_run(m, cmd, &p, dmo, tail, &o, &res, &info, &status))) goto done;
    local = CLI_OK;
    char intercept[64] = "";
    if (loss.intercept) {
        /* collective: the intercept's sums are reduced like the loss */
        double b;
        if (gsfw_objective_intercept(p.obj, x_best, &b, &err))
            local = mpi_fail(m, cmd, "%s", err.message);
        else
            snprintf(intercept, sizeof intercept, " intercept=%.17g", b);
    }
    if ((rc = mpi_agree(m, cmd, "computing the intercept", local))) goto done;
    if (m->rank == 0) {
        const char *paths[3] = {out_path, best_path, trace_path};
        local = mpi_write_outputs(m, cmd, paths, x_last, x_best, p.d, trace, res.trace_len,
                              x_true != NULL);
        if (!local)
            printf("method=%s option=%s step=%s model=%s loss=%s%s status=%s iters=%d "
                   "f_last=%.17g f_best=%.17g best_iter=%d gap_bound=%.6g f_polished=%.17g "
                   "L=%.17g oracle_calls=%ld pcsf_calls=%ld ranks=%d n=%d d=%d oracle=%s "
                   "load_s=%.6f setup_s=%.6f time_s=%.6f oracle_s=%.6f gradient_s=%.6f "
                   "reduce_s=%.6f reduce_calls=%ld\n",
                   gsfw_method_name((gsfw_method)o.method), o.option == GSFW_OPTION_I ? "I" : "II",
                   baseline ? "none" : gsfw_step_name(info.step), spec.model,
                   gsfw_loss_name(loss.loss), intercept, status, info.iterations, info.f_last,
                   info.f_best,
                   info.best_iter, info.gap_bound, info.f_polished, info.L, info.oracle_calls,
                   info.pcsf_calls, m->nprocs, p.n, p.d, o.oracle_on_root ? "root" : "all",
                   t_load, info.setup_time, info.solve_time, info.oracle_time,
                   info.gradient_time, p.red.seconds, p.red.calls);
    }
    rc = mpi_agree(m, cmd, "writing the outputs", local);

done:
    gsfw_free(x_true);
    gsfw_free(x0);
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
