#include "ref_operator.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int n, d;
    double *A;     /* dense: n x d row-major */
    int *row_ptr;  /* csr: n + 1 */
    int *col;      /* csr: nnz */
    double *val;   /* csr: nnz */
} ref_ctx;

static int dense_apply(void *ctx, const double *x, double *y)
{
    const ref_ctx *c = ctx;
    for (int i = 0; i < c->n; i++) {
        double acc = 0;
        for (int j = 0; j < c->d; j++) acc += c->A[(size_t)i * c->d + j] * x[j];
        y[i] = acc;
    }
    return 0;
}

static int dense_adjoint(void *ctx, const double *r, double *x)
{
    const ref_ctx *c = ctx;
    for (int j = 0; j < c->d; j++) x[j] = 0;
    for (int i = 0; i < c->n; i++)
        for (int j = 0; j < c->d; j++) x[j] += c->A[(size_t)i * c->d + j] * r[i];
    return 0;
}

static int dense_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                              double alpha, double *y)
{
    const ref_ctx *c = ctx;
    for (int i = 0; i < c->n; i++) {
        double acc = 0;
        for (int k = 0; k < nnz; k++) acc += c->A[(size_t)i * c->d + idx[k]] * val[k];
        y[i] += alpha * acc;
    }
    return 0;
}

static int dense_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx,
                                double *out)
{
    const ref_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) {
        double acc = 0;
        for (int i = 0; i < c->n; i++) acc += c->A[(size_t)i * c->d + idx[k]] * r[i];
        out[k] = acc;
    }
    return 0;
}

static int csr_apply(void *ctx, const double *x, double *y)
{
    const ref_ctx *c = ctx;
    for (int i = 0; i < c->n; i++) {
        double acc = 0;
        for (int p = c->row_ptr[i]; p < c->row_ptr[i + 1]; p++) acc += c->val[p] * x[c->col[p]];
        y[i] = acc;
    }
    return 0;
}

static int csr_adjoint(void *ctx, const double *r, double *x)
{
    const ref_ctx *c = ctx;
    memset(x, 0, (size_t)c->d * sizeof(double));
    for (int i = 0; i < c->n; i++)
        for (int p = c->row_ptr[i]; p < c->row_ptr[i + 1]; p++) x[c->col[p]] += c->val[p] * r[i];
    return 0;
}

/* Linear search of each row for each id: slow and obviously right. */
static double csr_entry(const ref_ctx *c, int i, int j)
{
    for (int p = c->row_ptr[i]; p < c->row_ptr[i + 1]; p++)
        if (c->col[p] == j) return c->val[p];
    return 0.0;
}

static int csr_apply_sparse(void *ctx, int nnz, const int *idx, const double *val,
                            double alpha, double *y)
{
    const ref_ctx *c = ctx;
    for (int i = 0; i < c->n; i++) {
        double acc = 0;
        for (int k = 0; k < nnz; k++) acc += csr_entry(c, i, idx[k]) * val[k];
        y[i] += alpha * acc;
    }
    return 0;
}

static int csr_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx,
                              double *out)
{
    const ref_ctx *c = ctx;
    for (int k = 0; k < nnz; k++) {
        double acc = 0;
        for (int i = 0; i < c->n; i++) acc += csr_entry(c, i, idx[k]) * r[i];
        out[k] = acc;
    }
    return 0;
}

void ref_operator_free(gsfw_operator *op)
{
    if (!op) return;
    ref_ctx *c = op->ctx;
    if (c) {
        free(c->A);
        free(c->row_ptr);
        free(c->col);
        free(c->val);
        free(c);
    }
    free(op);
}

static void destroy(gsfw_operator *op)
{
    ref_operator_free(op);
}

static gsfw_operator *new_operator(int n, int d, const char *name)
{
    gsfw_operator *op = calloc(1, sizeof *op);
    ref_ctx *c = calloc(1, sizeof *c);
    if (!op || !c) {
        free(op);
        free(c);
        return NULL;
    }
    c->n = n;
    c->d = d;
    op->n = n;
    op->d = d;
    op->name = name;
    op->ctx = c;
    op->destroy = destroy;
    return op;
}

gsfw_operator *ref_dense_operator(int n, int d, const double *A)
{
    gsfw_operator *op = new_operator(n, d, "ref-dense");
    if (!op) return NULL;
    ref_ctx *c = op->ctx;
    c->A = malloc((size_t)n * d * sizeof(double));
    if (!c->A) {
        ref_operator_free(op);
        return NULL;
    }
    memcpy(c->A, A, (size_t)n * d * sizeof(double));
    op->apply = dense_apply;
    op->adjoint = dense_adjoint;
    op->apply_sparse = dense_apply_sparse;
    op->adjoint_sparse = dense_adjoint_sparse;
    return op;
}

gsfw_operator *ref_csr_operator(int n, int d, const double *A)
{
    gsfw_operator *op = new_operator(n, d, "ref-csr");
    if (!op) return NULL;
    ref_ctx *c = op->ctx;
    size_t nnz = 0;
    for (size_t k = 0; k < (size_t)n * d; k++) nnz += A[k] != 0.0;
    c->row_ptr = malloc(((size_t)n + 1) * sizeof(int));
    c->col = malloc((nnz ? nnz : 1) * sizeof(int));
    c->val = malloc((nnz ? nnz : 1) * sizeof(double));
    if (!c->row_ptr || !c->col || !c->val) {
        ref_operator_free(op);
        return NULL;
    }
    size_t p = 0;
    for (int i = 0; i < n; i++) {
        c->row_ptr[i] = (int)p;
        for (int j = 0; j < d; j++) {
            double a = A[(size_t)i * d + j];
            if (a != 0.0) {
                c->col[p] = j;
                c->val[p++] = a;
            }
        }
    }
    c->row_ptr[n] = (int)p;
    op->apply = csr_apply;
    op->adjoint = csr_adjoint;
    op->apply_sparse = csr_apply_sparse;
    op->adjoint_sparse = csr_adjoint_sparse;
    return op;
}
