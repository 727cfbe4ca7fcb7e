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

#endif
