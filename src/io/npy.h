/* Internal .npy helpers beyond the public reader/writer. */
#ifndef GSFW_NPY_H
#define GSFW_NPY_H

#include <stdio.h>

#include "gsfw.h"

/* Write a float64 .npy (version 1.0, C order) to an open stream; path only names the
 * file in messages. Lets callers commit several outputs together (src/io/atomic.h). */
gsfw_error gsfw_npy_write_stream(FILE *fp, const char *path, const double *data, int ndim,
                                 const int shape[2], gsfw_err *err);

/* gsfw_npy_read on an open stream, from its current position (which must be the start
 * of the .npy data; a pipe works, its length is then learnt as the data arrive); path
 * only names the file in messages. The stream is left open. */
gsfw_error gsfw_npy_read_stream(FILE *fp, const char *path, double **data, int *ndim,
                                int shape[2], gsfw_err *err);

#endif
