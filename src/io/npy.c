/* NumPy .npy files holding float64 vectors and matrices.
 *
 * Format (numpy/lib/format.py): the magic "\x93NUMPY", a major and minor version byte,
 * the header length (uint16 little-endian in version 1.0, uint32 in 2.0 and 3.0), then
 * the header: a Python dict literal such as
 *     {'descr': '<f8', 'fortran_order': False, 'shape': (100, 100), }
 * padded with spaces and a final newline, then the raw array data. Version 3.0 only
 * changes the header encoding to UTF-8, which does not matter for the ASCII keys and
 * values accepted here.
 *
 * The reader trusts nothing in the file: every header access is bounds-checked against
 * the header length, sizes are overflow-checked and compared with the file size before
 * anything large is allocated, so a malformed or hostile file yields an error message,
 * never an out-of-bounds access or a huge allocation. Data are decoded byte by byte as
 * little-endian, so the code is also correct on big-endian hosts. */
#include "core/internal.h"
#include "io/atomic.h"
#include "io/npy.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const unsigned char NPY_MAGIC[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* Headers larger than this are rejected before allocation. NumPy itself refuses headers
 * above 10000 bytes by default; this bound is far above anything a 1-D/2-D float64
 * array needs while keeping a corrupt length field from causing a giant allocation. */
#define NPY_MAX_HEADER_LEN ((size_t)1 << 20)

/* Longest excerpt of header text (dtype, shape) quoted in error messages. */
#define NPY_QUOTE_MAX 64

/* ------------------------------------------------------------ header parser */

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

/* A bounded cursor over the header text: every access checks p < end. */
typedef struct {
    const char *p;
    const char *end;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

/* Consume ch (after optional whitespace); 1 if it was there. */
static int accept(cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* Consume the word w (e.g. "True") if it is next and not followed by a letter. */
static int accept_word(cursor *c, const char *w)
{
    size_t n = strlen(w);
    skip_ws(c);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0) return 0;
    if ((size_t)(c->end - c->p) > n) {
        char next = c->p[n];
        if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || next == '_')
            return 0;
    }
    c->p += n;
    return 1;
}

/* A Python string literal in single or double quotes (backslash escapes are skipped,
 * not decoded: no accepted value contains one). Returns 0 if there is none. */
static int parse_string(cursor *c, const char **s, size_t *len)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return 0;
    char quote = *c->p++;
    const char *start = c->p;
    while (c->p < c->end && *c->p != quote) {
        if (*c->p == '\\' && c->end - c->p > 1) c->p++;
        c->p++;
    }
    if (c->p >= c->end) return 0; /* unterminated */
    *s = start;
    *len = (size_t)(c->p - start);
    c->p++;
    return 1;
}

/* The shape tuple: "()", "(5,)", "(5)", "(3, 4)", "(3,4,)"; Python 2 "3L" suffixes are
 * tolerated. Entries beyond the second are counted (for the error message) but not
 * stored; values above INT_MAX set dim_too_large instead of overflowing. */
static int parse_shape(cursor *c, npy_header *h)
{
    skip_ws(c);
    if (c->p >= c->end || *c->p != '(') return 0;
    const char *start = c->p++;
    h->ndim = 0;
    for (;;) {
        skip_ws(c);
        if (c->p < c->end && *c->p == ')') break;
        if (c->p >= c->end || *c->p < '0' || *c->p > '9') return 0;
        unsigned long long v = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            if (v <= (unsigned long long)INT_MAX) v = v * 10 + (unsigned long long)(*c->p - '0');
            c->p++;
        }
        if (c->p < c->end && (*c->p == 'L' || *c->p == 'l')) c->p++;
        if (v > (unsigned long long)INT_MAX) h->dim_too_large = 1;
        if (h->ndim < 2) h->dim[h->ndim] = v;
        if (h->ndim < INT_MAX) h->ndim++;
        skip_ws(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        skip_ws(c);
        if (c->p < c->end && *c->p == ')') break;
        return 0;
    }
    c->p++; /* ')' */
    h->shape_text = start;
    h->shape_len = (size_t)(c->p - start);
    return 1;
}

/* Parse the header dict into *h. On failure fills err (naming path) and returns it. */
static gsfw_error parse_header(const char *path, const char *text, size_t len, npy_header *h,
                               gsfw_err *err)
{
    cursor c = {text, text + len};
    memset(h, 0, sizeof *h);
    const char *why = NULL;

    if (!accept(&c, '{')) {
        why = "it does not start with '{'";
        goto malformed;
    }
    for (;;) {
        if (accept(&c, '}')) break;
        const char *key;
        size_t key_len;
        if (!parse_string(&c, &key, &key_len)) {
            why = "expected a quoted key or '}'";
            goto malformed;
        }
        if (!accept(&c, ':')) {
            why = "expected ':' after a key";
            goto malformed;
        }
        if (key_len == 5 && memcmp(key, "descr", 5) == 0) {
            if (h->have_descr) goto duplicate;
            h->have_descr = 1;
            if (!parse_string(&c, &h->descr, &h->descr_len)) {
                /* A list (structured dtype) or something else: unsupported either way. */
                return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' holds a structured or "
                                 "non-string dtype; only float64 ('<f8') is supported", path);
            }
        } else if (key_len == 13 && memcmp(key, "fortran_order", 13) == 0) {
            if (h->have_fortran) goto duplicate;
            h->have_fortran = 1;
            if (accept_word(&c, "True")) {
                h->fortran_order = 1;
            } else if (accept_word(&c, "False")) {
                h->fortran_order = 0;
            } else {
                why = "'fortran_order' must be True or False";
                goto malformed;
            }
        } else if (key_len == 5 && memcmp(key, "shape", 5) == 0) {
            if (h->have_shape) goto duplicate;
            h->have_shape = 1;
            if (!parse_shape(&c, h)) {
                why = "'shape' must be a tuple of non-negative integers";
                goto malformed;
            }
        } else {
            int shown = key_len > NPY_QUOTE_MAX ? NPY_QUOTE_MAX : (int)key_len;
            return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has a malformed header: unexpected "
                             "key '%.*s'", path, shown, key);
        }
        if (accept(&c, ',')) continue;
        if (accept(&c, '}')) break;
        why = "expected ',' or '}' after a value";
        goto malformed;
    }
    skip_ws(&c); /* the padding: spaces and the final newline */
    if (c.p != c.end) {
        why = "unexpected text after the closing '}'";
        goto malformed;
    }
    if (!h->have_descr || !h->have_fortran || !h->have_shape) {
        why = !h->have_descr ? "the key 'descr' is missing"
              : !h->have_fortran ? "the key 'fortran_order' is missing"
                                 : "the key 'shape' is missing";
        goto malformed;
    }
    return GSFW_OK;

duplicate:
    why = "a key appears twice";
malformed:
    return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has a malformed header: %s", path, why);
}

/* ------------------------------------------------------------- validation */

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* '<f8' is what NumPy writes for float64. The native-order spellings are accepted when
 * the host is little-endian, since they then mean the same bytes. */
static int descr_is_float64_le(const char *d, size_t len)
{
    if (len == 3 && memcmp(d, "<f8", 3) == 0) return 1;
    if (!host_is_little_endian()) return 0;
    return (len == 3 && memcmp(d, "=f8", 3) == 0) || (len == 2 && memcmp(d, "f8", 2) == 0) ||
           (len == 7 && memcmp(d, "float64", 7) == 0);
}

/* How the values of an array are stored: float64 little-endian for gsfw_npy_read, any
 * of the numeric dtypes below for gsfw_npy_read_numeric. */
typedef enum { NUM_FLOAT, NUM_INT, NUM_UINT } num_kind;
typedef struct {
    num_kind kind;
    int size;        /* bytes per value: 1, 2, 4 or 8 */
    int big_endian;
} npy_dtype;

static const npy_dtype DTYPE_F8_LE = {NUM_FLOAT, 8, 0};

/* A numeric dtype string: byte order '<', '>', '|' (one-byte types) or '=' / none (the
 * host's), then f4, f8, i1, i2, i4, i8, u1, u2, u4 or u8. 0 if it is not one of those. */
static int parse_numeric_descr(const char *d, size_t len, npy_dtype *t)
{
    if (descr_is_float64_le(d, len)) {
        *t = DTYPE_F8_LE;
        return 1;
    }
    int big = !host_is_little_endian();
    if (len == 3) {
        if (d[0] == '>') big = 1;
        else if (d[0] == '<') big = 0;
        else if (d[0] != '|' && d[0] != '=') return 0;
        d++;
        len--;
    }
    if (len != 2) return 0;
    int size = d[1] - '0';
    if (d[0] == 'f' && (size == 4 || size == 8))
        t->kind = NUM_FLOAT;
    else if ((d[0] == 'i' || d[0] == 'u') && (size == 1 || size == 2 || size == 4 || size == 8))
        t->kind = d[0] == 'i' ? NUM_INT : NUM_UINT;
    else
        return 0;
    t->size = size;
    t->big_endian = big;
    return 1;
}

/* Check dtype and shape; on success *rows, *cols and *count describe the array and *dt
 * how its values are stored (numeric: accept every dtype of parse_numeric_descr). */
static gsfw_error check_header(const char *path, const npy_header *h, int numeric, npy_dtype *dt,
                               int *rows, int *cols, size_t *count, gsfw_err *err)
{
    *dt = DTYPE_F8_LE;
    if (numeric ? !parse_numeric_descr(h->descr, h->descr_len, dt)
                : !descr_is_float64_le(h->descr, h->descr_len)) {
        int shown = h->descr_len > NPY_QUOTE_MAX ? NPY_QUOTE_MAX : (int)h->descr_len;
        return numeric ? gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' holds dtype '%.*s'; supported are "
                                   "float64, float32, int8/16/32/64 and uint8/16/32/64", path,
                                   shown, h->descr)
                       : gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' holds dtype '%.*s'; only float64 "
                                   "('<f8') is supported", path, shown, h->descr);
    }
    int shown = h->shape_len > NPY_QUOTE_MAX ? NPY_QUOTE_MAX : (int)h->shape_len;
    const char *more = h->shape_len > NPY_QUOTE_MAX ? "..." : "";
    if (h->ndim < 1 || h->ndim > 2)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has shape %.*s%s (%d-D); only 1-D and "
                         "2-D arrays are supported", path, shown, h->shape_text, more, h->ndim);
    if (h->dim_too_large)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has shape %.*s%s; dimensions above %d "
                         "are not supported", path, shown, h->shape_text, more, INT_MAX);
    unsigned long long r = h->dim[0], cc = h->ndim == 2 ? h->dim[1] : 1;
    /* Both factors are <= INT_MAX, so r * cc fits in 64 bits; the byte count might not. */
    unsigned long long n = r * cc;
    if (n > SIZE_MAX / sizeof(double))
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has shape %.*s%s, whose size overflows",
                         path, shown, h->shape_text, more);
    *rows = (int)r;
    *cols = (int)cc;
    *count = (size_t)n;
    return GSFW_OK;
}

/* ------------------------------------------------------------ byte order */

static uint64_t load_le64(const unsigned char *b)
{
    uint64_t u = 0;
    for (int k = 7; k >= 0; k--) u = (u << 8) | b[k];
    return u;
}

static void store_le64(unsigned char *b, uint64_t u)
{
    for (int k = 0; k < 8; k++) b[k] = (unsigned char)(u >> (8 * k));
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

/* ------------------------------------------------------------------ reader */

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
    if (got < sizeof NPY_MAGIC || memcmp(pre, NPY_MAGIC, sizeof NPY_MAGIC) != 0) {
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
    npy_dtype dt = DTYPE_F8_LE;
    double *x = NULL;
    gsfw_error rc = read_preamble_and_header(path, fp, file_size, &text, &text_len, &offset, err);
    if (!rc) rc = parse_header(path, text, text_len, &h, err);
    if (!rc) rc = check_header(path, &h, numeric, &dt, &rows, &cols, &count, err);
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

/* ------------------------------------------------------------------ writer */

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
    memcpy(buf, NPY_MAGIC, sizeof NPY_MAGIC);
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
