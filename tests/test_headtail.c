/* Head / tail projections: head DMO feasibility and the sqrt(1/14) guarantee against a
 * brute force over M(G, s, g) on tiny graphs, the window search, the warm start, tail
 * sizes and components, input checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsfw.h"
#include "graph/graph_internal.h" /* the graph's fields */
#include "oracles/headtail/headtail_internal.h" /* near_missed */
#include "util/splitmix.h"

static uint64_t rng_next(uint64_t *s) { return gsfw_splitmix64(s); }
static double rng_unif(uint64_t *s) { return gsfw_splitmix_uniform(s); }
static int rng_int(uint64_t *s, int n) { return (int)(rng_next(s) % (uint64_t)n); }
static double rng_normal(uint64_t *s) { return gsfw_splitmix_normal(s); }

/* number of components of the support (and checks ids are distinct and in range) */
static int support_components(const gsfw_graph *g, const int *S, int k)
{
    unsigned char *mask = calloc((size_t)g->n, 1);
    int *work = malloc(2 * (size_t)g->n * sizeof *work);
    for (int i = 0; i < k; i++) {
        assert_true(S[i] >= 0 && S[i] < g->n);
        assert_int_equal(mask[S[i]], 0);
        mask[S[i]] = 1;
    }
    int c = gsfw_graph_induced_components(g, mask, work);
    free(mask);
    free(work);
    return c;
}

/* max ||z_S||^2 over S in M(G, s, g): subsets of at most s nodes in at most g components */
static double brute_force(const gsfw_graph *g, const double *z, int s, int gc)
{
    int n = g->n;
    unsigned char *mask = calloc((size_t)n, 1);
    int *work = malloc(2 * (size_t)n * sizeof *work);
    double best = 0.0;
    for (unsigned long sub = 1; sub < (1ul << n); sub++) {
        if (__builtin_popcountl(sub) > s) continue;
        double e = 0;
        for (int i = 0; i < n; i++) {
            mask[i] = (unsigned char)(sub >> i & 1);
            if (mask[i]) e += z[i] * z[i];
        }
        if (e <= best) continue;
        if (gsfw_graph_induced_components(g, mask, work) <= gc) best = e;
    }
    free(mask);
    free(work);
    return best;
}

static gsfw_graph *random_graph(uint64_t *seed, int n, double p)
{
    int u[64], v[64], m = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n && m < 64; b++)
            if (rng_unif(seed) < p) {
                u[m] = a;
                v[m] = b;
                m++;
            }
    gsfw_graph *g = NULL;
    assert_int_equal(gsfw_graph_from_edges(n, m, u, v, NULL, &g, NULL), GSFW_OK);
    return g;
}

static void check_head_guarantee(gsfw_proj_method method)
{
    uint64_t seed = method == GSFW_PROJ_PRACTICAL ? 11 : 12;
    double worst = INFINITY;
    for (int trial = 0; trial < 150; trial++) {
        gsfw_graph *g = NULL;
        int kind = trial % 3;
        if (kind == 0)
            assert_int_equal(gsfw_graph_grid(3, 3, &g, NULL), GSFW_OK);
        else if (kind == 1)
            assert_int_equal(gsfw_graph_grid(2, 5, &g, NULL), GSFW_OK);
        else
            g = random_graph(&seed, 6 + rng_int(&seed, 5), 0.35);
        int s = 1 + rng_int(&seed, 4);
        if (s > g->n) s = g->n;
        int gc = 1 + rng_int(&seed, s < 2 ? 1 : 2);
        double z[16];
        for (int i = 0; i < g->n; i++) z[i] = rng_int(&seed, 4) ? rng_normal(&seed) : 0.0;
        gsfw_proj_settings st;
        gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, s, gc);
        st.method = method;
        gsfw_dmo *dmo = NULL;
        gsfw_err err;
        assert_int_equal(gsfw_dmo_headtail(g, &st, &dmo, &err), GSFW_OK);
        assert_true(fabs(dmo->delta - sqrt(1.0 / 14.0)) < 1e-15);
        assert_non_null(strstr(dmo->model, "M(G, 2s+g, g)"));
        int S[16], k = -1;
        gsfw_dmo_stats stats = {{0}};
        assert_int_equal(dmo->select(dmo->ctx, z, S, &k, &stats), 0);
        assert_true(stats.count[GSFW_COUNT_PCSF_CALLS] >= (method == GSFW_PROJ_PRACTICAL ? 1 : 0));
        assert_true(k >= 0 && k <= 2 * s + gc);
        assert_true(k <= dmo->max_support);
        assert_true(support_components(g, S, k) <= gc);
        double e = 0;
        for (int i = 0; i < k; i++) e += z[S[i]] * z[S[i]];
        double opt = brute_force(g, z, s, gc);
        if (opt > 0) {
            double ratio = sqrt(e / opt);
            if (ratio < worst) worst = ratio;
            if (!(ratio >= sqrt(1.0 / 14.0))) {
                fprintf(stderr, "trial %d: ||z_S|| / opt = %g < sqrt(1/14)\n", trial, ratio);
                fail();
            }
        }
        gsfw_dmo_free(dmo);
        gsfw_graph_free(g);
    }
    fprintf(stderr, "  head (%s): worst ||z_S|| / OPT = %.3f (bound %.3f)\n",
            method == GSFW_PROJ_PRACTICAL ? "practical" : "theory", worst, sqrt(1.0 / 14.0));
}

static void test_head_practical_guarantee(void **state)
{
    (void)state;
    check_head_guarantee(GSFW_PROJ_PRACTICAL);
}

static void test_head_theory_guarantee(void **state)
{
    (void)state;
    check_head_guarantee(GSFW_PROJ_THEORY);
}

/* A planted connected blob on a grid: the window is hit. */
static void test_window_hits(void **state)
{
    (void)state;
    uint64_t seed = 21;
    int hits = 0, trials = 12;
    for (int t = 0; t < trials; t++) {
        gsfw_graph *g = NULL;
        assert_int_equal(gsfw_graph_grid(20, 20, &g, NULL), GSFW_OK);
        int s = 20 + rng_int(&seed, 30);
        double z[400];
        int r0 = rng_int(&seed, 10), c0 = rng_int(&seed, 10);
        for (int i = 0; i < 400; i++) {
            int r = i / 20, c = i % 20;
            double dist = hypot(r - r0 - 5, c - c0 - 5);
            z[i] = (dist < 5 ? 3.0 : 0.0) + 0.3 * rng_normal(&seed);
        }
        gsfw_proj_settings st;
        gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, s, 1);
        gsfw_headtail *ht = NULL;
        assert_int_equal(gsfw_headtail_create(g, &st, &ht, NULL), GSFW_OK);
        int S[400], k;
        gsfw_proj_info info;
        assert_int_equal(gsfw_headtail_project(ht, z, S, &k, &info, NULL), GSFW_OK);
        assert_int_equal(info.size, k);
        assert_true(info.pcsf_calls >= 1 && info.pcsf_calls <= st.max_calls);
        if (!info.window_missed) {
            assert_true(k >= st.s_low && k <= st.s_high);
            hits++;
        } else {
            assert_true(k <= st.s_high); /* the lambda_hi answer */
        }
        assert_int_equal(support_components(g, S, k), 1);
        gsfw_headtail_free(ht);
        gsfw_graph_free(g);
    }
    fprintf(stderr, "  window hit in %d of %d planted instances\n", hits, trials);
    assert_true(hits >= trials * 3 / 4);
}

/* Warm start: a slowly changing sequence needs few PCSF calls per projection. */
static void test_warm_start(void **state)
{
    (void)state;
    gsfw_graph *g = NULL;
    assert_int_equal(gsfw_graph_grid(30, 30, &g, NULL), GSFW_OK);
    int n = g->n, s = 60;
    double *x = malloc((size_t)n * sizeof *x), *w = malloc((size_t)n * sizeof *w),
           *y = malloc((size_t)n * sizeof *y);
    int *S = malloc((size_t)n * sizeof *S);
    uint64_t seed = 5;
    for (int i = 0; i < n; i++) {
        x[i] = rng_normal(&seed);
        w[i] = rng_normal(&seed);
    }
    gsfw_dmo *warm = NULL, *cold_dmo = NULL;
    assert_int_equal(gsfw_dmo_head(g, s, 1, &warm, NULL), GSFW_OK);
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, s, 1);
    st.warm_start = 0;
    assert_int_equal(gsfw_dmo_headtail(g, &st, &cold_dmo, NULL), GSFW_OK);
    long calls_warm = 0, calls_cold = 0;
    int steps = 20, k;
    for (int t = 0; t < steps; t++) {
        for (int i = 0; i < n; i++) y[i] = x[i] + 0.003 * t * w[i];
        gsfw_dmo_stats a = {{0}}, b = {{0}};
        assert_int_equal(warm->select(warm->ctx, y, S, &k, &a), 0);
        assert_true(k >= 1);
        assert_int_equal(cold_dmo->select(cold_dmo->ctx, y, S, &k, &b), 0);
        if (t > 0) {
            calls_warm += a.count[GSFW_COUNT_PCSF_CALLS];
            calls_cold += b.count[GSFW_COUNT_PCSF_CALLS];
        }
    }
    fprintf(stderr, "  PCSF calls per projection: warm %.2f, cold %.2f\n",
            (double)calls_warm / (steps - 1), (double)calls_cold / (steps - 1));
    assert_true(calls_warm < calls_cold);
    assert_true(2 * calls_warm <= 5 * (steps - 1)); /* at most 2.5 runs per projection */
    gsfw_dmo_free(warm);
    gsfw_dmo_free(cold_dmo);
    free(x);
    free(w);
    free(y);
    free(S);
    gsfw_graph_free(g);
}

/* ||z_S||^2 */
static double energy_of(const double *z, const int *S, int k)
{
    double e = 0.0;
    for (int i = 0; i < k; i++) e += z[S[i]] * z[S[i]];
    return e;
}

/* ||top_s(z)||^2, an upper bound on the best set of M(G, s, g) */
static double top_energy(const double *z, int n, int s)
{
    double *a = malloc((size_t)n * sizeof *a);
    for (int i = 0; i < n; i++) a[i] = z[i] * z[i];
    double e = 0.0;
    for (int j = 0; j < s; j++) { /* s passes: the inputs are small */
        int best = 0;
        for (int i = 1; i < n; i++)
            if (a[i] > a[best]) best = i;
        e += a[best];
        a[best] = -1.0;
    }
    free(a);
    return e;
}

/* A sequence that alternates between two slowly drifting regimes, as accelerated
 * Frank-Wolfe's gradients do, on a 60 x 60 grid: bases a (normal) and b (cubed normals,
 * heavier tails: another lambda per unit of prize), drift w; alternating_at puts step t's
 * vector in y. S is a support buffer of n ids. */
typedef struct {
    gsfw_graph *g;
    int n;
    double *a, *b, *w, *y;
    int *S;
} alternating;

static alternating alternating_new(void)
{
    alternating q = {0};
    assert_int_equal(gsfw_graph_grid(60, 60, &q.g, NULL), GSFW_OK);
    const int n = q.n = q.g->n;
    q.a = malloc((size_t)n * sizeof *q.a);
    q.b = malloc((size_t)n * sizeof *q.b);
    q.w = malloc((size_t)n * sizeof *q.w);
    q.y = malloc((size_t)n * sizeof *q.y);
    q.S = malloc((size_t)n * sizeof *q.S);
    uint64_t seed = 11;
    for (int i = 0; i < n; i++) {
        q.a[i] = rng_normal(&seed);
        q.b[i] = rng_normal(&seed);
        q.b[i] = q.b[i] * q.b[i] * q.b[i];
        q.w[i] = rng_normal(&seed);
    }
    return q;
}

static void alternating_at(alternating *q, int t)
{
    const double *base = t % 2 ? q->b : q->a;
    for (int i = 0; i < q->n; i++) q->y[i] = (1.0 + 0.05 * t) * (base[i] + 0.004 * t * q->w[i]);
}

static void alternating_free(alternating *q)
{
    free(q->a);
    free(q->b);
    free(q->w);
    free(q->y);
    free(q->S);
    gsfw_graph_free(q->g);
}

/* Near-miss mode on a sequence that alternates between two slowly drifting regimes, as
 * accelerated Frank-Wolfe's gradients do: every answer lies in the window with at most g
 * components and keeps the certified head's guarantee, it takes fewer PCSF runs than the
 * search without it (at most 1.5 per projection once two calls are remembered), and the
 * automatic setting (near_miss = 0) is the mode with its band of 0.2. */
static void test_near_miss(void **state)
{
    (void)state;
    alternating q = alternating_new();
    const gsfw_graph *g = q.g;
    const int n = q.n, s = 300, gc = 2, steps = 30;
    const double *y = q.y;
    int *S = q.S, *S0 = malloc((size_t)n * sizeof *S0);
    gsfw_dmo *near = NULL, *off = NULL, *automatic = NULL, *unrepaired = NULL,
             *unrepaired_off = NULL;
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, s, gc);
    assert_true(st.near_miss == 0.0); /* automatic by default */
    assert_int_equal(gsfw_dmo_headtail(g, &st, &automatic, NULL), GSFW_OK);
    st.near_miss = -1.0;
    assert_int_equal(gsfw_dmo_headtail(g, &st, &off, NULL), GSFW_OK);
    st.repair_size = 0; /* no repair, no near misses: the answer stays the search's */
    assert_int_equal(gsfw_dmo_headtail(g, &st, &unrepaired_off, NULL), GSFW_OK);
    st.near_miss = 0.2;
    assert_int_equal(gsfw_dmo_headtail(g, &st, &unrepaired, NULL), GSFW_OK);
    st.repair_size = 1;
    assert_int_equal(gsfw_dmo_headtail(g, &st, &near, NULL), GSFW_OK);
    long runs_near = 0, runs_off = 0;
    for (int t = 0; t < steps; t++) {
        alternating_at(&q, t);
        gsfw_dmo_stats sn = {{0}}, so = {{0}}, sa = {{0}};
        int k = 0, k0 = 0, ka = 0;
        assert_int_equal(near->select(near->ctx, y, S, &k, &sn), 0);
        assert_true(k >= st.s_low && k <= 2 * s + gc); /* the window, or the theory head's */
        assert_true(support_components(g, S, k) <= gc);
        assert_true(14.0 * energy_of(y, S, k) >= top_energy(y, n, s));
        assert_int_equal(automatic->select(automatic->ctx, y, S0, &ka, &sa), 0);
        assert_int_equal(ka, k); /* the automatic mode is the near-miss mode, band 0.2 */
        assert_memory_equal(S0, S, (size_t)k * sizeof *S);
        assert_int_equal(off->select(off->ctx, y, S0, &k0, &so), 0);
        int ku = 0, ku0 = 0;
        assert_int_equal(unrepaired->select(unrepaired->ctx, y, S, &ku, NULL), 0);
        assert_int_equal(unrepaired_off->select(unrepaired_off->ctx, y, S0, &ku0, NULL), 0);
        assert_int_equal(ku, ku0);
        assert_memory_equal(S, S0, (size_t)ku0 * sizeof *S);
        if (t >= 2) {
            runs_near += sn.count[GSFW_COUNT_PCSF_CALLS];
            runs_off += so.count[GSFW_COUNT_PCSF_CALLS];
        }
    }
    fprintf(stderr, "  PCSF runs per projection, alternating regimes: near-miss %.2f, "
            "without %.2f\n", (double)runs_near / (steps - 2), (double)runs_off / (steps - 2));
    assert_true(runs_near < runs_off);
    assert_true(2 * runs_near <= 3 * (steps - 2));
    gsfw_dmo_free(near);
    gsfw_dmo_free(off);
    gsfw_dmo_free(automatic);
    gsfw_dmo_free(unrepaired);
    gsfw_dmo_free(unrepaired_off);
    free(S0);
    alternating_free(&q);
}

/* A near miss is repaired to s_low nodes, the model's size with the default window (a
 * repair to the window's top keeps nodes the search would not have taken); the sequence
 * of test_near_miss, through gsfw_headtail, so that each call's way of ending is seen. */
static void test_near_miss_repairs_to_s_low(void **state)
{
    (void)state;
    alternating q = alternating_new();
    const gsfw_graph *g = q.g;
    const int s = 300, gc = 2, steps = 30;
    const double *y = q.y;
    int *S = q.S;
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, s, gc);
    assert_true(st.s_high > st.s_low);
    gsfw_headtail *ht = NULL;
    assert_int_equal(gsfw_headtail_create(g, &st, &ht, NULL), GSFW_OK);
    int near_misses = 0;
    for (int t = 0; t < steps; t++) {
        alternating_at(&q, t);
        int k = 0;
        gsfw_proj_info info;
        assert_int_equal(gsfw_headtail_project(ht, y, S, &k, &info, NULL), GSFW_OK);
        assert_true(k >= st.s_low && k <= st.s_high);
        assert_true(support_components(g, S, k) <= gc);
        if (ht->near_missed) {
            assert_true(info.size_repaired);
            assert_int_equal(k, st.s_low);
            near_misses++;
        }
    }
    fprintf(stderr, "  near misses: %d of %d projections\n", near_misses, steps);
    assert_true(near_misses > 0);
    gsfw_headtail_free(ht);
    alternating_free(&q);
}

/* A projection of the zero vector ends the sequence the warm start and the near-miss
 * memory describe: the call after it does exactly what a fresh projector's first call
 * does (the same PCSF runs, lambda and support), with or without near misses, for head
 * and tail projections. Remembered, the lambdas of vectors before the zero one would
 * seed its search (the near-miss prediction, and the zero call's missed window read as
 * a jump of k(lambda) just above the last lambda). */
static void test_zero_vector_forgets(void **state)
{
    (void)state;
    gsfw_graph *g = NULL;
    assert_int_equal(gsfw_graph_grid(40, 40, &g, NULL), GSFW_OK);
    const int n = g->n, s = 120;
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b),
           *c = malloc((size_t)n * sizeof *c), *zero = calloc((size_t)n, sizeof *zero);
    int *S = malloc((size_t)n * sizeof *S), *S0 = malloc((size_t)n * sizeof *S0);
    uint64_t seed = 21;
    for (int i = 0; i < n; i++) {
        a[i] = rng_normal(&seed);
        b[i] = 3.0 * rng_normal(&seed); /* other scales: other lambdas */
        double e = rng_normal(&seed);
        c[i] = 0.01 * e * e * e;
    }
    const gsfw_proj_kind kinds[2] = {GSFW_PROJ_HEAD, GSFW_PROJ_TAIL};
    const double bands[2] = {-1.0, 0.2}; /* near misses off, on */
    for (int kind = 0; kind < 2; kind++)
        for (int band = 0; band < 2; band++) {
            gsfw_proj_settings st;
            gsfw_proj_settings_default(&st, kinds[kind], s, 2);
            st.near_miss = bands[band];
            gsfw_headtail *used = NULL, *fresh = NULL;
            assert_int_equal(gsfw_headtail_create(g, &st, &used, NULL), GSFW_OK);
            assert_int_equal(gsfw_headtail_create(g, &st, &fresh, NULL), GSFW_OK);
            const double *before[] = {a, b, a, b, zero};
            gsfw_proj_info info, info0;
            int k = 0, k0 = 0;
            for (int t = 0; t < 5; t++)
                assert_int_equal(gsfw_headtail_project(used, before[t], S, &k, &info, NULL),
                                 GSFW_OK);
            assert_int_equal(gsfw_headtail_project(used, c, S, &k, &info, NULL), GSFW_OK);
            assert_int_equal(gsfw_headtail_project(fresh, c, S0, &k0, &info0, NULL), GSFW_OK);
            if (info.pcsf_calls != info0.pcsf_calls || info.lambda != info0.lambda)
                fail_msg("%s, near_miss %g: after z = 0, %d PCSF runs to lambda %.17g; a "
                         "fresh projector's first call: %d to %.17g",
                         kind ? "tail" : "head", bands[band], info.pcsf_calls, info.lambda,
                         info0.pcsf_calls, info0.lambda);
            assert_int_equal(k, k0);
            assert_memory_equal(S, S0, (size_t)k0 * sizeof *S);
            gsfw_headtail_free(used);
            gsfw_headtail_free(fresh);
        }
    free(a);
    free(b);
    free(c);
    free(zero);
    free(S);
    free(S0);
    gsfw_graph_free(g);
}

static void test_tail_sizes(void **state)
{
    (void)state;
    uint64_t seed = 8;
    for (int t = 0; t < 12; t++) {
        gsfw_graph *g = NULL;
        assert_int_equal(gsfw_graph_grid(12, 15, &g, NULL), GSFW_OK);
        int s = 10 + rng_int(&seed, 30), gc = 1 + rng_int(&seed, 3);
        double z[180];
        for (int i = 0; i < g->n; i++) z[i] = rng_normal(&seed);
        for (int method = 0; method < 2; method++) {
            gsfw_proj_settings st;
            gsfw_proj_settings_default(&st, GSFW_PROJ_TAIL, s, gc);
            st.method = (gsfw_proj_method)method;
            gsfw_dmo *dmo = NULL;
            assert_int_equal(gsfw_dmo_headtail(g, &st, &dmo, NULL), GSFW_OK);
            assert_true(dmo->delta == 0.0);
            int S[180], k;
            gsfw_dmo_stats stats = {{0}};
            assert_int_equal(dmo->select(dmo->ctx, z, S, &k, &stats), 0);
            assert_true(k >= 1);
            assert_true(support_components(g, S, k) <= gc);
            if (method == GSFW_PROJ_PRACTICAL)
                assert_true(k <= st.s_high);
            else /* support in the (G, 2 nu s + g, g) model */
                assert_true(k <= (int)(2 * st.nu * s) + gc);
            for (int i = 1; i < k; i++) assert_true(S[i - 1] < S[i]);
            gsfw_dmo_free(dmo);
        }
        gsfw_graph_free(g);
    }
    /* the public tail constructor */
    gsfw_graph *g = NULL;
    assert_int_equal(gsfw_graph_grid(5, 5, &g, NULL), GSFW_OK);
    gsfw_dmo *tail = NULL;
    assert_int_equal(gsfw_dmo_tail(g, 5, 1, &tail, NULL), GSFW_OK);
    assert_string_equal(tail->name, "tail");
    gsfw_dmo_free(tail);
    gsfw_graph_free(g);
}

static void test_checks(void **state)
{
    (void)state;
    gsfw_graph *g = NULL;
    assert_int_equal(gsfw_graph_grid(3, 3, &g, NULL), GSFW_OK);
    gsfw_dmo *dmo = NULL;
    gsfw_err err;
    assert_int_not_equal(gsfw_dmo_head(g, 0, 1, &dmo, &err), GSFW_OK);
    assert_int_not_equal(gsfw_dmo_head(g, 10, 1, &dmo, &err), GSFW_OK);
    assert_int_not_equal(gsfw_dmo_head(g, 2, 3, &dmo, &err), GSFW_OK);
    assert_int_not_equal(gsfw_dmo_tail(NULL, 2, 1, &dmo, &err), GSFW_OK);
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, 3, 1);
    st.s_low = 5;
    st.s_high = 4;
    gsfw_headtail *ht = NULL;
    assert_int_equal(gsfw_headtail_create(g, &st, &ht, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "window"));
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, 3, 1);
    st.near_miss = NAN;
    assert_int_equal(gsfw_headtail_create(g, &st, &ht, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "near_miss"));
    st.near_miss = 1.0; /* the band must leave some size out */
    assert_int_equal(gsfw_headtail_create(g, &st, &ht, &err), GSFW_ERR_INVALID_ARG);
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, 3, 1);
    assert_int_equal(gsfw_headtail_create(g, &st, &ht, &err), GSFW_OK);
    double z[9] = {1, 2, 3, NAN, 0, 0, 0, 0, 0};
    int S[9], k;
    assert_int_equal(gsfw_headtail_project(ht, z, S, &k, NULL, &err), GSFW_ERR_NONFINITE);
    /* z = 0: an answer, no crash, no endless search */
    memset(z, 0, sizeof z);
    gsfw_proj_info info;
    assert_int_equal(gsfw_headtail_project(ht, z, S, &k, &info, &err), GSFW_OK);
    assert_true(info.pcsf_calls <= 2);
    gsfw_headtail_free(ht);
    gsfw_graph_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_head_practical_guarantee),
        cmocka_unit_test(test_head_theory_guarantee),
        cmocka_unit_test(test_window_hits),
        cmocka_unit_test(test_warm_start),
        cmocka_unit_test(test_near_miss),
        cmocka_unit_test(test_near_miss_repairs_to_s_low),
        cmocka_unit_test(test_zero_vector_forgets),
        cmocka_unit_test(test_tail_sizes),
        cmocka_unit_test(test_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
