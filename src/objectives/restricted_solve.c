/* The restricted-solve toolbox of the linear objectives: minimise f over the vectors
 * supported on a set S (the objective's minimize_on), the squared loss by CGLS, by
 * Craig's method when S is wider than the rows, or exactly by a rank-revealing QR of a
 * gathered copy of A_S (restricted_ls.c) after reserve; the other losses by a restricted
 * Newton-CG with Armijo backtracking (and a gradient step where Newton steps crawl). Every
 * sum over rows goes through the reducer, as in linear.c. The intercept and the Lipschitz
 * constant come from linear_common.c: nothing here calls into linear.c. */
#include "objectives/linear_common.h"
#include "util/vec.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define LINE_SEARCH_MAX 60   /* Armijo halvings */
#define ARMIJO_C 1e-4
#define CG_MAX_ITER 200      /* inner CG steps per Newton step of minimize_on */
#define NOISE_FLOOR (16 * DBL_EPSILON) /* CGLS: the residual's rounding noise, relative */

/* y += alpha A_S v and out = A_S^T r: dgemv on the gathered columns, else the operator's
 * sparse products. */
static int sub_apply(const lin_ctx *c, int k, const int *S, const double *v, double alpha,
                     double *y)
{
    if (c->gathered) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, c->n, k, alpha, c->support_ls.cols, c->n, v,
                    1, 1.0, y, 1);
        return 0;
    }
    return c->A->apply_sparse(c->A->ctx, k, S, v, alpha, y) ? OP_FAILED : 0;
}

static int sub_adjoint(const lin_ctx *c, const double *r, int k, const int *S, double *out)
{
    if (c->gathered) {
        cblas_dgemv(CblasColMajor, CblasTrans, c->n, k, 1.0, c->support_ls.cols, c->n, r, 1,
                    0.0, out, 1);
        return 0;
    }
    return c->A->adjoint_sparse(c->A->ctx, r, k, S, out) ? OP_FAILED : 0;
}

/* CGLS on min_w 0.5 ||A_S w - y||^2 from the caller's w: r = y - A_S w, s = A_S^T r. */
static int cgls(lin_ctx *c, int k, const int *S, double *w, int max_iter, double tol,
                double *f)
{
    int n = c->n;
    int rc;
    double *r = c->wn[0], *q = c->wn[1], *s = c->wd[0], *p = c->wd[1];
    memcpy(r, c->y, (size_t)n * sizeof(double));
    if ((rc = sub_apply(c, k, S, w, -1.0, r))) return rc;
    if ((rc = sub_adjoint(c, r, k, S, s))) return rc;
    if (gsfw_lin_reduce(c, s, k)) return REDUCER_FAILED;
    memcpy(p, s, (size_t)k * sizeof(double));
    double gam = gsfw_vec_dot(k, s, s), rr = gsfw_vec_dot(n, r, r);
    if (gsfw_lin_reduce(c, &rr, 1)) return REDUCER_FAILED;
    const double stop = tol * sqrt(gam), rr_noise = DBL_EPSILON * rr;
    double a2 = 0.0; /* the largest ||A_S p||^2 / ||p||^2 seen, a lower bound on ||A_S||^2 */
    for (int it = 0; it < max_iter && sqrt(gam) > stop && gam > 0; it++) {
        memset(q, 0, (size_t)n * sizeof(double));
        if ((rc = sub_apply(c, k, S, p, 1.0, q))) return rc;
        double qq = gsfw_vec_dot(n, q, q), pp = gsfw_vec_dot(k, p, p);
        if (gsfw_lin_reduce(c, &qq, 1)) return REDUCER_FAILED;
        if (!(qq > 0)) break;
        if (qq > a2 * pp) a2 = qq / pp;
        double alpha = gam / qq;
        gsfw_vec_axpy(k, alpha, p, w);
        gsfw_vec_axpy(n, -alpha, q, r);
        rr -= alpha * gam; /* ||r||^2 falls by alpha gam per step */
        if ((rc = sub_adjoint(c, r, k, S, s))) return rc;
        if (gsfw_lin_reduce(c, s, k)) return REDUCER_FAILED;
        double gnew = gsfw_vec_dot(k, s, s);
        /* A_S^T r is computed to about eps ||A_S|| ||r||: below a few times that it is
         * rounding noise, and steps on it lose conjugacy and can grow without bound */
        if (gnew <= NOISE_FLOOR * NOISE_FLOOR * a2 * fmax(rr, rr_noise)) break;
        double beta = gnew / gam;
        gam = gnew;
        for (int j = 0; j < k; j++) p[j] = s[j] + beta * p[j];
    }
    if (f) {
        double v = c->loss->sum(&c->par, n, r, NULL, 0.0, 0.0, NULL); /* ||r||^2 / 2 */
        if (gsfw_lin_reduce(c, &v, 1)) return REDUCER_FAILED;
        *f = v;
    }
    return 0;
}

/* Craig's method (CG on A_S A_S^T u = y, w = A_S^T u) for supports wider than the rows:
 * it converges to the minimum-norm least-squares solution whatever the start, as long as
 * w stays in the range of A_S^T, which a start from w would break; so the start is the
 * previous call's dual u (it lives in R^n whatever S is), or 0 when that start is no
 * better than 0. */
static int craig(lin_ctx *c, int k, const int *S, double *w, int max_iter, double tol,
                 double *f)
{
    int n = c->n;
    int rc;
    double *r = c->wn[0], *tmp = c->wn[1], *qd = c->wn[2], *u = c->dual;
    double *p = c->wd[1];
    double yy = gsfw_vec_dot(n, c->y, c->y);
    if (gsfw_lin_reduce(c, &yy, 1)) return REDUCER_FAILED;
    memcpy(r, c->y, (size_t)n * sizeof(double));
    if (c->have_dual) {
        if ((rc = sub_adjoint(c, u, k, S, w))) return rc;
        if (gsfw_lin_reduce(c, w, k)) return REDUCER_FAILED;
        if ((rc = sub_apply(c, k, S, w, -1.0, r))) return rc;
        double rr0 = gsfw_vec_dot(n, r, r);
        if (gsfw_lin_reduce(c, &rr0, 1)) return REDUCER_FAILED;
        if (rr0 >= yy) { /* the old dual is no help */
            memcpy(r, c->y, (size_t)n * sizeof(double));
            c->have_dual = 0;
        }
    }
    if (!c->have_dual) {
        memset(u, 0, (size_t)n * sizeof(double));
        memset(w, 0, (size_t)k * sizeof(double));
    }
    memcpy(qd, r, (size_t)n * sizeof(double));
    if ((rc = sub_adjoint(c, r, k, S, p))) return rc;
    if (gsfw_lin_reduce(c, p, k)) return REDUCER_FAILED;
    double rr = gsfw_vec_dot(n, r, r);
    if (gsfw_lin_reduce(c, &rr, 1)) return REDUCER_FAILED;
    const double stop = tol * sqrt(yy);
    for (int it = 0; it < max_iter && sqrt(rr) > stop; it++) {
        double pp = gsfw_vec_dot(k, p, p);
        if (!(pp > 0)) break;
        double alpha = rr / pp;
        gsfw_vec_axpy(n, alpha, qd, u);
        gsfw_vec_axpy(k, alpha, p, w);
        memset(tmp, 0, (size_t)n * sizeof(double));
        if ((rc = sub_apply(c, k, S, p, 1.0, tmp))) return rc;
        gsfw_vec_axpy(n, -alpha, tmp, r);
        double rnew = gsfw_vec_dot(n, r, r);
        if (gsfw_lin_reduce(c, &rnew, 1)) return REDUCER_FAILED;
        double beta = rnew / rr;
        rr = rnew;
        for (int i = 0; i < n; i++) qd[i] = r[i] + beta * qd[i];
        double *s = c->wd[0];
        if ((rc = sub_adjoint(c, r, k, S, s))) return rc;
        if (gsfw_lin_reduce(c, s, k)) return REDUCER_FAILED;
        for (int j = 0; j < k; j++) p[j] = s[j] + beta * p[j];
    }
    c->have_dual = 1;
    if (f) *f = 0.5 * rr;
    return 0;
}

/* hc = H cv for the restricted Hessian A_S^T D A_S (D = diag h); with a profiled
 * intercept the Schur complement A_S^T (D - D 1 1^T D / 1^T D 1) A_S. q: n scratch. */
static int hessian_times(lin_ctx *c, int k, const int *S, const double *h, double hsum,
                         const double *cv, double *q, double *hc)
{
    int n = c->n;
    memset(q, 0, (size_t)n * sizeof(double));
    if (c->A->apply_sparse(c->A->ctx, k, S, cv, 1.0, q)) return OP_FAILED;
    if (c->intercept) {
        double hq = gsfw_vec_dot(n, h, q);
        if (gsfw_lin_reduce(c, &hq, 1)) return REDUCER_FAILED;
        double mean = hsum > 0 ? hq / hsum : 0.0;
        for (int i = 0; i < n; i++) q[i] = h[i] * (q[i] - mean);
    } else {
        for (int i = 0; i < n; i++) q[i] *= h[i];
    }
    if (c->A->adjoint_sparse(c->A->ctx, q, k, S, hc)) return OP_FAILED;
    return gsfw_lin_reduce(c, hc, k) ? REDUCER_FAILED : 0;
}

/* f at zs + a q (the restricted point moved by a along the direction), with the intercept
 * re-solved from b when there is one (*bt receives it). */
static int trial_value(lin_ctx *c, const double *zs, const double *q, double a, double b,
                       double *ft, double *bt)
{
    int rc;
    *bt = b;
    if (c->intercept && (rc = gsfw_lin_solve_intercept(c, zs, q, a, bt))) return rc;
    *ft = c->loss->sum(&c->par, c->n, zs, q, a, c->intercept ? *bt : 0.0, NULL);
    return gsfw_lin_reduce(c, ft, 1) ? REDUCER_FAILED : 0;
}

/* Armijo backtracking along zs + a q from a = 1 (slope0 = the directional derivative at
 * a = 0); with expand, an accepted full step is doubled while f keeps falling (along a
 * gradient direction a Huber f is piecewise linear until residuals enter the quadratic
 * zone, so the first step is often far too short). */
static int line_search(lin_ctx *c, const double *zs, const double *q, double slope0,
                       double fcur, double b, int expand, double *a_out, double *f_out,
                       double *b_out, int *accepted)
{
    double a = 1.0, fa = 0.0, ba = b;
    int rc;
    *accepted = 0;
    for (int ls = 0; ls < LINE_SEARCH_MAX; ls++, a *= 0.5) {
        if ((rc = trial_value(c, zs, q, a, b, &fa, &ba))) return rc;
        if (fa <= fcur + ARMIJO_C * a * slope0) {
            *accepted = 1;
            break;
        }
    }
    if (!*accepted) return 0;
    for (int e = 0; expand && a >= 1.0 && e < LINE_SEARCH_MAX; e++) {
        double f2, b2, a2 = 2.0 * a;
        if ((rc = trial_value(c, zs, q, a2, b, &f2, &b2))) return rc;
        if (!(f2 < fa && f2 <= fcur + ARMIJO_C * a2 * slope0)) break;
        a = a2;
        fa = f2;
        ba = b2;
    }
    *a_out = a;
    *f_out = fa;
    *b_out = ba;
    return 0;
}

/* Restricted Newton-CG with Armijo backtracking (logistic, Huber): the Newton system is
 * solved by CG to the forcing tolerance min(1/2, sqrt(|g|/|g_0|)) |g|. When CG meets no
 * positive curvature on its first step (Huber with every residual beyond delta), or the
 * Newton step had to be shortened, the gradient step -g / L with a doubling line search
 * is tried as well and the better point kept: with delta far below the residuals (close
 * to least absolute deviations) few rows carry curvature and Newton steps alone crawl. */
static int newton_cg(lin_ctx *c, int k, const int *S, double *w, int max_iter, double tol,
                     double *f)
{
    int n = c->n, rc;
    const gsfw_operator *A = c->A;
    double *zs = c->wn[0], *gi = c->wn[1], *hi = c->wn[2], *q = c->wn[3];
    double *g = c->wd[0], *p = c->wd[1], *res = c->wd[2], *cv = c->wd[3], *hc = c->wd[4];
    if (c->loss->residual)
        for (int i = 0; i < n; i++) zs[i] = -c->y[i];
    else
        memset(zs, 0, (size_t)n * sizeof(double));
    if (A->apply_sparse(A->ctx, k, S, w, 1.0, zs)) return OP_FAILED;
    double b = c->b_other, fcur = 0.0, gn0 = 0.0;
    for (int it = 0;; it++) {
        double shift = 0.0;
        if (c->intercept) {
            if ((rc = gsfw_lin_solve_intercept(c, zs, NULL, 0.0, &b))) return rc;
            shift = b;
        }
        fcur = c->loss->sum(&c->par, n, zs, NULL, 0.0, shift, NULL);
        if (gsfw_lin_reduce(c, &fcur, 1)) return REDUCER_FAILED;
        c->loss->deriv(&c->par, n, zs, shift, gi, hi);
        if (A->adjoint_sparse(A->ctx, gi, k, S, g)) return OP_FAILED;
        if (gsfw_lin_reduce(c, g, k)) return REDUCER_FAILED;
        double gn = gsfw_vec_nrm2(k, g);
        if (it == 0) gn0 = gn;
        if (gn == 0.0 || gn <= tol * gn0 || it >= max_iter) break;

        double hsum = 0.0;
        if (c->intercept) {
            for (int i = 0; i < n; i++) hsum += hi[i];
            if (gsfw_lin_reduce(c, &hsum, 1)) return REDUCER_FAILED;
        }
        memset(p, 0, (size_t)k * sizeof(double));
        for (int j = 0; j < k; j++) res[j] = cv[j] = -g[j];
        double rr = gn * gn, eta = fmin(0.5, sqrt(gn / gn0));
        int steps = 0;
        for (int j = 0; j < CG_MAX_ITER && j < 2 * k + 10; j++) {
            if ((rc = hessian_times(c, k, S, hi, hsum, cv, q, hc))) return rc;
            double curv = gsfw_vec_dot(k, cv, hc);
            if (!(curv > 1e-12 * gsfw_vec_nrm2(k, cv) * gsfw_vec_nrm2(k, hc))) break;
            double alpha = rr / curv;
            gsfw_vec_axpy(k, alpha, cv, p);
            gsfw_vec_axpy(k, -alpha, hc, res);
            steps++;
            double rrn = gsfw_vec_dot(k, res, res);
            if (sqrt(rrn) <= eta * gn) break;
            double beta = rrn / rr;
            rr = rrn;
            for (int m = 0; m < k; m++) cv[m] = res[m] + beta * cv[m];
        }
        int newton = steps > 0, accepted = 0;
        double a = 0.0, fa = fcur, ba = b;
        if (newton) {
            double slope0 = gsfw_vec_dot(k, g, p);
            if (slope0 < 0) {
                memset(q, 0, (size_t)n * sizeof(double));
                if (A->apply_sparse(A->ctx, k, S, p, 1.0, q)) return OP_FAILED;
                if ((rc = line_search(c, zs, q, slope0, fcur, b, 0, &a, &fa, &ba, &accepted)))
                    return rc;
            }
        }
        /* A Newton step cut short (few Huber residuals inside delta make it long and
         * crooked) or missing: also try the gradient step -g / L, lengthened while f
         * falls, and keep the better of the two. p_g and A_S p_g go to res and gi, free
         * until the next outer step. */
        if (!accepted || a < 1.0) {
            double L, ag = 0.0, fg = fcur, bg = b;
            int ok = 0;
            if ((rc = gsfw_lin_lipschitz(c, &L))) return rc;
            if (L > 0) {
                for (int j = 0; j < k; j++) res[j] = -g[j] / L;
                memset(gi, 0, (size_t)n * sizeof(double));
                if (A->apply_sparse(A->ctx, k, S, res, 1.0, gi)) return OP_FAILED;
                if ((rc = line_search(c, zs, gi, -gn * gn / L, fcur, b, 1, &ag, &fg, &bg, &ok)))
                    return rc;
            }
            if (ok && (!accepted || fg < fa)) {
                accepted = 1;
                a = ag;
                fa = fg;
                ba = bg;
                memcpy(p, res, (size_t)k * sizeof(double));
                memcpy(q, gi, (size_t)n * sizeof(double));
            }
        }
        if (!accepted) break; /* no decrease left above rounding */
        b = ba;
        gsfw_vec_axpy(k, a, p, w);
        gsfw_vec_axpy(n, a, q, zs);
    }
    if (c->intercept) c->b_other = b;
    if (f) *f = fcur;
    return 0;
}

/* The squared loss on a support whose columns fit the reserved workspace: gathered once,
 * then an exact rank-revealing QR while min(n, k) is small, else CGLS / Craig on the
 * contiguous copy. */
static int gathered_ls(lin_ctx *c, int k, const int *S, double *w, int max_iter, double tol,
                       double *f)
{
    if (gsfw_restricted_ls_gather(&c->support_ls, c->A, k, S)) return OP_FAILED;
    if (!gsfw_restricted_ls_worth(c->n, k)) {
        c->gathered = 1;
        int rc = k > c->n ? craig(c, k, S, w, max_iter, tol, f)
                          : cgls(c, k, S, w, max_iter, tol, f);
        c->gathered = 0;
        return rc;
    }
    if (gsfw_restricted_ls_solve(&c->support_ls, c->y, k, w)) return LAPACK_FAILED;
    if (f) {
        double *r = c->wn[0];
        memcpy(r, c->y, (size_t)c->n * sizeof(double));
        if (c->A->apply_sparse(c->A->ctx, k, S, w, -1.0, r)) return OP_FAILED;
        *f = c->loss->sum(&c->par, c->n, r, NULL, 0.0, 0.0, NULL);
    }
    return 0;
}

/* Gathering needs the support's columns in one process and cheap to form; otherwise
 * minimize_on works through the operator's sparse products and nothing is reserved. The
 * workspace only saves time: when it cannot be had, minimize_on keeps working through
 * the operator (with the workspace it had, if any), so this never fails for lack of
 * memory. */
int gsfw_lin_reserve(void *ctx, int max_support)
{
    lin_ctx *c = ctx;
    if (max_support < 0) return BAD_ARGUMENT;
    if (!c->loss->quadratic || c->red.sum || !c->A->cheap_columns) return 0;
    int cap = gsfw_restricted_ls_cap(c->n, max_support < c->d ? max_support : c->d);
    (void)gsfw_restricted_ls_reserve(&c->support_ls, c->n, cap);
    return 0;
}

int gsfw_lin_minimize_on(void *ctx, int k, const int *support, double *w, int max_iter,
                         double tol, double *f)
{
    lin_ctx *c = ctx;
    if (k < 0 || k > c->d || (k > 0 && (!support || !w)) || isnan(tol)) return BAD_ARGUMENT;
    int distinct = 1;
    for (int j = 0; j < k; j++) {
        if (support[j] < 0 || support[j] >= c->d) {
            distinct = 0;
            k = j; /* clear only the marks set so far */
            break;
        }
        if (c->mark[support[j]]) distinct = 0;
        c->mark[support[j]] = 1;
    }
    for (int j = 0; j < k; j++) c->mark[support[j]] = 0;
    if (!distinct) return BAD_ARGUMENT;
    if (max_iter < 0) max_iter = 0;
    if (c->loss->quadratic && max_iter > 0 && k > 0 && k <= c->support_ls.cap)
        return gathered_ls(c, k, support, w, max_iter, tol, f);
    if (c->loss->quadratic) {
        /* more columns than rows (over all processes): the minimum-norm solution */
        double rows = c->n;
        if (gsfw_lin_reduce(c, &rows, 1)) return REDUCER_FAILED;
        if (k > rows) return craig(c, k, support, w, max_iter, tol, f);
        return cgls(c, k, support, w, max_iter, tol, f);
    }
    return newton_cg(c, k, support, w, max_iter, tol, f);
}

