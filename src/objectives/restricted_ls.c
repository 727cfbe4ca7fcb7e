/* Direct least squares on a support (restricted_ls.h).
 *
 * dgelsy is a QR factorisation with column pivoting: it finds the numerical rank
 * (relative threshold RCOND) and returns the minimum-norm solution, also for |S| > n and
 * for dependent column sets (repeated or nearly parallel columns, where a plain QR would
 * divide by a tiny pivot). A pseudo-inverse is never formed. */
#include "objectives/restricted_ls.h"

#include <string.h>

/* Columns whose pivot falls below this fraction of the largest one count as dependent. */
#define RCOND 1e-12
/* The direct solve pays while min(n, k) stays below this (measured on the experiments'
 * sizes: docs/baselines.md). */
#define DIRECT_MAX_MIN_DIM 400
/* Budget of the column copy: 2^25 doubles (256 MiB). */
#define BUDGET_DOUBLES (1L << 25)

int gsfw_restricted_ls_worth(int n, int k)
{
    return (n < k ? n : k) <= DIRECT_MAX_MIN_DIM;
}

int gsfw_restricted_ls_cap(int n, int max_support)
{
    if (n < 1 || max_support < 1) return 0;
    long room = BUDGET_DOUBLES / n;
    return max_support < room ? max_support : (int)room;
}

/* LAPACK's optimal workspace for an n x k problem, or -1. */
static lapack_int lwork_query(int n, int k)
{
    double q = 0.0;
    int ldb = n > k ? n : k;
    lapack_int rank = 0;
    lapack_int info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, n, k, 1, NULL, n, NULL, ldb, NULL,
                                          RCOND, &rank, &q, -1);
    return info == 0 ? (lapack_int)q : -1;
}

void gsfw_restricted_ls_free(gsfw_restricted_ls *ls)
{
    free(ls->cols);
    free(ls->rhs);
    free(ls->jpvt);
    memset(ls, 0, sizeof *ls);
}

int gsfw_restricted_ls_reserve(gsfw_restricted_ls *ls, int n, int cap)
{
    if (cap <= 0) {
        gsfw_restricted_ls_free(ls);
        return 0;
    }
    if (ls->cols && ls->n == n && ls->cap >= cap) return 0;
    /* dgelsy's workspace grows with the column count k (checked for k up to 2500 at
     * several n), so the size for k = cap serves every smaller support. */
    lapack_int lwork = lwork_query(n, cap);
    int big = n > cap ? n : cap;
    if (lwork < 1) lwork = 4 * (lapack_int)big + 64;
    double *cols = gsfw_malloc_array((size_t)n * (size_t)cap, sizeof(double));
    double *rhs = gsfw_malloc_array((size_t)big + (size_t)lwork, sizeof(double));
    lapack_int *jpvt = gsfw_malloc_array((size_t)cap, sizeof(lapack_int));
    if (!cols || !rhs || !jpvt) {
        free(cols);
        free(rhs);
        free(jpvt);
        return -1;
    }
    gsfw_restricted_ls_free(ls);
    ls->n = n;
    ls->cap = cap;
    ls->cols = cols;
    ls->rhs = rhs;
    ls->lwork = lwork;
    ls->jpvt = jpvt;
    return 0;
}

int gsfw_restricted_ls_gather(gsfw_restricted_ls *ls, const gsfw_operator *A, int k,
                              const int *S)
{
    const int n = ls->n;
    const double one = 1.0;
    for (int j = 0; j < k; j++) {
        double *col = ls->cols + (size_t)j * n;
        memset(col, 0, (size_t)n * sizeof(double));
        if (A->apply_sparse(A->ctx, 1, S + j, &one, 1.0, col)) return -1;
    }
    return 0;
}

int gsfw_restricted_ls_solve(gsfw_restricted_ls *ls, const double *y, int k, double *w)
{
    const int n = ls->n;
    if (k == 0) return 0;
    const int big = n > ls->cap ? n : ls->cap;
    double *b = ls->rhs, *work = ls->rhs + big;
    memcpy(b, y, (size_t)n * sizeof(double));
    memset(ls->jpvt, 0, (size_t)k * sizeof(lapack_int)); /* every column free to pivot */
    lapack_int rank = 0;
    lapack_int info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, n, k, 1, ls->cols, n, b,
                                          n > k ? n : k, ls->jpvt, RCOND, &rank, work,
                                          ls->lwork);
    if (info != 0) return -2;
    ls->last_rank = (int)rank;
    memcpy(w, b, (size_t)k * sizeof(double));
    return 0;
}
