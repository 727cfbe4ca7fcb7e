/* Row-distributed solves over MPI (built into gsfw-mpi only: libgsfw does not link MPI).
 *
 * The rows of the sensing operator A (and of y) are split into contiguous blocks, one per
 * rank; every rank keeps the whole d-vector x. The linear objective sends each sum over
 * rows through a gsfw_reducer, so with the reducer below every rank computes the same
 * value and gradient, bit for bit, and the solver then takes the same decisions on every
 * rank without further communication. What is not a function of reduced numbers (the
 * clock, a user's callback) is agreed by the stop callback below.
 *
 * Every function here is collective over comm unless it says otherwise: all ranks call it
 * in the same order. */
#ifndef GSFW_MPI_H
#define GSFW_MPI_H

#include <mpi.h>

#include "gsfw.h"

/* ---- row blocks (local, no communication) */

/* The rows rank `rank` of `nprocs` holds of an n-row operator: row0 .. row0 + rows - 1
 * with row0 = floor(rank n / nprocs). Block sizes differ by at most one; with n < nprocs
 * some ranks hold no rows (rows = 0). */
void gsfw_mpi_row_block(int n, int nprocs, int rank, int *row0, int *rows);

/* ---- the reducer */

/* A gsfw_reducer summing over the ranks of comm: MPI_Reduce to rank 0, then MPI_Bcast of
 * rank 0's sums, so every rank receives the same bits (MPI_Allreduce does not promise
 * that; some of its algorithms add the contributions in a rank-dependent order). The
 * communicator is borrowed. */
gsfw_reducer gsfw_mpi_reducer(MPI_Comm *comm);

/* Seconds and calls spent in the reducer (for the per-iteration split of bench/). */
typedef struct {
    MPI_Comm comm;
    double seconds;
    long calls;
    long doubles;
} gsfw_mpi_reducer_stats;
/* The same reducer that also accumulates its time into *stats (stats->comm is used). */
gsfw_reducer gsfw_mpi_reducer_timed(gsfw_mpi_reducer_stats *stats);

/* ---- operators for a rank's block */

/* A 1 x d operator whose products are all zero: the stand-in for a rank that holds no
 * rows (the linear objective needs n >= 1; a zero row with target 0 adds exactly 0 to
 * every sum of the squared and Huber losses). with_norm2 = 1 gives it a norm2 hook
 * returning 0, to match ranks whose operators have one (the objective takes its
 * Lipschitz estimate from norm2 when present, else by power iteration, and all ranks
 * must take the same path). */
gsfw_error gsfw_mpi_zero_operator(int d, int with_norm2, gsfw_operator **out, gsfw_err *err);

/* Rows row0 .. row0 + rows - 1 (rows >= 1) of the operator A (borrowed): each product
 * runs A's full product into scratch and keeps or pads the block, so it costs one product
 * of A (meant for fast transforms, whose rows cannot be generated one by one). norm2:
 * the block holding row 0 reports A's norm2 and the others 0, so that the sum over ranks,
 * which the linear objective takes, is A's bound (and the Lipschitz estimate, hence the
 * iterates, do not depend on the number of ranks). */
gsfw_error gsfw_mpi_row_select(const gsfw_operator *A, int row0, int rows, gsfw_operator **out,
                               gsfw_err *err);

/* ---- reading a block of rows (local) */

/* Shape of a .npy file (1-D: shape[1] = 1) from its header, and the checks that let a
 * rank seek into it: a supported dtype (float64/32, int8..64, uint8..64, either byte
 * order) and a file size matching the header. */
gsfw_error gsfw_mpi_npy_shape(const char *path, int *ndim, int shape[2], gsfw_err *err);
/* Rows row0 .. row0 + rows - 1 of a .npy matrix (or entries of a vector) as doubles in
 * row-major order (rows x cols): reads only those rows (C order: one seek; Fortran order:
 * one seek per column). *block is malloc'ed (free()); rows = 0 gives NULL. */
gsfw_error gsfw_mpi_npy_read_rows(const char *path, int row0, int rows, double **block,
                                  int shape[2], gsfw_err *err);
/* The entries of the block of rows gsfw_mpi_row_block gives rank `rank` of `nprocs` for
 * a Matrix Market coordinate file (real, integer or pattern; general, symmetric or
 * skew-symmetric; checked as gsfw_mtx_read does), as
 * triplets with rows relative to *row0; *n and *d are the whole matrix's size, *rows the
 * block's. Streams the file: only the block's entries are kept. Arrays malloc'ed (free();
 * NULL when the block has no entries). */
gsfw_error gsfw_mpi_mtx_read_block(const char *path, int rank, int nprocs, int *n, int *d,
                                   int *row0, int *rows, long *nnz, int **ri, int **ci,
                                   double **val, gsfw_err *err);

/* ---- collective decisions */

/* 1 on every rank when ok != 0 on every rank, else 0 on every rank; *failed (may be
 * NULL) receives the number of ranks that passed ok = 0. */
int gsfw_mpi_agree(MPI_Comm comm, int ok, int *failed);

/* The stop rule of a distributed solve, evaluated inside the solver's callback once per
 * iterate: each rank's user callback may ask to stop, rank 0 alone reads the clock
 * against time_limit, and one MPI_Allreduce (MAX) of the verdict makes every rank stop at
 * the same iterate. Pass the solver time_limit = 0 and callback = gsfw_mpi_stop_callback
 * with callback_data = this struct. */
typedef struct {
    MPI_Comm comm;
    int rank;
    double time_limit;    /* seconds, <= 0 for none (rank 0's clock) */
    gsfw_callback user;   /* optional */
    void *user_data;
    int reason;           /* out: 0 running, 1 a user callback, 2 the time limit */
} gsfw_mpi_stop;
int gsfw_mpi_stop_callback(const gsfw_iterate *it, const double *x, void *data);

/* A DMO that runs `inner` (borrowed) on rank 0 only and broadcasts the support and the
 * call's statistics; reset and contains run locally. For oracles whose answer could
 * differ between ranks (not the built-in ones, which are deterministic functions of z),
 * or to measure the broadcast against running the oracle on every rank. */
gsfw_error gsfw_mpi_dmo_root(gsfw_dmo *inner, MPI_Comm *comm, gsfw_dmo **out, gsfw_err *err);

#endif
