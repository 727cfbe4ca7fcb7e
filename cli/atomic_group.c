/* Several output files committed as one (see atomic_group.h): each is finished as a
 * single atomic file (src/io/atomic.c), then all move together (rename_group.c). */
#include "atomic_group.h"

#include "core/internal.h"

#include <stddef.h>

gsfw_error gsfw_atomic_commit_group(gsfw_atomic_file *files, int count, gsfw_err *err)
{
    gsfw_error rc = GSFW_OK;
    const char *from[GSFW_GROUP_MAX] = {NULL}, *to[GSFW_GROUP_MAX] = {NULL};
    int n = 0;
    if (count > GSFW_GROUP_MAX)
        rc = gsfw_fail(err, GSFW_ERR_INVALID_ARG, "atomic file: more than %d files in a group",
                       GSFW_GROUP_MAX);
    for (int k = 0; k < count && !rc; k++) {
        if (!files[k].final_path) continue; /* not opened: not part of the group */
        rc = gsfw_atomic_finish(&files[k], err);
        if (rc) break;
        if (files[k].in_place) continue; /* written already: nothing to move */
        from[n] = files[k].tmp_path;
        to[n++] = files[k].final_path;
    }
    if (!rc) rc = gsfw_rename_group(from, to, n, err);
    for (int k = 0; k < count && !rc; k++)
        if (files[k].final_path) gsfw_atomic_forget(&files[k]); /* moved, or written in place */
    /* after a failure the group put every destination back; remove what is left */
    if (rc)
        for (int k = 0; k < count; k++) gsfw_atomic_abort(&files[k]);
    return rc;
}
