/* The compressive-sensing problem of `gsfw recover`: the sensing operator (explicit or
 * implicit Gaussian, subsampled DCT or Hadamard), an optional wavelet basis, the
 * measurements y = A Psi theta* + noise and the least-squares objective over them. */
#ifndef GSFW_CLI_RECOVER_PROBLEM_H
#define GSFW_CLI_RECOVER_PROBLEM_H

#include <stdint.h>

#include "gsfw.h"

typedef struct {
    const gsfw_spec *spec;    /* the sensing kind, its seed and float32 */
    const gsfw_operator *psi; /* synthesis basis (x = Psi theta), NULL for pixels */
    int n, height, width;
    double noise;        /* sigma of the Gaussian noise */
} recover_problem_spec;

typedef struct {
    gsfw_objective *obj;
    gsfw_operator *sensing;   /* owned */
    gsfw_operator *composed;  /* sensing o psi, owned, or NULL */
    const gsfw_operator *op;  /* what the objective multiplies by (owned above) */
    double *y;                /* n measurements */
    double f_star;            /* f(truth) = 0.5 ||noise||^2 */
} recover_problem;

/* Build everything from the truth (theta* with a basis, else x*; d entries). Prints a
 * message and returns CLI_FAIL on error (p is then empty). */
int recover_problem_build(const char *cmd, const recover_problem_spec *spec,
                          const double *truth, recover_problem *p);
void recover_problem_free(recover_problem *p);
/* ||A||_2^2 by `iters` power iterations through the operator (Rayleigh quotient, from
 * below), times margin; NaN if an operator call fails, on out of memory or after SIGINT /
 * SIGTERM (polled between iterations). */
double recover_problem_norm2(const recover_problem *p, int iters, double margin);

/* The fewest coefficients holding `fraction` of sum theta_i^2; order (d ints) receives the
 * indices by decreasing |theta_i| (ties by index). */
int recover_energy_count(const double *theta, int d, double fraction, int *order);

#endif
