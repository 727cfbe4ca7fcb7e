/* How the commands put their outputs in place (outputs.h). */
#if !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* flock, realpath */
#endif
#include "outputs.h"
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/internal.h"

/* ------------------------------------------------------------------ signals */

static volatile sig_atomic_t received;

static void on_signal(int sig)
{
    if (!received) received = sig;
}

void cli_interrupt_install(void)
{
    const int sigs[2] = {SIGINT, SIGTERM};
    for (int k = 0; k < 2; k++) {
        struct sigaction old, sa;
        if (sigaction(sigs[k], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART; /* reads and writes resume; the flag is polled */
        sigaction(sigs[k], &sa, NULL);
    }
}

int cli_interrupted(void)
{
    return received;
}

static void block_signals(int block)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

int cli_interrupted_exit(const char *cmd, const char *what)
{
    int sig = received ? received : SIGINT;
    fprintf(stderr, "%s %s: interrupted (%s); %s\n", cli_program(), cmd,
            sig == SIGTERM ? "SIGTERM" : "SIGINT", what);
    return 128 + sig;
}

int cli_interrupt_callback(const gsfw_iterate *it, const double *x, void *user)
{
    (void)it, (void)x, (void)user;
    return received != 0;
}

/* cli_commit_group with SIGINT and SIGTERM blocked, so that the move completes, or rolls
 * back, as a unit. */
static int move_blocked(const char *cmd, gsfw_atomic_file *files, int n)
{
    gsfw_err err;
    gsfw_error e = GSFW_OK;
    block_signals(1);
    if (!cli_interrupted()) /* else a signal came before the block */
        e = cli_commit_group(files, n, &err);
    else
        for (int k = 0; k < n; k++) gsfw_atomic_abort(&files[k]);
    int sig = cli_interrupted();
    block_signals(0); /* a signal that came during the move is recorded now */
    if (e) return cli_fail(cmd, "%s", err.message);
    if (cli_interrupted())
        return cli_interrupted_exit(cmd, sig ? "no output was changed"
                                             : "it came during the final move, which was "
                                               "completed: the outputs are the new ones");
    return CLI_OK;
}

/* ------------------------------------------------------------ runs and locks */

/* The pid of another live run writing into dir, or 0: its files are named
 * .gsfw-tmp-PID-... (temporary files) and .gsfw-old-PID-... (backups of the move). With
 * clean, what dead runs left goes: temporary files, and backups that are a second link
 * to their file; a backup that holds the only copy of an earlier output is kept, and
 * named. */
static long scan_runs(const char *cmd, const char *dir, int clean)
{
    DIR *dp = opendir(dir);
    struct dirent *de;
    long live = 0, dead = 0, pid;
    int removed = 0, end;
    char path[4096], kind[4];
    while (dp && (de = readdir(dp))) {
        struct stat st;
        end = 0;
        if (sscanf(de->d_name, ".gsfw-%3[a-z]-%ld-%n", kind, &pid, &end) < 2 || !end ||
            pid <= 0 || (strcmp(kind, "tmp") && strcmp(kind, "old")) || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno == EPERM) {
            live = pid;
            continue;
        }
        if (!clean || snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= (int)sizeof path ||
            lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (kind[0] == 'o' && st.st_nlink == 1) {
            cli_note(cmd, "'%s' holds the earlier contents of an output that a run (pid %ld) "
                     "was replacing when it was killed; it is kept: rename it back over that "
                     "output, or delete it", path, pid);
            continue;
        }
        unlink(path);
        removed++;
        dead = pid;
    }
    if (dp) closedir(dp);
    if (removed)
        cli_note(cmd, "removed %d unfinished file%s left in '%s' by a run that was killed "
                 "(pid %ld%s)", removed, removed == 1 ? "" : "s", dir, dead,
                 removed > 1 ? " and others" : "");
    return live;
}

/* An exclusive flock on directory dir, waiting up to wait_s seconds for another run:
 * the descriptor; -1 when the directory cannot be locked (errno set); -2 when another
 * run holds it (message printed). */
static int lock_dir(const char *cmd, const char *dir, int wait_s)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (int tries = 0; fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0; tries++) {
        int e = errno;
        if (e == EWOULDBLOCK && tries < wait_s * 20 && !cli_interrupted()) {
            struct timespec ts = {0, 50000000L};
            nanosleep(&ts, NULL);
            continue;
        }
        close(fd);
        if (e != EWOULDBLOCK) return errno = e, -1;
        char who[48] = "";
        long pid = scan_runs(cmd, dir, 0);
        if (pid) snprintf(who, sizeof who, " (pid %ld)", pid);
        if (wait_s)
            cli_fail(cmd, "another gsfw run%s is writing into '%s' (waited %d s); no output "
                     "was changed", who, dir, wait_s);
        else
            cli_fail(cmd, "--out-dir: another gsfw run%s is writing into '%s'; wait for it to "
                     "finish or choose another directory", who, dir);
        return -2;
    }
    return fd;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_commit_outputs(const char *cmd, gsfw_atomic_file *files, int count, int wait_s)
{
    char *dirs[CLI_GROUP_MAX];
    int fds[CLI_GROUP_MAX], nd = 0, rc = CLI_OK;
    /* each directory once, in name order, so that two runs cannot wait for each other */
    for (int k = 0; k < count && k < CLI_GROUP_MAX; k++) {
        if (!files[k].final_path || files[k].in_place) continue;
        char *dir = gsfw_dir_of(files[k].final_path), *real = dir ? realpath(dir, NULL) : NULL;
        free(dir);
        for (int j = 0; real && j < nd; j++)
            if (!strcmp(dirs[j], real)) free(real), real = NULL;
        if (real) dirs[nd++] = real;
    }
    qsort(dirs, (size_t)nd, sizeof dirs[0], cmp_str);
    for (int j = 0; j < nd; j++) {
        fds[j] = rc == CLI_OK ? lock_dir(cmd, dirs[j], wait_s) : -1;
        if (fds[j] == -2) rc = CLI_FAIL; /* -1: a file system without flock: no lock */
    }
    if (rc == CLI_OK)
        rc = move_blocked(cmd, files, count);
    else
        for (int k = 0; k < count; k++) gsfw_atomic_abort(&files[k]);
    for (int j = 0; j < nd; j++) {
        if (fds[j] >= 0) close(fds[j]);
        free(dirs[j]);
    }
    return rc;
}

/* ---------------------------------------------------------- output directory */

/* mkdir -p, remembering the directories it created. */
static int make_dirs(cli_outdir *o, const char *path)
{
    char buf[4096];
    size_t len = strlen(path);
    if (len == 0) return cli_usage_error(o->cmd, "--out-dir is empty");
    if (len >= sizeof buf) return cli_fail(o->cmd, "--out-dir: the name is too long");
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if ((buf[i] != '/' && buf[i] != '\0') || buf[i - 1] == '/') continue;
        struct stat st;
        buf[i] = '\0';
        if (stat(buf, &st) == 0 && !S_ISDIR(st.st_mode))
            return cli_fail(o->cmd, "--out-dir: '%s' exists and is not a directory", buf);
        if (mkdir(buf, 0777) == 0) {
            if (o->ncreated < 16) o->created[o->ncreated++] = strdup(buf);
        } else if (errno != EEXIST || stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
            return cli_fail(o->cmd, "--out-dir: cannot create '%s': %s", buf, strerror(errno));
        }
        buf[i] = i < len ? '/' : '\0';
    }
    if (access(path, W_OK | X_OK) != 0)
        return cli_fail(o->cmd, "--out-dir: '%s' is not writable: %s", path, strerror(errno));
    return CLI_OK;
}

int cli_outdir_open(cli_outdir *o, const char *cmd, const char *path,
                    const char *const *names, int count)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->lock_fd = -1;
    int rc = make_dirs(o, path);
    if (rc) return rc;
    /* the lock is on the directory itself: no lock file is left behind */
    if ((o->lock_fd = lock_dir(cmd, path, 0)) < 0)
        return o->lock_fd == -2 ? CLI_FAIL
                                : cli_fail(cmd, "--out-dir: cannot lock '%s': %s", path,
                                           strerror(errno));
    scan_runs(cmd, path, 1);
    gsfw_err err;
    for (int k = 0; k < count && k < CLI_GROUP_MAX; k++) {
        struct stat st;
        char final[4096];
        if (snprintf(final, sizeof final, "%s/%s", path, names[k]) >= (int)sizeof final)
            return cli_fail(cmd, "--out-dir: the name is too long");
        /* a rename would replace a link, a directory or a special file by a regular file */
        if (lstat(final, &st) == 0 && !S_ISREG(st.st_mode)) {
            rc = cli_fail(cmd, "--out-dir: '%s' is %s; %s writes regular files only (remove "
                          "it or choose another directory)", final,
                          S_ISLNK(st.st_mode)  ? "a symbolic link"
                          : S_ISDIR(st.st_mode) ? "a directory"
                                                : "a special file",
                          cmd);
        } else if (gsfw_atomic_open(&o->files[k], final, &err) ||
                   gsfw_atomic_finish(&o->files[k], &err)) {
            rc = cli_fail(cmd, "--out-dir: %s", err.message);
        }
        if (rc) return rc;
        o->count = k + 1;
    }
    return CLI_OK;
}

int cli_outdir_commit(cli_outdir *o)
{
    return move_blocked(o->cmd, o->files, o->count);
}

void cli_outdir_close(cli_outdir *o, int failed)
{
    for (int k = 0; k < o->count; k++) gsfw_atomic_abort(&o->files[k]); /* if not moved */
    for (int i = o->ncreated - 1; i >= 0; i--) {
        if (failed) rmdir(o->created[i]);
        free(o->created[i]);
    }
    if (o->lock_fd >= 0) close(o->lock_fd);
    memset(o, 0, sizeof *o);
    o->lock_fd = -1;
}
