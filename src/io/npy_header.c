/* The .npy header: its dict parsed (bounds-checked against the header length) and
 * checked (dtype, shape, overflow). The format (numpy/lib/format.py): the magic
 * "\x93NUMPY", a major and minor version byte, the header length (uint16 little-endian
 * in version 1.0, uint32 in 2.0 and 3.0), then the header: a Python dict literal such as
 *     {'descr': '<f8', 'fortran_order': False, 'shape': (100, 100), }
 * padded with spaces and a final newline, then the raw array data. Version 3.0 only
 * changes the header encoding to UTF-8, which does not matter for the ASCII keys and
 * values accepted here. */
#include "io/npy_format.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const unsigned char gsfw_npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};


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
gsfw_error gsfw_npy_parse_header(const char *path, const char *text, size_t len, npy_header *h,
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


const npy_dtype gsfw_npy_f8_le = {NUM_FLOAT, 8, 0};

/* A numeric dtype string: byte order '<', '>', '|' (one-byte types) or '=' / none (the
 * host's), then f4, f8, i1, i2, i4, i8, u1, u2, u4 or u8. 0 if it is not one of those. */
static int parse_numeric_descr(const char *d, size_t len, npy_dtype *t)
{
    if (descr_is_float64_le(d, len)) {
        *t = gsfw_npy_f8_le;
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
gsfw_error gsfw_npy_check_header(const char *path, const npy_header *h, int numeric, npy_dtype *dt,
                               int *rows, int *cols, size_t *count, gsfw_err *err)
{
    *dt = gsfw_npy_f8_le;
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
