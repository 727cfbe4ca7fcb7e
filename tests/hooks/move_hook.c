/* Test hook for tests/test_reliability.c, loaded into the gsfw executable with
 * LD_PRELOAD: it acts just before a chosen step of an output move, so that a signal or a
 * pause lands exactly there instead of wherever a timer happens to fall.
 *
 * A step is a link(2) or rename(2) whose destination is a visible output or a backup
 * in the output directory: the group move's backups and renames. The writes of single
 * files inside a staging directory (their temporary file renamed into it) are not steps.
 *
 *   GSFW_HOOK_STEP=K        act before step K (1-based)
 *   GSFW_HOOK_ACTION=A      INT, TERM or KILL: raise that signal; sleep:MS: pause
 *   GSFW_HOOK_MARK=FILE     created when the step is reached (before the action)
 *
 * It works on any build of the CLI (no test code in the CLI itself), which lets the test
 * show the behaviour of an older build too. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int steps_seen;

static int is_step(const char *to)
{
    return to && !strstr(to, "/.gsfw-staging-") && !strstr(to, "/.gsfw-tmp-");
}

static void before_step(const char *to)
{
    if (!is_step(to)) return;
    const char *want = getenv("GSFW_HOOK_STEP");
    const char *action = getenv("GSFW_HOOK_ACTION");
    if (!want || !action || ++steps_seen != atoi(want)) return;
    const char *mark = getenv("GSFW_HOOK_MARK");
    if (mark) {
        FILE *f = fopen(mark, "w");
        if (f) fclose(f);
    }
    if (!strncmp(action, "sleep:", 6)) {
        long ms = atol(action + 6);
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    } else {
        raise(!strcmp(action, "INT") ? SIGINT : !strcmp(action, "TERM") ? SIGTERM : SIGKILL);
    }
}

int rename(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "rename");
    before_step(to);
    return real(from, to);
}

int link(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "link");
    before_step(to);
    return real(from, to);
}
