/* Sparse matrices from triplets, kept twice: CSR (rows) for A x, CSC (columns) for A^T r
 * and for the sparse products, which then read only the chosen columns. Both are built
 * by counting sorts (O(nnz + n + d)); duplicate triplets are summed. */
#include "operators/op_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n, d;
    long *row_ptr; /* n + 1 */
    int *row_col;
    double *row_val;
    long *col_ptr; /* d + 1 */
    int *col_row;
    double *col_val;
} csr_ctx;

static int csr_apply(void *ctx, const double *x, double *y)
{
    csr_ctx *c = ctx;
    for (int i = 0; i < c->n; i++) {
        double s = 0.0;
        for (long p = c->row_ptr[i]; p < c->row_ptr[i + 1]; p++) s += c->row_val[p] * x[c->row_col[p]];
        y[i] = s;
    }
    return 0;
}

static int csr_adjoint(void *ctx, const double *r, double *x)
{
    csr_ctx *c = ctx;
    for (int j = 0; j < c->d; j++) {
        double s = 0.0;
        for (long p = c->col_ptr[j]; p < c->col_ptr[j + 1]; p++) s += c->col_val[p] * r[c->col_row[p]];
        x[j] = s;
    }
    return 0;
}

static int csr_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                            double *y)
{
    csr_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) {
        double a = alpha * val[k];
        int j = idx[k];
        for (long p = c->col_ptr[j]; p < c->col_ptr[j + 1]; p++) y[c->col_row[p]] += a * c->col_val[p];
    }
    return 0;
}

static int csr_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    csr_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) {
        int j = idx[k];
        double s = 0.0;
        for (long p = c->col_ptr[j]; p < c->col_ptr[j + 1]; p++) s += c->col_val[p] * r[c->col_row[p]];
        out[k] = s;
    }
    return 0;
}

static void csr_ctx_free(csr_ctx *c)
{
    if (!c) return;
    free(c->row_ptr);
    free(c->row_col);
    free(c->row_val);
    free(c->col_ptr);
    free(c->col_row);
    free(c->col_val);
    free(c);
}

static void csr_destroy(gsfw_operator *self)
{
    csr_ctx_free(self->ctx);
    free(self);
}

/* Bucket the entries (key[k], other[k], val[k]) by key (0..nkey-1) into ptr/o/v, keeping the
 * input order within a bucket (stable counting sort). */
static void bucket(long nnz, int nkey, const int *key, const int *other, const double *val,
                   long *ptr, int *o, double *v)
{
    memset(ptr, 0, ((size_t)nkey + 1) * sizeof(long));
    for (long k = 0; k < nnz; k++) ptr[key[k] + 1]++;
    for (int i = 0; i < nkey; i++) ptr[i + 1] += ptr[i];
    for (long k = 0; k < nnz; k++) {
        long p = ptr[key[k]]++;
        o[p] = other[k];
        v[p] = val[k];
    }
    for (int i = nkey; i > 0; i--) ptr[i] = ptr[i - 1];
    ptr[0] = 0;
}

double gsfw_operator_csr_memory(double n, double d, double nnz)
{
    /* row_ptr, col_ptr and the scratch tmp_ptr (longs); an int and a double per entry in
     * the CSR, the CSC and the scratch (see below) */
    return 8.0 * (n + 1.0) + 16.0 * (d + 1.0) + 36.0 * fmax(nnz, 1.0) + sizeof(csr_ctx);
}

gsfw_error gsfw_operator_csr(int n, int d, long nnz, const int *rows, const int *cols,
                             const double *vals, gsfw_operator **out, gsfw_err *err)
{
    static const char what[] = "csr operator";
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: out is NULL", what);
    *out = NULL;
    if (n < 1 || d < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the matrix must be at least 1 x 1, "
                         "got %d x %d", what, n, d);
    if (nnz < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: nnz must be >= 0, got %ld", what, nnz);
    if (nnz > 0 && (!rows || !cols || !vals))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the %s array is NULL (nnz = %ld)", what,
                         !rows ? "rows" : !cols ? "cols" : "vals", nnz);
    for (long k = 0; k < nnz; k++) {
        if (rows[k] < 0 || rows[k] >= n)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: entry %ld has row %d, outside "
                             "0..%d", what, k, rows[k], n - 1);
        if (cols[k] < 0 || cols[k] >= d)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: entry %ld has column %d, outside "
                             "0..%d", what, k, cols[k], d - 1);
        if (!isfinite(vals[k]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "%s: entry %ld (row %d, column %d) is %g; "
                             "values must be finite", what, k, rows[k], cols[k], vals[k]);
    }

    csr_ctx *c = calloc(1, sizeof *c);
    size_t m = nnz > 0 ? (size_t)nnz : 1;
    long *tmp_ptr = gsfw_malloc_array((size_t)d + 1, sizeof(long));
    int *tmp_row = gsfw_malloc_array(m, sizeof(int));
    double *tmp_val = gsfw_malloc_array(m, sizeof(double));
    if (c) {
        c->n = n;
        c->d = d;
        c->row_ptr = gsfw_malloc_array((size_t)n + 1, sizeof(long));
        c->row_col = gsfw_malloc_array(m, sizeof(int));
        c->row_val = gsfw_malloc_array(m, sizeof(double));
        c->col_ptr = gsfw_malloc_array((size_t)d + 1, sizeof(long));
        c->col_row = gsfw_malloc_array(m, sizeof(int));
        c->col_val = gsfw_malloc_array(m, sizeof(double));
    }
    gsfw_operator *op = c ? gsfw_op_new(n, d, "csr", c) : NULL;
    if (!op || !tmp_ptr || !tmp_row || !tmp_val || !c->row_ptr || !c->row_col || !c->row_val ||
        !c->col_ptr || !c->col_row || !c->col_val) {
        free(op);
        csr_ctx_free(c);
        free(tmp_ptr);
        free(tmp_row);
        free(tmp_val);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for a %d x %d matrix with %ld "
                         "entries (about %.3g GB)", what, n, d, nnz,
                         gsfw_operator_csr_memory(n, d, (double)nnz) / 1e9);
    }
    /* By column first (stable), then by row: rows come out with ascending columns, and
     * duplicates end up adjacent, where they are summed. */
    bucket(nnz, d, cols, rows, vals, tmp_ptr, tmp_row, tmp_val);
    {
        /* the column of each column-sorted entry, to bucket them by row */
        int *tmp_col = c->col_row; /* free until the CSC is built below */
        for (int j = 0; j < d; j++)
            for (long p = tmp_ptr[j]; p < tmp_ptr[j + 1]; p++) tmp_col[p] = j;
        bucket(nnz, n, tmp_row, tmp_col, tmp_val, c->row_ptr, c->row_col, c->row_val);
    }
    long w = 0;
    for (int i = 0; i < n; i++) {
        long start = c->row_ptr[i], end = c->row_ptr[i + 1];
        c->row_ptr[i] = w;
        for (long p = start; p < end; p++) {
            if (w > c->row_ptr[i] && c->row_col[w - 1] == c->row_col[p]) {
                c->row_val[w - 1] += c->row_val[p];
            } else {
                c->row_col[w] = c->row_col[p];
                c->row_val[w] = c->row_val[p];
                w++;
            }
        }
    }
    c->row_ptr[n] = w;
    /* CSC from the merged CSR (rows ascending within each column) */
    int *row_of = tmp_row;
    for (int i = 0; i < n; i++)
        for (long p = c->row_ptr[i]; p < c->row_ptr[i + 1]; p++) row_of[p] = i;
    bucket(w, d, c->row_col, row_of, c->row_val, c->col_ptr, c->col_row, c->col_val);
    free(tmp_ptr);
    free(tmp_row);
    free(tmp_val);

    op->apply = csr_apply;
    op->adjoint = csr_adjoint;
    op->apply_sparse = csr_apply_sparse;
    op->adjoint_sparse = csr_adjoint_sparse;
    op->destroy = csr_destroy;
    *out = op;
    return GSFW_OK;
}
