/* How the commands put their outputs in place (docs/reliability.md):
 *  - every file is written to a temporary file beside it and renamed (src/io/atomic.h):
 *    no partial file;
 *  - the files of one command move together, all or nothing (cli_move_group): no mix of
 *    old and new outputs;
 *  - SIGINT / SIGTERM only set a flag; the commands stop at the next safe point, and the
 *    final move runs with both blocked;
 *  - the move holds an exclusive flock on each output directory; `recover` holds its
 *    --out-dir for the whole run and refuses a second run there;
 *  - the next `recover` in a directory removes what killed runs left there. */
#ifndef GSFW_CLI_OUTPUTS_H
#define GSFW_CLI_OUTPUTS_H

#include "gsfw.h"
#include "io/atomic.h"

/* ---- SIGINT and SIGTERM */

/* Record the signals instead of dying of them (signals ignored at start stay ignored). */
void cli_interrupt_install(void);
/* The signal received so far, or 0. */
int cli_interrupted(void);
/* Print "gsfw CMD: interrupted (SIGINT); WHAT" and return 128 + the signal. */
int cli_interrupted_exit(const char *cmd, const char *what);
/* A gsfw_settings callback that stops the solver once a signal was recorded. */
int cli_interrupt_callback(const gsfw_iterate *it, const double *x, void *user);

/* ---- moving files into place */

#define CLI_GROUP_MAX 8
/* Rename from[k] onto to[k] for every k, all or nothing: an existing destination is
 * kept as a hard link (or renamed aside where hard links are not supported) until every
 * rename succeeded; after a failure the old files are put back and new ones removed. */
gsfw_error cli_move_group(const char *const *from, const char *const *to, int count,
                          gsfw_err *err);
/* Finish the opened files among files[0..count-1] (a file whose fp is NULL was written
 * and closed already, at tmp_path) and move them into place together; on failure every
 * temporary file is removed. */
gsfw_error cli_commit_group(gsfw_atomic_file *files, int count, gsfw_err *err);
/* cli_commit_group under the locks of the files' directories (waiting up to wait_s for
 * another run) with SIGINT and SIGTERM blocked. CLI_OK, CLI_FAIL or, when a signal came,
 * 128 + the signal (message printed). */
int cli_commit_outputs(const char *cmd, gsfw_atomic_file *files, int count, int wait_s);
/* 1 when a and b name one file (links and ./.. resolved). */
int cli_same_file(const char *a, const char *b);

/* ---- an output directory of its own (recover) */

typedef struct {
    const char *cmd;
    char *created[16];     /* directories this run created (removed if it fails) */
    int ncreated, lock_fd, count;
    gsfw_atomic_file files[CLI_GROUP_MAX]; /* closed: written at tmp_path, moved together */
} cli_outdir;

/* Create the directory (mkdir -p), lock it (refusing a second run), remove dead runs'
 * leftovers and create the outputs' temporary files beside them: names[k] is to be
 * written at o->files[k].tmp_path. A destination that is not a regular file is refused.
 * CLI_OK, or a status with the message printed; cli_outdir_close in every case. */
int cli_outdir_open(cli_outdir *o, const char *cmd, const char *path,
                    const char *const *names, int count);
/* Move the outputs into place together (as cli_commit_outputs). */
int cli_outdir_commit(cli_outdir *o);
/* Remove the temporary files left and, when failed, the directories the run created;
 * release the lock. */
void cli_outdir_close(cli_outdir *o, int failed);

#endif
