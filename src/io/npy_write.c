/* Writing .npy files: version 1.0, float64 little-endian, C order, through a temporary
 * file renamed into place (gsfw_npy_write) or onto an open stream. */
#include "io/atomic.h"
#include "io/npy.h"
#include "io/npy_format.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void store_le64(unsigned char *b, uint64_t u)
{
    for (int k = 0; k < 8; k++) b[k] = (unsigned char)(u >> (8 * k));
}

/* The version 1.0 header NumPy would write, padded with spaces and a newline so that
 * the data start at a multiple of 64 bytes (lets readers memory-map aligned data).
 * Returns the total preamble + header length written into buf (cap bytes). */
static size_t build_header(unsigned char *buf, size_t cap, int ndim, const int shape[2])
{
    char dict[128];
    int n = ndim == 1 ? snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, "
                                 "'shape': (%d,), }", shape[0])
                      : snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, "
                                 "'shape': (%d, %d), }", shape[0], shape[1]);
    /* With two ints the dict is < 128 bytes; snprintf's result is checked anyway. */
    if (n < 0 || (size_t)n >= sizeof dict) return 0;
    size_t total = 10 + (size_t)n + 1;
    total = (total + 63) / 64 * 64;
    if (total > cap) return 0;
    size_t hlen = total - 10;
    memcpy(buf, gsfw_npy_magic, sizeof gsfw_npy_magic);
    buf[6] = 1;
    buf[7] = 0;
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    memcpy(buf + 10, dict, (size_t)n);
    memset(buf + 10 + n, ' ', total - 10 - (size_t)n - 1);
    buf[total - 1] = '\n';
    return total;
}

/* The array arguments of a write; *count receives the number of values. */
static gsfw_error check_write_args(const char *path, const double *data, int ndim,
                                   const int shape[2], size_t *count, gsfw_err *err)
{
    if (ndim != 1 && ndim != 2)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "npy write '%s': ndim must be 1 or 2, "
                         "got %d", path, ndim);
    if (shape[0] < 0 || (ndim == 2 && shape[1] < 0))
        return ndim == 1 ? gsfw_fail(err, GSFW_ERR_INVALID_ARG, "npy write '%s': negative "
                                     "shape (%d,)", path, shape[0])
                         : gsfw_fail(err, GSFW_ERR_INVALID_ARG, "npy write '%s': negative "
                                     "shape (%d, %d)", path, shape[0], shape[1]);
    *count = (size_t)shape[0] * (ndim == 2 ? (size_t)shape[1] : 1);
    if (*count > SIZE_MAX / sizeof(double))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "npy write '%s': array too large", path);
    if (*count > 0 && !data)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "npy write '%s': data is NULL", path);
    return GSFW_OK;
}

gsfw_error gsfw_npy_write_stream(FILE *fp, const char *path, const double *data, int ndim,
                                 const int shape[2], gsfw_err *err)
{
    if (!fp || !path || !shape)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "npy write: %s is NULL",
                         !fp ? "the stream" : !path ? "path" : "shape");
    size_t count = 0;
    gsfw_error rc = check_write_args(path, data, ndim, shape, &count, err);
    if (rc) return rc;

    unsigned char header[192];
    size_t header_len = build_header(header, sizeof header, ndim, shape);
    if (header_len == 0)
        return gsfw_fail(err, GSFW_ERR_INTERNAL, "npy write '%s': header too long", path);
    int ok = fwrite(header, 1, header_len, fp) == header_len;
    /* Encode through a small buffer so that big-endian hosts also write '<f8'. */
    unsigned char chunk[8 * 512];
    for (size_t i = 0; ok && i < count;) {
        size_t k = 0;
        for (; k < 512 && i < count; k++, i++) {
            uint64_t u;
            memcpy(&u, &data[i], 8);
            store_le64(chunk + 8 * k, u);
        }
        ok = fwrite(chunk, 8, k, fp) == k;
    }
    if (!ok) return gsfw_fail(err, GSFW_ERR_IO, "error writing '%s': %s", path, strerror(errno));
    return GSFW_OK;
}

gsfw_error gsfw_npy_write(const char *path, const double *data, int ndim, const int shape[2],
                          gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!path || !shape)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "npy write: %s is NULL",
                         !path ? "path" : "shape");
    /* Bad arguments are reported as such, before the file system is touched. */
    size_t count = 0;
    gsfw_error rc = check_write_args(path, data, ndim, shape, &count, err);
    if (rc) return rc;
    gsfw_atomic_file f;
    rc = gsfw_atomic_open(&f, path, err);
    if (rc) return rc;
    rc = gsfw_npy_write_stream(f.fp, path, data, ndim, shape, err);
    if (rc) {
        gsfw_atomic_abort(&f);
        return rc;
    }
    return gsfw_atomic_commit(&f, err);
}
