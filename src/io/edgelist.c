/* Edge-list text files: one edge per line, "u v" or "u v cost".
 *
 * The format is meant to be written by hand or by scripts, so the reader is lenient
 * about layout (comments, blank lines, CRLF line ends, any whitespace between fields,
 * lines of up to 16 MB) and strict about content: every error names the file, the line
 * and the offending text, because a silently misread graph would only show up later as
 * a wrong result. */
#include "core/internal.h"
#include "io/lines.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Longest piece of a line quoted in an error message. */
#define LINE_QUOTE_MAX 60

/* Growing output arrays. */
typedef struct {
    int *u, *v;
    double *cost;
    size_t m, cap;
} edge_buf;

static void edge_buf_free(edge_buf *b)
{
    free(b->u);
    free(b->v);
    free(b->cost);
}

/* Make room for one more edge; 0 on success, -1 when out of memory. */
static int edge_buf_reserve(edge_buf *b, int with_cost)
{
    if (b->m < b->cap) return 0;
    size_t cap = b->cap ? 2 * b->cap : 256;
    if (cap > (size_t)INT_MAX) cap = (size_t)INT_MAX; /* the caller checks m < INT_MAX */
    int *u = realloc(b->u, cap * sizeof *u);
    if (!u) return -1;
    b->u = u;
    int *v = realloc(b->v, cap * sizeof *v);
    if (!v) return -1;
    b->v = v;
    if (with_cost) {
        double *c = realloc(b->cost, cap * sizeof *c);
        if (!c) return -1;
        b->cost = c;
    }
    b->cap = cap;
    return 0;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* A whitespace-separated token of a line: start and length. */
typedef struct {
    const char *s;
    int len;
} token;

/* Split s (NUL-terminated) into tokens, storing at most max of them; returns how many
 * there are in total. Token lengths are capped at INT_MAX (only used for printing and
 * an end-of-token check, which then fails, as it should for such a token). */
static size_t split_fields(const char *s, token *tok, size_t max)
{
    size_t count = 0;
    for (;;) {
        while (is_space(*s)) s++;
        if (!*s) return count;
        const char *start = s;
        while (*s && !is_space(*s)) s++;
        if (count < max) {
            size_t len = (size_t)(s - start);
            tok[count].s = start;
            tok[count].len = len > INT_MAX ? INT_MAX : (int)len;
        }
        count++;
    }
}

/* Parse a node id. Returns 0 and *id on success, -1 when the token is not an integer,
 * and 1 when it is an integer outside 0..INT_MAX-1 (*id then holds its sign). */
static int parse_id(const token *t, long long *id)
{
    char *end = NULL;
    errno = 0;
    long long val = strtoll(t->s, &end, 10);
    if (end != t->s + t->len || end == t->s) return -1;
    *id = val;
    if (errno == ERANGE || val < 0 || val >= INT_MAX) return 1;
    return 0;
}

/* Quote the (comment-stripped, trimmed) content of a line in an error message:
 * *shown characters starting at the returned pointer, *more = "..." when cut. */
static const char *line_excerpt(const char *s, int *shown, const char **more)
{
    while (is_space(*s)) s++;
    size_t len = strlen(s);
    while (len > 0 && is_space(s[len - 1])) len--;
    *more = len > LINE_QUOTE_MAX ? "..." : "";
    *shown = len > LINE_QUOTE_MAX ? LINE_QUOTE_MAX : (int)len;
    return s;
}

/* Check one edge line whose fields are already split and store it. lineno and path
 * are for messages. */
static gsfw_error store_edge(const char *path, long lineno, const char *content,
                             const token *tok, int fields, int n, edge_buf *b, gsfw_err *err)
{
    long long id[2];
    for (int k = 0; k < 2; k++) {
        int r = parse_id(&tok[k], &id[k]);
        if (r < 0) {
            int shown;
            const char *more;
            const char *s = line_excerpt(content, &shown, &more);
            return gsfw_fail(err, GSFW_ERR_FORMAT, "%s:%ld: expected 'u v' or 'u v cost', got "
                             "'%.*s%s'", path, lineno, shown, s, more);
        }
        if (r > 0 && id[k] < 0)
            return gsfw_fail(err, GSFW_ERR_GRAPH, "%s:%ld: node id %.*s is negative (ids are "
                             "0-based)", path, lineno, tok[k].len, tok[k].s);
        if (n >= 0 && (r > 0 || id[k] >= n))
            return gsfw_fail(err, GSFW_ERR_GRAPH, "%s:%ld: node id %.*s is out of range (graph "
                             "has %d nodes)", path, lineno, tok[k].len, tok[k].s, n);
        if (r > 0)
            return gsfw_fail(err, GSFW_ERR_GRAPH, "%s:%ld: node id %.*s is too large (at most "
                             "%d)", path, lineno, tok[k].len, tok[k].s, INT_MAX - 1);
    }
    double c = 0.0;
    if (fields == 3) {
        char *end = NULL;
        c = strtod(tok[2].s, &end);
        if (end != tok[2].s + tok[2].len || end == tok[2].s)
            return gsfw_fail(err, GSFW_ERR_FORMAT, "%s:%ld: cost '%.*s' is not a number", path,
                             lineno, tok[2].len, tok[2].s);
        if (!isfinite(c))
            return gsfw_fail(err, GSFW_ERR_GRAPH, "%s:%ld: cost %.*s is not finite", path,
                             lineno, tok[2].len, tok[2].s);
        if (c < 0)
            return gsfw_fail(err, GSFW_ERR_GRAPH, "%s:%ld: cost %.*s is negative", path, lineno,
                             tok[2].len, tok[2].s);
    }
    if (b->m >= (size_t)INT_MAX)
        return gsfw_fail(err, GSFW_ERR_FORMAT, "%s:%ld: too many edges (at most %d)", path,
                         lineno, INT_MAX);
    if (edge_buf_reserve(b, fields == 3) != 0)
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading '%s' (line %ld)", path,
                         lineno);
    b->u[b->m] = (int)id[0];
    b->v[b->m] = (int)id[1];
    if (fields == 3) b->cost[b->m] = c;
    b->m++;
    return GSFW_OK;
}

gsfw_error gsfw_edges_read(const char *path, int n, int *m, int **u, int **v, double **cost,
                           gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!path || !m || !u || !v || !cost)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "edge list: %s is NULL",
                         !path ? "path" : !m ? "m" : !u ? "u" : !v ? "v" : "cost");
    *m = 0;
    *u = *v = NULL;
    *cost = NULL;

    FILE *fp = fopen(path, "r");
    if (!fp) return gsfw_fail(err, GSFW_ERR_IO, "cannot open '%s': %s", path, strerror(errno));

    edge_buf b = {0};
    gsfw_line ln = {NULL, 0, 0};
    long lineno = 0;
    int fields = 0;        /* fields per line, fixed by the first edge line */
    long fields_line = 0;  /* where that was */
    gsfw_error rc = GSFW_OK;

    for (;;) {
        errno = 0;
        gsfw_line_status ls = gsfw_line_read(fp, &ln, GSFW_LINE_MAX);
        if (ls == GSFW_LINE_EOF) break;
        lineno++;
        if (ls == GSFW_LINE_READ_ERROR) {
            rc = gsfw_fail(err, GSFW_ERR_IO, "error reading '%s': %s", path, strerror(errno));
            break;
        }
        if (ls == GSFW_LINE_NOMEM) {
            rc = gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading '%s'", path);
            break;
        }
        /* a NUL byte (which would silently cut the line short for the parser below), a
         * lone CR or an endless line */
        if (gsfw_line_problem(ls)) {
            rc = gsfw_fail(err, GSFW_ERR_FORMAT, "%s:%ld: line %s", path, lineno,
                           gsfw_line_problem(ls));
            break;
        }
        char *line = ln.buf;
        size_t len = ln.len;
        char *content = line;
        /* Editors on Windows may start UTF-8 files with a byte-order mark. */
        if (lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) content += 3;
        char *hash = strchr(content, '#');
        if (hash) *hash = '\0';

        token tok[3];
        size_t count = split_fields(content, tok, 3);
        if (count == 0) continue; /* blank or comment-only line */
        if (count != 2 && count != 3) {
            int shown;
            const char *more;
            const char *s = line_excerpt(content, &shown, &more);
            rc = gsfw_fail(err, GSFW_ERR_FORMAT, "%s:%ld: expected 'u v' or 'u v cost', got "
                           "'%.*s%s'", path, lineno, shown, s, more);
            break;
        }
        if (fields == 0) {
            fields = (int)count;
            fields_line = lineno;
        } else if ((int)count != fields) {
            rc = gsfw_fail(err, GSFW_ERR_FORMAT, "%s:%ld: has %d fields but line %ld has %d; "
                           "all lines must be 'u v' or all 'u v cost'", path, lineno,
                           (int)count, fields_line, fields);
            break;
        }
        rc = store_edge(path, lineno, content, tok, fields, n, &b, err);
        if (rc) break;
    }
    free(ln.buf);
    fclose(fp);
    if (rc) {
        edge_buf_free(&b);
        return rc;
    }
    /* Callers index the arrays with m; give them valid pointers even for m = 0. */
    if (b.m == 0) {
        free(b.cost);
        b.cost = NULL;
        if (!b.u) b.u = malloc(1);
        if (!b.v) b.v = malloc(1);
        if (!b.u || !b.v) {
            edge_buf_free(&b);
            return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading '%s'", path);
        }
    }
    *m = (int)b.m;
    *u = b.u;
    *v = b.v;
    *cost = fields == 3 ? b.cost : NULL;
    return GSFW_OK;
}
