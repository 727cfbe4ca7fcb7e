/* gsfw-mpi: quiet ranks, failure agreement, the distributed objective and the run. */
#include "mpi_cli.h"

#include "trace_csv.h"
#include "atomic_group.h"
#include "io/npy.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void mpi_quiet_begin(mpi_ctx *m)
{
    m->saved_stdout = m->saved_stderr = -1;
    if (m->rank == 0) return;
    fflush(stdout);
    fflush(stderr);
    int null = open("/dev/null", O_WRONLY);
    if (null < 0) return;
    m->saved_stdout = dup(1);
    m->saved_stderr = dup(2);
    dup2(null, 1);
    dup2(null, 2);
    close(null);
}

void mpi_quiet_end(mpi_ctx *m)
{
    fflush(stdout);
    fflush(stderr);
    if (m->saved_stdout >= 0) {
        dup2(m->saved_stdout, 1);
        close(m->saved_stdout);
    }
    if (m->saved_stderr >= 0) {
        dup2(m->saved_stderr, 2);
        close(m->saved_stderr);
    }
    m->saved_stdout = m->saved_stderr = -1;
}

int mpi_fail(const mpi_ctx *m, const char *cmd, const char *fmt, ...)
{
    /* one write per message: the ranks share the terminal */
    char msg[1024];
    int k = snprintf(msg, sizeof msg, "gsfw-mpi %s [rank %d of %d]: ", cmd, m->rank, m->nprocs);
    va_list ap;
    va_start(ap, fmt);
    if (k > 0 && k < (int)sizeof msg) vsnprintf(msg + k, sizeof msg - (size_t)k, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
    fflush(stderr);
    return CLI_FAIL;
}

int mpi_agree(mpi_ctx *m, const char *cmd, const char *step, int rc)
{
    int failed = 0;
    if (gsfw_mpi_agree(m->comm, rc == CLI_OK, &failed)) return CLI_OK;
    if (m->rank == 0)
        fprintf(stderr, "gsfw-mpi %s: %s failed on %d of %d ranks; every rank stops\n", cmd,
                step, failed, m->nprocs);
    return CLI_FAIL;
}

int mpi_problem_objective(mpi_ctx *m, const char *cmd, mpi_problem *p,
                          const gsfw_loss_options *loss_in)
{
    gsfw_err err;
    /* the objective takes its Lipschitz bound from norm2 when the operator has one, by
     * power iteration otherwise: every rank must take the same path (the same reductions) */
    int mine = p->rows > 0 && p->op && p->op->norm2, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, m->comm);
    if (p->rows > 0 && mine != any)
        return mpi_fail(m, cmd, "the ranks' operators disagree on having a norm2 hook");
    if (p->rows == 0) {
        /* a zero row with target 0 adds exactly 0 to every sum of the residual losses;
         * the logistic loss of a zero row is log 2, not 0 */
        if (loss_in->loss == GSFW_LOSS_LOGISTIC)
            return mpi_fail(m, cmd, "this rank holds none of the %d rows, which the logistic "
                            "loss cannot stand in for; run with at most %d ranks", p->n, p->n);
        if (gsfw_mpi_zero_operator(p->d, any, &p->op, &err))
            return mpi_fail(m, cmd, "%s", err.message);
        free(p->y);
        p->y = calloc(1, sizeof(double));
        if (!p->y) return mpi_fail(m, cmd, "out of memory");
    }
    gsfw_loss_options loss = *loss_in;
    p->red.comm = m->comm;
    loss.reducer = gsfw_mpi_reducer_timed(&p->red);
    if (gsfw_objective_linear(p->op, p->op->n, p->y, &loss, &p->obj, &err))
        return mpi_fail(m, cmd, "rows %d..%d (numbered from 0 within the block in what "
                        "follows): %s", p->row0, p->row0 + p->rows - 1, err.message);
    return CLI_OK;
}

void mpi_problem_free(mpi_problem *p)
{
    gsfw_objective_free(p->obj);
    gsfw_operator_free(p->op);
    gsfw_operator_free(p->base);
    free(p->block);
    free(p->y);
    memset(p, 0, sizeof *p);
}

int mpi_run(mpi_ctx *m, const char *cmd, mpi_problem *p, gsfw_dmo *dmo, gsfw_dmo *tail,
            const mpi_run_opts *o, gsfw_result *res, gsfw_info *info, const char **status)
{
    gsfw_err err;
    gsfw_error e = GSFW_OK;
    gsfw_dmo *dmo_run = dmo, *tail_run = tail, *dmo_root = NULL, *tail_root = NULL;
    if (o->oracle_on_root) {
        e = gsfw_mpi_dmo_root(dmo, &m->comm, &dmo_root, &err);
        if (!e && tail) e = gsfw_mpi_dmo_root(tail, &m->comm, &tail_root, &err);
        dmo_run = dmo_root;
        tail_run = tail ? tail_root : NULL;
    }
    gsfw_mpi_stop stop = {m->comm, m->rank, o->time_limit, NULL, NULL, 0};
    const int baseline = gsfw_method_is_baseline((gsfw_method)o->method);
    if (!e && baseline) {
        gsfw_baseline_settings bset;
        gsfw_baseline_settings_default(&bset);
        bset.method = (gsfw_method)o->method;
        bset.C = o->C;
        bset.L = o->L;
        bset.max_iter = o->iters;
        bset.x_true = o->x_true;
        bset.callback = gsfw_mpi_stop_callback;
        bset.callback_data = &stop;
        e = gsfw_baseline_solve(p->obj, dmo_run, tail_run, &bset, res, info, &err);
    } else if (!e) {
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = (gsfw_method)o->method;
        set.option = o->option;
        set.step = (gsfw_step)o->step;
        set.C = o->C;
        set.L = o->L;
        set.L_rule = o->l_rule;
        set.delta = o->delta;
        set.max_iter = o->iters;
        set.tol = o->tol;
        set.tol_rel = o->tol_rel;
        set.x0 = o->x0;
        set.polish = o->polish;
        set.x_true = o->x_true;
        set.callback = gsfw_mpi_stop_callback;
        set.callback_data = &stop;
        e = gsfw_solve(p->obj, dmo_run, &set, res, info, &err);
    }
    gsfw_dmo_free(dmo_root);
    gsfw_dmo_free(tail_root);
    if (e) {
        /* peers may be blocked in a collective this rank will never join */
        const char *msg = err.message[0] ? err.message : gsfw_error_message(e);
        mpi_fail(m, cmd, "%s", msg);
        MPI_Abort(m->comm, CLI_FAIL);
        return CLI_FAIL;
    }
    /* every decision was collective, so every rank ends at the same iterate: checked */
    int it[2] = {info->iterations, -info->iterations}, ext[2];
    MPI_Allreduce(it, ext, 2, MPI_INT, MPI_MAX, m->comm);
    if (ext[0] != -ext[1]) {
        mpi_fail(m, cmd, "the ranks stopped at different iterations (%d to %d)", -ext[1], ext[0]);
        MPI_Abort(m->comm, CLI_FAIL);
        return CLI_FAIL;
    }
    *status = stop.reason == 2 ? "time_limit" : gsfw_status_name(info->status);
    return CLI_OK;
}

int mpi_write_outputs(mpi_ctx *m, const char *cmd, const char *const paths[3],
                         const double *x_last, const double *x_best, int d,
                         const gsfw_iterate *trace, int trace_len, int with_est_err)
{
    const char *flags[3] = {"--out", "--best-out", "--trace"};
    const double *vecs[3] = {x_last, x_best, NULL};
    gsfw_atomic_file files[3];
    memset(files, 0, sizeof files);
    gsfw_err err;
    int shape[2] = {d, 1}, rc = CLI_OK;
    for (int k = 0; k < 3 && rc == CLI_OK; k++)
        if (paths[k] && gsfw_atomic_open(&files[k], paths[k], &err))
            rc = mpi_fail(m, cmd, "%s: %s", flags[k], err.message);
    for (int k = 0; k < 3 && rc == CLI_OK; k++) {
        if (!paths[k]) continue;
        int bad = k < 2 ? gsfw_npy_write_stream(files[k].fp, paths[k], vecs[k], 1, shape, &err) != 0
                        : cli_write_trace_stream(files[k].fp, trace, trace_len, with_est_err) != 0;
        if (bad) rc = mpi_fail(m, cmd, "%s: cannot write '%s'", flags[k], paths[k]);
    }
    if (rc != CLI_OK) {
        for (int k = 0; k < 3; k++) gsfw_atomic_abort(&files[k]);
    } else if (gsfw_atomic_commit_group(files, 3, &err)) {
        rc = mpi_fail(m, cmd, "%s", err.message);
    }
    return rc;
}
