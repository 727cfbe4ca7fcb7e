/* The output directory of a command that writes several files (gsfw recover).
 *
 * A run
 *   - creates the directory (and missing parents) if needed, remembering what it created
 *     so that a failed run removes it again;
 *   - holds an exclusive advisory lock (flock) on the directory itself for the whole
 *     run: a second run into the same directory is refused with the first one's pid,
 *     so that two runs never interleave their outputs;
 *   - removes what runs killed by SIGKILL (or a crash, or a power cut) left behind:
 *     .gsfw-staging-PID-* directories and .gsfw-tmp-PID-* files of processes that no
 *     longer exist; a .gsfw-old-PID-* backup of such a run is removed when it is a spare
 *     link to a file still in place, and reported (kept) when it holds contents found
 *     nowhere else;
 *   - writes its outputs into a staging directory of its own, .gsfw-staging-PID-XXXXXX,
 *     and moves them into place together (gsfw_rename_group) with SIGINT and SIGTERM
 *     blocked, so that the move completes or rolls back as a unit;
 *   - on any failure or interruption removes the staging directory and the directories
 *     it created, leaving earlier outputs as they were. */
#ifndef GSFW_CLI_OUTDIR_H
#define GSFW_CLI_OUTDIR_H

#define CLI_OUTDIR_MAX_CREATED 64
#define CLI_OUTDIR_MAX_FILES 16

typedef struct {
    const char *cmd;
    char *path;                               /* the directory as given */
    char *created[CLI_OUTDIR_MAX_CREATED];    /* directories this run created, outermost first */
    int ncreated;
    int locked;                               /* lock_fd holds the lock */
    int lock_fd;
    char *staging;                            /* NULL until cli_outdir_open succeeded */
    int count;                                /* files registered by cli_outdir_files */
    char *final[CLI_OUTDIR_MAX_FILES];        /* DIR/name */
    char *staged[CLI_OUTDIR_MAX_FILES];       /* STAGING/name */
} cli_outdir;

/* Create (mkdir -p), check writable, lock, clean up dead runs' leftovers and make the
 * staging directory. On failure prints the cause and returns CLI_FAIL or CLI_USAGE;
 * cli_outdir_close must be called in every case. */
int cli_outdir_open(cli_outdir *o, const char *cmd, const char *path);
/* Register the output names (plain file names): fills o->final and o->staged. A
 * destination that is a symbolic link, a directory or a special file is refused (the
 * move would replace it by a regular file). */
int cli_outdir_files(cli_outdir *o, const char *const *names, int count);
/* Move the first `count` staged files into place as one group. Returns CLI_OK, CLI_FAIL
 * (message printed, nothing changed) or, when SIGINT/SIGTERM arrived before or during
 * the move, 128 + the signal (message printed: before, nothing changed; during, the move
 * was completed first). */
int cli_outdir_commit(cli_outdir *o, int count);
/* Remove the staging directory and, when failed, the directories the run created;
 * release the lock. Safe on a zeroed or partly opened struct. */
void cli_outdir_close(cli_outdir *o, int failed);

/* The directories of a command's separate output files (solve's --out, --trace, ...),
 * locked for the short moment of their group move: each directory once, in name order
 * (so that two runs cannot wait for each other), waiting up to timeout_s seconds for a
 * run that holds one. Paths that are NULL or written in place (/dev/stdout) are skipped.
 * Returns CLI_OK with the lock descriptors in fds[0..*nfds-1] (fds has room for count),
 * or CLI_FAIL with a message and nothing held. */
int cli_outdir_lock_paths(const char *cmd, const char *const *paths, int count, int *fds,
                          int *nfds, int timeout_s);
/* Release what cli_outdir_lock_paths took. */
void cli_outdir_unlock_paths(int *fds, int nfds);

#endif
