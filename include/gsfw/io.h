/* Files: .npy, Matrix Market, edge lists. Included by gsfw.h. */
#ifndef GSFW_IO_H
#define GSFW_IO_H

#include "gsfw/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* .npy (format 1.0/2.0/3.0), float64 little-endian, C or Fortran order, 1-D or 2-D.
 * *data is returned in C (row-major) order and freed with gsfw_free. shape[1] = 1 for
 * 1-D arrays; *ndim tells which. */
GSFW_API gsfw_error gsfw_npy_read(const char *path, double **data, int *ndim, int shape[2],
                         gsfw_err *err);
/* Writes through a temporary file renamed into place (no partial file on failure). */
GSFW_API gsfw_error gsfw_npy_write(const char *path, const double *data, int ndim, const int shape[2],
                          gsfw_err *err);

/* .npy of any common numeric dtype, converted to double: float64, float32, int8/16/32/64,
 * uint8/16/32/64, either byte order, C or Fortran order, 1-D or 2-D. Otherwise as
 * gsfw_npy_read (which keeps accepting float64 only). Integers above 2^53 in magnitude
 * are rounded to the nearest double. *data freed with gsfw_free. */
GSFW_API gsfw_error gsfw_npy_read_numeric(const char *path, double **data, int *ndim, int shape[2],
                                          gsfw_err *err);
/* Matrix Market coordinate file ("%%MatrixMarket matrix coordinate real|integer|pattern
 * general|symmetric|skew-symmetric") as 0-based triplets: *n rows, *d columns, *nnz
 * entries (pattern entries are 1; a symmetric file's off-diagonal entries are mirrored,
 * a skew-symmetric file's mirrored and negated, so *nnz counts both). Refuses array format, complex and hermitian fields, indices past the header's
 * size, non-finite values and a header whose entry count is wrong. Arrays freed with
 * gsfw_free (the three are NULL when *nnz is 0). */
GSFW_API gsfw_error gsfw_mtx_read(const char *path, int *n, int *d, long *nnz, int **rows, int **cols,
                                  double **vals, gsfw_err *err);

/* Edge list: one "u v" or "u v cost" per line, 0-based ids, '#' comments and blank lines
 * allowed; all lines must have the same number of fields. *cost is NULL when the file has
 * no costs. When n >= 0, ids must be < n. Arrays freed with gsfw_free. */
GSFW_API gsfw_error gsfw_edges_read(const char *path, int n, int *m, int **u, int **v, double **cost,
                           gsfw_err *err);

/* Images: the library reads and writes no image format. The command-line tools read and
 * write PNG (with libpng); a program using the library passes pixels as a row-major
 * array of doubles (gsfw_npy_read for a .npy file, or any image library). */

#ifdef __cplusplus
}
#endif

#endif /* GSFW_IO_H */
