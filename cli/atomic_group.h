/* Several output files committed as one, all or nothing: the commands that write more
 * than one output (a solution and a trace, the files of `gsfw recover`, an output
 * directory) must not leave some new and some old. Single files are committed by the
 * library's src/io/atomic.h, which this builds on. */
#ifndef GSFW_CLI_ATOMIC_GROUP_H
#define GSFW_CLI_ATOMIC_GROUP_H

#include "gsfw.h"
#include "io/atomic.h"

/* Most files one group may move. */
#define GSFW_GROUP_MAX 16
/* Commit several files as one: finish them all, then move them into place together
 * (gsfw_rename_group), so that on any failure every destination is left as it was and
 * every temporary file is removed. Entries that were never opened (zeroed) are skipped. */
gsfw_error gsfw_atomic_commit_group(gsfw_atomic_file *files, int count, gsfw_err *err);
/* Rename from[k] onto to[k] for every k, all or nothing (steps in rename_group.c):
 * destinations that are directories, two destinations naming one file, and another
 * user's file in a sticky directory are refused before anything moves; a destination
 * that existed is kept under a backup name (a hard link, or renamed aside) until the
 * whole group is in place, so that a failed rename puts back the old files and removes
 * the new ones. When an undo step fails too, the error names every destination left
 * changed and where its old contents are, then any spare backup link left behind, as
 * many as the message holds (it then says how many more); "no output was changed" is
 * said only when it is true. After a success, a backup that cannot be removed stays as a
 * hidden .gsfw-old-* file beside its output. After a failure, the from[] files that were
 * not moved are where they were; the moved ones were removed by the undo (or, where it
 * failed, are at their destination). tests/test_rename_faults.c injects every single and
 * double failure of the calls. */
gsfw_error gsfw_rename_group(const char *const *from, const char *const *to, int count,
                             gsfw_err *err);

#endif
