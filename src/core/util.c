/* Small portable helpers: clock, checked allocation, finiteness test. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <math.h>
#include <stdint.h>
#include <time.h>

double gsfw_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void *gsfw_malloc_array(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    size_t bytes = count * size;
    return malloc(bytes ? bytes : 1);
}

void *gsfw_calloc_array(size_t count, size_t size)
{
    if (count == 0 || size == 0) return calloc(1, 1);
    return calloc(count, size);
}

int gsfw_all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}
