#include "rng.h"
#include "splitmix.h"

#include <math.h>

void gsfw_rng_seed(gsfw_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) rng->s[i] = gsfw_splitmix64(&x);
    rng->has_spare = 0;
    rng->spare = 0.0;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t gsfw_rng_next(gsfw_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double gsfw_rng_uniform(gsfw_rng *rng)
{
    return (double)(gsfw_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint64_t gsfw_rng_below(gsfw_rng *rng, uint64_t n)
{
    /* Rejection sampling to avoid modulo bias. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do {
        r = gsfw_rng_next(rng);
    } while (r >= limit);
    return r % n;
}

double gsfw_rng_normal(gsfw_rng *rng)
{
    if (rng->has_spare) {
        rng->has_spare = 0;
        return rng->spare;
    }
    double u, v, q;
    do {
        u = 2.0 * gsfw_rng_uniform(rng) - 1.0;
        v = 2.0 * gsfw_rng_uniform(rng) - 1.0;
        q = u * u + v * v;
    } while (q >= 1.0 || q == 0.0);
    double m = sqrt(-2.0 * log(q) / q);
    rng->spare = v * m;
    rng->has_spare = 1;
    return u * m;
}

void gsfw_rng_shuffle(gsfw_rng *rng, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gsfw_rng_below(rng, (uint64_t)i + 1);
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
