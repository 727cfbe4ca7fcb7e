/* Internal helpers shared by the library modules (not part of the public API). */
#ifndef GSFW_INTERNAL_H
#define GSFW_INTERNAL_H

#include "gsfw.h"
#include "graph/graph_internal.h" /* the library sees the graph's fields */

#include <stdarg.h>
#include <stdlib.h>

#if defined(__GNUC__)
#define GSFW_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GSFW_PRINTF(a, b)
#endif

/* Fill *err (when non-NULL) with code and a formatted message; returns code. */
gsfw_error gsfw_fail(gsfw_err *err, gsfw_error code, const char *fmt, ...) GSFW_PRINTF(3, 4);
/* Reset *err to GSFW_OK with an empty message. */
void gsfw_err_clear(gsfw_err *err);

/* Monotonic wall clock in seconds. */
double gsfw_now(void);

/* Overflow-checked allocation helpers: return NULL on overflow or failure. */
void *gsfw_malloc_array(size_t count, size_t size);
void *gsfw_calloc_array(size_t count, size_t size);

/* 1 if all n entries are finite. */
int gsfw_all_finite(const double *x, size_t n);

#endif
