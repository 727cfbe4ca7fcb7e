/* Reading the entries of one block of rows of a Matrix Market coordinate file. */
#include "mpi/gsfw_mpi.h"

#include "core/internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <strings.h>

typedef struct {
    long len, cap;
    int *r, *c;
    double *v;
} triplets;

static int push(triplets *t, int r, int c, double v)
{
    if (t->len == t->cap) {
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
    t->r[t->len] = r;
    t->c[t->len] = c;
    t->v[t->len] = v;
    t->len++;
    return 0;
}

gsfw_error gsfw_mpi_mtx_read_block(const char *path, int rank, int nprocs, int *n, int *d,
                                   int *row0_out, int *rows_out, long *nnz, int **ri,
                                   int **ci, double **val, gsfw_err *err)
{
    *ri = *ci = NULL;
    *val = NULL;
    *nnz = 0;
    FILE *fp = fopen(path, "r");
    if (!fp) return gsfw_fail(err, GSFW_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    char line[1024], obj[64], fmt[64], field[64], sym[64];
    gsfw_error rc = GSFW_OK;
    triplets t = {0, 0, NULL, NULL, NULL};
    if (!fgets(line, sizeof line, fp) ||
        sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", obj, fmt, field, sym) != 4 ||
        strcasecmp(obj, "matrix") || strcasecmp(fmt, "coordinate")) {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': not a Matrix Market coordinate matrix", path);
        goto done;
    }
    int pattern = !strcasecmp(field, "pattern");
    int symmetric = !strcasecmp(sym, "symmetric");
    if ((!pattern && strcasecmp(field, "real") && strcasecmp(field, "integer")) ||
        (!symmetric && strcasecmp(sym, "general"))) {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': unsupported Matrix Market kind '%s %s' "
                       "(real, integer or pattern; general or symmetric)", path, field, sym);
        goto done;
    }
    long nr = -1, nc = -1, ne = -1;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '%' || line[strspn(line, " \t\r\n")] == '\0') continue;
        if (sscanf(line, "%ld %ld %ld", &nr, &nc, &ne) != 3) nr = -1;
        break;
    }
    if (nr < 1 || nc < 1 || ne < 0 || nr > INT32_MAX || nc > INT32_MAX) {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': missing or bad size line", path);
        goto done;
    }
    int row0, rows;
    gsfw_mpi_row_block((int)nr, nprocs, rank, &row0, &rows);
    long seen = 0;
    while (seen < ne && fgets(line, sizeof line, fp)) {
        if (line[0] == '%' || line[strspn(line, " \t\r\n")] == '\0') continue;
        long i, j;
        double v = 1.0;
        int got = sscanf(line, "%ld %ld %lf", &i, &j, &v);
        if (got < (pattern ? 2 : 3) || i < 1 || i > nr || j < 1 || j > nc || !isfinite(v)) {
            rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s': bad entry %ld: '%.60s'", path, seen + 1,
                           line);
            goto done;
        }
        seen++;
        int pushes[2][2] = {{(int)i - 1, (int)j - 1}, {(int)j - 1, (int)i - 1}};
        int k_end = symmetric && i != j ? 2 : 1;
        for (int k = 0; k < k_end; k++) {
            int r = pushes[k][0];
            if (r < row0 || r >= row0 + rows) continue;
            if (push(&t, r - row0, pushes[k][1], v)) {
                rc = gsfw_fail(err, GSFW_ERR_NOMEM, "'%s': out of memory for the block's "
                               "entries", path);
                goto done;
            }
        }
    }
    if (seen != ne) {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is truncated: %ld of the %ld entries its "
                       "header announces", path, seen, ne);
        goto done;
    }
    *n = (int)nr;
    *d = (int)nc;
    *row0_out = row0;
    *rows_out = rows;
    *nnz = t.len;
    *ri = t.r;
    *ci = t.c;
    *val = t.v;
    t.r = t.c = NULL;
    t.v = NULL;
done:
    free(t.r);
    free(t.c);
    free(t.v);
    fclose(fp);
    return rc;
}
