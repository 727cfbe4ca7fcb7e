/* Reading one block of rows of a .npy file: header parsed here, then one seek (C order)
 * or one seek per column (Fortran order), so no rank ever reads the whole matrix. */
#include "mpi/gsfw_mpi.h"

#include "core/internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    char kind;     /* 'f', 'i', 'u' */
    int size;      /* bytes per item */
    int swap;      /* big-endian data */
    int fortran;
    int ndim;
    long shape[2];
    long offset;   /* start of the data */
} npy_header;

static const char *find_key(const char *h, const char *key)
{
    const char *p = strstr(h, key);
    if (!p) return NULL;
    p += strlen(key);
    while (*p == ' ' || *p == '\'' || *p == '"' || *p == ':') p++;
    return p;
}

static gsfw_error parse_header(FILE *fp, const char *path, npy_header *h, gsfw_err *err)
{
    unsigned char pre[12];
    if (fread(pre, 1, 10, fp) != 10 || memcmp(pre, "\x93NUMPY", 6))
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is not a .npy file (no NUMPY magic)", path);
    long hlen, start;
    if (pre[6] == 1) {
        hlen = pre[8] | (long)pre[9] << 8;
        start = 10;
    } else if (pre[6] == 2 || pre[6] == 3) {
        if (fread(pre + 10, 1, 2, fp) != 2)
            return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': truncated .npy header", path);
        hlen = pre[8] | (long)pre[9] << 8 | (long)pre[10] << 16 | (long)pre[11] << 24;
        start = 12;
    } else {
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': unsupported .npy version %d", path, pre[6]);
    }
    if (hlen < 1 || hlen > 1 << 20)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': .npy header length %ld is implausible",
                         path, hlen);
    char *text = malloc((size_t)hlen + 1);
    if (!text) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory");
    if (fread(text, 1, (size_t)hlen, fp) != (size_t)hlen) {
        free(text);
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': truncated .npy header", path);
    }
    text[hlen] = '\0';
    gsfw_error rc = GSFW_OK;
    const char *descr = find_key(text, "descr"), *fo = find_key(text, "fortran_order"),
               *shape = find_key(text, "shape");
    if (!descr || !fo || !shape) {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': .npy header without descr, fortran_order "
                       "or shape", path);
        goto done;
    }
    char order = descr[0], kind = descr[1];
    int size = (int)strtol(descr + 2, NULL, 10);
    int ok_kind = (kind == 'f' && (size == 4 || size == 8)) ||
                  ((kind == 'i' || kind == 'u') &&
                   (size == 1 || size == 2 || size == 4 || size == 8));
    if (!ok_kind || (order != '<' && order != '>' && order != '|')) {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': unsupported .npy dtype '%.8s' (float64, "
                       "float32 or an integer type)", path, descr);
        goto done;
    }
    h->kind = kind;
    h->size = size;
    h->swap = order == '>' && size > 1;
    h->fortran = !strncmp(fo, "True", 4);
    if (*shape != '(') {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': malformed shape in the .npy header", path);
        goto done;
    }
    const char *p = shape + 1;
    h->ndim = 0;
    h->shape[0] = h->shape[1] = 1;
    while (*p && *p != ')') {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        if (h->ndim == 2 || v < 0 || v > INT32_MAX) {
            rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': only 1-D and 2-D arrays with sizes "
                           "below 2^31 are supported", path);
            goto done;
        }
        h->shape[h->ndim++] = v;
        p = end;
        while (*p == ',' || *p == ' ') p++;
    }
    if (h->ndim == 0) {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': a 0-d array; a matrix or vector is needed",
                       path);
        goto done;
    }
    h->offset = start + hlen;
    struct stat st;
    /* sizes below 2^31 each, but their product in bytes may pass what a file can hold */
    const long long items = (long long)h->shape[0] * h->shape[1];
    const long long want = items <= (LLONG_MAX - h->offset) / h->size
                               ? (long long)h->offset + items * h->size
                               : LLONG_MAX;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && (long long)st.st_size < want)
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is truncated: its header describes %ld x %ld "
                       "items (%lld bytes with the header) but the file has %lld bytes", path,
                       h->shape[0], h->shape[1], want, (long long)st.st_size);
done:
    free(text);
    return rc;
}

static double item(const unsigned char *b, const npy_header *h)
{
    unsigned char t[8];
    for (int k = 0; k < h->size; k++) t[k] = h->swap ? b[h->size - 1 - k] : b[k];
    /* the .npy is little-endian unless swapped; this host is little-endian (x86-64/arm64) */
    switch (h->kind) {
    case 'f':
        if (h->size == 8) { double v; memcpy(&v, t, 8); return v; }
        else { float v; memcpy(&v, t, 4); return v; }
    case 'i':
        switch (h->size) {
        case 1: { int8_t v; memcpy(&v, t, 1); return v; }
        case 2: { int16_t v; memcpy(&v, t, 2); return v; }
        case 4: { int32_t v; memcpy(&v, t, 4); return v; }
        default: { int64_t v; memcpy(&v, t, 8); return (double)v; }
        }
    default:
        switch (h->size) {
        case 1: return t[0];
        case 2: { uint16_t v; memcpy(&v, t, 2); return v; }
        case 4: { uint32_t v; memcpy(&v, t, 4); return v; }
        default: { uint64_t v; memcpy(&v, t, 8); return (double)v; }
        }
    }
}

static FILE *open_header(const char *path, npy_header *h, gsfw_err *err, gsfw_error *rc)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        *rc = gsfw_fail(err, GSFW_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    if ((*rc = parse_header(fp, path, h, err))) {
        fclose(fp);
        return NULL;
    }
    return fp;
}

gsfw_error gsfw_mpi_npy_shape(const char *path, int *ndim, int shape[2], gsfw_err *err)
{
    npy_header h;
    gsfw_error rc;
    FILE *fp = open_header(path, &h, err, &rc);
    if (!fp) return rc;
    fclose(fp);
    *ndim = h.ndim;
    shape[0] = (int)h.shape[0];
    shape[1] = (int)h.shape[1];
    return GSFW_OK;
}

/* count items from the current position, converted into out[k * stride] */
static gsfw_error read_items(FILE *fp, const char *path, const npy_header *h, long count,
                             double *out, long stride, unsigned char *buf, size_t bufsize,
                             gsfw_err *err)
{
    long per = (long)(bufsize / (size_t)h->size), done = 0;
    while (done < count) {
        long k = count - done < per ? count - done : per;
        if (fread(buf, (size_t)h->size, (size_t)k, fp) != (size_t)k)
            return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': read failed or the file ends early "
                             "(%s)", path, ferror(fp) ? strerror(errno) : "end of file");
        for (long j = 0; j < k; j++) {
            double v = item(buf + j * h->size, h);
            if (!isfinite(v))
                return gsfw_fail(err, GSFW_ERR_NONFINITE, "'%s': a non-finite value (%g) in the "
                                 "rows read", path, v);
            out[(done + j) * stride] = v;
        }
        done += k;
    }
    return GSFW_OK;
}

gsfw_error gsfw_mpi_npy_read_rows(const char *path, int row0, int rows, double **block,
                                  int shape[2], gsfw_err *err)
{
    *block = NULL;
    npy_header h;
    gsfw_error rc;
    FILE *fp = open_header(path, &h, err, &rc);
    if (!fp) return rc;
    shape[0] = (int)h.shape[0];
    shape[1] = (int)h.shape[1];
    long n = h.shape[0], d = h.shape[1];
    if (rows < 0 || row0 < 0 || row0 > n - rows) {
        fclose(fp);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "'%s': rows %d..%d are outside its %ld rows",
                         path, row0, row0 + rows - 1, n);
    }
    if (rows == 0) {
        fclose(fp);
        return GSFW_OK;
    }
    double *out = gsfw_malloc_array((size_t)rows * (size_t)d, sizeof(double));
    unsigned char *buf = malloc(1 << 16);
    if (!out || !buf) {
        free(out);
        free(buf);
        fclose(fp);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "'%s': out of memory for %d x %ld values", path,
                         rows, d);
    }
    if (!h.fortran || h.ndim == 1) {
        if (fseeko(fp, h.offset + (off_t)row0 * d * h.size, SEEK_SET))
            rc = gsfw_fail(err, GSFW_ERR_IO, "'%s': seek failed: %s", path, strerror(errno));
        else
            rc = read_items(fp, path, &h, (long)rows * d, out, 1, buf, 1 << 16, err);
    } else {
        for (long j = 0; j < d && !rc; j++) {
            if (fseeko(fp, h.offset + ((off_t)j * n + row0) * h.size, SEEK_SET))
                rc = gsfw_fail(err, GSFW_ERR_IO, "'%s': seek failed: %s", path, strerror(errno));
            else
                rc = read_items(fp, path, &h, rows, out + j, d, buf, 1 << 16, err);
        }
    }
    free(buf);
    fclose(fp);
    if (rc) {
        free(out);
        return rc;
    }
    *block = out;
    return GSFW_OK;
}
