#include "planted.h"

#include <math.h>
#include <stdlib.h>

planted_problem planted_alloc(int n, int d, gsfw_rng *rng)
{
    planted_problem p = {n, d, NULL, NULL, NULL};
    p.A = malloc((size_t)n * d * sizeof(double));
    p.y = calloc((size_t)n, sizeof(double));
    p.x_star = calloc((size_t)d, sizeof(double));
    for (size_t k = 0; k < (size_t)n * d; k++) p.A[k] = gsfw_rng_normal(rng) / sqrt((double)n);
    return p;
}

void planted_measure(planted_problem *p, double xnorm)
{
    double nrm = 0;
    for (int i = 0; i < p->d; i++) nrm += p->x_star[i] * p->x_star[i];
    for (int i = 0; i < p->d; i++) p->x_star[i] *= xnorm / sqrt(nrm);
    for (int r = 0; r < p->n; r++) {
        double acc = 0;
        for (int c = 0; c < p->d; c++) acc += p->A[(size_t)r * p->d + c] * p->x_star[c];
        p->y[r] = acc;
    }
}

void planted_free(planted_problem *p)
{
    free(p->A);
    free(p->y);
    free(p->x_star);
}
