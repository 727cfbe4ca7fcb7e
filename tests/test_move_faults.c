/* cli_move_group under injected failures of its rename, link and unlink calls: every
 * single failure and every pair, with hard links and without (backups then renamed
 * aside). A success leaves every new file in place; a failure that says "no output was
 * changed" leaves every destination as it was; otherwise the message counts the outputs
 * that could not be put back, and each of them has its old contents in a .gsfw-old-*
 * file. Nothing else is left behind, but for a spare link whose removal failed too. The failures come from this executable's own
 * rename, link and unlink, which the statically linked code calls. */
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
#include <unistd.h>

#include <cmocka.h>

#include "outputs.h"

static int armed, calls, fail_at[2], no_links;

static int inject(void)
{
    if (!armed || (++calls != fail_at[0] && calls != fail_at[1])) return 0;
    errno = EIO;
    return 1;
}

#define REAL(name, ...) \
    static int (*real)(__VA_ARGS__); \
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, name)
int rename(const char *from, const char *to)
{
    REAL("rename", const char *, const char *);
    return inject() ? -1 : real(from, to);
}
int link(const char *from, const char *to)
{
    REAL("link", const char *, const char *);
    if (armed && no_links) return errno = EPERM, -1;
    return inject() ? -1 : real(from, to);
}
int unlink(const char *path)
{
    REAL("unlink", const char *);
    return inject() ? -1 : real(path);
}

enum { N = 3 };
static char dir[] = "/tmp/gsfw-move-XXXXXX", from[N][64], to[N][64];
static const char *const old_text[N] = {"old0", NULL, "old2"}; /* out1 is new */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *b = f ? calloc(1, 64) : NULL;
    if (b && fread(b, 1, 63, f)) {}
    if (f) fclose(f);
    return b;
}

static int holds(const char *path, const char *want)
{
    char *got = slurp(path);
    int same = want ? got && !strcmp(got, want) : !got;
    free(got);
    return same;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Backups (.gsfw-old-*) in the directory; with text, those that hold it. */
static int backups(const char *text)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        n += !strncmp(e->d_name, ".gsfw-old-", 10) && (!text || holds(p, text));
    }
    closedir(d);
    return n;
}

/* One trial: fresh files, the move with calls i and j failing, then the checks. */
static void trial(int i, int j, int *made)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.' || !strncmp(e->d_name, ".gsfw-", 6)) unlink(p);
    }
    closedir(d);
    const char *f[N], *t[N];
    char text[N][8];
    for (int k = 0; k < N; k++) {
        snprintf(text[k], sizeof text[k], "new%d", k);
        put(from[k], text[k]);
        if (old_text[k]) put(to[k], old_text[k]);
        f[k] = from[k], t[k] = to[k];
    }
    gsfw_err err = {0};
    calls = 0, fail_at[0] = i, fail_at[1] = j, armed = 1;
    gsfw_error rc = cli_move_group(f, t, N, &err);
    armed = 0;
    *made = calls;
    const char *msg = err.message;
    int changed = 0, kept = 0;
    for (int k = 0; k < N; k++) {
        if (rc == GSFW_OK) {
            if (!holds(to[k], text[k])) fail_msg("%d,%d: success, %s not new", i, j, to[k]);
            continue;
        }
        if (holds(to[k], old_text[k])) continue;
        changed++;
        kept += old_text[k] && backups(old_text[k]);
    }
    if (rc == GSFW_OK) {
        /* a backup stays only when its removal was made to fail */
        if (backups(NULL) && !(i + j)) fail_msg("%d,%d: success left a backup", i, j);
        return;
    }
    /* the message names the file whose step failed: one of the destinations */
    int named = 0;
    for (int k = 0; k < N; k++) {
        char quoted[256];
        snprintf(quoted, sizeof quoted, " '%s': ", to[k]);
        named |= strstr(msg, quoted) != NULL;
    }
    if (!named) fail_msg("%d,%d: no destination named: '%s'", i, j, msg);
    char count[64];
    snprintf(count, sizeof count, "; %d output", changed);
    int old_changed = changed - !holds(to[1], NULL);
    /* unchanged: at most spare links to old files stay (their removal was made to fail) */
    int spare = backups(old_text[0]) + backups(old_text[2]);
    if (strstr(msg, "no output was changed") ? changed || backups(NULL) != spare
                                             : !changed || !strstr(msg, count) ||
                                                   kept != old_changed ||
                                                   backups(NULL) != kept)
        fail_msg("%d,%d: %d outputs changed, %d kept in %d backups: '%s'", i, j, changed, kept,
                 backups(NULL), msg);
}

static void test_every_failure(void **state)
{
    (void)state;
    int failed = 0, clean;
    for (no_links = 0; no_links < 2; no_links++) {
        trial(0, 0, &clean);
        for (int i = 1; i <= 3 * clean; i++)
            for (int j = 0; j <= 3 * clean; j++) {
                int made;
                if (j && j <= i) continue;
                trial(i, j, &made);
                failed += made >= i;
            }
    }
    assert_true(failed > 20); /* the injection reached the calls */
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    for (int k = 0; k < N; k++) {
        snprintf(from[k], sizeof from[k], "%s/new%d", dir, k);
        snprintf(to[k], sizeof to[k], "%s/out%d", dir, k);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_failure)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    for (int k = 0; k < N; k++) remove(from[k]), remove(to[k]);
    rmdir(dir);
    return rc;
}
