/* Crash-safe output files: write to a temporary file in the destination's directory,
 * then rename it into place, so that a failed run never leaves a partial file. */
#ifndef GSFW_ATOMIC_H
#define GSFW_ATOMIC_H

#include <stdio.h>

#include "gsfw.h"

typedef struct {
    FILE *fp;          /* write through this stream */
    char *tmp_path;    /* temporary file (same directory as final_path) */
    char *final_path;
} gsfw_atomic_file;

/* Create the temporary file. On failure nothing is left behind and *err names path. */
gsfw_error gsfw_atomic_open(gsfw_atomic_file *f, const char *path, gsfw_err *err);
/* Flush, close and rename into place; on any failure the temporary file is removed. */
gsfw_error gsfw_atomic_commit(gsfw_atomic_file *f, gsfw_err *err);
/* Close and remove the temporary file (safe to call on a zeroed or committed struct). */
void gsfw_atomic_abort(gsfw_atomic_file *f);

#endif
