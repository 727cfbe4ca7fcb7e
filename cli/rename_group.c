/* Moving a group of finished output files into place, all or nothing (see atomic_group.h).
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
 * Once all are in place the backups are removed. An undo can fail as well; the error
 * then says what was left and where (group_failure). */
#if !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* S_ISVTX */
#endif
#include "atomic_group.h"

#include "core/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What an undo could not restore, per destination (named in the error). */
typedef enum {
    LEFT_NOTHING = 0,
    LEFT_NEW_AND_BACKUP, /* the destination holds the new file, its old one the backup */
    LEFT_NEW,            /* the destination, absent before, holds the new file */
    LEFT_BACKUP,         /* the destination is missing; its old file is the backup */
    LEFT_EXTRA_LINK      /* the destination is unchanged; the backup is a stray link */
} leftover;

typedef struct {
    char *name;     /* backup name, or NULL when the destination did not exist */
    int aside;      /* 1: the old file was renamed to name (it is no longer at to[k]) */
    leftover left;  /* set by a failed undo */
} backup;

/* Keep path under an unused name in its directory: a hard link, or failing that a
 * rename. Returns 0, or -1 with errno set. */
static int make_backup(const char *path, backup *b)
{
    size_t dir_len = (size_t)(gsfw_base_name(path) - path); /* with its '/' */
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

/* Undo destination path's part of the group. moved: the new file is at path already.
 * The old file comes back (its backup renamed over path) when it was replaced or moved
 * aside; otherwise an extra backup link is removed, or a new file that had no
 * predecessor. What cannot be undone is recorded in b->left. */
static void undo_one(const char *path, backup *b, int moved)
{
    if (!b->name) {
        if (moved && unlink(path) != 0 && errno != ENOENT) b->left = LEFT_NEW;
        return;
    }
    if (moved || b->aside) {
        if (rename(b->name, path) != 0) b->left = moved ? LEFT_NEW_AND_BACKUP : LEFT_BACKUP;
    } else if (unlink(b->name) != 0 && errno != ENOENT) {
        b->left = LEFT_EXTRA_LINK;
    }
}

/* Append the text of fmt to buf (cap bytes, *used so far) only if all of it fits within
 * cap - reserve bytes; returns 1 when it was appended. */
static int append_whole(char *buf, size_t cap, size_t *used, size_t reserve, const char *fmt,
                        ...) GSFW_PRINTF(5, 6);
static int append_whole(char *buf, size_t cap, size_t *used, size_t reserve, const char *fmt,
                        ...)
{
    if (*used + reserve >= cap) return 0;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, cap - reserve - *used, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= cap - reserve - *used) {
        buf[*used] = '\0';
        return 0;
    }
    *used += (size_t)w;
    return 1;
}

/* The error after a failed step 2 or 3: names the file that failed, then what the undo
 * could not restore, outputs left changed first and spare links after; when the message
 * cannot hold them all, it ends with how many are not listed. "No output was changed" is
 * said only when every destination is as it was. */
static gsfw_error group_failure(const char *const *to, const backup *bk, int count,
                                const char *what, const char *path, int e, gsfw_err *err)
{
    int changed = 0, spare = 0;
    for (int k = 0; k < count; k++) {
        changed += bk[k].left != LEFT_NOTHING && bk[k].left != LEFT_EXTRA_LINK;
        spare += bk[k].left == LEFT_EXTRA_LINK;
    }
    char msg[sizeof ((gsfw_err *)0)->message];
    const size_t cap = sizeof msg, tail = 40; /* room for "; and N more not listed)" */
    /* a path too long for the message fills it: nothing more is appended then */
    int w = snprintf(msg, cap, "%s '%s': %s", what, path, strerror(e));
    if (w < 0) msg[0] = '\0';
    size_t used = w < 0 ? 0 : (size_t)w >= cap ? cap - 1 : (size_t)w;
    int opened = append_whole(msg, cap, &used, tail, changed ? "; some outputs could not be "
                              "put back" : " (no output was changed");
    int listed = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < count; k++) {
            leftover l = bk[k].left;
            if (l == LEFT_NOTHING || (l == LEFT_EXTRA_LINK) != (pass == 1)) continue;
            const char *sep = listed ? "; " : changed ? ": " : "; ";
            /* a backup lies beside its destination: its base name says where */
            const char *b = bk[k].name ? gsfw_base_name(bk[k].name) : "";
            int ok = 0;
            if (l == LEFT_NEW_AND_BACKUP)
                ok = append_whole(msg, cap, &used, tail, "%s'%s' holds the new file; its old "
                                  "contents are in '%s' beside it", sep, to[k], b);
            else if (l == LEFT_NEW)
                ok = append_whole(msg, cap, &used, tail, "%s'%s' holds the new file (it was "
                                  "new and could not be removed)", sep, to[k]);
            else if (l == LEFT_BACKUP)
                ok = append_whole(msg, cap, &used, tail, "%s'%s' is missing; its old contents "
                                  "are in '%s' beside it", sep, to[k], b);
            else
                ok = append_whole(msg, cap, &used, tail, "%s'%s' beside '%s' is a spare link "
                                  "to it that could not be removed", sep, b, to[k]);
            listed += ok;
        }
    if (listed < changed + spare)
        append_whole(msg, cap, &used, 0, listed ? "; and %d more not listed" : ": %d not listed",
                     changed + spare - listed);
    if (opened && !changed) append_whole(msg, cap, &used, 0, ")");
    return gsfw_fail(err, GSFW_ERR_IO, "%s", msg);
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
            for (int j = k - 1; j >= 0; j--) undo_one(to[j], &bk[j], 0);
            gsfw_error rc = group_failure(to, bk, count, "cannot keep a backup of", to[k], e, err);
            free_backups(bk, count);
            return rc;
        }
    }
    /* 3. the new files into place */
    for (int k = 0; k < count; k++) {
        if (rename(from[k], to[k]) == 0) continue;
        int e = errno;
        for (int j = count - 1; j >= 0; j--) undo_one(to[j], &bk[j], j < k);
        gsfw_error rc = group_failure(to, bk, count, "cannot move the new file onto", to[k], e,
                                      err);
        free_backups(bk, count);
        return rc;
    }
    /* the old files go; a backup that cannot be removed stays, as a hidden file beside
     * its output (every output is in place, so this is not an error) */
    for (int k = 0; k < count; k++)
        if (bk[k].name) unlink(bk[k].name);
    free_backups(bk, count);
    return GSFW_OK;
}
