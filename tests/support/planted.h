/* Planted least-squares problems for the solver tests: A with i.i.d. N(0, 1/n) entries,
 * a sparse x* chosen by the test, y = A x* (noiseless). */
#ifndef GSFW_TEST_PLANTED_H
#define GSFW_TEST_PLANTED_H

#include "util/rng.h"

typedef struct {
    int n, d;
    double *A; /* n x d, row-major */
    double *y;
    double *x_star;
} planted_problem;

/* Draw A from rng (row by row); x* and y start at zero. */
planted_problem planted_alloc(int n, int d, gsfw_rng *rng);
/* Scale x* to norm xnorm, then set y = A x*. */
void planted_measure(planted_problem *p, double xnorm);
void planted_free(planted_problem *p);

#endif
