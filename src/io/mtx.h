/* Matrix Market reading beyond the public gsfw_mtx_read (internal). */
#ifndef GSFW_IO_MTX_H
#define GSFW_IO_MTX_H

#include "gsfw.h"

/* Picks the rows [*row0, *row0 + *count) to keep once the file's row count is known. */
typedef void (*gsfw_mtx_row_range)(int nrows, void *ctx, int *row0, int *count);

/* gsfw_mtx_read keeping only the entries (after mirroring symmetric files) whose row lies
 * in the range `range` picks (all rows when range is NULL), with rows relative to *row0;
 * the whole file is still parsed and checked. Arguments must not be NULL except range
 * and ctx. */
gsfw_error gsfw_mtx_read_rows(const char *path, gsfw_mtx_row_range range, void *ctx, int *n,
                              int *d, int *row0, int *count, long *nnz, int **rows, int **cols,
                              double **vals, gsfw_err *err);

/* gsfw_mtx_read with stop(NULL, NULL, stop_data) polled every few thousand lines: a
 * nonzero return ends the read with GSFW_ERR_CALLBACK (nothing is returned). */
gsfw_error gsfw_mtx_read_stoppable(const char *path, gsfw_callback stop, void *stop_data, int *n,
                                   int *d, long *nnz, int **rows, int **cols, double **vals,
                                   gsfw_err *err);

/* The banner and size line alone: n x d, and *entries, the entries the matrix will hold
 * as the header declares them (twice the stored ones for a mirrored triangle, at most
 * LONG_MAX; not clamped to an int, so a message can quote an absurd count as declared), so
 * that a reader can check and budget before reading them. */
gsfw_error gsfw_mtx_read_size(const char *path, int *n, int *d, long *entries, gsfw_err *err);

#endif
