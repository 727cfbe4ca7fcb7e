/* The .npy format (npy_header.c), shared by its reader (npy_read.c) and writer
 * (npy_write.c). Not part of the public API. */
#ifndef GSFW_NPY_FORMAT_H
#define GSFW_NPY_FORMAT_H

#include <stddef.h>

#include "core/internal.h"

/* "\x93NUMPY" */
extern const unsigned char gsfw_npy_magic[6];

/* Headers larger than this are rejected before allocation. NumPy itself refuses headers
 * above 10000 bytes by default; this bound is far above anything a 1-D/2-D float64
 * array needs while keeping a corrupt length field from causing a giant allocation. */
#define NPY_MAX_HEADER_LEN ((size_t)1 << 20)

/* Longest excerpt of header text (dtype, shape) quoted in error messages. */
#define NPY_QUOTE_MAX 64

/* What the header dict says; pointers point into the header buffer. */
typedef struct {
    const char *descr;      /* dtype string without quotes (NULL: not a string) */
    size_t descr_len;
    int have_descr, have_fortran, have_shape;
    int fortran_order;
    int ndim;               /* number of entries of the shape tuple */
    unsigned long long dim[2];
    int dim_too_large;      /* some entry exceeds INT_MAX */
    const char *shape_text; /* "(...)" as written, for messages */
    size_t shape_len;
} npy_header;

/* How the values of an array are stored: float64 little-endian for gsfw_npy_read, any
 * of the numeric dtypes below for gsfw_npy_read_numeric. */
typedef enum { NUM_FLOAT, NUM_INT, NUM_UINT } num_kind;
typedef struct {
    num_kind kind;
    int size;        /* bytes per value: 1, 2, 4 or 8 */
    int big_endian;
} npy_dtype;
extern const npy_dtype gsfw_npy_f8_le; /* '<f8' */

/* Parse the header dict text[0..len) into *h (bounds-checked; path names the file). */
gsfw_error gsfw_npy_parse_header(const char *path, const char *text, size_t len, npy_header *h,
                                 gsfw_err *err);
/* Check dtype and shape; on success *rows, *cols and *count describe the array and *dt
 * how its values are stored (numeric: any numeric dtype, else float64 only). */
gsfw_error gsfw_npy_check_header(const char *path, const npy_header *h, int numeric,
                                 npy_dtype *dt, int *rows, int *cols, size_t *count,
                                 gsfw_err *err);

#endif
