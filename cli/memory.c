/* Memory estimates and the available-memory probe of the command-line tool (memory.h).
 * The library never reads /proc: the probe lives here, in the CLI. */
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
#include "gsfw.h"

double cli_mem_dense(double rows, double cols)
{
    return rows * cols * (double)sizeof(double);
}

/* Per node: the adjacency offsets; per edge: both directions of the adjacency (node and
 * edge id), the edge list, a cost, and the reader's arrays the graph is built from. */
double cli_mem_graph(double nodes, double edges)
{
    return 8.0 * nodes + 56.0 * edges + 4096.0;
}

/* the library's estimate, kept with the allocations it describes */
double cli_mem_pcsf(double nodes, double edges)
{
    return gsfw_headtail_memory(nodes, edges);
}

double cli_mem_trace(double iters)
{
    return (iters + 1.0) * (double)sizeof(gsfw_iterate);
}

/* MemAvailable in bytes, or -1. */
static double meminfo_available(void)
{
    FILE *fp = fopen("/proc/meminfo", "r");
    if (!fp) return -1.0;
    char line[256];
    double kb = -1.0;
    while (fgets(line, sizeof line, fp)) {
        unsigned long long v;
        if (sscanf(line, "MemAvailable: %llu kB", &v) == 1) {
            kb = (double)v;
            break;
        }
    }
    fclose(fp);
    return kb < 0 ? -1.0 : kb * 1024.0;
}

/* Bytes of address space mapped now (VmSize), or -1. */
static double mapped_now(void)
{
    FILE *fp = fopen("/proc/self/statm", "r");
    if (!fp) return -1.0;
    unsigned long long pages = 0;
    int ok = fscanf(fp, "%llu", &pages) == 1;
    fclose(fp);
    long page = sysconf(_SC_PAGESIZE);
    return ok && page > 0 ? (double)pages * (double)page : -1.0;
}

/* A number from a one-line cgroup file; -1 when missing or "max". */
static double read_number(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp) return -1.0;
    unsigned long long v = 0;
    int ok = fscanf(fp, "%llu", &v) == 1;
    fclose(fp);
    return ok ? (double)v : -1.0;
}

/* What the memory cgroups of this process leave (limit minus usage, the smallest over the
 * cgroup and its ancestors), or -1 when no limit is set: a container's memory limit is
 * a cgroup limit, which MemAvailable does not show. cgroup v2 (memory.max,
 * memory.current) and v1 (memory.limit_in_bytes, memory.usage_in_bytes). */
static double cgroup_available(void)
{
    FILE *fp = fopen("/proc/self/cgroup", "r");
    if (!fp) return -1.0;
    char line[1024], rel[1024] = "";
    int v2 = 0, found = 0;
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        *c2 = '\0';
        const char *controllers = c1 + 1, *path = c2 + 1;
        int is_v1 = !strcmp(controllers, "memory") || strstr(controllers, ",memory") ||
                    !strncmp(controllers, "memory,", 7);
        if (is_v1 || (!found && !strcmp(line, "0") && !*controllers)) {
            snprintf(rel, sizeof rel, "%s", path);
            v2 = !is_v1;
            found = 1;
            if (is_v1) break;
        }
    }
    fclose(fp);
    if (!found) return -1.0;
    const char *base = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
    const char *limit_file = v2 ? "memory.max" : "memory.limit_in_bytes";
    const char *usage_file = v2 ? "memory.current" : "memory.usage_in_bytes";
    double best = -1.0;
    /* the cgroup, its ancestors, and the root of the mount (a container sees its own
     * cgroup there when /proc/self/cgroup names the host's path) */
    for (;;) {
        char lim_path[1200], use_path[1200];
        snprintf(lim_path, sizeof lim_path, "%s%s/%s", base, rel, limit_file);
        snprintf(use_path, sizeof use_path, "%s%s/%s", base, rel, usage_file);
        double limit = read_number(lim_path), usage = read_number(use_path);
        if (limit > 0 && limit < 1e18 && usage >= 0) {
            double left = limit > usage ? limit - usage : 0.0;
            if (best < 0 || left < best) best = left;
        }
        char *slash = strrchr(rel, '/');
        if (!slash || rel[0] == '\0') break;
        *slash = '\0';
    }
    return best;
}

double cli_mem_available(void)
{
    double avail = meminfo_available();
    double cg = cgroup_available();
    if (cg >= 0 && (avail < 0 || cg < avail)) avail = cg;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        double mapped = mapped_now();
        double left = (double)rl.rlim_cur - (mapped > 0 ? mapped : 0.0);
        if (left < 0) left = 0;
        if (avail < 0 || left < avail) avail = left;
    }
    return avail;
}

int cli_mem_parse_limit(const char *cmd, const char *text, double *bytes)
{
    if (!strcmp(text, "unlimited")) {
        *bytes = -1.0;
        return CLI_OK;
    }
    char *end = NULL;
    errno = 0;
    double v = isdigit((unsigned char)text[0]) ? strtod(text, &end) : -1.0;
    double unit = 1.0;
    if (end && *end) {
        switch (toupper((unsigned char)*end)) {
        case 'K': unit = 1024.0; break;
        case 'M': unit = 1024.0 * 1024.0; break;
        case 'G': unit = 1024.0 * 1024.0 * 1024.0; break;
        case 'T': unit = 1024.0 * 1024.0 * 1024.0 * 1024.0; break;
        default: unit = 0.0; break;
        }
        if (unit > 0) {
            end++;
            if (!strcmp(end, "iB") || !strcmp(end, "B") || !strcmp(end, "b")) end += strlen(end);
        }
    }
    if (!end || *end || unit == 0.0 || !(v >= 0) || !isfinite(v * unit) || errno == ERANGE) {
        return cli_usage_error(cmd, "--max-memory expects a size such as 512M, 8G or "
                               "'unlimited', got '%s'", text);
    }
    *bytes = v * unit;
    return CLI_OK;
}

void cli_mem_format(double bytes, char *buf, size_t cap)
{
    static const char *const units[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 6) {
        bytes /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, cap, "%.0f bytes", bytes);
    else
        snprintf(buf, cap, bytes < 1e4 ? "%.1f %s" : "%.3g %s", bytes, units[u]);
}

/* --max-memory of this process's command: < 0 unlimited; meaningful when limit_given */
static double limit_bytes;
static int limit_given;

int cli_mem_set_limit(const char *cmd, const char *text)
{
    if (!text) return CLI_OK;
    int rc = cli_mem_parse_limit(cmd, text, &limit_bytes);
    limit_given = rc == CLI_OK;
    return rc;
}

int cli_mem_check(const char *cmd, double need, const char *what)
{
    double limit = limit_given ? limit_bytes : cli_mem_available();
    if (limit < 0 || need <= limit) return CLI_OK;
    char a[32], b[32];
    cli_mem_format(need, a, sizeof a);
    cli_mem_format(limit, b, sizeof b);
    if (limit_given) return cli_fail(cmd, "%s needs about %s, but --max-memory allows %s", what, a, b);
    return cli_fail(cmd, "%s needs about %s, but %s are available (--max-memory SIZE "
                    "overrides)", what, a, b);
}

double cli_mem_file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (double)st.st_size : 0.0;
}
