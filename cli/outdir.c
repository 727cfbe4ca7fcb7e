/* Output directory of a multi-file command: creation, lock, leftovers of killed runs,
 * staging and the final move (outdir.h). */
#if !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* flock */
#endif
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "interrupt.h"
#include "atomic_group.h"

static const char STAGING_PREFIX[] = ".gsfw-staging-";
static const char OLD_PREFIX[] = ".gsfw-old-";
static const char TMP_PREFIX[] = ".gsfw-tmp-";

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (!p) return NULL;
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, name, b + 1);
    return p;
}

/* mkdir -p, remembering which directories were created. */
static int make_dirs(cli_outdir *o, const char *path)
{
    const char *cmd = o->cmd;
    size_t len = strlen(path);
    if (len == 0) return cli_usage_error(cmd, "--out-dir is empty");
    char *buf = malloc(len + 1);
    if (!buf) return cli_fail(cmd, "out of memory");
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        if (buf[i - 1] == '/') continue;
        char saved = buf[i];
        buf[i] = '\0';
        struct stat sb;
        if (stat(buf, &sb) == 0) {
            if (!S_ISDIR(sb.st_mode)) {
                int r = cli_fail(cmd, "--out-dir: '%s' exists and is not a directory", buf);
                free(buf);
                return r;
            }
        } else if (mkdir(buf, 0777) == 0) {
            if (o->ncreated < CLI_OUTDIR_MAX_CREATED) o->created[o->ncreated++] = strdup(buf);
        } else if (errno == EEXIST && stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            /* another run created it in the meantime: it is not ours to remove */
        } else {
            int r = cli_fail(cmd, "--out-dir: cannot create '%s': %s", buf, strerror(errno));
            free(buf);
            return r;
        }
        buf[i] = saved;
    }
    free(buf);
    if (access(path, W_OK | X_OK) != 0)
        return cli_fail(cmd, "--out-dir: '%s' is not writable: %s", path, strerror(errno));
    return CLI_OK;
}

/* The pid in NAME = PREFIX PID '-' ..., or 0 when the name has no such pid. */
static long owner_pid(const char *name, const char *prefix)
{
    size_t p = strlen(prefix);
    if (strncmp(name, prefix, p) != 0) return 0;
    char *end = NULL;
    long pid = strtol(name + p, &end, 10);
    return end != name + p && *end == '-' && pid > 0 ? pid : 0;
}

static int pid_alive(long pid)
{
    return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* The pid of a live run staging in dir (other than this one), or 0. */
static long live_owner(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    long found = 0;
    struct dirent *de;
    while (!found && (de = readdir(dp))) {
        long pid = owner_pid(de->d_name, STAGING_PREFIX);
        if (pid && pid != (long)getpid() && pid_alive(pid)) found = pid;
    }
    closedir(dp);
    return found;
}

/* Remove a staging directory and the files in it (it holds files only). */
static void remove_tree(const char *path)
{
    DIR *dp = opendir(path);
    if (dp) {
        struct dirent *de;
        while ((de = readdir(dp))) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
            char *p = join(path, de->d_name);
            if (p) unlink(p);
            free(p);
        }
        closedir(dp);
    }
    rmdir(path);
}

/* 1 when some visible file of dir is the same file as st (a hard link to it). */
static int linked_in_dir(const char *dir, const struct stat *st)
{
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    int found = 0;
    struct dirent *de;
    while (!found && (de = readdir(dp))) {
        if (!strncmp(de->d_name, ".gsfw-", 6)) continue;
        char *p = join(dir, de->d_name);
        struct stat s2;
        found = p && lstat(p, &s2) == 0 && s2.st_dev == st->st_dev && s2.st_ino == st->st_ino;
        free(p);
    }
    closedir(dp);
    return found;
}

/* Leftovers of runs that died without cleaning up: staging directories and temporary
 * files go (they hold only unfinished new outputs); a backup from an interrupted move
 * goes when it is a second link to a file still in place, and is reported otherwise. */
static void clean_leftovers(cli_outdir *o)
{
    DIR *dp = opendir(o->path);
    if (!dp) return;
    int removed = 0;
    long removed_pid = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        const char *name = de->d_name;
        const long staging = owner_pid(name, STAGING_PREFIX), tmp = owner_pid(name, TMP_PREFIX),
                   old = owner_pid(name, OLD_PREFIX);
        const long pid = staging ? staging : tmp ? tmp : old;
        if (!pid || pid == (long)getpid() || pid_alive(pid)) continue;
        char *p = join(o->path, name);
        struct stat st;
        int gone = 0;
        if (p && lstat(p, &st) == 0) {
            if (staging && S_ISDIR(st.st_mode)) {
                remove_tree(p);
                gone = 1;
            } else if (tmp && S_ISREG(st.st_mode)) {
                gone = unlink(p) == 0;
            } else if (old && S_ISREG(st.st_mode) && st.st_nlink > 1 &&
                       linked_in_dir(o->path, &st)) {
                gone = unlink(p) == 0; /* a spare link: the file is in place */
            } else if (old && S_ISREG(st.st_mode)) {
                fprintf(stderr, "gsfw %s: note: '%s' holds the earlier contents of an output "
                        "that a run (pid %ld) was replacing when it was killed; it is kept: "
                        "rename it back over that output, or delete it\n", o->cmd, p, pid);
            }
        }
        if (gone) {
            removed++;
            removed_pid = pid;
        }
        free(p);
    }
    closedir(dp);
    if (removed)
        fprintf(stderr, "gsfw %s: note: removed %d unfinished file%s left in '%s' by a run "
                "that was killed (pid %ld%s)\n", o->cmd, removed, removed == 1 ? "" : "s",
                o->path, removed_pid, removed > 1 ? " and others" : "");
}

int cli_outdir_open(cli_outdir *o, const char *cmd, const char *path)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    int rc = make_dirs(o, path);
    if (rc) return rc;
    o->path = strdup(path);
    if (!o->path) return cli_fail(cmd, "out of memory");
    /* the lock is on the directory itself: no lock file is left behind */
    o->lock_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (o->lock_fd < 0)
        return cli_fail(cmd, "--out-dir: cannot open '%s': %s", path, strerror(errno));
    if (flock(o->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(o->lock_fd);
        if (e != EWOULDBLOCK)
            return cli_fail(cmd, "--out-dir: cannot lock '%s': %s", path, strerror(e));
        long pid = live_owner(path);
        char who[48] = "";
        if (pid) snprintf(who, sizeof who, " (pid %ld)", pid);
        return cli_fail(cmd, "--out-dir: another gsfw run%s is writing into '%s'; wait for it "
                        "to finish or choose another directory", who, path);
    }
    o->locked = 1;
    clean_leftovers(o);
    char name[64];
    snprintf(name, sizeof name, "%s%ld-XXXXXX", STAGING_PREFIX, (long)getpid());
    char *stage = join(path, name);
    if (!stage) return cli_fail(cmd, "out of memory");
    if (!mkdtemp(stage)) {
        int e = errno;
        free(stage);
        return cli_fail(cmd, "--out-dir: cannot create a staging directory in '%s': %s", path,
                        strerror(e));
    }
    o->staging = stage;
    return CLI_OK;
}

int cli_outdir_files(cli_outdir *o, const char *const *names, int count)
{
    if (count > CLI_OUTDIR_MAX_FILES) return cli_fail(o->cmd, "too many output files");
    for (int k = 0; k < count; k++) {
        o->final[k] = join(o->path, names[k]);
        o->staged[k] = join(o->staging, names[k]);
        o->count = k + 1;
        if (!o->final[k] || !o->staged[k]) return cli_fail(o->cmd, "out of memory");
        /* the files are moved into place by rename, which would replace a symbolic link
         * or a special file by a regular file: refused before the work */
        struct stat lst;
        if (lstat(o->final[k], &lst) == 0 && !S_ISREG(lst.st_mode))
            return cli_fail(o->cmd, "--out-dir: '%s' is %s; %s writes regular files only "
                            "(remove it or choose another directory)", o->final[k],
                            S_ISLNK(lst.st_mode)  ? "a symbolic link"
                            : S_ISDIR(lst.st_mode) ? "a directory"
                                                   : "a special file",
                            o->cmd);
    }
    return CLI_OK;
}

int cli_outdir_commit(cli_outdir *o, int count)
{
    if (cli_interrupted()) return cli_interrupted_exit(o->cmd, "no output was changed");
    gsfw_err err;
    cli_interrupt_block(1);
    /* a signal that arrived before the block is seen here, not after a full move */
    if (cli_interrupted()) {
        cli_interrupt_block(0);
        return cli_interrupted_exit(o->cmd, "no output was changed");
    }
    gsfw_error e = gsfw_rename_group((const char *const *)o->staged,
                                     (const char *const *)o->final, count, &err);
    cli_interrupt_block(0); /* a signal that came during the move is recorded now */
    if (e) return cli_fail(o->cmd, "%s", err.message);
    if (cli_interrupted())
        return cli_interrupted_exit(o->cmd, "it came during the final move, which was "
                                    "completed: the outputs are the new ones");
    return CLI_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_outdir_lock_paths(const char *cmd, const char *const *paths, int count, int *fds,
                          int *nfds, int timeout_s)
{
    char *dirs[CLI_OUTDIR_MAX_FILES];
    int nd = 0, rc = CLI_OK;
    *nfds = 0;
    for (int k = 0; k < count && k < CLI_OUTDIR_MAX_FILES; k++) {
        if (!paths[k] || gsfw_atomic_in_place(paths[k])) continue;
        char *dir = gsfw_dir_of(paths[k]);
        char *real = dir ? realpath(dir, NULL) : NULL;
        free(dir);
        if (!real) continue; /* a directory that is not there: the write reports it */
        int seen = 0;
        for (int j = 0; j < nd; j++) seen |= !strcmp(dirs[j], real);
        if (seen)
            free(real);
        else
            dirs[nd++] = real;
    }
    qsort(dirs, (size_t)nd, sizeof dirs[0], cmp_str);
    for (int j = 0; j < nd && rc == CLI_OK; j++) {
        int fd = open(dirs[j], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) continue; /* unreadable: no lock, as before locks existed */
        int got = 0, e = 0;
        for (int tries = 0;; tries++) { /* every 50 ms */
            if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
                got = 1;
                break;
            }
            e = errno;
            if (e != EWOULDBLOCK || tries >= timeout_s * 20 || cli_interrupted()) break;
            struct timespec ts = {0, 50000000L};
            nanosleep(&ts, NULL);
        }
        if (got) {
            fds[(*nfds)++] = fd;
        } else {
            close(fd);
            if (e == EWOULDBLOCK) {
                long pid = live_owner(dirs[j]);
                char who[48] = "";
                if (pid) snprintf(who, sizeof who, " (pid %ld)", pid);
                rc = cli_fail(cmd, "another gsfw run%s is writing into '%s' (waited %d s); no "
                              "output was changed", who, dirs[j], timeout_s);
            }
            /* other errors (a file system without flock): no lock, as before */
        }
    }
    for (int j = 0; j < nd; j++) free(dirs[j]);
    if (rc != CLI_OK) {
        cli_outdir_unlock_paths(fds, *nfds);
        *nfds = 0;
    }
    return rc;
}

void cli_outdir_unlock_paths(int *fds, int nfds)
{
    for (int k = 0; k < nfds; k++) close(fds[k]);
}

void cli_outdir_close(cli_outdir *o, int failed)
{
    for (int k = 0; k < o->count; k++) {
        free(o->final[k]);
        free(o->staged[k]);
    }
    o->count = 0;
    if (o->staging) remove_tree(o->staging); /* whatever is left of it */
    free(o->staging);
    o->staging = NULL;
    if (failed)
        for (int i = o->ncreated - 1; i >= 0; i--)
            if (o->created[i]) rmdir(o->created[i]);
    for (int i = 0; i < o->ncreated; i++) free(o->created[i]);
    o->ncreated = 0;
    if (o->locked) close(o->lock_fd);
    o->locked = 0;
    free(o->path);
    o->path = NULL;
}
