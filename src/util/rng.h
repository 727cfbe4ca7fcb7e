/* Seeded pseudo-random numbers (xoshiro256** seeded by splitmix64). The state lives in
 * the caller's struct: no global state, deterministic for a given seed. */
#ifndef GSFW_RNG_H
#define GSFW_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
    int has_spare;
    double spare;
} gsfw_rng;

void gsfw_rng_seed(gsfw_rng *rng, uint64_t seed);
uint64_t gsfw_rng_next(gsfw_rng *rng);
/* Uniform in [0, 1) with 53 random bits. */
double gsfw_rng_uniform(gsfw_rng *rng);
/* Uniform integer in [0, n), unbiased; n >= 1. */
uint64_t gsfw_rng_below(gsfw_rng *rng, uint64_t n);
/* Standard normal (Marsaglia polar method, spare value cached in the state). */
double gsfw_rng_normal(gsfw_rng *rng);
/* Fisher-Yates shuffle of an int array. */
void gsfw_rng_shuffle(gsfw_rng *rng, int *a, int n);

#endif
