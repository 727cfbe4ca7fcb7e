/* Matrix Market coordinate files (https://math.nist.gov/MatrixMarket/formats.html):
 *
 *     %%MatrixMarket matrix coordinate real general
 *     % comments
 *     rows cols entries
 *     i j value          (1-based; no value for "pattern")
 *
 * Fields real, integer and pattern; symmetry general, symmetric and skew-symmetric (the
 * stored triangle is mirrored, negated for skew-symmetric). Like the other text readers,
 * lenient about layout (blank lines, CRLF, any spacing) and strict about content: every
 * error names the file, the entry and its line. The entry count of the header is checked
 * both ways, since a truncated file would otherwise read as a sparser matrix. */
#include "core/internal.h"
#include "io/lines.h"
#include "io/mtx.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct {
    int *r, *c;
    double *v;
    long m, cap;
} triplets;

static void triplets_free(triplets *t)
{
    free(t->r);
    free(t->c);
    free(t->v);
}

static int triplets_push(triplets *t, int r, int c, double v)
{
    if (t->m == t->cap) {
        long cap = t->cap ? 2 * t->cap : 1024;
        int *nr = realloc(t->r, (size_t)cap * sizeof(int));
        if (nr) t->r = nr;
        int *nc = nr ? realloc(t->c, (size_t)cap * sizeof(int)) : NULL;
        if (nc) t->c = nc;
        double *nv = nc ? realloc(t->v, (size_t)cap * sizeof(double)) : NULL;
        if (!nv) return -1;
        t->v = nv;
        t->cap = cap;
    }
    t->r[t->m] = r;
    t->c[t->m] = c;
    t->v[t->m] = v;
    t->m++;
    return 0;
}

static int blank(const char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return *s == '\0';
}

/* Strip the line end in place. */
static void chomp(gsfw_line *l)
{
    while (l->len > 0 && (l->buf[l->len - 1] == '\n' || l->buf[l->len - 1] == '\r'))
        l->buf[--l->len] = '\0';
}

/* Parse a long integer field; 0 if there is none. */
static int parse_long(char **p, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(*p, &end, 10);
    if (end == *p || errno == ERANGE || (*end && !isspace((unsigned char)*end))) return 0;
    *out = v;
    *p = end;
    return 1;
}

enum { FIELD_REAL, FIELD_INTEGER, FIELD_PATTERN };
enum { SYM_GENERAL, SYM_SYMMETRIC, SYM_SKEW };

static gsfw_error parse_banner(const char *path, char *line, int *field, int *sym, gsfw_err *err)
{
    char tok[5][32] = {{0}};
    int k = sscanf(line, "%31s %31s %31s %31s %31s", tok[0], tok[1], tok[2], tok[3], tok[4]);
    if (k < 1 || strcasecmp(tok[0], "%%MatrixMarket") != 0)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is not a Matrix Market file: the first line "
                         "must start with '%%%%MatrixMarket'", path);
    if (k != 5)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': the banner must read '%%%%MatrixMarket "
                         "matrix coordinate <field> <symmetry>'", path);
    if (strcasecmp(tok[1], "matrix") != 0)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' holds a Matrix Market '%s', not a matrix",
                         path, tok[1]);
    if (strcasecmp(tok[2], "array") == 0)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is in Matrix Market array (dense) format; "
                         "only the coordinate (sparse) format is supported (save dense matrices "
                         "as .npy)", path);
    if (strcasecmp(tok[2], "coordinate") != 0)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has the unknown Matrix Market format '%s' "
                         "(expected coordinate)", path, tok[2]);
    if (strcasecmp(tok[3], "real") == 0 || strcasecmp(tok[3], "double") == 0)
        *field = FIELD_REAL;
    else if (strcasecmp(tok[3], "integer") == 0)
        *field = FIELD_INTEGER;
    else if (strcasecmp(tok[3], "pattern") == 0)
        *field = FIELD_PATTERN;
    else if (strcasecmp(tok[3], "complex") == 0)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' holds a complex matrix; only real, integer "
                         "and pattern matrices are supported", path);
    else
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has the unknown field '%s' (expected real, "
                         "integer or pattern)", path, tok[3]);
    if (strcasecmp(tok[4], "general") == 0)
        *sym = SYM_GENERAL;
    else if (strcasecmp(tok[4], "symmetric") == 0)
        *sym = SYM_SYMMETRIC;
    else if (strcasecmp(tok[4], "skew-symmetric") == 0)
        *sym = SYM_SKEW;
    else if (strcasecmp(tok[4], "hermitian") == 0)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is a hermitian matrix; only general, "
                         "symmetric and skew-symmetric real matrices are supported", path);
    else
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has the unknown symmetry '%s' (expected "
                         "general, symmetric or skew-symmetric)", path, tok[4]);
    return GSFW_OK;
}

/* One entry line: 1-based indices checked against the header, value finite. */
static gsfw_error parse_entry(const char *path, char *text, long entry, long lineno, int field,
                              long nrows, long ncols, long *i, long *j, double *v, gsfw_err *err)
{
    char *p = text;
    if (!parse_long(&p, i) || !parse_long(&p, j))
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' entry %ld (line %ld): expected two integer "
                         "indices, got '%.60s'", path, entry, lineno, text);
    *v = 1.0;
    if (field != FIELD_PATTERN) {
        while (isspace((unsigned char)*p)) p++;
        char *end;
        errno = 0;
        *v = strtod(p, &end);
        if (end == p || (*end && !isspace((unsigned char)*end)))
            return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' entry %ld (line %ld): expected a value "
                             "after the indices, got '%.60s'", path, entry, lineno, text);
        if (!isfinite(*v))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "'%s' entry %ld (line %ld): the value "
                             "'%.30s' is not finite", path, entry, lineno, p);
        p = end;
    }
    if (!blank(p))
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' entry %ld (line %ld): unexpected text "
                         "'%.40s' after the %s", path, entry, lineno, p,
                         field == FIELD_PATTERN ? "indices (a pattern file has no values)" : "value");
    if (*i < 1 || *j < 1)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' entry %ld (line %ld): %s %ld is below 1 "
                         "(Matrix Market indices start at 1)", path, entry, lineno,
                         *i < 1 ? "row" : "column", *i < 1 ? *i : *j);
    if (*i > nrows)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' entry %ld (line %ld): row %ld exceeds the "
                         "%ld rows of the header", path, entry, lineno, *i, nrows);
    if (*j > ncols)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' entry %ld (line %ld): column %ld exceeds "
                         "the %ld columns of the header", path, entry, lineno, *j, ncols);
    return GSFW_OK;
}

/* Lines between two polls of the stop callback (a few milliseconds of parsing). */
#define STOP_POLL_LINES 65536

/* What read_stream does besides parsing: the rows to keep (range: every row when NULL),
 * a stop callback polled every STOP_POLL_LINES lines (NULL: none), or the size line alone
 * (size_only: *declared is then the entries the header declares, doubled for a mirrored
 * triangle, as a long: 900000000000 is reported as such, not clamped to an int). */
typedef struct {
    gsfw_mtx_row_range range;
    void *ctx;
    gsfw_callback stop;
    void *stop_data;
    int size_only;
    long *declared;
} read_opts;

/* Reads the file, keeping the entries whose row (after mirroring) lies in the range that
 * o->range picks once the size is known, rows relative to its start. */
static gsfw_error read_stream(const char *path, FILE *fp, const read_opts *o, int *n, int *d,
                              int *row0, int *count, triplets *t, gsfw_err *err)
{
    int lo = 0, hi = 0; /* rows kept: lo <= row < hi (0-based) */
    gsfw_line line = {0};
    gsfw_error rc = GSFW_OK;
    int field = 0, sym = 0, have_size = 0;
    long lineno = 0, nrows = 0, ncols = 0, promised = 0, entry = 0;
    for (;;) {
        gsfw_line_status st = gsfw_line_read(fp, &line, GSFW_LINE_MAX);
        if (st == GSFW_LINE_EOF) break;
        lineno++;
        if (st != GSFW_LINE_OK) {
            const char *why = gsfw_line_problem(st);
            if (why)
                rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' line %ld %s", path, lineno, why);
            else if (st == GSFW_LINE_NOMEM)
                rc = gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading '%s'", path);
            else
                rc = gsfw_fail(err, GSFW_ERR_IO, "error reading '%s': %s", path, strerror(errno));
            goto done;
        }
        chomp(&line);
        if (o->stop && lineno % STOP_POLL_LINES == 0 && o->stop(NULL, NULL, o->stop_data)) {
            rc = gsfw_fail(err, GSFW_ERR_CALLBACK, "reading '%s' was stopped at line %ld", path,
                           lineno);
            goto done;
        }
        if (lineno == 1) {
            /* a UTF-8 byte order mark, as some editors write (the edge lists allow it too) */
            const char *banner = line.buf;
            if (line.len >= 3 && !memcmp(banner, "\xEF\xBB\xBF", 3)) banner += 3;
            rc = parse_banner(path, (char *)banner, &field, &sym, err);
            if (rc) goto done;
            continue;
        }
        if (line.buf[0] == '%' || blank(line.buf)) continue;
        if (!have_size) {
            char *p = line.buf;
            if (!parse_long(&p, &nrows) || !parse_long(&p, &ncols) || !parse_long(&p, &promised) ||
                !blank(p)) {
                rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' line %ld: expected the size line "
                               "'rows columns entries', got '%.60s'", path, lineno, line.buf);
                goto done;
            }
            if (nrows < 0 || ncols < 0 || promised < 0 || nrows > INT_MAX || ncols > INT_MAX) {
                rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' line %ld: the size %ld x %ld with %ld "
                               "entries is out of range (sizes 0..%d, entries >= 0)", path,
                               lineno, nrows, ncols, promised, INT_MAX);
                goto done;
            }
            if (sym != SYM_GENERAL && nrows != ncols) {
                rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' line %ld: a %s matrix must be square, "
                               "the header says %ld x %ld", path, lineno,
                               sym == SYM_SYMMETRIC ? "symmetric" : "skew-symmetric", nrows, ncols);
                goto done;
            }
            have_size = 1;
            if (o->size_only) {
                *n = (int)nrows;
                *d = (int)ncols;
                *row0 = 0;
                *count = 0;
                *o->declared = sym == SYM_GENERAL ? promised
                               : promised > LONG_MAX / 2 ? LONG_MAX : 2 * promised;
                goto done;
            }
            lo = 0;
            hi = (int)nrows;
            if (o->range) {
                int r0 = 0, cnt = 0;
                o->range((int)nrows, o->ctx, &r0, &cnt);
                lo = r0;
                hi = r0 + cnt;
            }
            continue;
        }
        entry++;
        if (entry > promised) {
            rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' line %ld: more entries than the %ld its "
                           "header promises", path, lineno, promised);
            goto done;
        }
        long i = 0, j = 0;
        double v = 0.0;
        rc = parse_entry(path, line.buf, entry, lineno, field, nrows, ncols, &i, &j, &v, err);
        if (rc) goto done;
        if (sym == SYM_SKEW && i == j) {
            rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' entry %ld (line %ld): a skew-symmetric "
                           "matrix has no diagonal entries, got (%ld, %ld)", path, entry, lineno,
                           i, j);
            goto done;
        }
        int r = (int)i - 1, c = (int)j - 1;
        int pushed = r < lo || r >= hi || triplets_push(t, r - lo, c, v) == 0;
        if (pushed && sym != SYM_GENERAL && i != j && c >= lo && c < hi)
            pushed = triplets_push(t, c - lo, r, sym == SYM_SKEW ? -v : v) == 0;
        if (!pushed) {
            rc = gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading '%s' (entry %ld)", path,
                           entry);
            goto done;
        }
    }
    if (lineno == 0)
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is empty", path);
    else if (!have_size)
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' has no size line 'rows columns entries'", path);
    else if (entry < promised)
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' ends after %ld entries but its header "
                       "promises %ld (truncated file or wrong header)", path, entry, promised);
    if (!rc) {
        *n = (int)nrows;
        *d = (int)ncols;
        *row0 = lo;
        *count = hi - lo;
    }
done:
    free(line.buf);
    return rc;
}

static gsfw_error read_file(const char *path, const read_opts *o, int *n, int *d, int *row0,
                            int *count, long *nnz, int **rows, int **cols, double **vals,
                            gsfw_err *err)
{
    *rows = *cols = NULL;
    *vals = NULL;
    *nnz = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return gsfw_fail(err, GSFW_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    triplets t = {0};
    gsfw_error rc = read_stream(path, fp, o, n, d, row0, count, &t, err);
    fclose(fp);
    if (rc) {
        triplets_free(&t);
        return rc;
    }
    *rows = t.r;
    *cols = t.c;
    *vals = t.v;
    *nnz = t.m;
    return GSFW_OK;
}

gsfw_error gsfw_mtx_read_rows(const char *path, gsfw_mtx_row_range range, void *ctx, int *n,
                              int *d, int *row0, int *count, long *nnz, int **rows, int **cols,
                              double **vals, gsfw_err *err)
{
    const read_opts o = {.range = range, .ctx = ctx};
    return read_file(path, &o, n, d, row0, count, nnz, rows, cols, vals, err);
}

gsfw_error gsfw_mtx_read_stoppable(const char *path, gsfw_callback stop, void *stop_data, int *n,
                                   int *d, long *nnz, int **rows, int **cols, double **vals,
                                   gsfw_err *err)
{
    const read_opts o = {.stop = stop, .stop_data = stop_data};
    int row0, count;
    return read_file(path, &o, n, d, &row0, &count, nnz, rows, cols, vals, err);
}

gsfw_error gsfw_mtx_read_size(const char *path, int *n, int *d, long *entries, gsfw_err *err)
{
    long declared = 0;
    const read_opts o = {.size_only = 1, .declared = &declared};
    int row0, count = 0, *rows, *cols;
    double *vals;
    long nnz;
    gsfw_error rc = read_file(path, &o, n, d, &row0, &count, &nnz, &rows, &cols, &vals, err);
    *entries = declared;
    return rc;
}

gsfw_error gsfw_mtx_read(const char *path, int *n, int *d, long *nnz, int **rows, int **cols,
                         double **vals, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!path || !n || !d || !nnz || !rows || !cols || !vals)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "mtx read: %s is NULL",
                         !path ? "path" : !n ? "n" : !d ? "d" : !nnz ? "nnz" : !rows ? "rows"
                         : !cols ? "cols" : "vals");
    int row0, count;
    return gsfw_mtx_read_rows(path, NULL, NULL, n, d, &row0, &count, nnz, rows, cols, vals, err);
}
