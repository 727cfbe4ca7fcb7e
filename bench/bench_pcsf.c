/* PCSF benchmark: unrooted PCSF, g = 1, strong pruning, on
 * - grids (default): H x H, unit costs, in gsfw_graph_grid's edge order;
 * - networks (--graph network): preferential attachment (Barabasi-Albert, two edges per
 *   new node, from a triangle; pa_network.h), the degree distribution of biological and
 *   social networks, costs 0.5 + U[0,1);
 * prizes 4*U[0,1) from the seeded splitmix64 generator of docs/pcsf.md (seed 20220101,
 * restarted per instance).
 *
 *   bench_pcsf [--graph grid|network] [--sizes 100,500,1000] [--reps R] [--scale 4]
 *              [--pruning strong]
 *   bench_pcsf --write-prizes H FILE.npy     (the grid's prizes, for timing `gsfw pcsf`)
 *   bench_pcsf [--graph ...] --write-instance SIZE FILE   (the instance as text, for
 *              scripts/reference/pcst_time_file.cc: "n m -1 1 strong", n prizes, m
 *              lines "u v cost", every number exact)
 *
 * --sizes are grid sides H for grids and node counts for networks. Timed region per
 * repetition: workspace creation + run + free (as the reference measurements); graph and
 * prize generation excluded. Also reports a warm run that reuses one workspace. Peak RSS
 * (getrusage) is process-wide, so run one size per process to attribute it (the default
 * order is increasing size). */
#include "core/internal.h"
#include "oracles/pcsf/pcsf_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "pa_network.h"
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

/* One benchmark instance: size is a grid side or a node count. costs stays NULL for
 * grids (unit costs). Returns 0, or -1 when out of memory or the size is too small. */
typedef struct {
    int n, m;
    int *eu, *ev;
    double *prizes, *costs;
    char name[32];
} instance;

static void instance_free(instance *in)
{
    free(in->eu);
    free(in->ev);
    free(in->prizes);
    free(in->costs);
    memset(in, 0, sizeof *in);
}

static int instance_make(instance *in, int network, int size, double scale)
{
    memset(in, 0, sizeof *in);
    if (network) {
        if (size < 3 || size > (1 << 28)) return -1;
        in->n = size;
        in->m = 2 * size - 3;
        snprintf(in->name, sizeof in->name, "net%d", size);
    } else {
        if (size < 1 || size > (1 << 14)) return -1;
        in->n = size * size;
        in->m = 2 * size * (size - 1);
        snprintf(in->name, sizeof in->name, "%dx%d", size, size);
    }
    /* the edge list only, as pcst_fast's driver holds it (no adjacency) */
    in->eu = malloc(((size_t)in->m + 1) * sizeof *in->eu);
    in->ev = malloc(((size_t)in->m + 1) * sizeof *in->ev);
    in->prizes = malloc((size_t)in->n * sizeof *in->prizes);
    int *ends = network ? malloc(2 * (size_t)in->m * sizeof *ends) : NULL;
    if (network) in->costs = malloc((size_t)in->m * sizeof *in->costs);
    if (!in->eu || !in->ev || !in->prizes || (network && (!ends || !in->costs))) {
        free(ends);
        instance_free(in);
        return -1;
    }
    if (network) {
        gsfw_pa_network(in->n, in->eu, in->ev, in->costs, ends);
    } else {
        grid_edges(size, in->eu, in->ev);
    }
    free(ends);
    make_prizes(in->prizes, in->n, scale);
    return 0;
}

/* The instance as text for the reference timer; %.17g round-trips every double. */
static int instance_write(const instance *in, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "%d %d -1 1 strong\n", in->n, in->m);
    for (int i = 0; i < in->n; i++) fprintf(f, "%.17g\n", in->prizes[i]);
    for (int e = 0; e < in->m; e++)
        fprintf(f, "%d %d %.17g\n", in->eu[e], in->ev[e], in->costs ? in->costs[e] : 1.0);
    return fclose(f) ? -1 : 0;
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

static void usage(void)
{
    fprintf(stderr, "usage: bench_pcsf [--graph grid|network] [--sizes 100,500,1000] [--reps R] "
            "[--scale S] [--pruning P]\n"
            "       bench_pcsf --write-prizes H FILE.npy\n"
            "       bench_pcsf [--graph grid|network] [--scale S] --write-instance SIZE FILE\n");
}

int main(int argc, char **argv)
{
    const char *sizes = NULL;
    int reps = 0, network = 0;
    double scale = 4.0;
    const char *pruning_name = "strong";
    const char *prizes_file = NULL, *instance_file = NULL;
    int write_size = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--write-prizes") && i + 2 < argc) {
            write_size = atoi(argv[i + 1]);
            prizes_file = argv[i + 2];
            i += 2;
        } else if (!strcmp(argv[i], "--write-instance") && i + 2 < argc) {
            write_size = atoi(argv[i + 1]);
            instance_file = argv[i + 2];
            i += 2;
        } else if (!strcmp(argv[i], "--graph") && i + 1 < argc) {
            const char *g = argv[++i];
            if (!strcmp(g, "network")) {
                network = 1;
            } else if (strcmp(g, "grid")) {
                fprintf(stderr, "bench_pcsf: unknown graph '%s' (grid or network)\n", g);
                return 2;
            }
        } else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            sizes = argv[++i];
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            scale = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--pruning") && i + 1 < argc) {
            pruning_name = argv[++i];
        } else {
            usage();
            return 2;
        }
    }
    if (prizes_file || instance_file) {
        if (prizes_file && (instance_file || network)) {
            usage();
            return 2;
        }
        instance in;
        if (instance_make(&in, network, write_size, scale)) {
            fprintf(stderr, "bench_pcsf: size %d is out of range or out of memory\n", write_size);
            return 1;
        }
        int rc = 0;
        if (prizes_file) {
            int shape[2] = {in.n, 1};
            gsfw_err err;
            if (gsfw_npy_write(prizes_file, in.prizes, 1, shape, &err)) {
                fprintf(stderr, "bench_pcsf: %s\n", err.message);
                rc = 1;
            }
        } else if (instance_write(&in, instance_file)) {
            fprintf(stderr, "bench_pcsf: cannot write '%s'\n", instance_file);
            remove(instance_file);
            rc = 1;
        }
        instance_free(&in);
        return rc;
    }
    if (!sizes) sizes = network ? "10000,100000,1000000" : "100,500,1000";
    int pruning = gsfw_pruning_parse(pruning_name);
    if (pruning < 0) {
        fprintf(stderr, "bench_pcsf: unknown pruning '%s'\n", pruning_name);
        return 2;
    }
    if (network)
        printf("# PCSF on preferential-attachment networks (two edges per node): costs 0.5 + "
               "U[0,1), prizes %g*U[0,1) (splitmix64), unrooted, g = 1, %s pruning\n", scale,
               pruning_name);
    else
        printf("# PCSF on HxH grids: unit costs, prizes %g*U[0,1) (splitmix64 seed 20220101), "
               "unrooted, g = 1, %s pruning\n", scale, pruning_name);
    printf("%-10s %9s %9s %4s %9s %9s %9s %9s %9s %9s %10s %10s %10s %8s %10s\n",
           network ? "graph" : "grid", "n", "m", "reps", "median_s", "min_s", "max_s", "warm_s",
           "out_nodes", "out_edges", "edge_ev", "peak_rss_mb", "heap_visits", "ns/visit",
           "slots/edge");
    double med_500 = 0, med_1000 = 0;
    const char *p = sizes;
    while (*p) {
        int h = atoi(p);
        while (*p && *p != ',') p++;
        if (*p == ',') p++;
        if (h < 1) continue;
        gsfw_err err;
        instance in;
        if (instance_make(&in, network, h, scale)) {
            fprintf(stderr, "bench_pcsf: size %d is out of range or out of memory\n", h);
            return 1;
        }
        const int n = in.n, m = in.m;
        int *on = malloc((size_t)n * sizeof *on), *oe = malloc(((size_t)m + 1) * sizeof *oe);
        if (!on || !oe) return 1;
        int r = reps > 0 ? reps : (n <= 10000 ? 31 : n <= 250000 ? 5 : 3);
        double *t = malloc((size_t)r * sizeof *t);
        int nn = 0, ne = 0;
        gsfw_pcsf_stats stats;
        memset(&stats, 0, sizeof stats);
        for (int k = 0; k < r; k++) {
            double t0 = gsfw_now();
            gsfw_pcsf *ws = NULL;
            if (gsfw_pcsf_create(&ws, &err) ||
                gsfw_pcsf_run(ws, n, m, in.eu, in.ev, in.prizes, in.costs, -1, 1,
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
        gsfw_pcsf_run(ws, n, m, in.eu, in.ev, in.prizes, in.costs, -1, 1,
                      (gsfw_pruning)pruning, on, &nn, oe, &ne, &err);
        double w0 = gsfw_now();
        gsfw_pcsf_run(ws, n, m, in.eu, in.ev, in.prizes, in.costs, -1, 1,
                      (gsfw_pruning)pruning, on, &nn, oe, &ne, &err);
        double warm = gsfw_now() - w0;
        gsfw_pcsf_free(ws);
        qsort(t, (size_t)r, sizeof *t, cmp_double);
        double med = t[r / 2];
        if (!network && h == 500) med_500 = med;
        if (!network && h == 1000) med_1000 = med;
        /* ns/visit: the warm run's time per child detached by delete_min; the heap work
         * per visit is constant, so its growth with the size is the memory system's */
        printf("%-10s %9d %9d %4d %9.4f %9.4f %9.4f %9.4f %9d %9d %10ld %10.1f %10ld %8.1f %10.2f\n",
               in.name, n, m, r, med, t[0], t[r - 1], warm, nn, ne, stats.edge_events,
               peak_rss_kb() / 1024.0, stats.heap_visits,
               stats.heap_visits > 0 ? 1e9 * warm / (double)stats.heap_visits : 0.0,
               m > 0 ? (double)stats.heap_slots / m : 0.0);
        fflush(stdout);
        free(t);
        free(on);
        free(oe);
        instance_free(&in);
    }
    if (med_500 > 0 && med_1000 > 0)
        printf("time ratio 1000x1000 / 500x500 = %.2f (bar: <= 5)\n", med_1000 / med_500);
    return 0;
}
