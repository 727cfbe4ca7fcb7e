/* Losses over a linear operator (gsfw_objective_linear). Included by gsfw.h. */
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

typedef enum {
    GSFW_LOSS_SQUARED = 0,  /* 0.5 ||A x - y||^2 */
    GSFW_LOSS_LOGISTIC = 1, /* sum_i log(1 + exp(-y_i (A x)_i)), y_i in {-1, +1} */
    GSFW_LOSS_HUBER = 2     /* sum_i h((A x - y)_i), h(t) = t^2/2 (|t| <= delta), else
                               delta (|t| - delta/2) */
} gsfw_loss;

typedef struct {
    gsfw_loss loss;       /* default GSFW_LOSS_SQUARED */
    double huber_delta;   /* Huber threshold, finite and > 0 (default 1) */
    int intercept;        /* logistic only: 1 = fit an unpenalised intercept b, profiled
                             out: f(x) = min_b sum_i log(1 + exp(-y_i ((A x)_i + b))) */
    gsfw_reducer reducer; /* default {NULL, NULL}: one process */
} gsfw_loss_options;

GSFW_API void gsfw_loss_options_default(gsfw_loss_options *opt);
/* "ls" (or "squared"), "logistic", "huber"; -1 if unknown. */
GSFW_API int gsfw_loss_parse(const char *name);
GSFW_API const char *gsfw_loss_name(gsfw_loss loss);

/* f(x) = loss(A x, y) over an operator A (n x d; borrowed: it must outlive the objective)
 * and n targets y (copied; labels in {-1, +1} for the logistic loss). opt NULL means the
 * defaults. Every hook of gsfw_objective is provided (docs/objectives.md gives the cost
 * of each); quadratic = 1 for the squared loss only. */
GSFW_API gsfw_error gsfw_objective_linear(const gsfw_operator *A, int n, const double *y,
                                          const gsfw_loss_options *opt,
                                          gsfw_objective **out, gsfw_err *err);
/* The intercept b*(x) of a logistic objective with opt.intercept = 1 at x (d entries),
 * or at the objective's cached point when x is NULL (the last point of a solve). */
GSFW_API gsfw_error gsfw_objective_intercept(gsfw_objective *obj, const double *x, double *b,
                                             gsfw_err *err);

#ifdef __cplusplus
}
#endif

#endif /* GSFW_LOSS_H */
