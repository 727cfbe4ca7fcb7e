/* Counter-based random numbers: a value is a pure function of (seed, counter), so any
 * part of a huge random matrix can be regenerated anywhere, in any order, by any thread
 * or process (Philox4x32-10, Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
 * SC 2011). */
#ifndef GSFW_COUNTER_RNG_H
#define GSFW_COUNTER_RNG_H

#include <stdint.h>

/* Philox4x32 with 10 rounds: out = the bijection of ctr keyed by key. */
void gsfw_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* The standard normal entry (i, j) of the matrix of seed (i, j >= 0). Entries (i, 2m) and
 * (i, 2m + 1) are the cosine and sine halves of one Box-Muller pair. */
double gsfw_counter_normal(uint64_t seed, int i, int j);

/* Entries (i, 0 .. d-1) into row (d doubles): the same values as gsfw_counter_normal, half
 * the generator calls. */
void gsfw_counter_normal_row(uint64_t seed, int i, int d, double *row);
/* Entries (i, j0 .. j1-1) into part (j1 - j0 doubles), j0 even: the same values. */
void gsfw_counter_normal_row_part(uint64_t seed, int i, int j0, int j1, double *part);

#endif
