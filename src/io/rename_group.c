/* Moving a group of finished output files into place, all or nothing (see atomic.h).
 *
 * rename(2) replaces one file atomically, but a command that writes several outputs
 * (a solution and a trace, or the files of `gsfw recover`) must not leave some new and
 * some old when the third rename fails. So the move has three steps:
 *   1. check: no destination is a directory, and no two destinations are the same file;
 *   2. keep every existing destination under a backup name in its directory: a second
 *      hard link where the file system allows it (the destination never disappears),
 *      else by renaming it aside; if one cannot be kept, the others are released and
 *      nothing has changed;
 *   3. rename every new file into place; if one fails, the backups go back (and new
 *      destinations are removed), so again nothing has changed.
 * Once all are in place the backups are removed. */
#if !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* S_ISVTX */
#endif
#include "io/atomic.h"

#include "core/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    char *name;  /* backup name, or NULL when the destination did not exist */
    int aside;   /* 1: the old file was renamed to name (it is no longer at to[k]) */
} backup;

/* Keep path under an unused name in its directory: a hard link, or failing that a
 * rename. Returns 0, or -1 with errno set. */
static int make_backup(const char *path, backup *b)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    b->name = malloc(dir_len + 64);
    b->aside = 0;
    if (!b->name) return -1;
    memcpy(b->name, path, dir_len);
    for (int aside = 0; aside < 2; aside++) {
        for (unsigned attempt = 0; attempt < 1000; attempt++) {
            snprintf(b->name + dir_len, 64, ".gsfw-old-%ld-%u", (long)getpid(), attempt);
            if (access(b->name, F_OK) == 0) continue; /* taken (rename would replace it) */
            if ((aside ? rename(path, b->name) : link(path, b->name)) == 0) {
                b->aside = aside;
                return 0;
            }
            if (errno != EEXIST) break;
        }
    }
    int e = errno;
    free(b->name);
    b->name = NULL;
    errno = e;
    return -1;
}

/* Release a backup: with restore, rename it back over path (the old file returns);
 * otherwise remove the backup name. Returns 0, or -1 when the old file could not be put
 * back (it then stays under b->name). */
static int release_backup(const char *path, backup *b, int restore)
{
    if (!b->name) return 0;
    if (restore) {
        if (rename(b->name, path) != 0) return -1;
    } else {
        unlink(b->name);
    }
    free(b->name);
    b->name = NULL;
    return 0;
}

/* The error after a failed step 2 or 3: names the file that failed and any old file
 * that could not be put back. */
static gsfw_error group_failure(const char *const *to, const backup *bk, int count,
                                const char *what, const char *path, int e, gsfw_err *err)
{
    char kept[1024] = "";
    size_t used = 0;
    for (int k = 0; k < count && used < sizeof kept - 1; k++) {
        if (!bk[k].name) continue;
        int w = snprintf(kept + used, sizeof kept - used, "%s'%s' is kept as '%s'",
                         used ? "; " : "", to[k], bk[k].name);
        if (w > 0) used += (size_t)w;
    }
    if (used)
        return gsfw_fail(err, GSFW_ERR_IO, "%s '%s': %s; some old outputs could not be put "
                         "back: %s", what, path, strerror(e), kept);
    return gsfw_fail(err, GSFW_ERR_IO, "%s '%s': %s (no output was changed)", what, path,
                     strerror(e));
}

static void free_backups(backup *bk, int count)
{
    for (int k = 0; k < count; k++) {
        free(bk[k].name);
        bk[k].name = NULL;
    }
}

/* A file that another user owns in a sticky directory (such as /tmp) can be neither
 * replaced nor, once linked, have its backup removed by us: refuse it before step 2. */
static int sticky_foreign(const char *path)
{
    struct stat st, dst;
    if (geteuid() == 0 || lstat(path, &st) != 0 || st.st_uid == geteuid()) return 0;
    char *dir = gsfw_dir_of(path);
    int foreign = dir && stat(dir, &dst) == 0 && (dst.st_mode & S_ISVTX) &&
                  dst.st_uid != geteuid();
    free(dir);
    return foreign;
}

gsfw_error gsfw_rename_group(const char *const *from, const char *const *to, int count,
                             gsfw_err *err)
{
    if (count < 0 || count > GSFW_GROUP_MAX)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "rename group: %d files (at most %d)",
                         count, GSFW_GROUP_MAX);
    /* 1. what rename(2) would refuse for a reason known in advance */
    for (int k = 0; k < count; k++) {
        struct stat st;
        if (stat(to[k], &st) == 0 && S_ISDIR(st.st_mode))
            return gsfw_fail(err, GSFW_ERR_IO, "cannot write '%s': it is a directory", to[k]);
        for (int j = 0; j < k; j++)
            if (gsfw_same_output(to[j], to[k]))
                return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "'%s' and '%s' are the same "
                                 "file: two outputs cannot share it", to[j], to[k]);
        if (sticky_foreign(to[k]))
            return gsfw_fail(err, GSFW_ERR_IO, "cannot replace '%s': %s (it belongs to another "
                             "user in a sticky directory; no output was changed)", to[k],
                             strerror(EPERM));
    }
    /* 2. backups of the existing destinations */
    backup bk[GSFW_GROUP_MAX];
    memset(bk, 0, sizeof bk);
    for (int k = 0; k < count; k++) {
        struct stat st;
        if (lstat(to[k], &st) != 0) continue; /* a new file */
        if (make_backup(to[k], &bk[k]) != 0) {
            int e = errno;
            /* a file moved aside must come back; an extra link just goes */
            for (int j = k - 1; j >= 0; j--) release_backup(to[j], &bk[j], bk[j].aside);
            gsfw_error rc = group_failure(to, bk, count, "cannot keep a backup of", to[k], e, err);
            free_backups(bk, count);
            return rc;
        }
    }
    /* 3. the new files into place */
    for (int k = 0; k < count; k++) {
        if (rename(from[k], to[k]) == 0) continue;
        int e = errno;
        for (int j = count - 1; j >= 0; j--) {
            if (j < k && !bk[j].name)
                unlink(to[j]); /* new, and now unwanted */
            else /* replaced already, or moved aside in step 2: put the old file back */
                release_backup(to[j], &bk[j], j < k || bk[j].aside);
        }
        gsfw_error rc = group_failure(to, bk, count, "cannot move the new file onto", to[k], e,
                                      err);
        free_backups(bk, count);
        return rc;
    }
    for (int k = 0; k < count; k++) release_backup(to[k], &bk[k], 0); /* old files go */
    return GSFW_OK;
}
