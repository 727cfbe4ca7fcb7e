/* gsfw-mpi solve: gsfw solve with the rows of A and y spread over MPI ranks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_cli.h"
#include "solve_args.h"
#include "solve_outputs.h"

static const char head[] =
    "usage: mpirun -np K gsfw-mpi solve --A A.npy|A.mtx --y y.npy --model MODEL --s S\n"
    "                  [--g G] [--graph grid:HxW | --edges FILE] --C C --method METHOD\n"
    "                  --iters T [--PARAMETER VALUE ...] [--x0 x0.npy] [--trace trace.csv]\n"
    "                  [--out x.npy] [--best-out x.npy] [--x-true xstar.npy]\n"
    "                  [--oracle all|root]\n"
    "\n"
    "gsfw solve with the rows of A and y split over the K ranks (rank r holds rows\n"
    "floor(r n / K) .. floor((r + 1) n / K) - 1, read from the file by that rank alone;\n"
    "x is kept whole on every rank). The flags are those of gsfw solve; the iterates are\n"
    "the same for every K up to the rounding of the sums over ranks. Rank 0 writes the\n"
    "outputs and prints the summary line (with ranks=K and the reduction's time).\n"
    "--A is .npy (float64, float32 or integer, C or Fortran order: each rank seeks to its\n"
    "rows) or .mtx (each rank keeps the entries of its rows). A loss to which a row of\n"
    "zeros adds something needs a row on every rank.\n";

static const char extra[] =
    "\n"
    "  --oracle WHERE  all (default): every rank runs the oracle on the same gradient;\n"
    "                  root: rank 0 runs it and broadcasts the support\n"
    "  --time-limit S  rank 0's clock decides; every rank stops at the same iterate\n";

/* This rank's rows of A: a dense block read from .npy, or a CSR block from .mtx. */
static int load_block(mpi_ctx *m, const char *cmd, const char *path, mpi_problem *p)
{
    gsfw_err err;
    if (cli_ends_with(path, ".mtx")) {
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

static const char CMD[] = "solve";

/* The flags, checked as gsfw solve checks them, then --oracle; *o takes the run's
 * settings. The checks give the same verdict on every rank: rank 0 alone speaks. */
static int parse_flags(mpi_ctx *m, int argc, char **argv, cli_solve_args *a, mpi_run_opts *o)
{
    cli_opt opts[CLI_SOLVE_MAX_OPTS];
    const char *oracle_text = NULL;
    memset(o, 0, sizeof *o);
    mpi_quiet_begin(m);
    int n = cli_solve_opts(CMD, a, opts), rc = n < 0 ? CLI_FAIL : CLI_OK;
    char *usage = NULL;
    if (!rc) {
        opts[n++] = (cli_opt){"--oracle", 0, &oracle_text};
        usage = cli_asks_help(argc, argv) ? cli_solve_usage(a, head, NULL, extra) : strdup("");
        if (!usage) rc = cli_fail(CMD, "out of memory");
    }
    if (!rc) rc = cli_parse(CMD, argc, argv, opts, n, usage);
    free(usage);
    if (!rc) rc = cli_solve_check(CMD, a);
    if (!rc) rc = mpi_parse_oracle_flag(CMD, oracle_text, &o->oracle_on_root);
    const char **const outputs[4] = {&a->out_path, &a->best_path, &a->trace_path,
                                     &a->pol_path};
    if (!rc) rc = cli_solve_plan_outputs(CMD, outputs, &o->summary);
    mpi_quiet_end(m);
    o->spec = a->params.spec;
    return rc;
}

/* The replicated inputs, read by every rank (d entries each): --x-true, --x0, the graph;
 * then the oracles. Collective (agreed). */
static int set_up_model(mpi_ctx *m, cli_solve_args *a, mpi_problem *p, double **x_true,
                        double **x0)
{
    mpi_quiet_begin(m);
    int local = cli_solve_load_vectors(CMD, a, p->d, x_true, x0);
    if (!local)
        local = cli_model_inputs(CMD, &a->params, &a->model, p->d, &p->graph, &p->tree);
    if (!local) local = cli_model_oracles(CMD, &a->params, p->graph, &p->dmo, &p->tail);
    mpi_quiet_end(m);
    return mpi_agree(m, CMD, "setting up the model", local);
}

/* The intercept (collective: its sums are reduced like the loss), then on rank 0 the
 * outputs and the summary line. */
static int report(mpi_ctx *m, const cli_solve_args *a, const mpi_run_opts *o, mpi_problem *p,
                  mpi_solution *s, double t_load)
{
    gsfw_err err;
    char intercept[64];
    int local = cli_intercept_field(a, p->obj, s->x_best, intercept, sizeof intercept, &err)
                    ? mpi_fail(m, CMD, "%s", err.message)
                    : CLI_OK;
    int rc = mpi_agree(m, CMD, "computing the intercept", local);
    if (rc) return rc;
    if (m->rank == 0) {
        const char *paths[3] = {a->out_path, a->best_path, a->trace_path};
        const gsfw_info *info = &s->info;
        local = mpi_write_outputs(m, CMD, paths, s->x_last, s->x_best, p->d, s->trace,
                                  s->res.trace_len, o->x_true != NULL);
        if (!local) {
            cli_solve_print_head(o->summary, a, intercept, s->status, info);
            fprintf(o->summary,
                    "gap_bound=%.6g f_polished=%.17g L=%.17g oracle_calls=%ld pcsf_calls=%ld "
                    "ranks=%d n=%d d=%d oracle=%s load_s=%.6f setup_s=%.6f time_s=%.6f "
                    "oracle_s=%.6f gradient_s=%.6f reduce_s=%.6f reduce_calls=%ld\n",
                    info->gap_bound, info->f_polished, info->L, info->oracle_calls,
                    gsfw_info_count(info, "pcsf_calls"), m->nprocs, p->n, p->d,
                    o->oracle_on_root ? "root" : "all", t_load, info->setup_time,
                    info->solve_time, info->oracle_time, info->gradient_time, p->red.seconds,
                    p->red.calls);
            cli_solve_warn_unbounded(CMD, a, info);
        }
    }
    return mpi_agree(m, CMD, "writing the outputs", local);
}

int mpi_cmd_solve(mpi_ctx *m, int argc, char **argv)
{
    cli_solve_args a;
    mpi_run_opts o;
    int rc = parse_flags(m, argc, argv, &a, &o);
    if (rc) {
        cli_solve_args_free(&a);
        return rc;
    }
    mpi_problem p = {0};
    mpi_solution s = {0};
    double *x_true = NULL, *x0 = NULL;
    double t_load = MPI_Wtime();
    rc = mpi_agree(m, CMD, "reading --A", load_block(m, CMD, a.a_path, &p));
    if (!rc) rc = mpi_agree(m, CMD, "reading --y", load_targets(m, CMD, a.y_path, &p));
    t_load = MPI_Wtime() - t_load;
    if (!rc) rc = set_up_model(m, &a, &p, &x_true, &x0);
    if (!rc)
        rc = mpi_agree(m, CMD, "building the objective",
                       mpi_problem_objective(m, CMD, &p, a.params.spec));
    o.x0 = x0;
    o.x_true = x_true;
    if (!rc) rc = mpi_run(m, CMD, &p, &o, &s);
    if (!rc) rc = report(m, &a, &o, &p, &s, t_load);
    gsfw_free(x_true);
    gsfw_free(x0);
    mpi_solution_free(&s);
    mpi_problem_free(&p);
    cli_solve_args_free(&a);
    return rc;
}
