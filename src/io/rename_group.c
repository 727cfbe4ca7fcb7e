/* Moving a group of finished output files into place, all or nothing (see atomic.h).
 *
 * rename(2) replaces one file atomically, but a command that writes several outputs
 * (a solution and a trace, or the five files of `gsfw recover`) must not leave some new
 * and some old when the third rename fails. Every destination is therefore checked
 * first, and an existing destination is hard-linked to a backup name before it is
 * replaced, so that a failure can undo the renames already made. */
#include "io/atomic.h"

#include "core/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A new hard link to path under an unused name in path's directory, or NULL (no hard
 * links on this file system, or out of memory). */
static char *backup_link(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    char *name = malloc(dir_len + 64);
    if (!name) return NULL;
    memcpy(name, path, dir_len);
    for (unsigned attempt = 0; attempt < 1000; attempt++) {
        snprintf(name + dir_len, 64, ".gsfw-old-%ld-%u", (long)getpid(), attempt);
        if (link(path, name) == 0) return name;
        if (errno != EEXIST) break;
    }
    free(name);
    return NULL;
}

gsfw_error gsfw_rename_group(const char *const *from, const char *const *to, int count,
                             gsfw_err *err)
{
    if (count < 0 || count > GSFW_GROUP_MAX)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "rename group: %d files (at most %d)",
                         count, GSFW_GROUP_MAX);
    /* Refuse what rename(2) would refuse for a reason known in advance, before anything
     * moves: a directory (or a symbolic link to one) where a file should go. */
    for (int k = 0; k < count; k++) {
        struct stat st;
        if (stat(to[k], &st) == 0 && S_ISDIR(st.st_mode))
            return gsfw_fail(err, GSFW_ERR_IO, "cannot write '%s': it is a directory", to[k]);
    }
    char *backup[GSFW_GROUP_MAX] = {NULL};
    int existed[GSFW_GROUP_MAX] = {0};
    int moved = 0, failed_errno = 0;
    for (; moved < count; moved++) {
        struct stat st;
        existed[moved] = lstat(to[moved], &st) == 0;
        if (existed[moved]) backup[moved] = backup_link(to[moved]);
        if (rename(from[moved], to[moved]) != 0) {
            failed_errno = errno;
            break;
        }
    }
    if (moved == count) {
        for (int k = 0; k < count; k++) {
            if (backup[k]) unlink(backup[k]);
            free(backup[k]);
        }
        return GSFW_OK;
    }
    /* The failed destination is unchanged: its backup link is just a second name. */
    if (backup[moved]) unlink(backup[moved]);
    free(backup[moved]);
    /* Undo in reverse order: old files back, new ones out. */
    int lost = -1, kept = -1;
    for (int j = moved - 1; j >= 0; j--) {
        if (backup[j]) {
            if (rename(backup[j], to[j]) != 0) kept = j; /* the old file stays under backup[j] */
        } else if (!existed[j]) {
            unlink(to[j]);
        } else {
            lost = j; /* replaced, and no backup to restore it from */
        }
    }
    char kept_name[512] = "";
    if (kept >= 0) snprintf(kept_name, sizeof kept_name, "%s", backup[kept]);
    for (int j = 0; j < moved; j++) free(backup[j]);
    if (kept >= 0)
        return gsfw_fail(err, GSFW_ERR_IO,
                         "cannot move the new '%s' into place: %s; the old '%s' could not be "
                         "put back and is kept as '%s'",
                         to[moved], strerror(failed_errno), to[kept], kept_name);
    if (lost >= 0)
        return gsfw_fail(err, GSFW_ERR_IO,
                         "cannot move the new '%s' into place: %s; '%s' was already replaced "
                         "and could not be restored (no hard links on this file system)",
                         to[moved], strerror(failed_errno), to[lost]);
    return gsfw_fail(err, GSFW_ERR_IO,
                     "cannot move the new '%s' into place: %s (no output was changed)",
                     to[moved], strerror(failed_errno));
}
