/* gsfw-mpi: the pieces shared by its subcommands (solve, recover). */
#ifndef GSFW_MPI_CLI_H
#define GSFW_MPI_CLI_H

#include "cli.h"
#include "params.h"
#include "mpi/gsfw_mpi.h"

#define MPI_HELD_MESSAGE 512

typedef struct {
    MPI_Comm comm;
    int rank, nprocs;
    int saved_stdout, saved_stderr; /* while quiet: the real descriptors */
    char held[MPI_HELD_MESSAGE];    /* this rank's failure, until the ranks agree */
} mpi_ctx;

int mpi_cmd_solve(mpi_ctx *m, int argc, char **argv);
int mpi_cmd_recover(mpi_ctx *m, int argc, char **argv);
int mpi_cmd_bench_reduce(mpi_ctx *m, int argc, char **argv);

/* Ranks other than 0 send stdout and stderr to /dev/null between quiet_begin and
 * quiet_end (argument checks, which give the same verdict on every rank). */
void mpi_quiet_begin(mpi_ctx *m);
void mpi_quiet_end(mpi_ctx *m);

/* This rank's failure: held until mpi_agree, where rank 0 prints each distinct message
 * once with the ranks that gave it (or printed by mpi_flush_held). Returns CLI_FAIL. */
int mpi_fail(mpi_ctx *m, const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* After a setup step that may fail on some ranks: every rank learns whether all
 * succeeded; rank 0 prints the failures, one line per distinct message naming the ranks
 * ("gsfw-mpi solve: reading --A failed on ranks 0-3 of 4: ..."). Returns CLI_OK on every
 * rank, or CLI_FAIL on every rank. rc is this rank's result. */
int mpi_agree(mpi_ctx *m, const char *cmd, const char *step, int rc);

/* The ranks flagged in take[0..k) as "0-3, 5" in out (cut to cap); returns how many. */
int mpi_rank_list(const char *take, int k, char *out, size_t cap);

/* Print a held failure now, as "gsfw-mpi CMD [rank r of K]: message" (before MPI_Abort,
 * and at exit for a failure no agreement collected). */
void mpi_flush_held(mpi_ctx *m, const char *cmd);

/* The local rows of a distributed problem: the block operator (a zero stand-in on a
 * rank without rows), its targets, and the objective over them with the MPI reducer. */
typedef struct {
    int n, d, row0, rows;
    gsfw_operator *op;    /* the block, or the zero operator */
    gsfw_operator *base;  /* a full operator behind a row selection, or NULL */
    double *block;        /* dense storage the operator borrows, or NULL */
    double *y;            /* rows entries (1 zero entry on a rank without rows) */
    gsfw_objective *obj;
    gsfw_mpi_reducer_stats red;
    gsfw_graph *graph;    /* the model's graph, or NULL */
    gsfw_tree *tree;      /* the model's tree, or NULL */
    gsfw_dmo *dmo, *tail; /* the method's oracles (tail: a baseline's, or NULL) */
} mpi_problem;

/* Build the objective over p->op and p->y (p->rows = 0 selects the zero stand-in here,
 * with a norm2 hook when the other ranks' operators have one). Collective (one
 * allreduce); failures printed and CLI_FAIL returned (agree afterwards). */
int mpi_problem_objective(mpi_ctx *m, const char *cmd, mpi_problem *p, const gsfw_spec *spec);
void mpi_problem_free(mpi_problem *p);

/* One run of a Frank-Wolfe method or baseline with the collective stop rule. */
typedef struct {
    const gsfw_spec *spec; /* the method, its settings (time_limit: rank 0's clock decides,
                              for every rank) */
    const double *x0, *x_true; /* NULL when not given */
    double L;              /* > 0: overrides the spec's (gsfw-mpi recover's estimate) */
    int oracle_on_root;    /* 1: the DMO runs on rank 0 and is broadcast */
    FILE *summary;         /* solve: rank 0's summary line (stderr when an output is '-') */
} mpi_run_opts;

/* --oracle all|root (text may be NULL: all). Returns CLI_OK or CLI_USAGE. */
int mpi_parse_oracle_flag(const char *cmd, const char *text, int *on_root);

/* What a run returns, on every rank. */
typedef struct {
    double *x_last, *x_best, *x_pol; /* x_pol: with polish only */
    gsfw_iterate *trace;             /* iters + 1 rows */
    gsfw_result res;                 /* over the arrays above */
    gsfw_info info;
    const char *status; /* the reported status name (time_limit when the collective
                           clock stopped the run) */
} mpi_solution;

void mpi_solution_free(mpi_solution *s);

/* Allocates *s (free it with mpi_solution_free, also after a failure; collective:
 * agreed) and runs the solve over p's objective and oracles. A failure inside the solve
 * (which the ranks may not all see) ends every rank through MPI_Abort after printing the
 * message, so no rank waits for a peer. */
int mpi_run(mpi_ctx *m, const char *cmd, mpi_problem *p, const mpi_run_opts *o,
            mpi_solution *s);

/* Rank 0: --out (x_last), --best-out (x_best), --trace (paths[0..2], NULL to skip),
 * written together through temporaries (none is left behind on failure). */
int mpi_write_outputs(mpi_ctx *m, const char *cmd, const char *const paths[3],
                      const double *x_last, const double *x_best, int d,
                      const gsfw_iterate *trace, int trace_len, int with_est_err);

#endif
