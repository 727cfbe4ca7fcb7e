/* Memory helpers of the PCSF workspace (pcsf_mem.h). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#endif
#include "oracles/pcsf/pcsf_mem.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void *gsfw_pcsf_big_alloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    size_t bytes = count * size;
    const size_t huge = (size_t)2 << 20;
    if (bytes < 2 * huge) return malloc(bytes ? bytes : 1);
    size_t rounded = (bytes + huge - 1) / huge * huge;
    void *p = aligned_alloc(huge, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p) (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}

void gsfw_pcsf_populate(void *begin, size_t bytes)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const uintptr_t page = 4096;
    uintptr_t lo = ((uintptr_t)begin + page - 1) & ~(page - 1);
    uintptr_t hi = ((uintptr_t)begin + bytes) & ~(page - 1);
    if (begin && hi > lo) (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)begin;
    (void)bytes;
#endif
}
