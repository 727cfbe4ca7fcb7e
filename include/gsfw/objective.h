/* Smooth convex objectives: the gsfw_objective interface, least squares, user
 * callbacks, the power iteration. Included by gsfw.h. */
#ifndef GSFW_OBJECTIVE_H
#define GSFW_OBJECTIVE_H

#include "gsfw/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A smooth convex objective over R^d. Callbacks return 0 on success, nonzero on failure.
 * value_grad may be NULL (value then gradient are called).
 *
 * Incremental interface (optional; reset, cached_value_grad, set_direction, along and step
 * go together). The objective keeps a cached point x_c, so that a loss over a linear
 * operator keeps A x_c and never recomputes it from scratch:
 *  - reset(x):                 x_c <- x
 *  - cached_value_grad(f, g):  f(x_c) and/or its gradient (either pointer may be NULL)
 *  - set_direction(cx, u):     fix the direction d = cx * x_c + u, u sparse (u[idx[k]] = val[k],
 *                              k < nnz, distinct ids): a Frank-Wolfe step (cx = -1, u = v), an
 *                              away step (cx = 1, u = -a), a pairwise step (cx = 0, u = v - a),
 *                              any move x -> x_new (cx = 0, u = x_new - x_c)
 *  - along(gamma, f, slope):   f(x_c + gamma d) and its derivative <grad f(x_c + gamma d), d>
 *                              (either pointer may be NULL), without moving x_c: what a line
 *                              search needs (O(n) for a loss over an n-row operator)
 *  - step(gamma):              x_c <- x_c + gamma d
 * An objective with a cache must not be shared by concurrent solves.
 *
 * minimize_on (optional): minimise f over the vectors supported on `support` (k distinct ids),
 * unconstrained within that span, starting from w (k entries, in/out), for at most max_iter
 * inner iterations or until the restricted gradient falls below tol times its initial norm;
 * *f receives the value at the result. Least squares over an operator runs CGLS
 * (Craig's method when the support is wider than the rows); after reserve, over an
 * operator with cheap_columns, it does so on a copy of the support's columns, and solves
 * supports of few rows or columns exactly (a rank-revealing QR of that copy). Used by
 * CoSaMP-type baselines and by polishing.
 * reserve (optional): the solvers call it once, before their loop, with the largest
 * support they will pass to minimize_on, so that it can allocate its workspace there
 * rather than inside the loop. It may be called again: a larger size grows the
 * workspace, 0 frees it. Returns 0, or nonzero when out of memory (the linear objectives
 * never fail for lack of memory here: they keep working without the copy).
 * no_minimiser (optional): *out = 1 when x shows that f has no minimiser: f(t x) falls
 * towards an infimum that no point attains as t -> infinity (a logistic loss whose labels
 * x separates: every margin y_i ((A x)_i + b) > 0), else 0. The baselines, which bound no
 * norm, then report GSFW_STATUS_UNBOUNDED (a nonzero return, a failed check, leaves their
 * status as it was). NULL for objectives that always attain their minimum (least
 * squares, Huber, squared hinge); it must not move the incremental cache.
 * quadratic = 1 declares f quadratic (a line search is then exact from two slopes). */
typedef struct gsfw_objective {
    int d;
    void *ctx;
    int (*value)(void *ctx, const double *x, double *f);
    int (*gradient)(void *ctx, const double *x, double *grad);
    int (*value_grad)(void *ctx, const double *x, double *f, double *grad);
    /* incremental interface (optional, all-or-nothing) */
    int (*reset)(void *ctx, const double *x);
    int (*cached_value_grad)(void *ctx, double *f, double *grad);
    int (*set_direction)(void *ctx, double cx, int nnz, const int *idx, const double *val);
    int (*along)(void *ctx, double gamma, double *f, double *slope);
    int (*step)(void *ctx, double gamma);
    /* optional: an upper bound on the Lipschitz constant of the gradient */
    int (*lipschitz)(void *ctx, double *L);
    /* optional: restricted minimisation (see above) */
    int (*minimize_on)(void *ctx, int k, const int *support, double *w, int max_iter,
                       double tol, double *f);
    int (*reserve)(void *ctx, int max_support);
    /* optional: what a nonzero code returned by this objective's callbacks means (a
     * constant string), or NULL; the solvers' error messages quote it */
    const char *(*code_text)(int code);
    int quadratic;     /* 1: f is quadratic */
    const char *name;  /* "least-squares", "logistic", "huber", "callback", ... */
    void (*destroy)(struct gsfw_objective *self);
    /* optional: whether x shows that f has no minimiser (see above) */
    int (*no_minimiser)(void *ctx, const double *x, int *out);
} gsfw_objective;


/* f(x) = 0.5 * ||A x - y||^2 with a dense n x d matrix A (copied; the caller's arrays
 * can be freed afterwards). Rejects NaN/Inf in A or y. The gradient A^T (A x - y) costs
 * two gemv (one with the incremental interface); A^T A is never formed. The lipschitz
 * hook returns ||A||_2^2 estimated by power iteration (deterministic start vector);
 * minimize_on runs CGLS, or QR on small supports after reserve. It is the squared loss
 * of gsfw_objective_linear over a dense column-major copy of A that the objective owns. */
GSFW_API gsfw_error gsfw_objective_least_squares(int n, int d, const double *A, gsfw_layout layout,
                                        const double *y, gsfw_objective **out,
                                        gsfw_err *err);
/* Wrap user callbacks (value and gradient required, value_grad optional). */
GSFW_API gsfw_error gsfw_objective_callback(int d, void *ctx,
                                   int (*value)(void *, const double *, double *),
                                   int (*gradient)(void *, const double *, double *),
                                   int (*value_grad)(void *, const double *, double *, double *),
                                   gsfw_objective **out, gsfw_err *err);
/* Frees an objective: through its destroy hook, or with free() when it has none (so an
 * objective built by hand must be malloc'ed or carry a destroy hook). NULL is a no-op.
 * Build one by hand zero-initialised (calloc, memset or a compound literal): the optional
 * hooks, including any a later version adds, must be NULL unless set. */
GSFW_API void gsfw_objective_free(gsfw_objective *obj);

/* Power-iteration estimate of ||A||_2^2 for a dense n x d matrix (column-major, lda = n).
 * Returns the Rayleigh quotient after `iters` iterations or when the relative change is
 * below tol. work: n + 2d doubles. An empty matrix gives 0; NaN answers bad arguments
 * (negative sizes, iters < 1, A or work NULL). */
GSFW_API double gsfw_power_iteration_col_major(int n, int d, const double *A, int iters, double tol,
                                      double *work);

#ifdef __cplusplus
}
#endif

#endif /* GSFW_OBJECTIVE_H */
