/* The whole-operator pieces of a linear objective that its restricted-solve toolbox needs
 * too (linear_common.c): linear.c and restricted_solve.c call them; they call neither.
 * Not part of the public API. */
#ifndef GSFW_OBJECTIVES_LINEAR_COMMON_H
#define GSFW_OBJECTIVES_LINEAR_COMMON_H

#include "objectives/linear_ctx.h"

/* b* = argmin_b sum_i l(z_i + gamma dz_i + b) (dz may be NULL), from the warm start *b. */
int gsfw_lin_solve_intercept(const lin_ctx *c, const double *z, const double *dz, double gamma,
                             double *b);
/* The objective's lipschitz hook: curvature * ||A||_2^2, computed once and cached. */
int gsfw_lin_lipschitz(void *ctx, double *L);

#endif
