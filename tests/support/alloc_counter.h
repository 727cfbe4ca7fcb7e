/* Allocation counting for the "no allocation" tests: this header DEFINES malloc, calloc,
 * realloc, aligned_alloc, memalign and posix_memalign for the executable that includes it
 * (include it from exactly one file of a test), each counting into `allocations` and
 * passing the request on to glibc under its internal names. The library, linked
 * statically, and glibc's own functions (strdup, ...) call these instead of the
 * allocator's public entry points.
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

static long allocations; /* only the test's thread allocates while it counts */

void *malloc(size_t size)
{
    allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size)
{
    allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *ptr, size_t size)
{
    allocations++;
    return __libc_realloc(ptr, size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
    allocations++;
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size)
{
    allocations++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    allocations++;
    if (alignment % sizeof(void *) || (alignment & (alignment - 1))) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p && size) return ENOMEM;
    *out = p;
    return 0;
}
#endif

#endif
