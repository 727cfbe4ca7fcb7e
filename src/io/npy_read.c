/* Reading .npy files (the public gsfw_npy_read, gsfw_npy_read_numeric): the reader
 * trusts nothing in the file. Sizes are overflow-checked and compared with the file size
 * before anything large is allocated, so a malformed or hostile file yields an error
 * message, never an out-of-bounds access or a huge allocation. Data are decoded byte by
 * byte as little-endian (or the dtype's order), so the code is also correct on big-endian
 * hosts. */
#include "io/npy_format.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "io/npy.h"

static uint64_t load_le64(const unsigned char *b)
{
    uint64_t u = 0;
    for (int k = 7; k >= 0; k--) u = (u << 8) | b[k];
    return u;
}

/* Reinterpret, in place, the little-endian bytes of x[0..n) as host doubles (a no-op
 * that compilers remove on little-endian hosts). */
static void decode_le_in_place(double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char b[8];
        memcpy(b, &x[i], 8);
        uint64_t u = load_le64(b);
        memcpy(&x[i], &u, 8);
    }
}

/* Convert, in place, count values of dtype dt (raw file bytes at the start of x) to host
 * doubles. Walks backwards: value k is loaded from bytes [k size, (k + 1) size) before
 * x[k] (bytes [8k, 8k + 8)) is stored, and a later store never reaches an earlier value's
 * bytes, since size <= 8. */
static void decode_numeric_in_place(double *x, size_t count, npy_dtype dt)
{
    const unsigned char *bytes = (const unsigned char *)x;
    for (size_t k = count; k-- > 0;) {
        const unsigned char *b = bytes + k * (size_t)dt.size;
        uint64_t u = 0;
        for (int q = 0; q < dt.size; q++) {
            int at = dt.big_endian ? q : dt.size - 1 - q;
            u = (u << 8) | b[at];
        }
        double v;
        if (dt.kind == NUM_FLOAT && dt.size == 8) {
            memcpy(&v, &u, 8);
        } else if (dt.kind == NUM_FLOAT) {
            uint32_t w = (uint32_t)u;
            float f;
            memcpy(&f, &w, 4);
            v = (double)f;
        } else if (dt.kind == NUM_UINT) {
            v = (double)u;
        } else {
            /* sign-extend the size-byte two's complement value */
            int shift = 64 - 8 * dt.size;
            uint64_t ext = shift ? (u << shift) : u;
            int64_t sv;
            memcpy(&sv, &ext, 8);
            v = (double)(shift ? sv >> shift : sv);
        }
        x[k] = v;
    }
}

/* Read exactly n bytes; returns the number read (short only at EOF or on error). */
static size_t read_bytes(FILE *fp, void *buf, size_t n)
{
    return n ? fread(buf, 1, n, fp) : 0;
}

/* Error for a short read: a read error when the stream says so, else truncation. */
static gsfw_error short_read(const char *path, FILE *fp, const char *where, gsfw_err *err)
{
    if (ferror(fp))
        return gsfw_fail(err, GSFW_ERR_IO, "error reading '%s': %s", path, strerror(errno));
    return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is truncated %s", path, where);
}

/* Read the preamble and the header text (NUL-terminated, malloc'ed into *text). */
static gsfw_error read_preamble_and_header(const char *path, FILE *fp, long long file_size,
                                           char **text, size_t *text_len, size_t *data_offset,
                                           gsfw_err *err)
{
    unsigned char pre[8];
    size_t got = read_bytes(fp, pre, sizeof pre);
    if (got == 0 && !ferror(fp))
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is empty", path);
    if (got < sizeof gsfw_npy_magic || memcmp(pre, gsfw_npy_magic, sizeof gsfw_npy_magic) != 0) {
        if (ferror(fp)) return short_read(path, fp, "", err);
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is not a .npy file (bad magic string)",
                         path);
    }
    if (got < sizeof pre) return short_read(path, fp, "in its preamble", err);
    int major = pre[6], minor = pre[7];
    if (major < 1 || major > 3 || minor != 0)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has .npy format version %d.%d; only "
                         "1.0, 2.0 and 3.0 are supported", path, major, minor);

    unsigned char lenb[4];
    size_t len_size = major == 1 ? 2 : 4;
    if (read_bytes(fp, lenb, len_size) != len_size)
        return short_read(path, fp, "in its preamble", err);
    size_t hlen = major == 1 ? (size_t)lenb[0] | (size_t)lenb[1] << 8
                             : (size_t)lenb[0] | (size_t)lenb[1] << 8 |
                                   (size_t)lenb[2] << 16 | (size_t)lenb[3] << 24;
    size_t offset = sizeof pre + len_size;
    if (file_size >= 0 && (unsigned long long)hlen > (unsigned long long)file_size - offset)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is truncated: the header length is %zu "
                         "bytes but only %lld bytes follow the preamble", path, hlen,
                         file_size - (long long)offset);
    if (hlen > NPY_MAX_HEADER_LEN)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has an implausible header length of %zu "
                         "bytes (at most %zu are accepted)", path, hlen, NPY_MAX_HEADER_LEN);

    char *buf = malloc(hlen + 1);
    if (!buf) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading '%s'", path);
    if (read_bytes(fp, buf, hlen) != hlen) {
        free(buf);
        return short_read(path, fp, "in its header", err);
    }
    buf[hlen] = '\0';
    *text = buf;
    *text_len = hlen;
    *data_offset = offset + hlen;
    return GSFW_OK;
}

/* Read count doubles of data (file order) into a fresh array. */
static gsfw_error read_data(const char *path, FILE *fp, long long remaining, size_t count,
                            npy_dtype dt, double **out, gsfw_err *err)
{
    size_t need = count * (size_t)dt.size; /* no overflow: checked by check_header */
    /* Compare with the file size first, so a corrupt shape cannot trigger a huge
     * allocation before the truncation is noticed. */
    if (remaining >= 0 && (unsigned long long)remaining < (unsigned long long)need)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is truncated: expected %zu bytes of data, "
                         "found %lld", path, need, remaining);
    /* numpy writes nothing after the data: extra bytes mean a damaged file or a header
     * whose shape is wrong, which would otherwise be read as a smaller array */
    if (remaining >= 0 && (unsigned long long)remaining > (unsigned long long)need)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has %lld bytes of data where its header's "
                         "shape accounts for %zu (%zu values): the file is damaged or its "
                         "header is wrong", path, remaining, need, count);
    /* A regular file holds exactly need bytes (checked above): one allocation. Through a
     * pipe the size is unknown, so the array grows as the data arrive (a header that
     * promises more than is sent must not allocate it all first). */
    const size_t first_chunk = (size_t)1 << 16;
    size_t cap = remaining >= 0 || need < first_chunk ? need : first_chunk, got = 0;
    double *x = malloc(cap ? cap : 1);
    while (x && got < need) {
        if (got == cap) {
            size_t grown = 2 * cap < need ? 2 * cap : need;
            double *t = realloc(x, grown);
            if (!t) {
                free(x);
                x = NULL;
                break;
            }
            x = t;
            cap = grown;
        }
        size_t r = read_bytes(fp, (char *)x + got, cap - got);
        got += r;
        if (r == 0) break;
    }
    if (!x)
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading %zu values from '%s'",
                         count, path);
    if (remaining < 0 && got == need && getc(fp) != EOF) {
        free(x);
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has more data than its header's shape "
                         "accounts for (%zu bytes, %zu values): the file is damaged or its "
                         "header is wrong", path, need, count);
    }
    if (got != need) {
        int e = errno;
        int failed = ferror(fp);
        free(x);
        if (failed)
            return gsfw_fail(err, GSFW_ERR_IO, "error reading '%s': %s", path, strerror(e));
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is truncated: expected %zu bytes of data, "
                         "found %zu", path, need, got);
    }
    if (dt.kind == NUM_FLOAT && dt.size == 8 && !dt.big_endian) {
        decode_le_in_place(x, count);
    } else {
        /* room for count doubles, then widen the values in place */
        double *wide = need < count * sizeof(double) ? realloc(x, count * sizeof(double)) : x;
        if (!wide) {
            free(x);
            return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading %zu values from '%s'",
                             count, path);
        }
        x = wide;
        decode_numeric_in_place(x, count, dt);
    }
    *out = x;
    return GSFW_OK;
}

/* Column-major rows x cols -> row-major, into a new array (frees the input). */
static gsfw_error fortran_to_c(double **x, int rows, int cols, const char *path, gsfw_err *err)
{
    size_t n = (size_t)rows * (size_t)cols;
    double *t = gsfw_malloc_array(n, sizeof(double));
    if (!t) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading '%s'", path);
    const double *src = *x;
    for (size_t j = 0; j < (size_t)cols; j++)
        for (size_t i = 0; i < (size_t)rows; i++) t[i * (size_t)cols + j] = src[j * (size_t)rows + i];
    free(*x);
    *x = t;
    return GSFW_OK;
}

static gsfw_error read_stream(FILE *fp, const char *path, int numeric, double **data, int *ndim,
                              int shape[2], gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!fp || !path || !data || !ndim || !shape)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "npy read: %s is NULL",
                         !fp ? "the stream" : !path ? "path" : !data ? "data"
                         : !ndim ? "ndim" : "shape");
    *data = NULL;

    /* The size of a regular file bounds every length in it (-1: unknown, e.g. a pipe). */
    struct stat st;
    long long file_size = -1;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode)) {
        long pos = ftell(fp);
        file_size = (long long)st.st_size - (pos > 0 ? pos : 0);
    }

    char *text = NULL;
    size_t text_len = 0, offset = 0, count = 0;
    int rows = 0, cols = 0;
    npy_header h;
    memset(&h, 0, sizeof h);
    npy_dtype dt = gsfw_npy_f8_le;
    double *x = NULL;
    gsfw_error rc = read_preamble_and_header(path, fp, file_size, &text, &text_len, &offset, err);
    if (!rc) rc = gsfw_npy_parse_header(path, text, text_len, &h, err);
    if (!rc) rc = gsfw_npy_check_header(path, &h, numeric, &dt, &rows, &cols, &count, err);
    if (!rc)
        rc = read_data(path, fp, file_size >= 0 ? file_size - (long long)offset : -1, count, dt,
                       &x, err);
    if (!rc && h.ndim == 2 && h.fortran_order && rows > 1 && cols > 1)
        rc = fortran_to_c(&x, rows, cols, path, err);
    free(text);
    if (rc) {
        free(x);
        return rc;
    }
    *data = x;
    *ndim = h.ndim;
    shape[0] = rows;
    shape[1] = cols;
    return GSFW_OK;
}

gsfw_error gsfw_npy_read_stream(FILE *fp, const char *path, double **data, int *ndim,
                                int shape[2], gsfw_err *err)
{
    return read_stream(fp, path, 0, data, ndim, shape, err);
}

static gsfw_error read_file(const char *path, int numeric, double **data, int *ndim,
                            int shape[2], gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!path || !data || !ndim || !shape)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "npy read: %s is NULL",
                         !path ? "path" : !data ? "data" : !ndim ? "ndim" : "shape");
    *data = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp) return gsfw_fail(err, GSFW_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    gsfw_error rc = read_stream(fp, path, numeric, data, ndim, shape, err);
    fclose(fp);
    return rc;
}

gsfw_error gsfw_npy_read(const char *path, double **data, int *ndim, int shape[2],
                         gsfw_err *err)
{
    return read_file(path, 0, data, ndim, shape, err);
}

gsfw_error gsfw_npy_read_numeric(const char *path, double **data, int *ndim, int shape[2],
                                 gsfw_err *err)
{
    return read_file(path, 1, data, ndim, shape, err);
}
