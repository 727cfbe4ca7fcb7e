/* Least squares on a support T: min_w ||A_T w - y||_2, minimum-norm when |T| > n.
 *
 * Every solve first copies the columns T of A into a contiguous n x |T| workspace (one
 * pass over n|T| numbers, the cost of one product), then either
 *  - DIRECT: LAPACKE_dgelsy_work, a QR factorisation with column pivoting that finds the
 *    numerical rank (relative threshold GSFW_LS_RCOND) and returns the minimum-norm
 *    solution, also for |T| > n and for rank-deficient column sets (repeated or
 *    dependent columns, where a plain QR would divide by a tiny pivot), with the LAPACK
 *    workspace sized once at init for the largest |T|; or
 *  - Krylov: CGLS (|T| <= n) or Craig's method (|T| > n) with dgemv on the copy.
 * Nothing is allocated per solve. A pseudo-inverse of A (or of A_T) is never formed. */
#include "solvers/baselines/baselines.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

/* AUTO rule, from measurements on the experiment sizes (docs/baselines.md): dgels costs
 * about 2 n k min(n, k) flops at dense-LAPACK speed, one Krylov iteration 4 n k flops at
 * (memory-bound) gemv speed, and the Krylov methods need tens of iterations at the
 * conditioning of Gaussian designs. Direct wins while min(n, k) is small. */
#define GSFW_LS_DIRECT_MAX_MIN_DIM 400

/* Krylov defaults. The solvers warm-start every solve from the previous estimate, so the
 * outer iterations keep refining the inner solution: at most 10 Krylov iterations per
 * solve (Hegde et al.'s driver uses 20, tolerance 1e-4) still give exact recovery where
 * CoSaMP recovers (angio at ratio 5: rel_err 1.5e-10 after 50 iterations, as with 30
 * inner iterations) and cost a third of 30 iterations where the subproblem is
 * near-square or under-determined (|T| ~ n, condition number ~ 20), which would need
 * hundreds; there the inexact estimate even helps (angio at ratio 2.5: CoSaMP rel_err 0.92
 * against 1.03, Graph-CoSaMP 0.52 against 0.63). Measurements in docs/baselines.md. */
#define GSFW_LS_KRYLOV_TOL 1e-10
#define GSFW_LS_KRYLOV_MAX_ITER 10

gsfw_ls_method gsfw_ls_choose(int n, int k)
{
    int mn = n < k ? n : k;
    return mn <= GSFW_LS_DIRECT_MAX_MIN_DIM ? GSFW_LS_DIRECT : GSFW_LS_CG;
}

/* Columns whose pivot falls below this fraction of the largest one are treated as
 * dependent (rank-revealing QR). */
#define GSFW_LS_RCOND 1e-12

static lapack_int lwork_query(int n, int k)
{
    double q = 0.0;
    int ldb = n > k ? n : k;
    lapack_int rank = 0;
    lapack_int info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, n, k, 1, NULL, n, NULL, ldb, NULL,
                                          GSFW_LS_RCOND, &rank, &q, -1);
    if (info != 0) return -1;
    return (lapack_int)q;
}

gsfw_error gsfw_ls_init(gsfw_ls *ls, int n, int d, const double *A, const double *y, int cap,
                        gsfw_ls_method method, gsfw_err *err)
{
    memset(ls, 0, sizeof *ls);
    if (n < 1 || d < 1 || cap < 1 || cap > d || !A || !y)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "least squares on a support: bad sizes "
                         "(n = %d, d = %d, largest support %d)", n, d, cap);
    ls->n = n;
    ls->d = d;
    ls->cap = cap;
    ls->A = A;
    ls->y = y;
    ls->method = method;
    ls->tol = GSFW_LS_KRYLOV_TOL;
    ls->max_iter = GSFW_LS_KRYLOV_MAX_ITER;
    int big = n > cap ? n : cap;
    ls->sub = gsfw_malloc_array((size_t)n * (size_t)cap, sizeof(double));
    /* rhs holds the right-hand side (max(n, cap) entries) followed by the LAPACK work
     * array, sized for the largest shape (the optimal lwork grows with min(n, k)). */
    lapack_int lw1 = lwork_query(n, cap), lw2 = lwork_query(n, cap < n ? cap : n);
    lapack_int lwork = lw1 > lw2 ? lw1 : lw2;
    if (lwork < 1) lwork = 4 * (lapack_int)big + 64;
    ls->rhs = gsfw_malloc_array((size_t)big + (size_t)lwork, sizeof(double));
    ls->r = gsfw_malloc_array((size_t)n, sizeof(double));
    ls->q = gsfw_malloc_array((size_t)n, sizeof(double));
    ls->u = gsfw_malloc_array((size_t)n, sizeof(double));
    ls->uq = gsfw_malloc_array((size_t)n, sizeof(double));
    ls->p = gsfw_malloc_array((size_t)cap, sizeof(double));
    ls->s = gsfw_malloc_array((size_t)cap, sizeof(double));
    ls->jpvt = gsfw_malloc_array((size_t)cap, sizeof(lapack_int));
    if (!ls->sub || !ls->rhs || !ls->r || !ls->q || !ls->u || !ls->uq || !ls->p || !ls->s ||
        !ls->jpvt) {
        gsfw_ls_free(ls);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "least squares on a support: out of memory for "
                         "a %d x %d workspace", n, cap);
    }
    return GSFW_OK;
}

void gsfw_ls_free(gsfw_ls *ls)
{
    free(ls->sub);
    free(ls->rhs);
    free(ls->jpvt);
    free(ls->r);
    free(ls->q);
    free(ls->u);
    free(ls->uq);
    free(ls->p);
    free(ls->s);
    memset(ls, 0, sizeof *ls);
}

static gsfw_error solve_direct(gsfw_ls *ls, int k, double *w, gsfw_err *err)
{
    const int n = ls->n;
    const int ldb = n > k ? n : k;
    double *b = ls->rhs;
    memcpy(b, ls->y, (size_t)n * sizeof(double));
    lapack_int lwork = lwork_query(n, k);
    int big = n > ls->cap ? n : ls->cap;
    double *work = ls->rhs + big;
    lapack_int rank = 0;
    memset(ls->jpvt, 0, (size_t)k * sizeof(lapack_int)); /* every column free to pivot */
    lapack_int info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, n, k, 1, ls->sub, n, b, ldb,
                                          ls->jpvt, GSFW_LS_RCOND, &rank, work, lwork);
    if (info != 0)
        return gsfw_fail(err, GSFW_ERR_INTERNAL, "least squares on a support: LAPACK dgelsy "
                         "failed (info %d) on a %d x %d column submatrix", (int)info, n, k);
    ls->last_rank = (int)rank;
    memcpy(w, b, (size_t)k * sizeof(double));
    ls->last_iters = 0;
    ls->last_direct = 1;
    return GSFW_OK;
}

/* CGLS for k <= n: CG on A_T^T A_T w = A_T^T y without forming the product. */
static void solve_cgls(gsfw_ls *ls, int k, const double *guess, double *w)
{
    const int n = ls->n;
    const double *M = ls->sub;
    double *r = ls->r, *q = ls->q, *p = ls->p, *s = ls->s;
    /* reference scale ||A_T^T y|| */
    cblas_dgemv(CblasColMajor, CblasTrans, n, k, 1.0, M, n, ls->y, 1, 0.0, s, 1);
    double s0 = cblas_dnrm2(k, s, 1);
    double ynorm = cblas_dnrm2(n, ls->y, 1);
    memcpy(r, ls->y, (size_t)n * sizeof(double));
    if (guess) {
        memcpy(w, guess, (size_t)k * sizeof(double));
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, k, -1.0, M, n, w, 1, 1.0, r, 1);
        cblas_dgemv(CblasColMajor, CblasTrans, n, k, 1.0, M, n, r, 1, 0.0, s, 1);
    } else {
        memset(w, 0, (size_t)k * sizeof(double));
    }
    memcpy(p, s, (size_t)k * sizeof(double));
    double gamma = cblas_ddot(k, s, 1, s, 1);
    int it = 0;
    const double stop_s = ls->tol * s0, stop_r = ls->tol * ynorm;
    while (it < ls->max_iter && sqrt(gamma) > stop_s && cblas_dnrm2(n, r, 1) > stop_r) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, k, 1.0, M, n, p, 1, 0.0, q, 1);
        double qq = cblas_ddot(n, q, 1, q, 1);
        if (!(qq > 0)) break;
        double alpha = gamma / qq;
        cblas_daxpy(k, alpha, p, 1, w, 1);
        cblas_daxpy(n, -alpha, q, 1, r, 1);
        cblas_dgemv(CblasColMajor, CblasTrans, n, k, 1.0, M, n, r, 1, 0.0, s, 1);
        double gnew = cblas_ddot(k, s, 1, s, 1);
        double beta = gnew / gamma;
        gamma = gnew;
        for (int j = 0; j < k; j++) p[j] = s[j] + beta * p[j];
        it++;
    }
    ls->last_iters = it;
    ls->krylov_iters += it;
}

/* Craig's method for k > n: CG on (A_T A_T^T) u = y, w = A_T^T u (minimum norm). The
 * dual u is warm-started from the previous solve. */
static void solve_craig(gsfw_ls *ls, int k, double *w)
{
    const int n = ls->n;
    const double *M = ls->sub;
    double *r = ls->r, *tmp = ls->q, *u = ls->u, *qd = ls->uq, *p = ls->p;
    const double ynorm = cblas_dnrm2(n, ls->y, 1);
    memcpy(r, ls->y, (size_t)n * sizeof(double));
    if (ls->have_u) {
        cblas_dgemv(CblasColMajor, CblasTrans, n, k, 1.0, M, n, u, 1, 0.0, w, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, k, -1.0, M, n, w, 1, 1.0, r, 1);
        if (cblas_dnrm2(n, r, 1) >= ynorm) { /* the old dual is no help: restart from 0 */
            memcpy(r, ls->y, (size_t)n * sizeof(double));
            ls->have_u = 0;
        }
    }
    if (!ls->have_u) {
        memset(u, 0, (size_t)n * sizeof(double));
        memset(w, 0, (size_t)k * sizeof(double));
    }
    memcpy(qd, r, (size_t)n * sizeof(double));
    cblas_dgemv(CblasColMajor, CblasTrans, n, k, 1.0, M, n, r, 1, 0.0, p, 1);
    double rr = cblas_ddot(n, r, 1, r, 1);
    const double stop = ls->tol * ynorm;
    int it = 0;
    while (it < ls->max_iter && sqrt(rr) > stop) {
        double pp = cblas_ddot(k, p, 1, p, 1);
        if (!(pp > 0)) break;
        double alpha = rr / pp;
        cblas_daxpy(n, alpha, qd, 1, u, 1);
        cblas_daxpy(k, alpha, p, 1, w, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, k, 1.0, M, n, p, 1, 0.0, tmp, 1);
        cblas_daxpy(n, -alpha, tmp, 1, r, 1);
        double rnew = cblas_ddot(n, r, 1, r, 1);
        double beta = rnew / rr;
        rr = rnew;
        for (int i = 0; i < n; i++) qd[i] = r[i] + beta * qd[i];
        /* p <- A_T^T r + beta p */
        cblas_dgemv(CblasColMajor, CblasTrans, n, k, 1.0, M, n, r, 1, beta, p, 1);
        it++;
    }
    ls->have_u = 1;
    ls->last_iters = it;
    ls->krylov_iters += it;
}

gsfw_error gsfw_ls_solve(gsfw_ls *ls, const int *T, int k, const double *guess, double *w,
                         gsfw_err *err)
{
    if (k < 0 || k > ls->cap)
        return gsfw_fail(err, GSFW_ERR_INTERNAL, "least squares on a support: |T| = %d outside "
                         "0..%d", k, ls->cap);
    if (k == 0) return GSFW_OK;
    const int n = ls->n;
    for (int j = 0; j < k; j++)
        memcpy(ls->sub + (size_t)j * n, ls->A + (size_t)T[j] * n, (size_t)n * sizeof(double));
    ls->solves++;
    gsfw_ls_method m = ls->method == GSFW_LS_AUTO ? gsfw_ls_choose(n, k) : ls->method;
    if (m == GSFW_LS_DIRECT) return solve_direct(ls, k, w, err);
    ls->last_direct = 0;
    if (k <= n)
        solve_cgls(ls, k, guess, w);
    else
        solve_craig(ls, k, w);
    if (!gsfw_all_finite(w, (size_t)k))
        return gsfw_fail(err, GSFW_ERR_NONFINITE, "least squares on a support: the Krylov "
                         "solve produced a non-finite value");
    return GSFW_OK;
}
