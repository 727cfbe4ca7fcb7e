/* Least squares on the columns of a support, min_w ||A_S w - y||_2, for operators with
 * cheap columns: A_S is copied into a workspace (column by column through the operator's
 * apply_sparse, the cost of one product), then either solved directly by a rank-revealing
 * QR (LAPACK dgelsy: minimum norm when |S| > n or A_S is rank deficient) or used by the
 * squared loss's CGLS / Craig iterations (linear.c) as a contiguous matrix (dgemv rather
 * than one BLAS-1 call per column). Not part of the public API. */
#ifndef GSFW_OBJECTIVES_RESTRICTED_LS_H
#define GSFW_OBJECTIVES_RESTRICTED_LS_H

#include "core/internal.h"

#include <lapacke.h>

typedef struct {
    int n;             /* rows */
    int cap;           /* largest support reserved (0: none) */
    double *cols;      /* n * cap: A_S, column-major, overwritten by the factorisation */
    double *rhs;       /* max(n, cap) right-hand side, then lwork doubles of LAPACK work */
    lapack_int lwork;
    lapack_int *jpvt;  /* cap: column pivots */
    int last_rank;     /* numerical rank of the last solve */
} gsfw_restricted_ls;

/* Whether the direct solve is the cheaper one for an n x k support: dgelsy costs about
 * 2 n k min(n, k) flops at dense-LAPACK speed, a Krylov iteration 4 n k flops at
 * memory-bound speed, and Krylov methods need tens of iterations at the conditioning of
 * random designs, so direct wins while min(n, k) is small. */
int gsfw_restricted_ls_worth(int n, int k);

/* How many columns to reserve for n rows and supports of up to max_support ids: all of
 * them within a fixed memory budget (0 when max_support < 1). */
int gsfw_restricted_ls_cap(int n, int max_support);

/* Allocate the workspace for supports of up to cap ids (cap <= 0 frees it). Growing
 * replaces it; a smaller cap keeps it. Returns 0 or -1 when out of memory (the old
 * workspace is then kept). */
int gsfw_restricted_ls_reserve(gsfw_restricted_ls *ls, int n, int cap);
void gsfw_restricted_ls_free(gsfw_restricted_ls *ls);

/* Copy the columns S (k <= ls->cap distinct ids) into ls->cols. Returns 0, or -1 when
 * an operator product failed. Never allocates. */
int gsfw_restricted_ls_gather(gsfw_restricted_ls *ls, const gsfw_operator *A, int k,
                              const int *S);
/* w = argmin ||A_S w - y|| from the gathered columns (which the factorisation
 * overwrites). Returns 0, or -2 when LAPACK failed. Never allocates. */
int gsfw_restricted_ls_solve(gsfw_restricted_ls *ls, const double *y, int k, double *w);

#endif
