/* Crash-safe output files: written to a temporary file in the destination's directory,
 * then renamed into place, so that a failed or killed run never leaves a partial file. */
#ifndef GSFW_ATOMIC_H
#define GSFW_ATOMIC_H

#include <stdio.h>

#include "gsfw.h"

typedef struct {
    FILE *fp;          /* write through this stream */
    char *tmp_path;    /* the temporary file, .gsfw-tmp-PID-XXXXXX beside final_path */
    char *final_path;
    int in_place;      /* 1: fp writes final_path itself (a device, FIFO, /dev/stdout) */
} gsfw_atomic_file;

/* Create the temporary file, with the permissions fopen would give a new file (the
 * kernel applies the umask) or those of the file it replaces. A directory is refused; a
 * symbolic link is written through (its target is replaced). Special files (/dev/null,
 * FIFOs) and names of open descriptors (/dev/stdout, /dev/fd/N) are written in place:
 * for them commit only flushes. On failure nothing is left and *err names path. */
gsfw_error gsfw_atomic_open(gsfw_atomic_file *f, const char *path, gsfw_err *err);
/* Flush, sync and close (the file stays under its temporary name); on failure the
 * temporary file is removed. */
gsfw_error gsfw_atomic_finish(gsfw_atomic_file *f, gsfw_err *err);
/* finish, then rename into place; on any failure the temporary file is removed. */
gsfw_error gsfw_atomic_commit(gsfw_atomic_file *f, gsfw_err *err);
/* Drop the names of a finished file that the caller moved into place itself. */
void gsfw_atomic_forget(gsfw_atomic_file *f);
/* Close and remove the temporary file (safe on a zeroed or committed struct). */
void gsfw_atomic_abort(gsfw_atomic_file *f);

/* 1 when gsfw_atomic_open writes path in place. */
int gsfw_atomic_in_place(const char *path);
/* The directory part of path ("." when none, "/" in the root); free() it. */
char *gsfw_dir_of(const char *path);
/* The last component of path (a pointer into it). */
const char *gsfw_base_name(const char *path);

#endif
