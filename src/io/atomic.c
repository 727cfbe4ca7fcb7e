/* Crash-safe output files (atomic.h). The temporary file lives in the destination's own
 * directory, since rename(2) is atomic only within one file system; its name carries
 * the pid so that the command-line tools can tell a dead run's leftover from a live
 * run's file. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* realpath */
#endif
#include "io/atomic.h"

#include "core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char *dup_len(const char *s, size_t len)
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
    return slash ? dup_len(path, slash == path ? 1 : (size_t)(slash - path)) : dup_len(".", 1);
}

const char *gsfw_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Special files hold no contents to protect, and replacing them would be wrong; names
 * of open descriptors may lead to the file a shell redirected a stream to, which a
 * rename would detach from that stream. */
int gsfw_atomic_in_place(const char *path)
{
    if (!strncmp(path, "/dev/std", 8) || !strncmp(path, "/dev/fd/", 8) ||
        (!strncmp(path, "/proc/", 6) && strstr(path, "/fd/")))
        return 1;
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* An open descriptor is written through a duplicate, which shares its offset: reopening
 * /dev/stdout would truncate a redirected file. */
static FILE *open_in_place(const char *path)
{
    int fd = !strcmp(path, "/dev/stdout") ? 1 : !strcmp(path, "/dev/stderr") ? 2 : -1;
    if (!strncmp(path, "/dev/fd/", 8) && path[8] >= '0' && path[8] <= '9') {
        char *end;
        long n = strtol(path + 8, &end, 10);
        if (*end == '\0' && n <= 1024) fd = (int)n;
    }
    if (fd < 0) return fopen(path, "wb");
    fflush(fd == 1 ? stdout : fd == 2 ? stderr : NULL);
    int dup_fd = dup(fd);
    FILE *fp = dup_fd >= 0 ? fdopen(dup_fd, "wb") : NULL;
    if (dup_fd >= 0 && !fp) close(dup_fd);
    return fp;
}

/* A new file beside path, created the way fopen creates one (mode 0666, so that the
 * kernel applies the umask), under a name no other file has (O_EXCL). */
static int create_temporary(gsfw_atomic_file *f, const char *path)
{
    char *dir = gsfw_dir_of(path);
    size_t len = dir ? strlen(dir) + 48 : 0;
    f->tmp_path = dir ? malloc(len) : NULL;
    int fd = -1;
    errno = ENOMEM;
    for (unsigned k = 0; f->tmp_path && fd < 0 && k < 100; k++) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned tag = ((unsigned)ts.tv_nsec ^ (unsigned)(size_t)f ^ (k * 2654435761u)) & 0xffffff;
        snprintf(f->tmp_path, len, "%s/.gsfw-tmp-%ld-%06x", dir, (long)getpid(), tag);
        fd = open(f->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    free(dir);
    if (fd < 0) {
        free(f->tmp_path); /* nothing was created */
        f->tmp_path = NULL;
    }
    return fd;
}

gsfw_error gsfw_atomic_open(gsfw_atomic_file *f, const char *path, gsfw_err *err)
{
    if (!f) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "atomic file: NULL handle");
    memset(f, 0, sizeof *f);
    if (!path || !*path)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "atomic file: empty output path");
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return gsfw_fail(err, GSFW_ERR_IO, "cannot write '%s': it is a directory", path);
    const char *name = path;
    char *resolved = NULL;
    f->in_place = gsfw_atomic_in_place(path);
    if (!f->in_place && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        /* a symbolic link is written through, as fopen would: its target is replaced */
        if (!(resolved = realpath(path, NULL)))
            return gsfw_fail(err, GSFW_ERR_IO, "cannot write '%s': it is a symbolic link that "
                             "cannot be followed: %s", path, strerror(errno));
        name = resolved;
    }
    f->final_path = dup_len(name, strlen(name));
    free(resolved);
    if (!f->final_path) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory opening '%s'", path);
    int fd = -1;
    if (f->in_place) {
        f->fp = open_in_place(path);
    } else if ((fd = create_temporary(f, f->final_path)) >= 0) {
        /* a replaced file keeps its permissions */
        if (stat(f->final_path, &st) == 0 && S_ISREG(st.st_mode)) fchmod(fd, st.st_mode & 07777);
        if (!(f->fp = fdopen(fd, "wb"))) close(fd);
    }
    if (!f->fp) {
        int e = errno;
        char *dir = gsfw_dir_of(f->final_path);
        if (f->in_place || fd >= 0 || !dir)
            gsfw_fail(err, GSFW_ERR_IO, "cannot open '%s' for writing: %s", path, strerror(e));
        else
            gsfw_fail(err, GSFW_ERR_IO, "cannot create '%s' (temporary file in '%s'): %s", path,
                      dir, strerror(e));
        free(dir);
        gsfw_atomic_abort(f);
        return GSFW_ERR_IO;
    }
    return GSFW_OK;
}

gsfw_error gsfw_atomic_finish(gsfw_atomic_file *f, gsfw_err *err)
{
    if (!f || !f->fp) {
        gsfw_atomic_abort(f);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "atomic file: finish without open");
    }
    /* without fsync a crash soon after the rename could leave an empty file under the
     * final name; EINVAL / ENOTSUP: the file system cannot sync (a pipe, /dev/null) */
    const char *what = NULL;
    if (fflush(f->fp) != 0 || ferror(f->fp))
        what = "error writing";
    else if (fsync(fileno(f->fp)) != 0 && errno != EINVAL && errno != ENOTSUP)
        what = "error syncing";
    int e = errno;
    if (fclose(f->fp) != 0 && !what) { /* delayed write errors (network file systems) */
        what = "error closing";
        e = errno;
    }
    f->fp = NULL;
    if (!what) return GSFW_OK;
    gsfw_fail(err, GSFW_ERR_IO, "%s '%s': %s", what, f->final_path, strerror(e));
    gsfw_atomic_abort(f);
    return GSFW_ERR_IO;
}

gsfw_error gsfw_atomic_commit(gsfw_atomic_file *f, gsfw_err *err)
{
    gsfw_error rc = gsfw_atomic_finish(f, err);
    if (rc) return rc;
    if (!f->in_place && rename(f->tmp_path, f->final_path) != 0) {
        gsfw_fail(err, GSFW_ERR_IO, "cannot rename the temporary file onto '%s': %s",
                  f->final_path, strerror(errno));
        gsfw_atomic_abort(f);
        return GSFW_ERR_IO;
    }
    gsfw_atomic_forget(f);
    return GSFW_OK;
}

void gsfw_atomic_forget(gsfw_atomic_file *f)
{
    if (!f) return;
    free(f->tmp_path);
    free(f->final_path);
    f->tmp_path = f->final_path = NULL;
    f->in_place = 0;
}

void gsfw_atomic_abort(gsfw_atomic_file *f)
{
    if (!f) return;
    if (f->fp) fclose(f->fp);
    f->fp = NULL;
    if (f->tmp_path) unlink(f->tmp_path); /* never the destination (in place) */
    gsfw_atomic_forget(f);
}
