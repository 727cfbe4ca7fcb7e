/* Moving a group of output files into place, all or nothing (outputs.h). rename(2)
 * replaces one file atomically; for several, every existing destination is first kept
 * under a backup name, so that a failed rename can put the old files back. */
#if !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* realpath */
#endif
#include "outputs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"

int cli_same_file(const char *a, const char *b)
{
    char *ra = realpath(a, NULL), *rb = realpath(b, NULL); /* existing files */
    char *da = gsfw_dir_of(a), *db = gsfw_dir_of(b);       /* new ones: their directory */
    char *rda = da ? realpath(da, NULL) : NULL, *rdb = db ? realpath(db, NULL) : NULL;
    int same = !strcmp(a, b) || (ra && rb && !strcmp(ra, rb)) ||
               (!ra && !rb && rda && rdb && !strcmp(rda, rdb) &&
                !strcmp(gsfw_base_name(a), gsfw_base_name(b)));
    free(ra), free(rb), free(da), free(db), free(rda), free(rdb);
    return same;
}

/* Keep path under an unused name beside it: a second hard link, or, where the file
 * system has none, the file renamed aside (*aside = 1). 0 or an errno value. */
static int keep_backup(const char *path, char **name, int *aside)
{
    size_t dir_len = (size_t)(gsfw_base_name(path) - path);
    if (!(*name = malloc(dir_len + 40))) return ENOMEM;
    memcpy(*name, path, dir_len);
    for (*aside = 0; *aside < 2; ++*aside)
        for (unsigned n = 0; n < 1000; n++) {
            snprintf(*name + dir_len, 40, ".gsfw-old-%ld-%u", (long)getpid(), n);
            if (access(*name, F_OK) == 0) continue;
            if ((*aside ? rename(path, *name) : link(path, *name)) == 0) return 0;
            if (errno != EEXIST) break;
        }
    int e = errno;
    free(*name);
    *name = NULL;
    return e;
}

gsfw_error cli_move_group(const char *const *from, const char *const *to, int count,
                          gsfw_err *err)
{
    if (count > CLI_GROUP_MAX)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "more than %d outputs", CLI_GROUP_MAX);
    struct stat st;
    for (int k = 0; k < count; k++) {
        if (stat(to[k], &st) == 0 && S_ISDIR(st.st_mode))
            return gsfw_fail(err, GSFW_ERR_IO, "cannot write '%s': it is a directory", to[k]);
        for (int j = 0; j < k; j++)
            if (cli_same_file(to[j], to[k]))
                return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "'%s' and '%s' are the same file: "
                                 "two outputs cannot share it", to[j], to[k]);
    }
    /* backups of the existing destinations, then the renames; k: the step that failed */
    char *bak[CLI_GROUP_MAX] = {NULL};
    int aside[CLI_GROUP_MAX] = {0}, moved = 0, e = 0, k;
    const char *what = "cannot keep a backup of";
    for (k = 0; k < count; k++)
        if (lstat(to[k], &st) == 0 && (e = keep_backup(to[k], &bak[k], &aside[k]))) break;
    if (!e) {
        what = "cannot move the new file onto";
        for (k = 0; k < count; k++, moved++)
            if (rename(from[k], to[k]) != 0 && (e = errno)) break;
    }
    int lost = 0;
    for (int j = 0; j < count; j++) {
        if (!e) {
            if (bak[j]) unlink(bak[j]); /* all in place: the old files go */
        } else if (!bak[j]) {           /* new files go again, old ones come back */
            lost += j < moved && unlink(to[j]) != 0;
        } else if (j < moved || aside[j]) {
            lost += rename(bak[j], to[j]) != 0;
        } else {
            unlink(bak[j]);
        }
        free(bak[j]);
    }
    if (!e) return GSFW_OK;
    if (!lost)
        return gsfw_fail(err, GSFW_ERR_IO, "%s '%s': %s (no output was changed)", what,
                         to[k], strerror(e));
    return gsfw_fail(err, GSFW_ERR_IO, "%s '%s': %s; %d output%s could not be put back (the "
                     "earlier contents are in the .gsfw-old-* files beside them)", what,
                     to[k], strerror(e), lost, lost == 1 ? "" : "s");
}

gsfw_error cli_commit_group(gsfw_atomic_file *files, int count, gsfw_err *err)
{
    const char *from[CLI_GROUP_MAX] = {NULL}, *to[CLI_GROUP_MAX] = {NULL};
    int n = 0;
    gsfw_error rc = count > CLI_GROUP_MAX ? gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                                                      "more than %d outputs", CLI_GROUP_MAX)
                                          : GSFW_OK;
    for (int k = 0; k < count && !rc; k++) {
        if (!files[k].final_path) continue; /* not opened: not part of the group */
        if (files[k].fp) rc = gsfw_atomic_finish(&files[k], err); /* else closed already */
        if (!rc && !files[k].in_place) { /* written in place: nothing to move */
            from[n] = files[k].tmp_path;
            to[n++] = files[k].final_path;
        }
    }
    if (!rc) rc = cli_move_group(from, to, n, err);
    for (int k = 0; k < count; k++) {
        if (rc) gsfw_atomic_abort(&files[k]);
        else gsfw_atomic_forget(&files[k]);
    }
    return rc;
}
