/* Internal interface of the baseline solvers (IHT, CoSaMP, Graph-IHT, Graph-CoSaMP,
 * Gen-MP) and of the least-squares-on-a-support solver they share. Not public API. */
#ifndef GSFW_BASELINES_H
#define GSFW_BASELINES_H

#include <lapacke.h>

#include "solvers/run.h"

/* ------------------------------------------------ least squares on a support */

/* How min_w ||A_T w - y|| is solved (A_T = the columns T of A).
 *  DIRECT: LAPACKE_dgels on the n x |T| column submatrix copied into a workspace (QR when
 *          |T| <= n, LQ and the minimum-norm solution when |T| > n); exact.
 *  CG:     Krylov: CGLS on the normal equations when |T| <= n (warm-started from the
 *          caller's guess), Craig's method (CG on A_T A_T^T u = y, w = A_T^T u, which is
 *          the minimum-norm solution) when |T| > n, warm-started from the previous call's
 *          u (u lives in R^n whatever T is, and w = A_T^T u stays in range(A_T^T), so the
 *          minimum-norm property holds for any start). Stops on a relative residual of
 *          tol or after max_iter products with A_T and A_T^T.
 *  AUTO:   DIRECT when its flop count is below the Krylov estimate (see ls.c). */
typedef enum { GSFW_LS_AUTO = 0, GSFW_LS_DIRECT, GSFW_LS_CG } gsfw_ls_method;

typedef struct {
    int n, d, cap;        /* rows, columns of A, largest |T| */
    const double *A;      /* n x d column-major (not owned) */
    const double *y;      /* n (not owned) */
    gsfw_ls_method method;
    double tol;           /* Krylov relative tolerance */
    int max_iter;         /* Krylov iteration cap */
    /* workspaces, allocated once by gsfw_ls_init */
    double *sub;          /* n * cap: A_T copy (DIRECT) */
    double *rhs;          /* max(n, cap) */
    double *r, *q, *u, *uq; /* n each (Krylov) */
    double *p, *s;        /* cap each (Krylov) */
    lapack_int *jpvt;     /* cap: column pivots of the rank-revealing QR (DIRECT) */
    int have_u;           /* u holds a previous dual solution */
    /* statistics */
    long solves, krylov_iters;
    int last_iters;       /* Krylov iterations of the last solve (0 for DIRECT) */
    int last_direct;      /* 1 if the last solve was direct */
    int last_rank;        /* numerical rank found by the last direct solve */
} gsfw_ls;

/* A: n x d column-major, y: n (both must outlive the workspace). cap: largest |T|. */
gsfw_error gsfw_ls_init(gsfw_ls *ls, int n, int d, const double *A, const double *y, int cap,
                        gsfw_ls_method method, gsfw_err *err);
void gsfw_ls_free(gsfw_ls *ls);
/* w (k entries) = argmin ||A_T w - y|| (minimum-norm among minimisers when k > n; for
 * DIRECT this needs A_T of full rank, as Gaussian designs are almost surely). guess:
 * k entries or NULL, a warm start for CGLS. Returns GSFW_OK or an error (LAPACK
 * failure: rank-deficient A_T). Never allocates. */
gsfw_error gsfw_ls_solve(gsfw_ls *ls, const int *T, int k, const double *guess, double *w,
                         gsfw_err *err);
/* Which method AUTO picks for an n x k subproblem (DIRECT or CG). */
gsfw_ls_method gsfw_ls_choose(int n, int k);

/* ---------------------------------------------------------------- solvers */

/* The loops, dispatched by gsfw_baseline_solve (src/solvers/solve.c): head is the
 * identification oracle, tail the pruning projection (the head when none was given). */
gsfw_error gsfw_solve_iht(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head,
                          gsfw_dmo *tail);
gsfw_error gsfw_solve_cosamp(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head,
                             gsfw_dmo *tail);
gsfw_error gsfw_solve_gen_mp(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head);

#endif
