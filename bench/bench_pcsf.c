/* PCSF benchmark (issue 3 item 5): unrooted PCSF, g = 1, strong pruning, unit costs, on
 * H x H grids with prizes 4*U[0,1) from the seeded splitmix64 generator of
 * docs/pcsf.md (seed 20220101, restarted per instance).
 *
 *   bench_pcsf [--sizes 100,500,1000] [--reps R] [--scale 4] [--pruning strong]
 *   bench_pcsf --write-prizes H FILE.npy     (the same prizes, for timing `gsfw pcsf`)
 *
 * Timed region per repetition: workspace creation + run + free (as the reference
 * measurements); graph and prize generation excluded. Also reports a warm run that
 * reuses one workspace. Peak RSS (getrusage) is process-wide, so run one size per
 * process to attribute it (the default order is increasing size). */
#include "core/internal.h"
#include "oracles/pcsf/pcsf_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "util/splitmix.h"

static void make_prizes(double *p, int n, double scale)
{
    uint64_t st = 20220101ULL;
    for (int i = 0; i < n; i++) p[i] = scale * gsfw_splitmix_uniform(&st);
}

/* The H x H grid's edges in gsfw_graph_grid's order: per node in row-major order, its
 * right edge, then its down edge. */
static void grid_edges(int h, int *eu, int *ev)
{
    int e = 0;
    for (int i = 0; i < h * h; i++) {
        int r = i / h, c = i % h;
        if (c + 1 < h) {
            eu[e] = i;
            ev[e++] = i + 1;
        }
        if (r + 1 < h) {
            eu[e] = i;
            ev[e++] = i + h;
        }
    }
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *sizes = "100,500,1000";
    int reps = 0;
    double scale = 4.0;
    const char *pruning_name = "strong";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--write-prizes") && i + 2 < argc) {
            int h = atoi(argv[i + 1]);
            if (h < 1) return 2;
            double *p = malloc((size_t)h * h * sizeof *p);
            if (!p) return 1;
            make_prizes(p, h * h, scale);
            int shape[2] = {h * h, 1};
            gsfw_err err;
            gsfw_error rc = gsfw_npy_write(argv[i + 2], p, 1, shape, &err);
            free(p);
            if (rc) {
                fprintf(stderr, "bench_pcsf: %s\n", err.message);
                return 1;
            }
            return 0;
        } else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            sizes = argv[++i];
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            scale = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--pruning") && i + 1 < argc) {
            pruning_name = argv[++i];
        } else {
            fprintf(stderr, "usage: bench_pcsf [--sizes 100,500,1000] [--reps R] [--scale S] "
                    "[--pruning P] | --write-prizes H FILE.npy\n");
            return 2;
        }
    }
    int pruning = gsfw_pruning_parse(pruning_name);
    if (pruning < 0) {
        fprintf(stderr, "bench_pcsf: unknown pruning '%s'\n", pruning_name);
        return 2;
    }
    printf("# PCSF on HxH grids: unit costs, prizes %g*U[0,1) (splitmix64 seed 20220101), "
           "unrooted, g = 1, %s pruning\n", scale, pruning_name);
    printf("%-10s %9s %9s %4s %9s %9s %9s %9s %9s %9s %10s %10s %10s %8s %10s\n", "grid", "n",
           "m", "reps", "median_s", "min_s", "max_s", "warm_s", "out_nodes", "out_edges",
           "edge_ev", "peak_rss_mb", "heap_visits", "ns/visit", "slots/edge");
    double med_500 = 0, med_1000 = 0;
    const char *p = sizes;
    while (*p) {
        int h = atoi(p);
        while (*p && *p != ',') p++;
        if (*p == ',') p++;
        if (h < 1) continue;
        gsfw_err err;
        /* the edge list only, as pcst_fast's driver holds it (no adjacency) */
        int n = h * h, m = 2 * h * (h - 1);
        int *eu = malloc(((size_t)m + 1) * sizeof *eu), *ev = malloc(((size_t)m + 1) * sizeof *ev);
        if (!eu || !ev) return 1;
        grid_edges(h, eu, ev);
        double *prizes = malloc((size_t)n * sizeof *prizes);
        int *on = malloc((size_t)n * sizeof *on), *oe = malloc((size_t)m * sizeof *oe);
        if (!prizes || !on || !oe) return 1;
        make_prizes(prizes, n, scale);
        int r = reps > 0 ? reps : (h <= 100 ? 31 : h <= 500 ? 5 : 3);
        double *t = malloc((size_t)r * sizeof *t);
        int nn = 0, ne = 0;
        gsfw_pcsf_stats stats;
        memset(&stats, 0, sizeof stats);
        for (int k = 0; k < r; k++) {
            double t0 = gsfw_now();
            gsfw_pcsf *ws = NULL;
            if (gsfw_pcsf_create(&ws, &err) ||
                gsfw_pcsf_run(ws, n, m, eu, ev, prizes, NULL, -1, 1,
                              (gsfw_pruning)pruning, on, &nn, oe, &ne, &err)) {
                fprintf(stderr, "bench_pcsf: %s\n", err.message);
                return 1;
            }
            gsfw_pcsf_get_stats(ws, &stats);
            gsfw_pcsf_free(ws);
            t[k] = gsfw_now() - t0;
        }
        /* warm: one workspace reused (what the head/tail searches do) */
        gsfw_pcsf *ws = NULL;
        gsfw_pcsf_create(&ws, &err);
        gsfw_pcsf_run(ws, n, m, eu, ev, prizes, NULL, -1, 1,
                      (gsfw_pruning)pruning, on, &nn, oe, &ne, &err);
        double w0 = gsfw_now();
        gsfw_pcsf_run(ws, n, m, eu, ev, prizes, NULL, -1, 1,
                      (gsfw_pruning)pruning, on, &nn, oe, &ne, &err);
        double warm = gsfw_now() - w0;
        gsfw_pcsf_free(ws);
        qsort(t, (size_t)r, sizeof *t, cmp_double);
        double med = t[r / 2];
        if (h == 500) med_500 = med;
        if (h == 1000) med_1000 = med;
        char name[32];
        snprintf(name, sizeof name, "%dx%d", h, h);
        /* ns/visit: the warm run's time per child detached by delete_min; the heap work
         * per visit is constant, so its growth with the size is the memory system's */
        printf("%-10s %9d %9d %4d %9.4f %9.4f %9.4f %9.4f %9d %9d %10ld %10.1f %10ld %8.1f %10.2f\n",
               name, n, m, r, med, t[0], t[r - 1], warm, nn, ne, stats.edge_events,
               peak_rss_kb() / 1024.0, stats.heap_visits,
               stats.heap_visits > 0 ? 1e9 * warm / (double)stats.heap_visits : 0.0,
               m > 0 ? (double)stats.heap_slots / m : 0.0);
        fflush(stdout);
        free(t);
        free(prizes);
        free(on);
        free(oe);
        free(eu);
        free(ev);
    }
    if (med_500 > 0 && med_1000 > 0)
        printf("time ratio 1000x1000 / 500x500 = %.2f (bar: <= 5)\n", med_1000 / med_500);
    return 0;
}
