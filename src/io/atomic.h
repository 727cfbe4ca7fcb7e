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
    int in_place;      /* 1: fp writes final_path itself (a device, FIFO, /dev/stdout) */
} gsfw_atomic_file;

/* Create the temporary file. On failure nothing is left behind and *err names path.
 * A destination that is a directory is refused. A symbolic link is written through (its
 * target gets replaced, the link stays). Special files (devices such as /dev/null, FIFOs,
 * sockets) and names of open descriptors (/dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/.../fd/N) are opened and written in place, since replacing them by a regular
 * file would be wrong: for them a failed run cannot be undone, and commit only flushes
 * and closes. */
gsfw_error gsfw_atomic_open(gsfw_atomic_file *f, const char *path, gsfw_err *err);
/* Flush, close and rename into place; on any failure the temporary file is removed. */
gsfw_error gsfw_atomic_commit(gsfw_atomic_file *f, gsfw_err *err);
/* Flush, sync and close the temporary file without renaming it (the first half of
 * commit); on failure the temporary file is removed. */
gsfw_error gsfw_atomic_finish(gsfw_atomic_file *f, gsfw_err *err);

/* 1 when gsfw_atomic_open writes path in place (a special file, or the name of an open
 * descriptor such as /dev/stdout): such a path may be given for several outputs. */
int gsfw_atomic_in_place(const char *path);
/* The directory part of path: "." when there is none, "/" for a file in the root.
 * Freed with free(); NULL when out of memory. */
char *gsfw_dir_of(const char *path);
/* The last component of path (a pointer into it: path itself when it has no '/'). */
const char *gsfw_base_name(const char *path);
/* The absolute name path stands for: symbolic links and "." / ".." resolved for an
 * existing file; for a new one, its directory resolved plus its last component (path
 * itself when the directory does not exist). Freed with free(); NULL when out of memory. */
char *gsfw_canonical_path(const char *path);
/* 1 when a and b name the same output (the same canonical name). Two hard links of one
 * file are different outputs: each is replaced separately. */
int gsfw_same_output(const char *a, const char *b);

/* Forget the names of a file finished by gsfw_atomic_finish whose temporary file the
 * caller has moved into place itself (or that was written in place), removing nothing:
 * the temporary name may belong to another file by now. Moving several files into place
 * together is the command-line tools' job (cli/atomic_group.h). */
void gsfw_atomic_forget(gsfw_atomic_file *f);
/* Close and remove the temporary file (safe to call on a zeroed or committed struct). */
void gsfw_atomic_abort(gsfw_atomic_file *f);

#endif
