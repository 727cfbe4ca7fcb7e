/* Preloaded into gsfw by tests/reliability.sh (LD_PRELOAD): acts just before a chosen
 * step of an output move, so that a signal, a pause or a failure lands exactly there.
 * A step is a link(2) or rename(2) onto a name outside temporary files (and the staging
 * directories of earlier builds): the backups and renames of the final move.
 *
 *   GSFW_HOOK_STEP=K     act before step K (1-based)
 *   GSFW_HOOK_ACTION=A   INT, TERM or KILL: raise that signal; sleep:MS: pause; EIO: the
 *                        call fails with EIO
 *   GSFW_HOOK_MARK=FILE  created when the step is reached
 *
 * No test code is compiled into the CLI, so any build can be checked this way. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int steps;

/* 1 when the call is to fail */
static int before_step(const char *to)
{
    const char *want = getenv("GSFW_HOOK_STEP"), *action = getenv("GSFW_HOOK_ACTION");
    if (!to || strstr(to, "/.gsfw-staging-") || strstr(to, "/.gsfw-tmp-") || !want ||
        !action || ++steps != atoi(want))
        return 0;
    const char *mark = getenv("GSFW_HOOK_MARK");
    FILE *f = mark ? fopen(mark, "w") : NULL;
    if (f) fclose(f);
    if (!strcmp(action, "EIO")) return errno = EIO, 1;
    if (!strncmp(action, "sleep:", 6)) {
        long ms = atol(action + 6);
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        return 0;
    }
    raise(!strcmp(action, "INT") ? SIGINT : !strcmp(action, "TERM") ? SIGTERM : SIGKILL);
    return 0;
}

#define WRAP(name)                                                       \
    int name(const char *from, const char *to)                           \
    {                                                                    \
        static int (*real)(const char *, const char *);                  \
        if (!real) *(void **)&real = dlsym(RTLD_NEXT, #name);            \
        return before_step(to) ? -1 : real(from, to);                    \
    }
WRAP(rename)
WRAP(link)
