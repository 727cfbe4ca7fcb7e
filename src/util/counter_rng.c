#include "util/counter_rng.h"

#include <math.h>

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

/* A tag in the third counter word keeps these matrices apart from any other use of the
 * same seed with Philox. */
#define NORMAL_STREAM 0x67736677u

void gsfw_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; round++) {
        if (round > 0) {
            k0 += PHILOX_W0;
            k1 += PHILOX_W1;
        }
        uint64_t p0 = (uint64_t)PHILOX_M0 * c0, p1 = (uint64_t)PHILOX_M1 * c2;
        uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
        uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

/* The Box-Muller pair m of row i: (r cos t, r sin t). */
static void normal_pair(uint64_t seed, int i, int m, double *c, double *s)
{
    const uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    const uint32_t ctr[4] = {(uint32_t)m, (uint32_t)i, NORMAL_STREAM, 0};
    uint32_t x[4];
    gsfw_philox4x32_10(ctr, key, x);
    uint64_t a = ((uint64_t)x[0] << 32 | x[1]) >> 11, b = ((uint64_t)x[2] << 32 | x[3]) >> 11;
    /* u1 in (0, 1): never 0, so the logarithm is finite */
    double u1 = ((double)a + 0.5) * 0x1.0p-53, u2 = (double)b * 0x1.0p-53;
    double r = sqrt(-2.0 * log(u1)), t = 6.283185307179586476925286766559 * u2;
    *c = r * cos(t);
    *s = r * sin(t);
}

double gsfw_counter_normal(uint64_t seed, int i, int j)
{
    double c, s;
    normal_pair(seed, i, j / 2, &c, &s);
    return j % 2 ? s : c;
}

void gsfw_counter_normal_row_part(uint64_t seed, int i, int j0, int j1, double *part)
{
    int j = j0;
    for (; j + 1 < j1; j += 2) normal_pair(seed, i, j / 2, &part[j - j0], &part[j - j0 + 1]);
    if (j < j1) {
        double s;
        normal_pair(seed, i, j / 2, &part[j - j0], &s);
    }
}

void gsfw_counter_normal_row(uint64_t seed, int i, int d, double *row)
{
    gsfw_counter_normal_row_part(seed, i, 0, d, row);
}
