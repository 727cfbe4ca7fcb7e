/* Smooth losses over a linear operator A (n x d): f(x) = sum_i l((A x)_i; y_i), with the
 * full gsfw_objective interface on top of the operator's four products.
 *
 * The cache holds z = A x_c - y (squared, Huber) or z = A x_c (logistic) and, once a
 * direction d = cx x_c + u is set, A d = cx (z [+ y]) + A u (one apply_sparse): a line
 * search point costs O(n), a step one axpy, the gradient one adjoint.
 *
 * Every sum over rows (values, slopes, A^T g, the intercept's Newton sums, CGLS and
 * power-iteration inner products) goes through the reducer, so a process holding a block
 * of rows runs this same code. Sums over the d (replicated) coordinates do not.
 *
 * Callbacks return 0 or: -1 an operator product failed, -2 the reducer failed, -3 the
 * intercept has no minimiser (every label of one sign), -4 bad arguments to minimize_on
 * or reserve, -5 LAPACK failed (the code_text hook names them). All memory is
 * allocated by the constructor, except the least-squares-on-a-support workspace, which
 * reserve allocates once before a solver's loop. */
#include "objectives/linear.h"
#include "objectives/restricted_ls.h"
#include "core/registry.h"
#include "operators/op_internal.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum {
    OP_FAILED = -1,
    REDUCER_FAILED = -2,
    NO_INTERCEPT = -3,
    BAD_ARGUMENT = -4,
    LAPACK_FAILED = -5
};

/* Power iteration (no norm2 hook): the Rayleigh quotient approaches ||A||_2^2 from below
 * at the rate (sigma_2/sigma_1)^2 per step; stopped at a 1e-6 relative change, the
 * remaining error is below 1% unless sigma_2/sigma_1 > 0.9999, hence the 1.01 margin. */
#define POWER_MAX_ITER 1000
#define POWER_TOL 1e-6
#define POWER_MARGIN 1.01
#define NEWTON_MAX_ITER 200  /* intercept: Newton/bisection steps */
#define NEWTON_TOL 1e-12     /* relative step size at convergence */
#define LINE_SEARCH_MAX 60   /* Armijo halvings */
#define ARMIJO_C 1e-4
#define CG_MAX_ITER 200      /* inner CG steps per Newton step of minimize_on */
#define NOISE_FLOOR (16 * DBL_EPSILON) /* CGLS / Craig: residual noise, relative */

typedef struct {
    const gsfw_operator *A;
    gsfw_operator *owned; /* destroyed with the objective (convenience constructors) */
    const gsfw_loss_def *loss;
    gsfw_loss_params par;
    double param[GSFW_LOSS_MAX_PARAMS]; /* par.param points here */
    gsfw_reducer red;
    int intercept;
    int n, d;
    double *y;      /* n */
    double *z;      /* n: A x_c - y or A x_c */
    double *az;     /* n: A d */
    double b_c;     /* warm start of the intercept at x_c */
    double b_line;  /* warm start along the current direction */
    double b_other; /* warm start for uncached points and minimize_on */
    double *wn[4];  /* n-sized scratch */
    double *wd[5];  /* d-sized scratch */
    double *pn;     /* n + 2d: power iteration */
    unsigned char *mark; /* d: distinct-id check of minimize_on */
    double *dual;        /* n: Craig's dual variable, kept between minimize_on calls */
    int have_dual;
    double lipschitz;    /* cached, < 0 until computed */
    gsfw_restricted_ls support_ls; /* squared loss, cheap columns, one process: reserve's */
    int gathered;        /* 1 while support_ls.cols holds the current support's columns */
} lin_ctx;

static int reduce(const lin_ctx *c, double *buf, int count)
{
    if (!c->red.sum) return 0;
    return c->red.sum(c->red.ctx, buf, count) ? REDUCER_FAILED : 0;
}

/* z = A x - y (residual losses) or A x */
static int compute_z(lin_ctx *c, const double *x, double *z)
{
    if (c->loss->residual && gsfw_op_dense_residual(c->A, x, c->y, z)) return 0;
    if (c->A->apply(c->A->ctx, x, z)) return OP_FAILED;
    if (c->loss->residual)
        for (int i = 0; i < c->n; i++) z[i] -= c->y[i];
    return 0;
}

/* b* = argmin_b sum_i l(z_i + gamma dz_i + b) (dz may be NULL), from the warm start *b.
 * phi(b) is convex: Newton steps, kept inside the bracket [lo, hi] that the signs of
 * phi' give (bisection when a step leaves it, doubling while one side is still open).
 * With labels of one sign phi' never changes sign and the search fails. */
/* sum_i l'(t_i) and sum_i l''(t_i), t = z + gamma dz + b: the loss's fused sums, or its
 * derivatives row by row */
static void intercept_sums(const lin_ctx *c, const double *z, const double *dz, double gamma,
                           double b, double s[2])
{
    if (c->loss->intercept_sums) {
        c->loss->intercept_sums(&c->par, c->n, z, dz, gamma, b, s);
        return;
    }
    gsfw_loss_params row = c->par;
    double g = 0.0, h = 0.0;
    for (int i = 0; i < c->n; i++) {
        double t = dz ? z[i] + gamma * dz[i] : z[i], gi, hi;
        row.y = c->par.y + i;
        c->loss->deriv(&row, 1, &t, b, &gi, &hi);
        g += gi;
        h += hi;
    }
    s[0] = g;
    s[1] = h;
}

static int solve_intercept(const lin_ctx *c, const double *z, const double *dz, double gamma,
                           double *b)
{
    double lo = -INFINITY, hi = INFINITY, x = isfinite(*b) ? *b : 0.0;
    for (int it = 0; it < NEWTON_MAX_ITER; it++) {
        double s[2];
        intercept_sums(c, z, dz, gamma, x, s);
        if (reduce(c, s, 2)) return REDUCER_FAILED;
        if (s[0] == 0.0) {
            *b = x;
            return 0;
        }
        if (s[0] > 0)
            hi = x;
        else
            lo = x;
        double next = s[1] > 0 ? x - s[0] / s[1] : NAN;
        if (!(next > lo && next < hi)) {
            if (isfinite(lo) && isfinite(hi))
                next = 0.5 * (lo + hi);
            else
                next = s[0] > 0 ? x - fmax(1.0, fabs(x)) : x + fmax(1.0, fabs(x));
        }
        if (fabs(next - x) <= NEWTON_TOL * (1.0 + fabs(x))) {
            *b = next;
            return 0;
        }
        x = next;
    }
    return NO_INTERCEPT;
}

/* f and/or A^T l'(z + b) at a point whose z is given; gbuf: n scratch. */
static int eval_at(lin_ctx *c, const double *z, double *b, double *f, double *grad,
                   double *gbuf)
{
    double shift = 0.0;
    int rc;
    if (c->intercept) {
        if ((rc = solve_intercept(c, z, NULL, 0.0, b))) return rc;
        shift = *b;
    }
    if (f) {
        double v = c->loss->sum(&c->par, c->n, z, NULL, 0.0, shift, NULL);
        if (reduce(c, &v, 1)) return REDUCER_FAILED;
        *f = v;
    }
    if (grad) {
        const double *g = z;
        if (!c->loss->quadratic) {
            c->loss->deriv(&c->par, c->n, z, shift, gbuf, NULL);
            g = gbuf;
        }
        if (c->A->adjoint(c->A->ctx, g, grad)) return OP_FAILED;
        if (reduce(c, grad, c->d)) return REDUCER_FAILED;
    }
    return 0;
}

static int lin_value_grad(void *ctx, const double *x, double *f, double *grad)
{
    lin_ctx *c = ctx;
    int rc = compute_z(c, x, c->wn[0]);
    return rc ? rc : eval_at(c, c->wn[0], &c->b_other, f, grad, c->wn[1]);
}

static int lin_value(void *ctx, const double *x, double *f)
{
    return lin_value_grad(ctx, x, f, NULL);
}

static int lin_gradient(void *ctx, const double *x, double *grad)
{
    return lin_value_grad(ctx, x, NULL, grad);
}

static int lin_reset(void *ctx, const double *x)
{
    lin_ctx *c = ctx;
    return compute_z(c, x, c->z);
}

static int lin_cached_value_grad(void *ctx, double *f, double *grad)
{
    lin_ctx *c = ctx;
    return eval_at(c, c->z, &c->b_c, f, grad, c->wn[0]);
}

/* A d = cx A x_c + A u, with A x_c = z (+ y) from the cache. */
static int lin_set_direction(void *ctx, double cx, int nnz, const int *idx, const double *val)
{
    lin_ctx *c = ctx;
    if (cx != 0.0) {
        if (c->loss->residual)
            for (int i = 0; i < c->n; i++) c->az[i] = cx * (c->z[i] + c->y[i]);
        else
            for (int i = 0; i < c->n; i++) c->az[i] = cx * c->z[i];
    } else {
        memset(c->az, 0, (size_t)c->n * sizeof(double));
    }
    if (nnz > 0 && c->A->apply_sparse(c->A->ctx, nnz, idx, val, 1.0, c->az)) return OP_FAILED;
    c->b_line = c->b_c;
    return 0;
}

/* With an intercept, the slope is the partial derivative at b*(gamma) (envelope
 * theorem): the derivative through b vanishes at the minimiser. */
static int lin_along(void *ctx, double gamma, double *f, double *slope)
{
    lin_ctx *c = ctx;
    double shift = 0.0;
    if (c->intercept) {
        int rc = solve_intercept(c, c->z, c->az, gamma, &c->b_line);
        if (rc) return rc;
        shift = c->b_line;
    }
    double s[2];
    s[0] = c->loss->sum(&c->par, c->n, c->z, c->az, gamma, shift, &s[1]);
    if (reduce(c, s, 2)) return REDUCER_FAILED;
    if (f) *f = s[0];
    if (slope) *slope = s[1];
    return 0;
}

static int lin_step(void *ctx, double gamma)
{
    lin_ctx *c = ctx;
    if (gamma != 0.0) cblas_daxpy(c->n, gamma, c->az, 1, c->z, 1);
    if (c->intercept) c->b_c = c->b_line;
    return 0;
}

/* Deterministic power iteration on A^T A through apply / adjoint (the start vector is
 * generic: orthogonal to the top singular vector only on a measure-zero set). */
static int power_iteration(lin_ctx *c, double *out)
{
    int n = c->n, d = c->d;
    double *u = c->pn, *v = c->pn + n, *w = c->pn + n + d;
    for (int j = 0; j < d; j++) v[j] = 1.0 + 0.5 * sin(1.0 + 0.7 * j);
    double nv = cblas_dnrm2(d, v, 1);
    cblas_dscal(d, 1.0 / nv, v, 1);
    double lambda = 0.0;
    for (int it = 0; it < POWER_MAX_ITER; it++) {
        if (c->A->apply(c->A->ctx, v, u) || c->A->adjoint(c->A->ctx, u, w)) return OP_FAILED;
        if (reduce(c, w, d)) return REDUCER_FAILED;
        double rq = cblas_ddot(d, v, 1, w, 1);
        double nw = cblas_dnrm2(d, w, 1);
        if (nw == 0.0) {
            lambda = 0.0;
            break;
        }
        for (int j = 0; j < d; j++) v[j] = w[j] / nw;
        double prev = lambda;
        lambda = rq;
        if (it > 0 && fabs(lambda - prev) <= POWER_TOL * fabs(lambda)) break;
    }
    *out = lambda * POWER_MARGIN;
    return 0;
}

/* curvature * ||A||_2^2. A norm2 hook bounds this process's block; the blocks' sum bounds
 * the whole (||A v||^2 = sum_p ||A_p v||^2). */
static int lin_lipschitz(void *ctx, double *L)
{
    lin_ctx *c = ctx;
    if (c->lipschitz < 0) {
        double a2;
        int rc;
        if (c->A->norm2) {
            if (c->A->norm2(c->A->ctx, &a2)) return OP_FAILED;
            if (reduce(c, &a2, 1)) return REDUCER_FAILED;
        } else if ((rc = power_iteration(c, &a2))) {
            return rc;
        }
        c->lipschitz = c->loss->curvature * a2;
    }
    *L = c->lipschitz;
    return 0;
}

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
    if (reduce(c, s, k)) return REDUCER_FAILED;
    memcpy(p, s, (size_t)k * sizeof(double));
    double gam = cblas_ddot(k, s, 1, s, 1), rr = cblas_ddot(n, r, 1, r, 1);
    if (reduce(c, &rr, 1)) return REDUCER_FAILED;
    const double stop = tol * sqrt(gam), rr_noise = DBL_EPSILON * rr;
    double a2 = 0.0; /* the largest ||A_S p||^2 / ||p||^2 seen, a lower bound on ||A_S||^2 */
    for (int it = 0; it < max_iter && sqrt(gam) > stop && gam > 0; it++) {
        memset(q, 0, (size_t)n * sizeof(double));
        if ((rc = sub_apply(c, k, S, p, 1.0, q))) return rc;
        double qq = cblas_ddot(n, q, 1, q, 1), pp = cblas_ddot(k, p, 1, p, 1);
        if (reduce(c, &qq, 1)) return REDUCER_FAILED;
        if (!(qq > 0)) break;
        if (qq > a2 * pp) a2 = qq / pp;
        double alpha = gam / qq;
        cblas_daxpy(k, alpha, p, 1, w, 1);
        cblas_daxpy(n, -alpha, q, 1, r, 1);
        rr -= alpha * gam; /* ||r||^2 falls by alpha gam per step */
        if ((rc = sub_adjoint(c, r, k, S, s))) return rc;
        if (reduce(c, s, k)) return REDUCER_FAILED;
        double gnew = cblas_ddot(k, s, 1, s, 1);
        /* A_S^T r is computed to about eps ||A_S|| ||r||: below a few times that it is
         * rounding noise, and steps on it lose conjugacy and can grow without bound */
        if (gnew <= NOISE_FLOOR * NOISE_FLOOR * a2 * fmax(rr, rr_noise)) break;
        double beta = gnew / gam;
        gam = gnew;
        for (int j = 0; j < k; j++) p[j] = s[j] + beta * p[j];
    }
    if (f) {
        double v = c->loss->sum(&c->par, n, r, NULL, 0.0, 0.0, NULL); /* ||r||^2 / 2 */
        if (reduce(c, &v, 1)) return REDUCER_FAILED;
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
    double yy = cblas_ddot(n, c->y, 1, c->y, 1);
    if (reduce(c, &yy, 1)) return REDUCER_FAILED;
    memcpy(r, c->y, (size_t)n * sizeof(double));
    if (c->have_dual) {
        if ((rc = sub_adjoint(c, u, k, S, w))) return rc;
        if (reduce(c, w, k)) return REDUCER_FAILED;
        if ((rc = sub_apply(c, k, S, w, -1.0, r))) return rc;
        double rr0 = cblas_ddot(n, r, 1, r, 1);
        if (reduce(c, &rr0, 1)) return REDUCER_FAILED;
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
    if (reduce(c, p, k)) return REDUCER_FAILED;
    double rr = cblas_ddot(n, r, 1, r, 1);
    if (reduce(c, &rr, 1)) return REDUCER_FAILED;
    const double stop = tol * sqrt(yy);
    for (int it = 0; it < max_iter && sqrt(rr) > stop; it++) {
        double pp = cblas_ddot(k, p, 1, p, 1);
        if (!(pp > 0)) break;
        double alpha = rr / pp;
        cblas_daxpy(n, alpha, qd, 1, u, 1);
        cblas_daxpy(k, alpha, p, 1, w, 1);
        memset(tmp, 0, (size_t)n * sizeof(double));
        if ((rc = sub_apply(c, k, S, p, 1.0, tmp))) return rc;
        cblas_daxpy(n, -alpha, tmp, 1, r, 1);
        double rnew = cblas_ddot(n, r, 1, r, 1);
        if (reduce(c, &rnew, 1)) return REDUCER_FAILED;
        double beta = rnew / rr;
        rr = rnew;
        for (int i = 0; i < n; i++) qd[i] = r[i] + beta * qd[i];
        double *s = c->wd[0];
        if ((rc = sub_adjoint(c, r, k, S, s))) return rc;
        if (reduce(c, s, k)) return REDUCER_FAILED;
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
        double hq = cblas_ddot(n, h, 1, q, 1);
        if (reduce(c, &hq, 1)) return REDUCER_FAILED;
        double mean = hsum > 0 ? hq / hsum : 0.0;
        for (int i = 0; i < n; i++) q[i] = h[i] * (q[i] - mean);
    } else {
        for (int i = 0; i < n; i++) q[i] *= h[i];
    }
    if (c->A->adjoint_sparse(c->A->ctx, q, k, S, hc)) return OP_FAILED;
    return reduce(c, hc, k) ? REDUCER_FAILED : 0;
}

/* f at zs + a q (the restricted point moved by a along the direction), with the intercept
 * re-solved from b when there is one (*bt receives it). */
static int trial_value(lin_ctx *c, const double *zs, const double *q, double a, double b,
                       double *ft, double *bt)
{
    int rc;
    *bt = b;
    if (c->intercept && (rc = solve_intercept(c, zs, q, a, bt))) return rc;
    *ft = c->loss->sum(&c->par, c->n, zs, q, a, c->intercept ? *bt : 0.0, NULL);
    return reduce(c, ft, 1) ? REDUCER_FAILED : 0;
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
            if ((rc = solve_intercept(c, zs, NULL, 0.0, &b))) return rc;
            shift = b;
        }
        fcur = c->loss->sum(&c->par, n, zs, NULL, 0.0, shift, NULL);
        if (reduce(c, &fcur, 1)) return REDUCER_FAILED;
        c->loss->deriv(&c->par, n, zs, shift, gi, hi);
        if (A->adjoint_sparse(A->ctx, gi, k, S, g)) return OP_FAILED;
        if (reduce(c, g, k)) return REDUCER_FAILED;
        double gn = cblas_dnrm2(k, g, 1);
        if (it == 0) gn0 = gn;
        if (gn == 0.0 || gn <= tol * gn0 || it >= max_iter) break;

        double hsum = 0.0;
        if (c->intercept) {
            for (int i = 0; i < n; i++) hsum += hi[i];
            if (reduce(c, &hsum, 1)) return REDUCER_FAILED;
        }
        memset(p, 0, (size_t)k * sizeof(double));
        for (int j = 0; j < k; j++) res[j] = cv[j] = -g[j];
        double rr = gn * gn, eta = fmin(0.5, sqrt(gn / gn0));
        int steps = 0;
        for (int j = 0; j < CG_MAX_ITER && j < 2 * k + 10; j++) {
            if ((rc = hessian_times(c, k, S, hi, hsum, cv, q, hc))) return rc;
            double curv = cblas_ddot(k, cv, 1, hc, 1);
            if (!(curv > 1e-12 * cblas_dnrm2(k, cv, 1) * cblas_dnrm2(k, hc, 1))) break;
            double alpha = rr / curv;
            cblas_daxpy(k, alpha, cv, 1, p, 1);
            cblas_daxpy(k, -alpha, hc, 1, res, 1);
            steps++;
            double rrn = cblas_ddot(k, res, 1, res, 1);
            if (sqrt(rrn) <= eta * gn) break;
            double beta = rrn / rr;
            rr = rrn;
            for (int m = 0; m < k; m++) cv[m] = res[m] + beta * cv[m];
        }
        int newton = steps > 0, accepted = 0;
        double a = 0.0, fa = fcur, ba = b;
        if (newton) {
            double slope0 = cblas_ddot(k, g, 1, p, 1);
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
            if ((rc = lin_lipschitz(c, &L))) return rc;
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
        cblas_daxpy(k, a, p, 1, w, 1);
        cblas_daxpy(n, a, q, 1, zs, 1);
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
static int lin_reserve(void *ctx, int max_support)
{
    lin_ctx *c = ctx;
    if (max_support < 0) return BAD_ARGUMENT;
    if (!c->loss->quadratic || c->red.sum || !c->A->cheap_columns) return 0;
    int cap = gsfw_restricted_ls_cap(c->n, max_support < c->d ? max_support : c->d);
    (void)gsfw_restricted_ls_reserve(&c->support_ls, c->n, cap);
    return 0;
}

static int lin_minimize_on(void *ctx, int k, const int *support, double *w, int max_iter,
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
        if (reduce(c, &rows, 1)) return REDUCER_FAILED;
        if (k > rows) return craig(c, k, support, w, max_iter, tol, f);
        return cgls(c, k, support, w, max_iter, tol, f);
    }
    return newton_cg(c, k, support, w, max_iter, tol, f);
}

static const char *lin_code_text(int code)
{
    switch (code) {
    case OP_FAILED: return "an operator product failed";
    case REDUCER_FAILED: return "the reducer (the sum over processes) failed";
    case NO_INTERCEPT: return "the intercept has no minimiser (every label of one sign)";
    case BAD_ARGUMENT: return "bad arguments (a support id out of range or repeated)";
    case LAPACK_FAILED: return "LAPACK's least-squares solve (dgelsy) failed";
    default: return NULL;
    }
}

static void lin_destroy(gsfw_objective *self)
{
    lin_ctx *c = self->ctx;
    if (c) {
        if (c->owned && c->owned->destroy) c->owned->destroy(c->owned);
        free(c->y);
        free(c->z);
        free(c->az);
        for (int i = 0; i < 4; i++) free(c->wn[i]);
        for (int i = 0; i < 5; i++) free(c->wd[i]);
        free(c->pn);
        free(c->mark);
        free(c->dual);
        gsfw_restricted_ls_free(&c->support_ls);
        free(c);
    }
    free(self);
}

/* The definition of the options' loss, or NULL. */
static const gsfw_loss_def *loss_of(const gsfw_loss_options *opt)
{
    return opt->def ? opt->def : gsfw_loss_builtin(opt->loss);
}

static gsfw_error check_inputs(const gsfw_operator *A, int n, const double *y,
                               const gsfw_loss_options *opt, gsfw_err *err)
{
    if (!A) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: the operator A is NULL");
    const char *name = A->name ? A->name : "?";
    if (A->n < 1 || A->d < 1)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "linear objective: the operator '%s' is "
                         "%d x %d; it must be at least 1 x 1", name, A->n, A->d);
    const char *missing = !A->apply ? "apply" : !A->adjoint ? "adjoint"
                          : !A->apply_sparse ? "apply_sparse"
                          : !A->adjoint_sparse ? "adjoint_sparse" : NULL;
    if (missing)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: the operator '%s' has "
                         "no %s hook", name, missing);
    if (!y) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: y is NULL");
    if (n != A->n)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "linear objective: y has %d entries but the "
                         "operator '%s' has %d rows", n, name, A->n);
    const gsfw_loss_def *loss = loss_of(opt);
    if (!loss)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: unknown loss %d "
                         "(squared = 0, logistic = 1, huber = 2)", (int)opt->loss);
    if (!loss->sum || !loss->deriv || loss->n_params < 0 ||
        loss->n_params > GSFW_LOSS_MAX_PARAMS || (loss->n_params > 0 && !loss->params))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: the loss '%s' lacks "
                         "%s", loss->name ? loss->name : "?",
                         !loss->sum ? "a sum function" : !loss->deriv ? "a deriv function"
                                                                    : "a valid params table");
    for (int k = 0; k < loss->n_params; k++) {
        const gsfw_param *p = &loss->params[k];
        double v = *(const double *)((const char *)opt + p->offset);
        char why[96];
        if (!isfinite(v))
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: %s must be finite, "
                             "got %g", p->name, v);
        if (gsfw_param_check(p, v, why, sizeof why))
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: %s %s, got %g",
                             p->name, why, v);
    }
    if (opt->intercept && !loss->intercept) {
        char with[160] = "";
        int count = 0;
        size_t used = 0;
        const gsfw_entry *e;
        for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_LOSS, i)); i++)
            if (((const gsfw_loss_def *)e->def)->intercept && used < sizeof with)
                used += (size_t)snprintf(with + used, sizeof with - used, "%s%s",
                                         count++ ? " and " : "", e->name);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: an intercept is "
                         "supported for the %s loss%s only, not '%s'", with,
                         count > 1 ? "es" : "", gsfw_loss_display_name(loss));
    }
    int pos = 0, neg = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(y[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "linear objective: y[%d] is %g; y must "
                             "be finite", i, y[i]);
        const char *problem = loss->target_problem ? loss->target_problem(y[i]) : NULL;
        if (problem)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: %s %s y[%d] = %g %s",
                             gsfw_loss_display_name(loss),
                             loss->target_word ? loss->target_word : "target", i, y[i], problem);
        pos += y[i] > 0;
        neg += y[i] < 0;
    }
    /* Checkable here for one process; a row block may legitimately hold one class. */
    if (opt->intercept && loss->two_classes && !opt->reducer.sum && (pos == 0 || neg == 0))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: every label is %s, so "
                         "the intercept has no minimiser (it runs to %s infinity)",
                         pos ? "+1" : "-1", pos ? "+" : "-");
    return GSFW_OK;
}

static gsfw_error build(const gsfw_operator *A, gsfw_operator *owned, int n, const double *y,
                        const gsfw_loss_options *opt_in, gsfw_objective **out, gsfw_err *err)
{
    gsfw_loss_options defaults;
    gsfw_loss_options_default(&defaults);
    const gsfw_loss_options *opt = opt_in ? opt_in : &defaults;
    gsfw_error e = check_inputs(A, n, y, opt, err);
    if (e) return e;
    gsfw_objective *obj = calloc(1, sizeof *obj);
    lin_ctx *c = calloc(1, sizeof *c);
    if (!obj || !c) {
        free(obj);
        free(c);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory");
    }
    obj->ctx = c;
    obj->destroy = lin_destroy;
    c->owned = owned;
    c->A = A;
    c->n = n;
    c->d = A->d;
    c->loss = loss_of(opt);
    c->intercept = opt->intercept != 0;
    c->red = opt->reducer;
    c->lipschitz = -1.0;
    size_t nn = (size_t)n, dd = (size_t)c->d;
    int ok = (c->y = gsfw_malloc_array(nn, sizeof(double))) &&
             (c->z = gsfw_malloc_array(nn, sizeof(double))) &&
             (c->az = gsfw_calloc_array(nn, sizeof(double))) &&
             (c->pn = gsfw_malloc_array(nn + 2 * dd, sizeof(double))) &&
             (c->dual = gsfw_calloc_array(nn ? nn : 1, sizeof(double))) &&
             (c->mark = gsfw_calloc_array(dd, 1));
    for (int i = 0; ok && i < 4; i++) ok = (c->wn[i] = gsfw_malloc_array(nn, sizeof(double))) != NULL;
    for (int i = 0; ok && i < 5; i++) ok = (c->wd[i] = gsfw_malloc_array(dd, sizeof(double))) != NULL;
    if (!ok) {
        lin_destroy(obj);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a linear objective with %d "
                         "rows and %d columns", n, c->d);
    }
    memcpy(c->y, y, nn * sizeof(double));
    c->par.y = c->y;
    for (int k = 0; k < c->loss->n_params; k++)
        c->param[k] = *(const double *)((const char *)opt + c->loss->params[k].offset);
    c->par.param = c->param;
    /* the cache starts at x = 0 */
    for (int i = 0; i < n; i++) c->z[i] = c->loss->residual ? -c->y[i] : 0.0;

    obj->d = c->d;
    obj->value = lin_value;
    obj->gradient = lin_gradient;
    obj->value_grad = lin_value_grad;
    obj->reset = lin_reset;
    obj->cached_value_grad = lin_cached_value_grad;
    obj->set_direction = lin_set_direction;
    obj->along = lin_along;
    obj->step = lin_step;
    obj->lipschitz = lin_lipschitz;
    obj->minimize_on = lin_minimize_on;
    obj->reserve = lin_reserve;
    obj->code_text = lin_code_text;
    obj->quadratic = c->loss->quadratic;
    obj->name = c->loss->name;
    *out = obj;
    return GSFW_OK;
}

gsfw_error gsfw_objective_linear(const gsfw_operator *A, int n, const double *y,
                                 const gsfw_loss_options *opt, gsfw_objective **out,
                                 gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: output pointer is NULL");
    *out = NULL;
    return build(A, NULL, n, y, opt, out, err);
}

gsfw_error gsfw_objective_linear_owning(gsfw_operator *owned, int n, const double *y,
                                        const gsfw_loss_options *opt, gsfw_objective **out,
                                        gsfw_err *err)
{
    gsfw_error e = out ? build(owned, owned, n, y, opt, out, err)
                       : gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: output "
                                   "pointer is NULL");
    if (e && owned && owned->destroy) owned->destroy(owned);
    return e;
}

const gsfw_operator *gsfw_linear_operator(const void *ctx, const double **y)
{
    const lin_ctx *c = ctx;
    if (y) *y = c->y;
    return c->A;
}

gsfw_error gsfw_objective_intercept(gsfw_objective *obj, const double *x, double *b,
                                    gsfw_err *err)
{
    if (!obj || !b)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "intercept: %s is NULL",
                         !obj ? "the objective" : "the output b");
    if (obj->destroy != lin_destroy || !((lin_ctx *)obj->ctx)->intercept)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "intercept: the objective '%s' fits no "
                         "intercept (only logistic objectives built with intercept = 1 do)",
                         obj->name ? obj->name : "?");
    lin_ctx *c = obj->ctx;
    const double *z = c->z;
    double *warm = &c->b_c;
    if (x) {
        for (int j = 0; j < c->d; j++)
            if (!isfinite(x[j]))
                return gsfw_fail(err, GSFW_ERR_NONFINITE, "intercept: x[%d] is %g; x must be "
                                 "finite", j, x[j]);
        if (compute_z(c, x, c->wn[0]))
            return gsfw_fail(err, GSFW_ERR_CALLBACK, "intercept: the operator '%s' failed",
                             c->A->name ? c->A->name : "?");
        z = c->wn[0];
        warm = &c->b_other;
    }
    int rc = solve_intercept(c, z, NULL, 0.0, warm);
    if (rc == REDUCER_FAILED)
        return gsfw_fail(err, GSFW_ERR_CALLBACK, "intercept: the reducer failed");
    if (rc)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "intercept: no minimiser (every label "
                         "of one sign over all processes)");
    *b = *warm;
    return GSFW_OK;
}

double gsfw_objective_linear_memory(double n, double d)
{
    /* y, z, az, dual and four scratch vectors of n; five scratch vectors and the power
     * iteration's of d (and its n); the marks */
    return 8.0 * (9.0 * n + 7.0 * d) + d + 4096.0;
}
