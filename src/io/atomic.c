/* Crash-safe output files (see atomic.h).
 *
 * The data goes to a temporary file created with mkstemp in the destination's own
 * directory (rename(2) is only atomic within one file system), and is renamed over the
 * destination once everything has been written, flushed and synced. Readers therefore
 * see either the old file or the complete new one, never a partial write. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* realpath */
#endif
#include "io/atomic.h"

#include "core/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Name pattern of temporary files inside the destination directory. It does not include
 * the destination's base name so that a long (but valid) name cannot push the temporary
 * name over NAME_MAX; the leading dot keeps leftovers of a killed process out of `ls`. */
/* with the pid, so that a later run can tell a dead process's leftover from a live one's
 * file (cli/outdir.c removes the former) */
#define TMP_PATTERN ".gsfw-tmp-%ld-XXXXXX"
#define TMP_NAME_MAX 48

/* Permissions a file created by fopen(path, "w") would get: 0666 minus the umask.
 * mkstemp always creates 0600, which would make results unreadable to group/others.
 * The umask cannot be queried without setting it (a process-wide, racy change), so it
 * is read from /proc/self/status (Linux >= 4.7); elsewhere the common default 022 is
 * assumed. */
static mode_t default_file_mode(void)
{
    mode_t mask = 022;
    FILE *fp = fopen("/proc/self/status", "r");
    if (fp) {
        char *line = NULL;
        size_t cap = 0;
        while (getline(&line, &cap, fp) >= 0) {
            unsigned int m;
            if (sscanf(line, "Umask: %o", &m) == 1) {
                mask = (mode_t)(m & 0777);
                break;
            }
        }
        free(line);
        fclose(fp);
    }
    return (mode_t)(0666 & ~mask);
}

/* Duplicate the first len bytes of s as a C string (NULL when out of memory). */
static char *dup_prefix(const char *s, size_t len)
{
    char *r = malloc(len + 1);
    if (r) {
        memcpy(r, s, len);
        r[len] = '\0';
    }
    return r;
}

char *gsfw_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? dup_prefix(path, slash == path ? 1 : (size_t)(slash - path))
                 : dup_prefix(".", 1);
}

const char *gsfw_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static gsfw_error open_temporary(gsfw_atomic_file *f, const char *path, gsfw_err *err);

/* Special files (/dev/null, a FIFO, a terminal) are written in place: replacing them by
 * a regular file would be wrong, and they hold no old contents to protect. So are the
 * names of open descriptors (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/.../fd/N): they
 * may lead to the file the shell redirected a stream to, which a rename would detach
 * from the shell's descriptor. Regular files elsewhere under /dev (/dev/shm) are not
 * special. */
int gsfw_atomic_in_place(const char *path)
{
    if (!strncmp(path, "/dev/std", 8) || !strncmp(path, "/dev/fd/", 8) ||
        (!strncmp(path, "/proc/", 6) && strstr(path, "/fd/")))
        return 1;
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* The descriptor a name stands for (/dev/stdout 1, /dev/stderr 2, /dev/fd/N N), or -1. */
static int named_descriptor(const char *path)
{
    if (!strcmp(path, "/dev/stdout")) return 1;
    if (!strcmp(path, "/dev/stderr")) return 2;
    if (!strncmp(path, "/dev/fd/", 8) && path[8] >= '0' && path[8] <= '9') {
        char *end;
        long fd = strtol(path + 8, &end, 10);
        if (*end == '\0' && fd <= 1024) return (int)fd;
    }
    return -1;
}

static gsfw_error open_in_place(gsfw_atomic_file *f, const char *path, gsfw_err *err)
{
    f->final_path = dup_prefix(path, strlen(path));
    if (!f->final_path) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory opening '%s'", path);
    /* An open descriptor is written through a duplicate, which shares its file offset:
     * reopening /dev/stdout would truncate a redirected file and write over what the
     * process prints to stdout. */
    int named = named_descriptor(path);
    if (named >= 0) {
        if (named == 1) fflush(stdout);
        if (named == 2) fflush(stderr);
        int fd = dup(named);
        f->fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
        if (fd >= 0 && !f->fp) close(fd);
    } else {
        f->fp = fopen(path, "wb");
    }
    if (!f->fp) {
        int e = errno;
        gsfw_atomic_abort(f);
        return gsfw_fail(err, GSFW_ERR_IO, "cannot open '%s' for writing: %s", path, strerror(e));
    }
    f->in_place = 1;
    return GSFW_OK;
}

char *gsfw_canonical_path(const char *path)
{
    char *full = realpath(path, NULL); /* an existing file, links resolved */
    if (full) return full;
    /* a new name: its directory resolved, plus the last component */
    const char *base = gsfw_base_name(path);
    char *dir = gsfw_dir_of(path);
    char *rdir = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    if (!rdir) return dup_prefix(path, strlen(path));
    size_t a = strlen(rdir), b = strlen(base);
    char *out = malloc(a + b + 2);
    if (out) {
        memcpy(out, rdir, a);
        out[a] = '/';
        memcpy(out + a + 1, base, b + 1);
    }
    free(rdir);
    return out;
}

int gsfw_same_output(const char *a, const char *b)
{
    if (!strcmp(a, b)) return 1;
    char *ca = gsfw_canonical_path(a), *cb = gsfw_canonical_path(b);
    int same = ca && cb && !strcmp(ca, cb);
    free(ca);
    free(cb);
    return same;
}

gsfw_error gsfw_atomic_open(gsfw_atomic_file *f, const char *path, gsfw_err *err)
{
    if (!f) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "atomic file: NULL handle");
    f->fp = NULL;
    f->tmp_path = NULL;
    f->final_path = NULL;
    f->in_place = 0;
    if (!path || !*path)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "atomic file: empty output path");
    if (gsfw_atomic_in_place(path)) return open_in_place(f, path, err);
    struct stat st, lst;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return gsfw_fail(err, GSFW_ERR_IO, "cannot write '%s': it is a directory", path);
    /* A symbolic link is written through, as fopen would: the new file replaces the
     * link's target (renamed over it in the target's directory) and the link stays. */
    char *resolved = NULL;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        resolved = realpath(path, NULL);
        if (!resolved)
            return gsfw_fail(err, GSFW_ERR_IO, "cannot write '%s': it is a symbolic link that "
                             "cannot be followed: %s", path, strerror(errno));
        path = resolved;
    }
    gsfw_error rc = open_temporary(f, path, err);
    free(resolved);
    return rc;
}

/* The temporary file next to path (a regular file or a new name). */
static gsfw_error open_temporary(gsfw_atomic_file *f, const char *path, gsfw_err *err)
{
    char *dir = gsfw_dir_of(path);
    size_t dir_len = dir ? strlen(dir) : 0;
    f->final_path = dup_prefix(path, strlen(path));
    f->tmp_path = dir ? malloc(dir_len + 1 + TMP_NAME_MAX) : NULL;
    if (!dir || !f->final_path || !f->tmp_path) {
        free(dir);
        gsfw_atomic_abort(f);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory opening '%s'", path);
    }
    memcpy(f->tmp_path, dir, dir_len);
    f->tmp_path[dir_len] = '/';
    snprintf(f->tmp_path + dir_len + 1, TMP_NAME_MAX, TMP_PATTERN, (long)getpid());

    int fd = mkstemp(f->tmp_path);
    if (fd < 0) {
        int e = errno;
        gsfw_fail(err, GSFW_ERR_IO, "cannot create '%s' (temporary file in '%s'): %s", path,
                  dir, strerror(e));
        free(dir);
        free(f->tmp_path); /* nothing was created: do not unlink */
        f->tmp_path = NULL;
        gsfw_atomic_abort(f);
        return GSFW_ERR_IO;
    }
    free(dir);

    /* Keep the permissions of a file being replaced, else the umask default. */
    struct stat st;
    mode_t mode = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (st.st_mode & 07777)
                                                              : default_file_mode();
    if (fchmod(fd, mode) != 0) {
        int e = errno;
        close(fd);
        gsfw_atomic_abort(f);
        return gsfw_fail(err, GSFW_ERR_IO, "cannot set the permissions of '%s': %s", path,
                         strerror(e));
    }

    f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        int e = errno;
        close(fd);
        gsfw_atomic_abort(f);
        return gsfw_fail(err, GSFW_ERR_IO, "cannot open '%s' for writing: %s", path,
                         strerror(e));
    }
    return GSFW_OK;
}

gsfw_error gsfw_atomic_finish(gsfw_atomic_file *f, gsfw_err *err)
{
    if (!f || !f->fp || !f->final_path || (!f->tmp_path && !f->in_place)) {
        gsfw_atomic_abort(f);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "atomic file: finish without open");
    }
    const char *what = NULL;
    int e = 0;

    /* Flush stdio buffers, then the kernel's: without fsync a crash shortly after the
     * rename could leave an empty or partial file under the final name on some file
     * systems. EINVAL/ENOTSUP mean the file system does not support syncing. */
    if (fflush(f->fp) != 0 || ferror(f->fp)) {
        e = errno;
        what = "error writing";
    } else if (fsync(fileno(f->fp)) != 0 && errno != EINVAL && errno != ENOTSUP) {
        e = errno;
        what = "error syncing";
    }
    /* fclose also reports delayed write errors (e.g. on network file systems). */
    int close_rc = fclose(f->fp);
    f->fp = NULL;
    if (!what && close_rc != 0) {
        e = errno;
        what = "error closing";
    }
    if (what) {
        gsfw_fail(err, GSFW_ERR_IO, "%s '%s': %s", what, f->final_path, strerror(e));
        gsfw_atomic_abort(f); /* removes the temporary file */
        return GSFW_ERR_IO;
    }
    return GSFW_OK;
}

/* Drop both names; after a commit the temporary name no longer exists, so forgetting it
 * keeps abort from unlinking it. */
static void forget_names(gsfw_atomic_file *f)
{
    free(f->tmp_path);
    f->tmp_path = NULL;
    free(f->final_path);
    f->final_path = NULL;
    f->in_place = 0;
}

gsfw_error gsfw_atomic_commit(gsfw_atomic_file *f, gsfw_err *err)
{
    gsfw_error rc = gsfw_atomic_finish(f, err);
    if (rc) return rc;
    if (!f->in_place && rename(f->tmp_path, f->final_path) != 0) {
        int e = errno;
        gsfw_fail(err, GSFW_ERR_IO, "cannot rename the temporary file onto '%s': %s",
                  f->final_path, strerror(e));
        gsfw_atomic_abort(f);
        return GSFW_ERR_IO;
    }
    forget_names(f);
    return GSFW_OK;
}

void gsfw_atomic_forget(gsfw_atomic_file *f)
{
    if (f) forget_names(f);
}

void gsfw_atomic_abort(gsfw_atomic_file *f)
{
    if (!f) return;
    if (f->fp) fclose(f->fp);
    f->fp = NULL;
    if (f->tmp_path) unlink(f->tmp_path); /* never the destination itself (in place) */
    forget_names(f);
}
