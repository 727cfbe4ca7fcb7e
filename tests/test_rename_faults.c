/* gsfw_rename_group under injected system-call failures: every single failure and every
 * pair of failures among its rename/link/unlink calls, with hard links available and
 * without (backups then renamed aside). Whatever fails, each destination either holds
 * its old state (old contents, or absent when it was new) or the error names it, and
 * every file left in the directory besides the destinations and the unmoved sources is
 * named in the error. A success leaves every new file in place.
 *
 * The failures come from this executable's own definitions of rename, link and unlink,
 * which the library (linked statically) calls instead of the C library's; they pass
 * through to the real functions until a trial arms them. */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gsfw.h"
#include "io/atomic.h"
#include "support/cli_runner.h"

/* ------------------------------------------------------------ fault injection */

static int armed;             /* count and fail calls only while a trial runs */
static int calls;             /* calls of the three functions so far in the trial */
static int fail_at[2];        /* 1-based call numbers that fail with EIO (0: none) */
static int links_unsupported; /* every link fails with EPERM, as on file systems
                               * without hard links */
static int failed_unlink;     /* an injected failure hit unlink */

/* Outcomes seen by a sweep, so that it can check it reached every kind of undo. */
static struct {
    int trials, failed, not_undone, spare_links;
} seen;

static int inject(int is_unlink)
{
    if (!armed) return 0;
    calls++;
    if (calls != fail_at[0] && calls != fail_at[1]) return 0;
    failed_unlink |= is_unlink;
    errno = EIO;
    return 1;
}

int rename(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "rename");
    return inject(0) ? -1 : real(from, to);
}

int link(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "link");
    if (armed && links_unsupported) {
        errno = EPERM;
        return -1;
    }
    return inject(0) ? -1 : real(from, to);
}

int unlink(const char *path)
{
    static int (*real)(const char *);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "unlink");
    return inject(1) ? -1 : real(path);
}

/* ------------------------------------------------------------------ trials */

#define NDEST 3
/* out0 and out2 exist before the move, out1 is new */
static const char *const old_text[NDEST] = {"old0", NULL, "old2"};
static const char *const new_text[NDEST] = {"new0", "new1", "new2"};

typedef struct {
    const char *dir;
    char from[NDEST][256], to[NDEST][256];
} trial_files;

/* Whole contents of path, or NULL when it cannot be read (absent). Freed by caller. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = calloc(1, 256);
    if (b) fread(b, 1, 255, f);
    fclose(f);
    return b;
}

static int holds(const char *path, const char *want)
{
    char *got = slurp(path);
    int same = want ? got && !strcmp(got, want) : got == NULL;
    free(got);
    return same;
}

static void prepare(trial_files *t)
{
    DIR *d = opendir(t->dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            assert_int_equal(unlink(path_in(t->dir, e->d_name)), 0);
    closedir(d);
    for (int k = 0; k < NDEST; k++) {
        assert_int_equal(write_text(t->from[k], new_text[k]), 0);
        if (old_text[k]) assert_int_equal(write_text(t->to[k], old_text[k]), 0);
    }
}

/* 1 when name is one of the group's own files that may be present after the trial. */
static int expected_entry(const trial_files *t, const char *name)
{
    for (int k = 0; k < NDEST; k++)
        if (!strcmp(name, strrchr(t->from[k], '/') + 1) ||
            !strcmp(name, strrchr(t->to[k], '/') + 1))
            return 1;
    return 0;
}

/* Run the group with the current injection settings and check the outcome. Returns the
 * number of calls the trial made. */
static int run_trial(trial_files *t, int first, int second)
{
    prepare(t);
    const char *from[NDEST], *to[NDEST];
    for (int k = 0; k < NDEST; k++) {
        from[k] = t->from[k];
        to[k] = t->to[k];
    }
    gsfw_err err;
    memset(&err, 0, sizeof err);
    fail_at[0] = first;
    fail_at[1] = second;
    calls = failed_unlink = 0;
    armed = 1;
    gsfw_error rc = gsfw_rename_group(from, to, NDEST, &err);
    armed = 0;
    const char *msg = err.message;
    seen.trials++;
    seen.failed += rc != GSFW_OK;
    seen.not_undone += rc != GSFW_OK && strstr(msg, "could not all be put back") != NULL;
    seen.spare_links += rc != GSFW_OK && strstr(msg, "spare link") != NULL;

    char where[96];
    snprintf(where, sizeof where, "failures at calls %d and %d (links %s)", first, second,
             links_unsupported ? "unsupported" : "available");
    int problems = 0;
    if (rc == GSFW_OK) {
        for (int k = 0; k < NDEST; k++)
            if (!holds(t->to[k], new_text[k])) {
                fprintf(stderr, "%s: success but %s is not new\n", where, t->to[k]);
                problems++;
            }
    } else {
        int changed = 0;
        for (int k = 0; k < NDEST; k++) {
            if (holds(t->to[k], old_text[k])) continue;
            changed++;
            if (!strstr(msg, t->to[k])) {
                fprintf(stderr, "%s: %s changed but the error does not name it: %s\n", where,
                        t->to[k], msg);
                problems++;
            }
        }
        if (!changed != !!strstr(msg, "no output was changed")) {
            fprintf(stderr, "%s: %d outputs changed, but the error says: %s\n", where,
                    changed, msg);
            problems++;
        }
    }
    /* every other file left in the directory is named in the error; after a success
     * only a backup whose removal was made to fail may remain (there is no error to
     * name it in) */
    DIR *d = opendir(t->dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            expected_entry(t, e->d_name))
            continue;
        int ok = rc == GSFW_OK ? failed_unlink && !strncmp(e->d_name, ".gsfw-old-", 10)
                               : strstr(msg, e->d_name) != NULL;
        if (!ok) {
            fprintf(stderr, "%s: '%s' left behind (rc %d): %s\n", where, e->d_name, (int)rc,
                    msg);
            problems++;
        }
    }
    closedir(d);
    assert_int_equal(problems, 0);
    return calls;
}

static void sweep(trial_files *t)
{
    memset(&seen, 0, sizeof seen);
    int clean = run_trial(t, 0, 0);
    assert_true(clean >= NDEST);
    /* undoing after a failure makes further calls, so pairs reach past the clean run */
    int reach = 3 * clean;
    for (int i = 1; i <= reach; i++) {
        run_trial(t, i, 0);
        for (int j = i + 1; j <= reach; j++) run_trial(t, i, j);
    }
    /* the sweep made groups fail, and made undos fail */
    assert_true(seen.failed > seen.trials / 4);
    assert_true(seen.not_undone > 0);
}

static void test_faults_with_links(void **state)
{
    links_unsupported = 0;
    sweep(*state);
    assert_true(seen.spare_links > 0);
}

static void test_faults_without_links(void **state)
{
    links_unsupported = 1;
    sweep(*state);
    assert_int_equal(seen.spare_links, 0); /* no links were made */
    links_unsupported = 0;
}

/* The sweep is only meaningful if the injection reaches the library's calls: a failed
 * first call must make the group fail when there is no hard link to fall back from. */
static void test_injection_reaches_library(void **state)
{
    trial_files *t = *state;
    prepare(t);
    const char *from[NDEST], *to[NDEST];
    for (int k = 0; k < NDEST; k++) {
        from[k] = t->from[k];
        to[k] = t->to[k];
    }
    gsfw_err err;
    fail_at[0] = 1; /* without hard links: renaming out0 aside */
    fail_at[1] = 0;
    calls = 0;
    links_unsupported = armed = 1;
    gsfw_error rc = gsfw_rename_group(from, to, NDEST, &err);
    links_unsupported = armed = 0;
    assert_int_equal(rc, GSFW_ERR_IO);
    assert_non_null(strstr(err.message, strerror(EIO)));
    assert_true(holds(t->to[0], "old0"));
}

static int setup(void **state)
{
    trial_files *t = calloc(1, sizeof *t);
    if (!t || !(t->dir = tmpdir_create())) return -1;
    for (int k = 0; k < NDEST; k++) {
        char name[16];
        snprintf(name, sizeof name, "new%d", k);
        snprintf(t->from[k], sizeof t->from[k], "%s", path_in(t->dir, name));
        snprintf(name, sizeof name, "out%d", k);
        snprintf(t->to[k], sizeof t->to[k], "%s", path_in(t->dir, name));
    }
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    trial_files *t = *state;
    tmpdir_remove(t->dir);
    free(t);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_injection_reaches_library, setup, teardown),
        cmocka_unit_test_setup_teardown(test_faults_with_links, setup, teardown),
        cmocka_unit_test_setup_teardown(test_faults_without_links, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
