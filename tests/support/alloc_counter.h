/* Allocation counting for the "no allocation" tests: this header DEFINES malloc, calloc,
 * realloc, aligned_alloc, memalign and posix_memalign for the executable that includes it
 * (include it from exactly one file of a test), each counting into `allocations` and
 * passing the request on to glibc under its internal names. The library, linked
 * statically, and glibc's own functions (strdup, ...) call these instead of the
 * allocator's public entry points. `aligned_allocations` counts the aligned requests
 * (aligned_alloc, memalign, posix_memalign) alone, as well, and `own_allocations` the
 * requests made by the executable's own code (the test and the library linked into it),
 * not by a shared library (FFTW, OpenBLAS, glibc's own functions). The counts are
 * atomic: an operator's worker thread may allocate (through FFTW) during a product.
 *
 * The sanitizer builds replace the allocator themselves: there COUNTING is 0 and nothing
 * is defined (the tests skip). */
#ifndef GSFW_TEST_ALLOC_COUNTER_H
#define GSFW_TEST_ALLOC_COUNTER_H

#include <errno.h>
#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COUNTING 0
#else
#define COUNTING 1
/* glibc's allocator under its internal names, which stay reachable when the public
 * names are taken over */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static long allocations; /* read by the test's thread when no other one allocates */
static long aligned_allocations;
static long own_allocations;

/* the executable's code: from the start of its image to the end of its text (GNU ld) */
extern const char __executable_start[], etext[];

/* never inlined: the return address is then the caller's, not its caller's */
#define GSFW_COUNTER_FN __attribute__((noinline))

#define GSFW_COUNT_ALLOCATION(aligned)                                                    \
    do {                                                                                  \
        const char *caller_ = (const char *)__builtin_return_address(0);                  \
        __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED);                            \
        if (aligned) __atomic_add_fetch(&aligned_allocations, 1, __ATOMIC_RELAXED);        \
        if (caller_ >= __executable_start && caller_ < etext)                             \
            __atomic_add_fetch(&own_allocations, 1, __ATOMIC_RELAXED);                    \
    } while (0)

GSFW_COUNTER_FN void *malloc(size_t size)
{
    GSFW_COUNT_ALLOCATION(0);
    return __libc_malloc(size);
}

GSFW_COUNTER_FN void *calloc(size_t count, size_t size)
{
    GSFW_COUNT_ALLOCATION(0);
    return __libc_calloc(count, size);
}

GSFW_COUNTER_FN void *realloc(void *ptr, size_t size)
{
    GSFW_COUNT_ALLOCATION(0);
    return __libc_realloc(ptr, size);
}

GSFW_COUNTER_FN void *aligned_alloc(size_t alignment, size_t size)
{
    GSFW_COUNT_ALLOCATION(1);
    return __libc_memalign(alignment, size);
}

GSFW_COUNTER_FN void *memalign(size_t alignment, size_t size)
{
    GSFW_COUNT_ALLOCATION(1);
    return __libc_memalign(alignment, size);
}

GSFW_COUNTER_FN int posix_memalign(void **out, size_t alignment, size_t size)
{
    GSFW_COUNT_ALLOCATION(1);
    if (alignment % sizeof(void *) || (alignment & (alignment - 1))) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p && size) return ENOMEM;
    *out = p;
    return 0;
}
#endif

#endif
