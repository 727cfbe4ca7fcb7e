/* Quality of the practical head / tail projections against the exact optimum, with the
 * size repair off ("before": the lambda-search alone, repair_size = 0) and on ("after",
 * the default), measured side by side on the same instances.
 *
 *   bench_headtail_quality [--seeds N] [--lesmis FILE]
 *
 * Instances: grids 3x3, 3x4, 4x4, 4x5; random connected graphs with 8..14 nodes (a random
 * tree plus each other pair with probability 0.15); the Les Miserables graph (77 nodes,
 * tests/data/lesmis_edges.txt). z is normal, or normal rounded to integers (ties), from
 * the splitmix64 generator. s = 2..6 (2..5 on Les Miserables, where s = 6 exceeds the
 * brute force's enumeration limit), g = 1, 2; a fresh oracle per instance (as in
 * `gsfw dmo`). Every graph here is connected, so a set of the model with s nodes always
 * exists.
 *
 * Last rows: the 10 x 10 grid with s = 10, g = 1 (too large for the brute force: the
 * window only).
 *
 * Then the cost of the repair in a warm-started sequence (see repair_cost).
 *
 * Columns: runs; in-window: how many outputs have a size in [s, floor(1.05 s)] (= s
 * here) and at most g components; the energy ratio sum_{i in S} z_i^2 / OPT, OPT the
 * exact maximum over M(G, s, g) (gsfw_dmo_brute_force), mean and worst. The head DMO
 * may return the theory head's answer (up to 2s + g nodes) when the practical one does
 * not certify delta = sqrt(1/14); its ratio can then exceed 1. */
#include "core/internal.h"
#include "util/splitmix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long runs, in_window[2];
    double sum_ratio[2], worst_ratio[2];
} tally;

static void tally_init(tally *t)
{
    memset(t, 0, sizeof *t);
    t->worst_ratio[0] = t->worst_ratio[1] = INFINITY;
}

static gsfw_graph *random_connected(uint64_t *st, int n)
{
    int u[128], v[128], m = 0;
    for (int i = 1; i < n; i++) {
        u[m] = (int)(gsfw_splitmix64(st) % (uint64_t)i);
        v[m++] = i;
    }
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n && m < 128; b++) {
            int tree_edge = 0;
            for (int e = 0; e < n - 1; e++)
                if (u[e] == a && v[e] == b) tree_edge = 1;
            if (!tree_edge && gsfw_splitmix_uniform(st) < 0.15) {
                u[m] = a;
                v[m++] = b;
            }
        }
    gsfw_graph *g = NULL;
    if (gsfw_graph_from_edges(n, m, u, v, NULL, &g, NULL)) return NULL;
    return g;
}

static gsfw_graph *load_lesmis(const char *path)
{
    int m = 0, *u = NULL, *v = NULL;
    double *c = NULL;
    gsfw_err err;
    gsfw_graph *g = NULL;
    if (gsfw_edges_read(path, 77, &m, &u, &v, &c, &err) ||
        gsfw_graph_from_edges(77, m, u, v, NULL, &g, &err)) {
        fprintf(stderr, "bench_headtail_quality: %s\n", err.message);
        g = NULL;
    }
    gsfw_free(u);
    gsfw_free(v);
    gsfw_free(c);
    return g;
}

/* One instance: both kinds, repair off and on. Returns 0 on success. */
static int run_instance(const gsfw_graph *g, const double *z, int s, int gc, tally t[2])
{
    int n = g->n, *S = malloc((size_t)n * sizeof *S), *work = malloc(2 * (size_t)n * sizeof *work);
    unsigned char *mask = calloc((size_t)n, 1);
    gsfw_dmo *brute = NULL;
    int ok = S && work && mask && !gsfw_dmo_brute_force(g, s, gc, &brute, NULL);
    int k = 0;
    double opt = 0.0;
    if (ok) ok = !brute->select(brute->ctx, z, S, &k, NULL);
    for (int i = 0; ok && i < k; i++) opt += z[S[i]] * z[S[i]];
    for (int kind = 0; ok && kind < 2; kind++) {
        t[kind].runs++;
        for (int repair = 0; ok && repair < 2; repair++) {
            gsfw_proj_settings st;
            gsfw_proj_settings_default(&st, kind ? GSFW_PROJ_TAIL : GSFW_PROJ_HEAD, s, gc);
            st.repair_size = repair;
            gsfw_dmo *dmo = NULL;
            ok = !gsfw_dmo_headtail(g, &st, &dmo, NULL) && !dmo->select(dmo->ctx, z, S, &k, NULL);
            gsfw_dmo_free(dmo);
            if (!ok) break;
            double e = 0.0;
            for (int i = 0; i < k; i++) {
                e += z[S[i]] * z[S[i]];
                mask[S[i]] = 1;
            }
            int comps = gsfw_graph_induced_components(g, mask, work);
            memset(mask, 0, (size_t)n);
            if (k >= st.s_low && k <= st.s_high && comps <= gc) t[kind].in_window[repair]++;
            double ratio = opt > 0 ? e / opt : 1.0;
            t[kind].sum_ratio[repair] += ratio;
            if (ratio < t[kind].worst_ratio[repair]) t[kind].worst_ratio[repair] = ratio;
        }
    }
    gsfw_dmo_free(brute);
    free(S);
    free(work);
    free(mask);
    return ok ? 0 : 1;
}

static void print_row(const char *family, const char *zkind, const tally t[2])
{
    for (int kind = 0; kind < 2; kind++)
        printf("%-16s %-7s %-5s %5ld   %5ld %5ld    %.3f %.3f    %.3f %.3f\n", family, zkind,
               kind ? "tail" : "head", t[kind].runs, t[kind].in_window[0], t[kind].in_window[1],
               t[kind].sum_ratio[0] / (double)t[kind].runs,
               t[kind].sum_ratio[1] / (double)t[kind].runs, t[kind].worst_ratio[0],
               t[kind].worst_ratio[1]);
}

static void draw_z(uint64_t *st, double *z, int n, int ties)
{
    for (int i = 0; i < n; i++) {
        double x = gsfw_splitmix_normal(st);
        z[i] = ties ? round(1.5 * x) : x;
    }
}

/* What the repair costs in an iterative solver: a warm-started head DMO on the 100 x 100
 * grid with s = 622 projects 30 slowly changing vectors x + 0.02 t w (as bench_head),
 * with the repair off and on, alternating, best of `reps` timings of the sequence. */
static int repair_cost(int reps)
{
    gsfw_graph *g = NULL;
    if (gsfw_graph_grid(100, 100, &g, NULL)) return 1;
    const int n = g->n, steps = 30;
    double *x = malloc((size_t)n * sizeof *x), *w = malloc((size_t)n * sizeof *w),
           *y = malloc((size_t)n * sizeof *y);
    int *S = malloc((size_t)n * sizeof *S), k;
    if (!x || !w || !y || !S) return 1;
    uint64_t st = 20220101ULL;
    for (int i = 0; i < n; i++) x[i] = gsfw_splitmix_normal(&st);
    for (int i = 0; i < n; i++) w[i] = gsfw_splitmix_normal(&st);
    double best[2] = {INFINITY, INFINITY};
    long missed[2] = {0, 0}, in_window[2] = {0, 0};
    if (reps > 5) reps = 5;
    for (int r = 0; r < reps; r++)
        for (int repair = 0; repair < 2; repair++) {
            gsfw_proj_settings ps;
            gsfw_proj_settings_default(&ps, GSFW_PROJ_HEAD, 622, 1);
            ps.repair_size = repair;
            gsfw_dmo *dmo = NULL;
            if (gsfw_dmo_headtail(g, &ps, &dmo, NULL)) return 1;
            missed[repair] = in_window[repair] = 0;
            double t0 = gsfw_now();
            for (int t = 0; t < steps; t++) {
                for (int i = 0; i < n; i++) y[i] = x[i] + 0.02 * t * w[i];
                gsfw_dmo_stats ds = {{0}};
                if (dmo->select(dmo->ctx, y, S, &k, &ds)) return 1;
                missed[repair] += ds.count[GSFW_COUNT_WINDOW_MISSED];
                in_window[repair] += k >= ps.s_low && k <= ps.s_high;
            }
            double dt = gsfw_now() - t0;
            if (dt < best[repair]) best[repair] = dt;
            gsfw_dmo_free(dmo);
        }
    printf("\nwarm head DMO, 100x100 grid, s = 622, %d steps (best of %d):\n", steps, reps);
    for (int repair = 0; repair < 2; repair++)
        printf("  repair %-3s  window missed %2ld  in window %2ld  time %.4f s\n",
               repair ? "on" : "off", missed[repair], in_window[repair], best[repair]);
    printf("  time ratio on / off %.3f\n", best[1] / best[0]);
    free(x);
    free(w);
    free(y);
    free(S);
    gsfw_graph_free(g);
    return 0;
}

int main(int argc, char **argv)
{
    int seeds = 20;
    const char *lesmis_path = GSFW_SOURCE_DIR "/tests/data/lesmis_edges.txt";
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--seeds") && a + 1 < argc) {
            seeds = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "--lesmis") && a + 1 < argc) {
            lesmis_path = argv[++a];
        } else {
            fprintf(stderr, "usage: bench_headtail_quality [--seeds N] [--lesmis FILE]\n");
            return 2;
        }
    }
    if (seeds < 1) seeds = 1;
    printf("%-16s %-7s %-5s %5s   %-11s    %-11s    %-11s\n", "family", "z", "oracle", "runs",
           "in-window", "mean ratio", "worst ratio");
    printf("%-16s %-7s %-5s %5s   %5s %5s    %5s %5s    %5s %5s\n", "", "", "", "", "before",
           "after", "before", "after", "before", "after");
    static const int grids[4][2] = {{3, 3}, {3, 4}, {4, 4}, {4, 5}};
    gsfw_graph *lesmis = load_lesmis(lesmis_path);
    if (!lesmis) return 1;
    double z[128];
    for (int ties = 0; ties < 2; ties++) {
        const char *zk = ties ? "ties" : "normal";
        tally t[2];
        /* grids */
        tally_init(&t[0]);
        tally_init(&t[1]);
        uint64_t st = 1000 + (uint64_t)ties;
        for (int gi = 0; gi < 4; gi++) {
            gsfw_graph *g = NULL;
            if (gsfw_graph_grid(grids[gi][0], grids[gi][1], &g, NULL)) return 1;
            for (int s = 2; s <= 6; s++)
                for (int gc = 1; gc <= 2; gc++)
                    for (int r = 0; r < seeds; r++) {
                        draw_z(&st, z, g->n, ties);
                        if (run_instance(g, z, s, gc, t)) return 1;
                    }
            gsfw_graph_free(g);
        }
        print_row("grid 3x3..4x5", zk, t);
        /* random connected graphs */
        tally_init(&t[0]);
        tally_init(&t[1]);
        st = 2000 + (uint64_t)ties;
        for (int s = 2; s <= 6; s++)
            for (int gc = 1; gc <= 2; gc++)
                for (int r = 0; r < 4 * seeds; r++) {
                    int n = 8 + (int)(gsfw_splitmix64(&st) % 7);
                    gsfw_graph *g = random_connected(&st, n);
                    if (!g) return 1;
                    draw_z(&st, z, n, ties);
                    if (run_instance(g, z, s, gc, t)) return 1;
                    gsfw_graph_free(g);
                }
        print_row("random n<=14", zk, t);
        /* Les Miserables */
        tally_init(&t[0]);
        tally_init(&t[1]);
        st = 3000 + (uint64_t)ties;
        for (int s = 2; s <= 5; s++)
            for (int gc = 1; gc <= 2; gc++)
                for (int r = 0; r < seeds; r++) {
                    draw_z(&st, z, lesmis->n, ties);
                    if (run_instance(lesmis, z, s, gc, t)) return 1;
                }
        print_row("les miserables", zk, t);
    }
    /* the case users met: 10 x 10 grid, s = 10, g = 1 (no brute force: window only) */
    gsfw_graph *grid = NULL;
    if (gsfw_graph_grid(10, 10, &grid, NULL)) return 1;
    uint64_t st = 4000;
    long runs = 0, hits[2][2] = {{0, 0}, {0, 0}};
    int S[100], k;
    for (int r = 0; r < 5 * seeds; r++, runs++) {
        draw_z(&st, z, 100, 0);
        for (int kind = 0; kind < 2; kind++)
            for (int repair = 0; repair < 2; repair++) {
                gsfw_proj_settings ps;
                gsfw_proj_settings_default(&ps, kind ? GSFW_PROJ_TAIL : GSFW_PROJ_HEAD, 10, 1);
                ps.repair_size = repair;
                gsfw_dmo *dmo = NULL;
                if (gsfw_dmo_headtail(grid, &ps, &dmo, NULL) ||
                    dmo->select(dmo->ctx, z, S, &k, NULL))
                    return 1;
                hits[kind][repair] += k >= ps.s_low && k <= ps.s_high && dmo->contains(dmo->ctx, S, k);
                gsfw_dmo_free(dmo);
            }
    }
    for (int kind = 0; kind < 2; kind++)
        printf("%-16s %-7s %-5s %5ld   %5ld %5ld    %5s %5s    %5s %5s\n", "grid 10x10 s=10",
               "normal", kind ? "tail" : "head", runs, hits[kind][0], hits[kind][1], "-", "-",
               "-", "-");
    gsfw_graph_free(grid);
    gsfw_graph_free(lesmis);
    return repair_cost(seeds);
}
