/* splitmix64: the small generator of the PCSF benchmark protocol (design notes §8.1:
 * state starts at the seed, each draw adds 0x9E3779B97F4A7C15 and mixes), shared by the
 * benchmarks, the tests that build random instances, and the seeding of gsfw_rng. */
#ifndef GSFW_SPLITMIX_H
#define GSFW_SPLITMIX_H

#include <math.h>
#include <stdint.h>

static inline uint64_t gsfw_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1): the top 53 bits. */
static inline double gsfw_splitmix_uniform(uint64_t *state)
{
    return (double)(gsfw_splitmix64(state) >> 11) * 0x1.0p-53;
}

/* Standard normal by Box-Muller from two consecutive uniforms (u1 = 0 replaced by 2^-53,
 * the sine value discarded), as the benchmark protocol specifies. */
static inline double gsfw_splitmix_normal(uint64_t *state)
{
    double u1 = gsfw_splitmix_uniform(state), u2 = gsfw_splitmix_uniform(state);
    if (u1 == 0.0) u1 = 0x1.0p-53;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586476925286766559 * u2);
}

#endif
