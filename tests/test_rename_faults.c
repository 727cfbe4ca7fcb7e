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
#include "atomic_group.h"
#include "support/cli_runner.h"

/* ------------------------------------------------------------ fault injection */

static int armed;             /* count and fail calls only while a trial runs */
static int calls;             /* calls of the three functions so far in the trial */
static int fail_at[2];        /* 1-based call numbers that fail with EIO (0: none) */
static int links_unsupported; /* every link fails with EPERM, as on file systems
                               * without hard links */
static int failed_unlink;     /* an injected failure hit unlink */


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
#define PATH_CAP 1024
/* out0 and out2 exist before the move, out1 is new */
static const char *const old_text[NDEST] = {"old0", NULL, "old2"};
static const char *const new_text[NDEST] = {"new0", "new1", "new2"};

typedef struct {
    char dir[PATH_CAP];
    char from[NDEST][PATH_CAP], to[NDEST][PATH_CAP];
} trial_files;

/* Outcomes seen by a sweep, so that it can check it reached every kind of undo. */
enum { NEW_AND_BACKUP, NEW_LEFT, MISSING, SPARE_LINK, UNLISTED, KINDS };
static const char *const kind_phrase[KINDS] = {
    "holds the new file; its old contents are in",
    "holds the new file (it was new and could not be removed)",
    "is missing; its old contents are in", "is a spare link to it", "not listed"};
static struct {
    int trials, failed, kind[KINDS];
} seen;

static void join(char *out, const char *dir, const char *name)
{
    int w = snprintf(out, PATH_CAP, "%s/%s", dir, name);
    assert_true(w > 0 && w < PATH_CAP);
}

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
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[PATH_CAP];
        join(p, t->dir, e->d_name);
        assert_int_equal(unlink(p), 0);
    }
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

/* The message's account of destination k, "'to[k]' <phrase>", or NULL. */
static const char *account_of(const char *msg, const char *to, const char *phrase)
{
    char key[PATH_CAP + 64];
    snprintf(key, sizeof key, "'%s' %s", to, phrase);
    const char *at = strstr(msg, key);
    return at ? at + strlen(key) : NULL;
}

/* After an account that names a backup (" '<name>' beside it"), 1 when that file in
 * dir holds want. */
static int backup_holds(const char *dir, const char *after, const char *want)
{
    char name[256];
    if (sscanf(after, " '%255[^']' beside it", name) != 1) return 0;
    char p[PATH_CAP];
    join(p, dir, name);
    return holds(p, want);
}

/* Check one failed trial's message against the directory: every destination not in its
 * old state is accounted for with the phrase of its actual state (and the backup it
 * names holds its old contents), every stray file is named, and whatever is not listed
 * is counted in "and N more not listed". Returns the number of problems. */
static int check_failure(const trial_files *t, const char *msg, const char *where)
{
    int problems = 0, unlisted = 0, changed = 0, unlisted_dest[NDEST] = {0};
    for (int k = 0; k < NDEST; k++) {
        if (holds(t->to[k], old_text[k])) continue;
        changed++;
        /* existed and is absent now, holds the new file over an old one, or a new one */
        int kind = !holds(t->to[k], new_text[k]) ? MISSING
                   : old_text[k]                 ? NEW_AND_BACKUP
                                                 : NEW_LEFT;
        const char *after = account_of(msg, t->to[k], kind_phrase[kind]);
        if (!after) {
            unlisted++;
            unlisted_dest[k] = 1;
            continue;
        }
        seen.kind[kind]++;
        if (kind != NEW_LEFT && !backup_holds(t->dir, after, old_text[k])) {
            fprintf(stderr, "%s: the backup named for %s does not hold its old contents: %s\n",
                    where, t->to[k], msg);
            problems++;
        }
    }
    if (changed != 0 && !strstr(msg, "some outputs could not be put back")) {
        fprintf(stderr, "%s: %d outputs changed, but the error says: %s\n", where, changed, msg);
        problems++;
    }
    if (changed == 0 && !strstr(msg, "(no output was changed")) {
        fprintf(stderr, "%s: no output changed, but the error says: %s\n", where, msg);
        problems++;
    }
    DIR *d = opendir(t->dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            expected_entry(t, e->d_name))
            continue;
        char quoted[300];
        snprintf(quoted, sizeof quoted, "'%s' beside", e->d_name);
        if (strstr(msg, quoted)) {
            if (strstr(msg, kind_phrase[SPARE_LINK])) seen.kind[SPARE_LINK]++;
            continue;
        }
        /* the backup of a destination left out of the list is part of that item */
        char p[PATH_CAP];
        join(p, t->dir, e->d_name);
        int part_of_unlisted = 0;
        for (int k = 0; k < NDEST && !part_of_unlisted; k++)
            if (unlisted_dest[k] && old_text[k] && holds(p, old_text[k])) {
                unlisted_dest[k] = 0;
                part_of_unlisted = 1;
            }
        unlisted += !part_of_unlisted;
    }
    closedir(d);
    if (unlisted) {
        char more[64], none[64];
        snprintf(more, sizeof more, "and %d more not listed", unlisted);
        snprintf(none, sizeof none, ": %d not listed", unlisted);
        if (!strstr(msg, more) && !strstr(msg, none)) {
            fprintf(stderr, "%s: %d outputs or leftovers not accounted for: %s\n", where,
                    unlisted, msg);
            problems++;
        } else {
            seen.kind[UNLISTED]++;
        }
    }
    return problems;
}

/* Fresh files, then the group moved with calls `first` and `second` failing (0: none). */
static gsfw_error move_group(trial_files *t, int first, int second, gsfw_err *err)
{
    prepare(t);
    const char *from[NDEST], *to[NDEST];
    for (int k = 0; k < NDEST; k++) {
        from[k] = t->from[k];
        to[k] = t->to[k];
    }
    memset(err, 0, sizeof *err);
    fail_at[0] = first;
    fail_at[1] = second;
    calls = failed_unlink = 0;
    armed = 1;
    gsfw_error rc = gsfw_rename_group(from, to, NDEST, err);
    armed = 0;
    return rc;
}

/* Run the group with the current injection settings and check the outcome. Returns the
 * number of calls the trial made. */
static int run_trial(trial_files *t, int first, int second)
{
    gsfw_err err;
    gsfw_error rc = move_group(t, first, second, &err);
    seen.trials++;

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
        /* only a backup whose removal was made to fail may remain (there is no error
         * to name it in) */
        DIR *d = opendir(t->dir);
        assert_non_null(d);
        for (struct dirent *e; (e = readdir(d)) != NULL;)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
                !expected_entry(t, e->d_name) &&
                !(failed_unlink && !strncmp(e->d_name, ".gsfw-old-", 10))) {
                fprintf(stderr, "%s: success left '%s' behind\n", where, e->d_name);
                problems++;
            }
        closedir(d);
    } else {
        seen.failed++;
        assert_int_equal(rc, GSFW_ERR_IO);
        problems += check_failure(t, err.message, where);
    }
    assert_int_equal(problems, 0);
    return calls;
}

static void sweep(trial_files *t)
{
    int clean = run_trial(t, 0, 0);
    assert_true(clean >= NDEST);
    /* undoing after a failure makes further calls, so pairs reach past the clean run */
    int reach = 3 * clean;
    for (int i = 1; i <= reach; i++) {
        run_trial(t, i, 0);
        for (int j = i + 1; j <= reach; j++) run_trial(t, i, j);
    }
}

/* Both sweeps, with and without hard links, must between them reach every kind of
 * account (short paths: every leftover is listed). */
static void test_faults(void **state)
{
    memset(&seen, 0, sizeof seen);
    links_unsupported = 0;
    sweep(*state);
    links_unsupported = 1;
    sweep(*state);
    links_unsupported = 0;
    assert_true(seen.failed > seen.trials / 4);
    for (int k = 0; k < UNLISTED; k++)
        if (seen.kind[k] == 0) fail_msg("no trial produced '%s'", kind_phrase[k]);
    assert_int_equal(seen.kind[UNLISTED], 0);
}

/* Paths so long that the message cannot list every leftover: what it leaves out, it
 * counts. */
static void test_faults_long_paths(void **state)
{
    trial_files *t = *state;
    assert_int_equal(mkdir(t->dir, 0700), 0);
    memset(&seen, 0, sizeof seen);
    links_unsupported = 1;
    sweep(t);
    links_unsupported = 0;
    assert_true(seen.kind[UNLISTED] > 0);
}

/* The sweep is only meaningful if the injection reaches the library's calls: a failed
 * first call must make the group fail when there is no hard link to fall back from. */
static void test_injection_reaches_library(void **state)
{
    trial_files *t = *state;
    gsfw_err err;
    links_unsupported = 1; /* the first call is then renaming out0 aside */
    gsfw_error rc = move_group(t, 1, 0, &err);
    links_unsupported = 0;
    assert_int_equal(rc, GSFW_ERR_IO);
    assert_non_null(strstr(err.message, strerror(EIO)));
    assert_true(holds(t->to[0], "old0"));
}

/* A trial directory: the test's temporary directory itself, or a subdirectory with a
 * name of `extra` characters. */
static int setup_in(void **state, int extra)
{
    trial_files *t = calloc(1, sizeof *t);
    const char *base = tmpdir_create();
    if (!t || !base) return -1;
    snprintf(t->dir, sizeof t->dir, "%s", base);
    if (extra) {
        size_t len = strlen(t->dir);
        t->dir[len++] = '/';
        for (int i = 0; i < extra; i++) t->dir[len++] = 'd';
        t->dir[len] = '\0';
    }
    for (int k = 0; k < NDEST; k++) {
        char name[16];
        snprintf(name, sizeof name, "new%d", k);
        join(t->from[k], t->dir, name);
        snprintf(name, sizeof name, "out%d", k);
        join(t->to[k], t->dir, name);
    }
    *state = t;
    return 0;
}

static int setup(void **state) { return setup_in(state, 0); }
static int setup_long(void **state) { return setup_in(state, 200); }

static int teardown(void **state)
{
    trial_files *t = *state;
    char *slash = strrchr(t->dir, '/');
    if (slash && strlen(slash + 1) == 200) { /* the long subdirectory */
        tmpdir_remove(t->dir);
        *slash = '\0';
    }
    tmpdir_remove(t->dir);
    free(t);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_injection_reaches_library, setup, teardown),
        cmocka_unit_test_setup_teardown(test_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_faults_long_paths, setup_long, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
