/* Losses over a linear operator: the pieces shared by the core (linear.c) and the
 * per-loss files (loss_*.c). Not part of the public API.
 *
 * The core caches z = A x_c - y for losses of the residual (squared, Huber) and
 * z = A x_c for losses that read the labels themselves (logistic). A loss is a table of
 * row-wise sums over such vectors; every sum it returns is over this process's rows only
 * (the core passes it through the reducer). */
#ifndef GSFW_OBJECTIVES_LINEAR_H
#define GSFW_OBJECTIVES_LINEAR_H

#include "core/internal.h"

typedef struct {
    const double *y; /* n labels or targets */
    double delta;    /* Huber threshold */
} gsfw_loss_params;

typedef struct {
    const char *name;       /* the objective's name */
    int residual;           /* 1: the cache holds A x - y; 0: A x */
    int identity_deriv;     /* 1: l'(z) = z (the cache itself is the derivative) */
    double curvature;       /* sup l'': the Lipschitz constant is curvature ||A||_2^2 */
    /* sum_i l(t_i), t = z + gamma dz + shift (dz may be NULL: t = z + shift); with dz and
     * slope non-NULL also *slope = sum_i l'(t_i) dz_i */
    double (*sum)(const gsfw_loss_params *p, int n, const double *z, const double *dz,
                  double gamma, double shift, double *slope);
    /* g_i = l'(z_i + shift), h_i = l''(z_i + shift); either output may be NULL */
    void (*deriv)(const gsfw_loss_params *p, int n, const double *z, double shift, double *g,
                  double *h);
    /* intercept losses only: out[0] = sum_i l'(t_i), out[1] = sum_i l''(t_i) with
     * t = z + gamma dz + b (dz may be NULL) */
    void (*intercept_sums)(const gsfw_loss_params *p, int n, const double *z,
                           const double *dz, double gamma, double b, double out[2]);
} gsfw_linear_loss;

extern const gsfw_linear_loss gsfw_loss_squared;
extern const gsfw_linear_loss gsfw_loss_logistic;
extern const gsfw_linear_loss gsfw_loss_huber;

/* Build a linear objective that owns `owned` (freed in destroy, also on failure). */
gsfw_error gsfw_objective_linear_owning(gsfw_operator *owned, int n, const double *y,
                                        const gsfw_loss_options *opt, gsfw_objective **out,
                                        gsfw_err *err);
/* The operator and targets behind the ctx of a linear objective (obj->ctx of an objective
 * built by gsfw_objective_linear*, nothing else). */
const gsfw_operator *gsfw_linear_operator(const void *ctx, const double **y);

/* gsfw_objective_least_squares over a column-major n x d array it takes over (freed with
 * the objective, also on failure): the command line's way to hold a large matrix once.
 * A and y must be finite (not checked again). */
gsfw_error gsfw_objective_least_squares_adopt(int n, int d, double *A_col_major,
                                              const double *y, gsfw_objective **out,
                                              gsfw_err *err);

#endif
