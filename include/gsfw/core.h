/* gsfw's basic types: version, error codes and reports, memory returned by the library,
 * matrix layouts. Included by every other public header. */
#ifndef GSFW_CORE_H
#define GSFW_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "gsfw/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the library version (also the build's: CMakeLists.txt reads it here); the shared
 * library's SONAME carries major.minor, since the ABI may change between 0.x releases */
#define GSFW_VERSION "0.6.4"
GSFW_API const char *gsfw_version(void);

/* ------------------------------------------------------------------ errors */

typedef enum {
    GSFW_OK = 0,
    GSFW_ERR_NOMEM,        /* allocation failed */
    GSFW_ERR_INVALID_ARG,  /* a parameter is out of range (s > d, C <= 0, g > s, ...) */
    GSFW_ERR_DIMENSION,    /* sizes of two inputs disagree */
    GSFW_ERR_NONFINITE,    /* NaN or Inf where a finite number is required */
    GSFW_ERR_IO,           /* a file could not be opened, read or written */
    GSFW_ERR_FORMAT,       /* a file is malformed or of an unsupported kind */
    GSFW_ERR_GRAPH,        /* an invalid graph (id out of range, bad cost) */
    GSFW_ERR_CALLBACK,     /* a user callback (objective, DMO) reported failure */
    GSFW_ERR_INTERNAL      /* a broken invariant: please report */
} gsfw_error;

/* Static English description of an error code. */
GSFW_API const char *gsfw_error_message(gsfw_error code);

/* Detailed error report filled by failing calls (optional everywhere). A call that
 * succeeds may leave it as it was (the solves clear it): test the returned code, not
 * err.code. */
typedef struct {
    gsfw_error code;
    char message[512];
} gsfw_err;

/* Storage order of a dense matrix. */
typedef enum { GSFW_ROW_MAJOR = 0, GSFW_COL_MAJOR = 1 } gsfw_layout;

/* Free memory returned by gsfw readers (gsfw_npy_read, gsfw_edges_read, ...). */
GSFW_API void gsfw_free(void *ptr);

#ifdef __cplusplus
}
#endif

#endif
