/* Dense least squares f(x) = 0.5 ||A x - y||^2.
 *
 * A is stored column-major (n x d, lda = n) so that both products the solvers need are
 * streaming BLAS calls: A^T r is a transposed gemv over contiguous columns, and the
 * sparse update A v = sum_j v_j A[:, j] touches only the columns in supp(v).
 * The incremental interface keeps r = A x - y up to date across Frank-Wolfe steps
 * x <- alpha x + beta v, so an iteration costs one gemv (A^T r) plus O(n nnz(v)). */
#include "core/internal.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

typedef struct {
    int n, d;
    double *A;        /* n x d column-major */
    double *y;        /* n */
    double *r;        /* residual A x - y at the cached point */
    double *ad;       /* A d for the current direction */
    double *cg;       /* 2n + 2d: CGLS on a support (minimize_on) */
    double *scratch;  /* n + 2d: power iteration, uncached evaluations */
    double lipschitz; /* cached ||A||_2^2, < 0 until computed */
} ls_ctx;

/* r = A x - y (one gemv). */
static void residual(const ls_ctx *c, const double *x, double *r)
{
    memcpy(r, c->y, (size_t)c->n * sizeof(double));
    cblas_dgemv(CblasColMajor, CblasNoTrans, c->n, c->d, 1.0, c->A, c->n, x, 1, -1.0, r, 1);
}

static double half_sq_norm(const double *r, int n)
{
    double nr = cblas_dnrm2(n, r, 1);
    return 0.5 * nr * nr;
}

static int ls_value(void *ctx, const double *x, double *f)
{
    ls_ctx *c = ctx;
    residual(c, x, c->scratch);
    *f = half_sq_norm(c->scratch, c->n);
    return 0;
}

static int ls_value_grad(void *ctx, const double *x, double *f, double *grad)
{
    ls_ctx *c = ctx;
    residual(c, x, c->scratch);
    if (f) *f = half_sq_norm(c->scratch, c->n);
    cblas_dgemv(CblasColMajor, CblasTrans, c->n, c->d, 1.0, c->A, c->n, c->scratch, 1, 0.0,
                grad, 1);
    return 0;
}

static int ls_gradient(void *ctx, const double *x, double *grad)
{
    return ls_value_grad(ctx, x, NULL, grad);
}

static int ls_reset(void *ctx, const double *x)
{
    ls_ctx *c = ctx;
    residual(c, x, c->r);
    return 0;
}

/* d = cx x_c + u  =>  A d = cx (r + y) + A u (kept in ad; O(n nnz(u))). */
static int ls_set_direction(void *ctx, double cx, int nnz, const int *idx, const double *val)
{
    ls_ctx *c = ctx;
    if (cx != 0.0) {
        for (int i = 0; i < c->n; i++) c->ad[i] = cx * (c->r[i] + c->y[i]);
    } else {
        memset(c->ad, 0, (size_t)c->n * sizeof(double));
    }
    for (int k = 0; k < nnz; k++)
        if (val[k] != 0.0) cblas_daxpy(c->n, val[k], c->A + (size_t)idx[k] * c->n, 1, c->ad, 1);
    return 0;
}

/* f(x_c + gamma d) = 0.5 ||r + gamma A d||^2, slope <r + gamma A d, A d>. */
static int ls_along(void *ctx, double gamma, double *f, double *slope)
{
    ls_ctx *c = ctx;
    double ff = 0.0, sl = 0.0;
    for (int i = 0; i < c->n; i++) {
        double ri = c->r[i] + gamma * c->ad[i];
        ff += ri * ri;
        sl += ri * c->ad[i];
    }
    if (f) *f = 0.5 * ff;
    if (slope) *slope = sl;
    return 0;
}

static int ls_step(void *ctx, double gamma)
{
    ls_ctx *c = ctx;
    if (gamma != 0.0) cblas_daxpy(c->n, gamma, c->ad, 1, c->r, 1);
    return 0;
}

static int ls_cached_value_grad(void *ctx, double *f, double *grad)
{
    ls_ctx *c = ctx;
    if (f) *f = half_sq_norm(c->r, c->n);
    if (grad)
        cblas_dgemv(CblasColMajor, CblasTrans, c->n, c->d, 1.0, c->A, c->n, c->r, 1, 0.0,
                    grad, 1);
    return 0;
}

double gsfw_power_iteration_col_major(int n, int d, const double *A, int iters, double tol,
                                      double *work)
{
    /* No error channel here: NaN (which no caller can take for a norm) answers bad
     * input. An empty matrix has norm 0. */
    if (n < 0 || d < 0 || iters < 1) return NAN;
    if (n == 0 || d == 0) return 0.0;
    if (!A || !work) return NAN;
    double *u = work;         /* n */
    double *v = work + n;     /* d */
    double *w = work + n + d; /* d */
    /* Deterministic, generic start vector (not orthogonal to the top singular vector
     * except on a measure-zero set of matrices). */
    for (int j = 0; j < d; j++) v[j] = 1.0 + 0.5 * sin(1.0 + 0.7 * j);
    double nv = cblas_dnrm2(d, v, 1);
    cblas_dscal(d, 1.0 / nv, v, 1);
    double lambda = 0.0;
    for (int it = 0; it < iters; it++) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, d, 1.0, A, n, v, 1, 0.0, u, 1);
        cblas_dgemv(CblasColMajor, CblasTrans, n, d, 1.0, A, n, u, 1, 0.0, w, 1);
        double rq = cblas_ddot(d, v, 1, w, 1); /* Rayleigh quotient v^T A^T A v */
        double nw = cblas_dnrm2(d, w, 1);
        if (nw == 0.0) return 0.0;
        for (int j = 0; j < d; j++) v[j] = w[j] / nw;
        double prev = lambda;
        lambda = rq;
        if (it > 0 && fabs(lambda - prev) <= tol * fabs(lambda)) break;
    }
    return lambda;
}

static int ls_lipschitz(void *ctx, double *L)
{
    ls_ctx *c = ctx;
    if (c->lipschitz < 0) {
        double lam = gsfw_power_iteration_col_major(c->n, c->d, c->A, 500, 1e-10, c->scratch);
        /* The Rayleigh quotient approaches ||A||^2 from below; a 1e-6 relative margin keeps
         * the estimate an upper bound once it has converged to 1e-10. */
        c->lipschitz = lam * (1.0 + 1e-6);
    }
    *L = c->lipschitz;
    return 0;
}

static int ls_data(void *ctx, int *n, const double **A, const double **y)
{
    ls_ctx *c = ctx;
    *n = c->n;
    *A = c->A;
    *y = c->y;
    return 0;
}

/* min 0.5 ||A_S w - y||^2 by CGLS on the columns S, from w. */
static int ls_minimize_on(void *ctx, int k, const int *S, double *w, int max_iter, double tol,
                          double *f)
{
    ls_ctx *c = ctx;
    const int n = c->n;
    double *r = c->cg, *q = r + n, *p = q + n, *g = p + c->d;
    /* r = y - A_S w */
    memcpy(r, c->y, (size_t)n * sizeof(double));
    for (int j = 0; j < k; j++)
        if (w[j] != 0.0) cblas_daxpy(n, -w[j], c->A + (size_t)S[j] * n, 1, r, 1);
    for (int j = 0; j < k; j++) g[j] = cblas_ddot(n, c->A + (size_t)S[j] * n, 1, r, 1);
    memcpy(p, g, (size_t)k * sizeof(double));
    double gamma = cblas_ddot(k, g, 1, g, 1);
    const double stop = tol * sqrt(gamma);
    for (int it = 0; it < max_iter && sqrt(gamma) > stop && gamma > 0; it++) {
        memset(q, 0, (size_t)n * sizeof(double));
        for (int j = 0; j < k; j++)
            if (p[j] != 0.0) cblas_daxpy(n, p[j], c->A + (size_t)S[j] * n, 1, q, 1);
        double qq = cblas_ddot(n, q, 1, q, 1);
        if (!(qq > 0)) break;
        double alpha = gamma / qq;
        cblas_daxpy(k, alpha, p, 1, w, 1);
        cblas_daxpy(n, -alpha, q, 1, r, 1);
        for (int j = 0; j < k; j++) g[j] = cblas_ddot(n, c->A + (size_t)S[j] * n, 1, r, 1);
        double gnew = cblas_ddot(k, g, 1, g, 1);
        double beta = gnew / gamma;
        gamma = gnew;
        for (int j = 0; j < k; j++) p[j] = g[j] + beta * p[j];
    }
    if (f) *f = half_sq_norm(r, n);
    return 0;
}

static void ls_destroy(gsfw_objective *self)
{
    ls_ctx *c = self->ctx;
    if (c) {
        free(c->A);
        free(c->y);
        free(c->r);
        free(c->ad);
        free(c->cg);
        free(c->scratch);
        free(c);
    }
    free(self);
}

gsfw_error gsfw_objective_least_squares(int n, int d, const double *A, gsfw_layout layout,
                                        const double *y, gsfw_objective **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "least squares: output pointer is NULL");
    *out = NULL;
    if (n < 1 || d < 1)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "least squares: A must be at least 1 x 1, got "
                         "%d x %d", n, d);
    if (!A || !y)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "least squares: %s is NULL", !A ? "A" : "y");
    /* Any other value would be read as row-major without a word. */
    if (layout != GSFW_ROW_MAJOR && layout != GSFW_COL_MAJOR)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "least squares: unknown layout %d "
                         "(GSFW_ROW_MAJOR = 0, GSFW_COL_MAJOR = 1)", (int)layout);
    size_t nd = (size_t)n * (size_t)d;
    for (size_t k = 0; k < nd; k++) {
        if (!isfinite(A[k])) {
            size_t row = layout == GSFW_ROW_MAJOR ? k / (size_t)d : k % (size_t)n;
            size_t col = layout == GSFW_ROW_MAJOR ? k % (size_t)d : k / (size_t)n;
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "A[%zu, %zu] is %g; A must be finite",
                             row, col, A[k]);
        }
    }
    for (int i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "y[%d] is %g; y must be finite", i, y[i]);

    gsfw_objective *obj = calloc(1, sizeof *obj);
    ls_ctx *c = calloc(1, sizeof *c);
    if (!obj || !c) {
        free(obj);
        free(c);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory");
    }
    obj->ctx = c;
    obj->destroy = ls_destroy;
    c->n = n;
    c->d = d;
    c->lipschitz = -1.0;
    c->A = gsfw_malloc_array(nd, sizeof(double));
    c->y = gsfw_malloc_array((size_t)n, sizeof(double));
    c->r = gsfw_malloc_array((size_t)n, sizeof(double));
    c->ad = gsfw_calloc_array((size_t)n, sizeof(double));
    c->cg = gsfw_malloc_array(2 * (size_t)n + 2 * (size_t)d, sizeof(double));
    c->scratch = gsfw_malloc_array((size_t)n + 2 * (size_t)d, sizeof(double));
    if (!c->A || !c->y || !c->r || !c->ad || !c->cg || !c->scratch) {
        ls_destroy(obj);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a %d x %d matrix", n, d);
    }
    if (layout == GSFW_COL_MAJOR) {
        memcpy(c->A, A, nd * sizeof(double));
    } else {
        /* Blocked transpose: row-major n x d -> column-major. */
        const int B = 64;
        for (int i0 = 0; i0 < n; i0 += B)
            for (int j0 = 0; j0 < d; j0 += B)
                for (int i = i0; i < i0 + B && i < n; i++)
                    for (int j = j0; j < j0 + B && j < d; j++)
                        c->A[(size_t)j * n + i] = A[(size_t)i * d + j];
    }
    memcpy(c->y, y, (size_t)n * sizeof(double));
    memcpy(c->r, y, (size_t)n * sizeof(double));
    cblas_dscal(n, -1.0, c->r, 1); /* cache starts at x = 0: r = -y */

    obj->d = d;
    obj->value = ls_value;
    obj->gradient = ls_gradient;
    obj->value_grad = ls_value_grad;
    obj->reset = ls_reset;
    obj->set_direction = ls_set_direction;
    obj->along = ls_along;
    obj->step = ls_step;
    obj->minimize_on = ls_minimize_on;
    obj->quadratic = 1;
    obj->name = "least-squares";
    obj->cached_value_grad = ls_cached_value_grad;
    obj->lipschitz = ls_lipschitz;
    obj->least_squares_data = ls_data;
    *out = obj;
    return GSFW_OK;
}
