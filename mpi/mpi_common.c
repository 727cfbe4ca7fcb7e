/* gsfw-mpi: quiet ranks, failure agreement, the distributed objective and the run. */
#include "mpi_cli.h"

#include "trace_csv.h"
#include "outputs.h"
#include "io/npy.h"
#include "objectives/linear.h"
#include "solvers/baselines/baselines.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void mpi_quiet_begin(mpi_ctx *m)
{
    m->saved_stdout = m->saved_stderr = -1;
    cli_forget_error();
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

int mpi_fail(mpi_ctx *m, const char *cmd, const char *fmt, ...)
{
    (void)cmd;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->held, sizeof m->held, fmt, ap);
    va_end(ap);
    if (!m->held[0]) snprintf(m->held, sizeof m->held, "failed");
    return CLI_FAIL;
}

void mpi_flush_held(mpi_ctx *m, const char *cmd)
{
    if (!m->held[0]) return;
    /* one write per message: the ranks share the terminal */
    fprintf(stderr, "gsfw-mpi %s [rank %d of %d]: %s\n", cmd, m->rank, m->nprocs, m->held);
    fflush(stderr);
    m->held[0] = '\0';
}

int mpi_rank_list(const char *take, int k, char *out, size_t cap)
{
    int count = 0;
    size_t used = 0;
    out[0] = '\0';
    for (int r = 0; r < k; r++) {
        if (!take[r]) continue;
        int last = r;
        while (last + 1 < k && take[last + 1]) last++;
        count += last - r + 1;
        if (used + 1 < cap) { /* once cut, the list stays cut; the count goes on */
            int w = last > r
                        ? snprintf(out + used, cap - used, "%s%d-%d", used ? ", " : "", r, last)
                        : snprintf(out + used, cap - used, "%s%d", used ? ", " : "", r);
            used = w < 0 || (size_t)w >= cap - used ? cap : used + (size_t)w;
        }
        r = last;
    }
    return count;
}

int mpi_agree(mpi_ctx *m, const char *cmd, const char *step, int rc)
{
    /* a failure of the shared CLI code printed its cause (nowhere, on the ranks but 0) */
    int printed = 0; /* rank 0: its own message is on the terminal already */
    if (rc != CLI_OK && !m->held[0]) {
        printed = m->rank == 0 && cli_last_error()[0];
        snprintf(m->held, sizeof m->held, "%s", cli_last_error()[0] ? cli_last_error() : "failed");
    }
    cli_forget_error();
    int failed = 0;
    if (gsfw_mpi_agree(m->comm, rc == CLI_OK, &failed)) return CLI_OK;
    /* rank 0 collects the held messages and prints each distinct one once */
    const size_t len = sizeof m->held, k = (size_t)m->nprocs;
    char *all = m->rank == 0 ? calloc(k, len) : NULL;
    char *take = m->rank == 0 ? calloc(k, 1) : NULL;
    char *done = m->rank == 0 ? calloc(k, 1) : NULL;
    char ranks[256];
    const int ok = MPI_Gather(m->held, (int)len, MPI_CHAR, all, (int)len, MPI_CHAR, 0,
                              m->comm) == MPI_SUCCESS;
    if (m->rank == 0 && (!all || !take || !done || !ok)) {
        fprintf(stderr, "gsfw-mpi %s: %s failed on %d of %d ranks; every rank stops\n", cmd,
                step, failed, m->nprocs);
        mpi_flush_held(m, cmd);
    } else if (m->rank == 0) {
        for (size_t r = 0; r < k; r++) {
            const char *msg = all + r * len;
            if (!msg[0] || done[r]) continue;
            for (size_t q = r; q < k; q++) {
                take[q] = !done[q] && !strcmp(all + q * len, msg);
                done[q] |= take[q];
            }
            const int count = mpi_rank_list(take, (int)k, ranks, sizeof ranks);
            if (r == 0 && printed) /* rank 0's message, printed above: not twice */
                fprintf(stderr, "gsfw-mpi %s: %s failed on rank%s %s of %d (above)\n", cmd,
                        step, count == 1 ? "" : "s", ranks, m->nprocs);
            else
                fprintf(stderr, "gsfw-mpi %s: %s failed on rank%s %s of %d: %s\n", cmd, step,
                        count == 1 ? "" : "s", ranks, m->nprocs, msg);
        }
        fprintf(stderr, "gsfw-mpi %s: %d of %d ranks failed; every rank stops\n", cmd, failed,
                m->nprocs);
        fflush(stderr);
    }
    free(all);
    free(take);
    free(done);
    m->held[0] = '\0';
    return CLI_FAIL;
}

int mpi_problem_objective(mpi_ctx *m, const char *cmd, mpi_problem *p, const gsfw_spec *spec)
{
    gsfw_err err;
    /* the objective takes its Lipschitz bound from norm2 when the operator has one, by
     * power iteration otherwise: every rank must take the same path (the same reductions) */
    int mine = p->rows > 0 && p->op && p->op->norm2, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, m->comm);
    if (p->rows > 0 && mine != any)
        return mpi_fail(m, cmd, "the ranks' operators disagree on having a norm2 hook");
    gsfw_loss_options loss;
    p->red.comm = m->comm;
    const gsfw_reducer reducer = gsfw_mpi_reducer_timed(&p->red);
    gsfw_spec_loss(spec, &reducer, &loss);
    if (p->rows == 0) {
        /* a zero row with target 0 must add exactly 0 to every sum (true of the residual
         * losses; the logistic loss of a zero row is log 2) */
        if (!gsfw_loss_zero_row_free(&loss))
            return mpi_fail(m, cmd, "this rank holds none of the %d rows, which the %s loss "
                            "cannot stand in for; run with at most %d ranks", p->n,
                            gsfw_spec_entry(spec, GSFW_KIND_LOSS)->name, p->n);
        if (gsfw_mpi_zero_operator(p->d, any, &p->op, &err))
            return mpi_fail(m, cmd, "%s", err.message);
        free(p->y);
        p->y = calloc(1, sizeof(double));
        if (!p->y) return mpi_fail(m, cmd, "out of memory");
    }
    if (gsfw_objective_linear(p->op, p->op->n, p->y, &loss, &p->obj, &err))
        return mpi_fail(m, cmd, "rows %d..%d (numbered from 0 within the block in what "
                        "follows): %s", p->row0, p->row0 + p->rows - 1, err.message);
    return CLI_OK;
}

void mpi_problem_free(mpi_problem *p)
{
    gsfw_dmo_free(p->tail);
    gsfw_dmo_free(p->dmo);
    gsfw_graph_free(p->graph);
    gsfw_tree_free(p->tree);
    gsfw_objective_free(p->obj);
    gsfw_operator_free(p->op);
    gsfw_operator_free(p->base);
    free(p->block);
    free(p->y);
    memset(p, 0, sizeof *p);
}

int mpi_parse_oracle_flag(const char *cmd, const char *text, int *on_root)
{
    *on_root = 0;
    if (!text || !strcmp(text, "all")) return CLI_OK;
    if (!strcmp(text, "root")) {
        *on_root = 1;
        return CLI_OK;
    }
    return cli_usage_error(cmd, "--oracle must be all or root, got '%s'", text);
}

/* The arrays of *s for d unknowns and iters iterations; collective (agreed). */
static int solution_alloc(mpi_ctx *m, const char *cmd, int d, int iters, int polish,
                          mpi_solution *s)
{
    memset(s, 0, sizeof *s);
    s->x_last = malloc((size_t)d * sizeof(double));
    s->x_best = malloc((size_t)d * sizeof(double));
    if (polish) s->x_pol = malloc((size_t)d * sizeof(double));
    s->trace = malloc(((size_t)iters + 1) * sizeof(gsfw_iterate));
    int local = (!s->x_last || !s->x_best || (polish && !s->x_pol) || !s->trace)
                    ? mpi_fail(m, cmd, "out of memory for %d iterations of dimension %d", iters,
                               d)
                    : CLI_OK;
    s->res = (gsfw_result){.x_best = s->x_best, .x_last = s->x_last, .trace = s->trace,
                           .trace_capacity = iters + 1, .x_polished = s->x_pol};
    return mpi_agree(m, cmd, "allocating the outputs", local);
}

void mpi_solution_free(mpi_solution *s)
{
    free(s->x_last);
    free(s->x_best);
    free(s->x_pol);
    free(s->trace);
    memset(s, 0, sizeof *s);
}

int mpi_run(mpi_ctx *m, const char *cmd, mpi_problem *p, const mpi_run_opts *o,
            mpi_solution *s)
{
    gsfw_settings set;
    gsfw_spec_settings(o->spec, &set);
    int rc = solution_alloc(m, cmd, p->d, set.max_iter, set.polish, s);
    if (rc) return rc;
    gsfw_info *info = &s->info;
    gsfw_err err;
    gsfw_error e = GSFW_OK;
    gsfw_dmo *dmo_run = p->dmo, *tail_run = p->tail, *dmo_root = NULL, *tail_root = NULL;
    if (o->oracle_on_root) {
        e = gsfw_mpi_dmo_root(p->dmo, &m->comm, &dmo_root, &err);
        if (!e && p->tail) e = gsfw_mpi_dmo_root(p->tail, &m->comm, &tail_root, &err);
        dmo_run = dmo_root;
        tail_run = p->tail ? tail_root : NULL;
    }
    gsfw_mpi_stop stop = {m->comm, m->rank, set.time_limit, NULL, NULL, 0};
    set.time_limit = 0.0; /* each rank's own clock would stop the ranks at different iterates */
    set.x0 = o->x0;
    set.x_true = o->x_true;
    if (o->L > 0) set.L = o->L;
    set.callback = gsfw_mpi_stop_callback;
    set.callback_data = &stop;
    if (!e) e = gsfw_spec_solve(o->spec, p->obj, dmo_run, tail_run, &set, &s->res, info, &err);
    gsfw_dmo_free(dmo_root);
    gsfw_dmo_free(tail_root);
    if (e) {
        /* peers may be blocked in a collective this rank will never join */
        const char *msg = err.message[0] ? err.message : gsfw_error_message(e);
        mpi_fail(m, cmd, "%s", msg);
        mpi_flush_held(m, cmd);
        MPI_Abort(m->comm, CLI_FAIL);
        return CLI_FAIL;
    }
    /* every decision was collective, so every rank ends at the same iterate: checked */
    int it[2] = {info->iterations, -info->iterations}, ext[2];
    MPI_Allreduce(it, ext, 2, MPI_INT, MPI_MAX, m->comm);
    if (ext[0] != -ext[1]) {
        mpi_fail(m, cmd, "the ranks stopped at different iterations (%d to %d)", -ext[1], ext[0]);
        mpi_flush_held(m, cmd);
        MPI_Abort(m->comm, CLI_FAIL);
        return CLI_FAIL;
    }
    /* the time limit stops the ranks through the callback, whose stops the baselines'
     * check of the answer leaves alone: run it here, on every rank (it sums over them);
     * a failed check leaves the status as it was */
    int unbounded = 0;
    if (stop.reason == 2 && gsfw_spec_is_baseline(o->spec) &&
        !gsfw_baseline_answer_unbounded(p->obj, &s->res, &unbounded, &err) && unbounded)
        info->status = GSFW_STATUS_UNBOUNDED;
    s->status = stop.reason == 2 && info->status != GSFW_STATUS_UNBOUNDED
                    ? "time_limit"
                    : gsfw_status_name(info->status);
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
    } else if (cli_commit_group(files, 3, &err)) {
        rc = mpi_fail(m, cmd, "%s", err.message);
    }
    return rc;
}
