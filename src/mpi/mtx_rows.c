/* Reading the entries of one block of rows of a Matrix Market coordinate file: the
 * library's parser (src/io/mtx.c, every check of `gsfw solve --A FILE.mtx`) keeping only
 * the block's rows. */
#include "mpi/gsfw_mpi.h"

#include "core/internal.h"
#include "io/mtx.h"

typedef struct {
    int rank, nprocs;
} block_of;

static void rank_rows(int nrows, void *ctx, int *row0, int *count)
{
    const block_of *b = ctx;
    gsfw_mpi_row_block(nrows, b->nprocs, b->rank, row0, count);
}

gsfw_error gsfw_mpi_mtx_read_block(const char *path, int rank, int nprocs, int *n, int *d,
                                   int *row0_out, int *rows_out, long *nnz, int **ri,
                                   int **ci, double **val, gsfw_err *err)
{
    block_of b = {rank, nprocs};
    return gsfw_mtx_read_rows(path, rank_rows, &b, n, d, row0_out, rows_out, nnz, ri, ci, val,
                              err);
}
