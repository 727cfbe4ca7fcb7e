/* What the process may still allocate, and the refusal (memory.h). The library never
 * reads /proc: the probe lives here, in the command-line tool. */
#include "memory.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The first number after `key` and blanks on a line of a file (key "": at the start of
 * the file), or -1. */
static double number_in(const char *path, const char *key)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    double v = -1.0;
    while (fp && v < 0 && fgets(line, sizeof line, fp)) {
        if (strncmp(line, key, strlen(key))) continue;
        const char *p = line + strlen(key);
        while (*p == ' ' || *p == '\t') p++; /* "MemAvailable:   22415616 kB" */
        if (isdigit((unsigned char)*p)) v = strtod(p, NULL);
    }
    if (fp) fclose(fp);
    return v;
}

/* What the memory cgroups of the process leave (limit minus usage, the smallest over
 * the cgroup and its ancestors; a container's limit, which MemAvailable does not show),
 * or -1: cgroup v1 (the memory controller's line of /proc/self/cgroup) or v2 ("0::"). */
static double cgroup_room(void)
{
    FILE *fp = fopen("/proc/self/cgroup", "r");
    char line[1024], rel[1024] = "", path[1200];
    int v2 = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        *c2 = '\0';
        if (strstr(c1, ":memory") || strstr(c1, ",memory")) {
            snprintf(rel, sizeof rel, "%s", c2 + 1);
            v2 = 0;
            break;
        }
        if (!strcmp(line, "0") && !c1[1]) snprintf(rel, sizeof rel, "%s", c2 + 1), v2 = 1;
    }
    if (fp) fclose(fp);
    const char *base = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
    double best = -1.0;
    for (;;) { /* the cgroup and its ancestors */
        snprintf(path, sizeof path, "%s%s/%s", base, rel,
                 v2 ? "memory.max" : "memory.limit_in_bytes");
        double limit = number_in(path, "");
        snprintf(path, sizeof path, "%s%s/%s", base, rel,
                 v2 ? "memory.current" : "memory.usage_in_bytes");
        double usage = number_in(path, "");
        if (limit > 0 && limit < 1e18 && usage >= 0 && (best < 0 || limit - usage < best))
            best = fmax(limit - usage, 0.0);
        char *slash = strrchr(rel, '/');
        if (!slash || !*rel) break;
        *slash = '\0';
    }
    return best;
}

/* Bytes the process may still allocate, or -1 when nothing is known. */
static double available(void)
{
    double avail = number_in("/proc/meminfo", "MemAvailable:"), cg = cgroup_room();
    avail = avail < 0 ? -1.0 : avail * 1024.0;
    if (cg >= 0 && (avail < 0 || cg < avail)) avail = cg;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        double pages = number_in("/proc/self/statm", ""); /* mapped now */
        double left = fmax((double)rl.rlim_cur - fmax(pages, 0.0) * sysconf(_SC_PAGESIZE), 0.0);
        if (avail < 0 || left < avail) avail = left;
    }
    return avail;
}

static void format_bytes(double bytes, char *buf, size_t cap)
{
    static const char *const units[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    int u = 0;
    for (; bytes >= 1024.0 && u < 6; u++) bytes /= 1024.0;
    if (u == 0)
        snprintf(buf, cap, "%.0f bytes", bytes);
    else
        snprintf(buf, cap, bytes < 1e4 ? "%.1f %s" : "%.3g %s", bytes, units[u]);
}

/* --max-memory of this process's command (it runs one): < 0 unlimited */
static double limit_bytes;
static int limit_given;

int cli_mem_set_limit(const char *cmd, const char *text)
{
    if (!text) return CLI_OK;
    char *end = NULL;
    errno = 0;
    double v = !strcmp(text, "unlimited") ? -1.0
               : isdigit((unsigned char)text[0]) ? strtod(text, &end) : NAN;
    const char *units = "KMGT";
    const char *u = end && *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
    if (u && *u) {
        v *= pow(1024.0, (double)(u - units + 1));
        end++;
        if (!strcmp(end, "iB") || !strcmp(end, "B") || !strcmp(end, "b")) end += strlen(end);
    }
    if ((end && *end) || isnan(v) || !isfinite(v) || errno == ERANGE)
        return cli_usage_error(cmd, "--max-memory expects a size such as 512M, 8G or "
                               "'unlimited', got '%s'", text);
    limit_bytes = v;
    limit_given = 1;
    return CLI_OK;
}

int cli_mem_check(const char *cmd, double need, const char *what)
{
    double limit = limit_given ? limit_bytes : available();
    if (limit < 0 || need <= limit) return CLI_OK;
    char a[32], b[32];
    format_bytes(need, a, sizeof a);
    format_bytes(limit, b, sizeof b);
    if (limit_given)
        return cli_fail(cmd, "%s needs about %s, but --max-memory allows %s", what, a, b);
    return cli_fail(cmd, "%s needs about %s, but %s are available (--max-memory SIZE "
                    "overrides)", what, a, b);
}

double cli_mem_file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (double)st.st_size : 0.0;
}
