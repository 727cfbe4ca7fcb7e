/* Head / tail projection benchmark (issue 3 item 5): 100 x 100 grid, s = 622, g = 1,
 * prizes pi = x^2 with x ~ N(0, 1) by Box-Muller from the splitmix64 generator of
 * docs/pcsf.md (seed 20220101), GW pruning, max 50 PCSF calls.
 *
 *   bench_head [--reps R]
 *
 * Rows: the practical lambda-search with the Graph-CoSaMP head window [2s, 2.1s] and the
 * DMO / tail window [s, 1.05s] (cold: a fresh object per call), the theory head and tail,
 * and a warm-started sequence: 30 slowly changing vectors x_t = x + 0.02 t w (w another
 * normal vector) projected with one DMO object, against a cold object per vector. */
#include "core/internal.h"

#include <math.h>
#include <stdint.h>
#include "util/splitmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void normals(double *x, int n, uint64_t seed)
{
    uint64_t st = seed;
    for (int i = 0; i < n; i++) x[i] = gsfw_splitmix_normal(&st);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void row(const char *name, const gsfw_graph *g, const gsfw_proj_settings *st,
                const double *x, int reps, int *support)
{
    double *t = malloc((size_t)reps * sizeof *t);
    gsfw_proj_info info;
    int size = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = gsfw_now();
        gsfw_headtail *ht = NULL;
        gsfw_err err;
        if (gsfw_headtail_create(g, st, &ht, &err) ||
            gsfw_headtail_project(ht, x, support, &size, &info, &err)) {
            fprintf(stderr, "bench_head: %s\n", err.message);
            exit(1);
        }
        gsfw_headtail_free(ht);
        t[r] = gsfw_now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    printf("%-34s %6d %6d %7d %6s %12.4f %9.4f %9.4f %9.4f\n", name, st->s_low, st->s_high,
           info.pcsf_calls, info.window_missed ? "yes" : "no", info.energy, t[reps / 2], t[0],
           t[reps - 1]);
    (void)size;
    free(t);
}

int main(int argc, char **argv)
{
    int reps = 11;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_head [--reps R]\n");
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    const int H = 100, s = 622, gc = 1;
    gsfw_graph *g = NULL;
    gsfw_err err;
    if (gsfw_graph_grid(H, H, &g, &err)) return 1;
    int n = g->n;
    double *x = malloc((size_t)n * sizeof *x), *w = malloc((size_t)n * sizeof *w),
           *y = malloc((size_t)n * sizeof *y);
    int *support = malloc((size_t)n * sizeof *support);
    normals(x, n, 20220101ULL);
    double total = 0;
    for (int i = 0; i < n; i++) total += x[i] * x[i];
    printf("# 100x100 grid, s = %d, g = %d, pi = x^2 (sum %.1f), GW pruning, max 50 calls, "
           "%d reps\n", s, gc, total, reps);
    printf("%-34s %6s %6s %7s %6s %12s %9s %9s %9s\n", "projection", "s_lo", "s_hi", "calls",
           "missed", "energy", "median_s", "min_s", "max_s");
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, s, gc);
    st.s_low = 2 * s;
    st.s_high = (int)floor(2.1 * s);
    st.warm_start = 0; /* the reference's search, for the comparison */
    row("practical head [2s, 2.1s] (cold)", g, &st, x, reps, support);
    {
        gsfw_headtail *ht = NULL;
        gsfw_proj_info info;
        int size;
        gsfw_headtail_create(g, &st, &ht, &err);
        gsfw_headtail_project(ht, x, support, &size, &info, &err);
        printf("  -> %d nodes, lambda %.9g (reference pcst_fast: 8 calls, 1258 nodes, "
               "energy 3442.5664)\n", size, info.lambda);
        gsfw_headtail_free(ht);
    }
    st.warm_start = 1;
    row("practical head [2s, 2.1s] (gsfw search)", g, &st, x, reps, support);
    gsfw_proj_settings_default(&st, GSFW_PROJ_TAIL, s, gc);
    st.warm_start = 0;
    row("practical tail [s, 1.05s] (cold)", g, &st, x, reps, support);
    {
        gsfw_headtail *ht = NULL;
        gsfw_proj_info info;
        int size;
        gsfw_headtail_create(g, &st, &ht, &err);
        gsfw_headtail_project(ht, x, support, &size, &info, &err);
        printf("  -> %d nodes, lambda %.9g (reference: 51 calls, 594 nodes, window missed, "
               "energy 1681.75)\n", size, info.lambda);
        gsfw_headtail_free(ht);
    }
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, s, gc);
    st.method = GSFW_PROJ_THEORY;
    row("theory head (C = 2B, B = s - g)", g, &st, x, reps, support);
    gsfw_proj_settings_default(&st, GSFW_PROJ_TAIL, s, gc);
    st.method = GSFW_PROJ_THEORY;
    row("theory tail (nu = 2.5)", g, &st, x, reps, support);

    /* warm start on a slowly changing sequence (what an iterative solver sees) */
    normals(w, n, 777ULL);
    gsfw_dmo *warm = NULL;
    if (gsfw_dmo_head(g, s, gc, &warm, &err)) {
        fprintf(stderr, "bench_head: %s\n", err.message);
        return 1;
    }
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, s, gc);
    long calls_warm = 0, calls_cold = 0, missed_warm = 0, missed_cold = 0;
    double t_warm = 0, t_cold = 0;
    int steps = 30;
    printf("\n# sequence of %d vectors x_t = x + 0.02 t w, window [%d, %d]\n", steps, s,
           (int)floor(1.05 * s));
    printf("%4s %10s %10s\n", "t", "warm_calls", "cold_calls");
    for (int t = 0; t < steps; t++) {
        for (int i = 0; i < n; i++) y[i] = x[i] + 0.02 * t * w[i];
        gsfw_dmo_stats ds = {{0}};
        int size;
        double t0 = gsfw_now();
        if (warm->select(warm->ctx, y, support, &size, &ds)) return 1;
        t_warm += gsfw_now() - t0;
        calls_warm += ds.count[GSFW_COUNT_PCSF_CALLS];
        missed_warm += ds.count[GSFW_COUNT_WINDOW_MISSED];
        gsfw_headtail *ht = NULL;
        gsfw_proj_info info;
        t0 = gsfw_now();
        gsfw_headtail_create(g, &st, &ht, &err);
        gsfw_headtail_project(ht, y, support, &size, &info, &err);
        gsfw_headtail_free(ht);
        t_cold += gsfw_now() - t0;
        calls_cold += info.pcsf_calls;
        missed_cold += info.window_missed;
        printf("%4d %10ld %10d\n", t, ds.count[GSFW_COUNT_PCSF_CALLS], info.pcsf_calls);
    }
    printf("warm: %ld PCSF calls (%.2f per vector), %ld windows missed, %.4f s in total\n",
           calls_warm, (double)calls_warm / steps, missed_warm, t_warm);
    printf("cold: %ld PCSF calls (%.2f per vector), %ld windows missed, %.4f s in total\n",
           calls_cold, (double)calls_cold / steps, missed_cold, t_cold);
    gsfw_dmo_free(warm);
    free(x);
    free(w);
    free(y);
    free(support);
    gsfw_graph_free(g);
    return 0;
}
