/* Losses over a linear operator: f(x) = sum_i l((A x)_i; y_i), with every hook of
 * gsfw_objective (values, gradients, the incremental interface, the Lipschitz bound,
 * the restricted minimisation, an intercept, sums over MPI processes) built once, in
 * the library, on top of a few row-wise functions. A loss is a gsfw_loss_def: the
 * built-ins with an enum value are gsfw_loss_squared, gsfw_loss_logistic and
 * gsfw_loss_huber; every built-in is found by name with gsfw_registry_find
 * (GSFW_KIND_LOSS, name)->def, and a new one is one file defining another
 * (docs/extending.md). Included by gsfw.h. */
#ifndef GSFW_LOSS_H
#define GSFW_LOSS_H

#include "gsfw/core.h"
#include "gsfw/objective.h"
#include "gsfw/operator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sum over processes for row-distributed objectives: sum(ctx, buf, count) replaces the
 * count doubles of buf by their sum over all processes holding rows of the operator
 * (MPI_Allreduce with MPI_SUM); 0 on success. sum = NULL means one process. The linear
 * objectives send every sum over rows through it, so a process holding rows i0..i1 of A
 * and y computes the same value and gradient as one process holding all of them. */
typedef struct {
    void *ctx;
    int (*sum)(void *ctx, double *buf, int count);
} gsfw_reducer;

/* What the row-wise functions of a loss receive. */
typedef struct {
    const double *y;     /* the targets of this process's rows */
    const double *param; /* the loss's parameters, in the order of its def's params */
} gsfw_loss_params;

/* A loss l(t; y) of the margin or residual t of each row.
 *  - residual = 1: t = (A x)_i - y_i (the objective caches A x - y); 0: t = (A x)_i and
 *    the functions read y_i themselves (labels).
 *  - sum: sum_i l(t_i) with t = z + gamma dz + shift (dz may be NULL: t = z + shift);
 *    with dz and slope non-NULL also *slope = sum_i l'(t_i) dz_i. shift is the
 *    intercept (0 without one).
 *  - deriv: g_i = l'(z_i + shift), h_i = l''(z_i + shift); either output may be NULL.
 *    h feeds the restricted Newton-CG of minimize_on and the intercept's Newton steps.
 *  - intercept_sums (optional, a fused form of what deriv gives), t = z + gamma dz + b
 *    (dz may be NULL): out[0] + out[1] = sum_i l'(t_i), out[2] = sum_i l''(t_i). out[0]
 *    holds the terms that are whole numbers (the logistic loss: -y_i for each
 *    misclassified row, whose l' is -y_i (1 - sigma(m_i))) and out[1] the rest; the
 *    objective sums each over the processes before adding them, so that whole units of
 *    opposite labels cancel exactly and the small rest, which decides the intercept far
 *    from the data, survives. A loss without such terms sets out[0] = 0.
 *  - curvature: sup l'' (the Lipschitz bound is curvature ||A||_2^2); 0 when unbounded
 *    (the solvers then estimate L along atoms, or take settings.L).
 *  - quadratic: 1 for l(t) = t^2 / 2 exactly (line searches are then closed-form and
 *    minimize_on runs CGLS, Craig or a QR).
 *  - target_problem (optional): NULL when y is a valid target, else the end of the
 *    sentence "<name> <target_word> y[i] = v ..." ("is not -1 or +1").
 *  - intercept: 1 if an unpenalised intercept b may be fitted (profiled out:
 *    f(x) = min_b sum_i l((A x)_i + b)); two_classes: with an intercept, targets of one
 *    sign leave it without a minimiser (refused).
 *  - unseparated (optional, for a loss whose infimum is approached only as the margin
 *    y t grows without bound, never attained: the logistic loss): the number of rows
 *    whose margin y_i (z_i + shift) is not positive. When no row of any process has one,
 *    f(s x) falls towards that infimum as s -> infinity and f has no minimiser (the
 *    objective's no_minimiser hook). NULL for losses that attain their infimum
 *    (squared, Huber, squared hinge: a margin past 1 already gives 0).
 *  - params: the loss's own parameters (n_params rows; gsfw_param in gsfw/registry.h),
 *    whose values reach the functions as p->param[k]; their target is
 *    GSFW_TARGET_LOSS with offset into gsfw_loss_options (huber_delta, or param[k]). */
typedef struct gsfw_loss_def {
    const char *name;
    int residual;
    int quadratic;
    double curvature;
    double (*sum)(const gsfw_loss_params *p, int n, const double *z, const double *dz,
                  double gamma, double shift, double *slope);
    void (*deriv)(const gsfw_loss_params *p, int n, const double *z, double shift, double *g,
                  double *h);
    void (*intercept_sums)(const gsfw_loss_params *p, int n, const double *z,
                           const double *dz, double gamma, double b, double out[3]);
    const char *(*target_problem)(double y);
    const char *target_word;
    int intercept;
    int two_classes;
    const struct gsfw_param *params;
    int n_params;
    int (*unseparated)(const gsfw_loss_params *p, int n, const double *z, double shift);
} gsfw_loss_def;

/* The built-in losses (src/objectives/loss_*.c). */
GSFW_API extern const gsfw_loss_def gsfw_loss_squared;       /* t^2 / 2 of the residual */
GSFW_API extern const gsfw_loss_def gsfw_loss_logistic;      /* log(1 + exp(-y t)) */
GSFW_API extern const gsfw_loss_def gsfw_loss_huber;         /* Huber's, threshold delta */

typedef enum {
    GSFW_LOSS_SQUARED = 0,  /* 0.5 ||A x - y||^2 */
    GSFW_LOSS_LOGISTIC = 1, /* sum_i log(1 + exp(-y_i (A x)_i)), y_i in {-1, +1} */
    GSFW_LOSS_HUBER = 2     /* sum_i h((A x - y)_i), h(t) = t^2/2 (|t| <= delta), else
                               delta (|t| - delta/2) */
} gsfw_loss;

/* The most parameters a loss may have. */
#define GSFW_LOSS_MAX_PARAMS 4

typedef struct {
    gsfw_loss loss;       /* default GSFW_LOSS_SQUARED */
    double huber_delta;   /* Huber threshold, finite and > 0 (default 1) */
    int intercept;        /* 1 = fit an unpenalised intercept b (losses with intercept = 1:
                             logistic, squared hinge), profiled out */
    gsfw_reducer reducer; /* default {NULL, NULL}: one process */
    const gsfw_loss_def *def; /* a loss of any definition; overrides `loss` (default NULL) */
    double param[GSFW_LOSS_MAX_PARAMS]; /* values of the parameters of def that have no
                                           field of their own (each its default) */
} gsfw_loss_options;

GSFW_API void gsfw_loss_options_default(gsfw_loss_options *opt);
/* The defaults for a loss of any definition: def set, and each of its parameters at its
 * default (at the row's offset: huber_delta, or param[k]). */
GSFW_API void gsfw_loss_options_def(gsfw_loss_options *opt, const gsfw_loss_def *def);
/* "ls" (or "squared"), "logistic", "huber"; -1 if unknown (the losses with an enum
 * value; gsfw_registry_find(GSFW_KIND_LOSS, name) finds every loss). */
GSFW_API int gsfw_loss_parse(const char *name);
GSFW_API const char *gsfw_loss_name(gsfw_loss loss);
/* The definition behind an enum value (NULL for an unknown value). */
GSFW_API const gsfw_loss_def *gsfw_loss_builtin(gsfw_loss loss);

/* f(x) = loss(A x, y) over an operator A (n x d; borrowed: it must outlive the objective)
 * and n targets y (copied; checked by the loss's target_problem). opt NULL means the
 * defaults. Every hook of gsfw_objective is provided (docs/objectives.md gives the cost
 * of each); quadratic = 1 for the squared loss only. */
GSFW_API gsfw_error gsfw_objective_linear(const gsfw_operator *A, int n, const double *y,
                                          const gsfw_loss_options *opt,
                                          gsfw_objective **out, gsfw_err *err);
/* The intercept b*(x) of an objective with opt.intercept = 1 at x (d entries), or at the
 * objective's cached point when x is NULL (the last point of a solve). */
GSFW_API gsfw_error gsfw_objective_intercept(gsfw_objective *obj, const double *x, double *b,
                                             gsfw_err *err);

#ifdef __cplusplus
}
#endif

#endif
