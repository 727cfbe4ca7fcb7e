/* The PCSF against the outputs of pcst_fast itself (scripts/reference builds it):
 * - its public unit tests and those of its ports (tests/data/pcsf-peer-tests.json), which
 *   pass with both merge tolerances;
 * - 800 random instances (tests/data/pcsf-reference-random.json), outputs of the
 *   original sources (tolerance 1e-10), run with that tolerance and with the default;
 * - image-like 100 x 100 grids (tests/data/pcsf-reference-images.json) on which the
 *   tolerances 1e-6 (pcst_fast as released) and 1e-10 give different outputs: each
 *   tolerance must reproduce its own reference;
 * - large grids (tests/data/pcsf-reference-large.json): bench_pcsf's 316 x 316 grid with
 *   strong and GW pruning and a 200 x 200 image grid on which the tolerances differ,
 *   checked by output counts and hashes;
 * - a preferential-attachment network of 10^5 nodes (tests/data/pcsf-reference-network.json):
 *   hubs and costs that differ from edge to edge, which no grid has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsfw.h"
#include "../bench/pa_network.h"
#include "support/json_mini.h"
#include "util/splitmix.h"

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* got (sorted here) equals the JSON array want as a set; prints both when not. */
static void expect_set(int *got, int ngot, const json_value *want, const char *what)
{
    qsort(got, (size_t)ngot, sizeof(int), cmp_int);
    int *w = calloc(want->len + 1, sizeof(int));
    assert_non_null(w);
    for (size_t i = 0; i < want->len; i++) w[i] = (int)want->items[i].number;
    qsort(w, want->len, sizeof(int), cmp_int);
    int ok = (size_t)ngot == want->len;
    for (int i = 0; ok && i < ngot; i++) ok = got[i] == w[i];
    if (!ok) {
        fprintf(stderr, "%s: got %d ids, expected %zu:", what, ngot, want->len);
        for (int i = 0, shown = 0; i < ngot && shown < 20; i++)
            if (!bsearch(&got[i], w, want->len, sizeof(int), cmp_int)) {
                fprintf(stderr, " +%d", got[i]);
                shown++;
            }
        for (size_t i = 0, shown = 0; i < want->len && shown < 20; i++)
            if (!bsearch(&w[i], got, (size_t)ngot, sizeof(int), cmp_int)) {
                fprintf(stderr, " -%d", w[i]);
                shown++;
            }
        fprintf(stderr, "\n");
    }
    free(w);
    assert_true(ok);
}

/* Two JSON arrays of ids hold the same set (both come sorted from the generator). */
static int same_ids(const json_value *a, const json_value *b)
{
    if (a->len != b->len) return 0;
    for (size_t i = 0; i < a->len; i++)
        if (a->items[i].number != b->items[i].number) return 0;
    return 1;
}

static json_value *load(const char *path, size_t min_cases)
{
    char msg[256];
    json_value *cases = json_parse_file(path, msg, sizeof msg);
    if (!cases) fprintf(stderr, "%s\n", msg);
    assert_non_null(cases);
    assert_int_equal(cases->type, JSON_ARRAY);
    assert_true(cases->len >= min_cases);
    return cases;
}

/* Run every case of a fixture in the schema of pcsf-peer-tests.json through one reused
 * workspace with merge tolerance eps and compare node and edge sets with the expected
 * ones. */
static void run_fixture(const char *path, size_t min_cases, double eps)
{
    json_value *cases = load(path, min_cases);
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    assert_int_equal(gsfw_pcsf_set_tolerance(ws, eps, NULL), GSFW_OK);
    for (size_t k = 0; k < cases->len; k++) {
        const json_value *c = &cases->items[k];
        const char *name = json_get(c, "name")->string;
        int n = (int)json_get(c, "n_nodes")->number;
        const json_value *E = json_get(c, "edges"), *P = json_get(c, "prizes"),
                         *C = json_get(c, "costs");
        int m = (int)E->len;
        int *u = calloc((size_t)m + 1, sizeof *u), *v = calloc((size_t)m + 1, sizeof *v);
        double *cost = calloc((size_t)m + 1, sizeof *cost), *prize = calloc((size_t)n, sizeof *prize);
        int *on = calloc((size_t)n + 1, sizeof *on), *oe = calloc((size_t)m + 1, sizeof *oe);
        assert_true(u && v && cost && prize && on && oe);
        assert_int_equal((int)P->len, n);
        for (int e = 0; e < m; e++) {
            u[e] = (int)E->items[e].items[0].number;
            v[e] = (int)E->items[e].items[1].number;
            cost[e] = C->items[e].number;
        }
        for (int i = 0; i < n; i++) prize[i] = P->items[i].number;
        int pruning = gsfw_pruning_parse(json_get(c, "pruning")->string);
        assert_true(pruning >= 0);
        int nn = -1, ne = -1;
        gsfw_err err;
        gsfw_error rc = gsfw_pcsf_run(ws, n, m, u, v, prize, cost, (int)json_get(c, "root")->number,
                                      (int)json_get(c, "target_num_active_clusters")->number,
                                      (gsfw_pruning)pruning, on, &nn, oe, &ne, &err);
        if (rc) fprintf(stderr, "%s: %s\n", name, err.message);
        assert_int_equal(rc, GSFW_OK);
        char what[300];
        snprintf(what, sizeof what, "%s (tolerance %g) nodes", name, eps);
        expect_set(on, nn, json_get(c, "expected_nodes"), what);
        snprintf(what, sizeof what, "%s (tolerance %g) edges", name, eps);
        expect_set(oe, ne, json_get(c, "expected_edges"), what);
        free(u);
        free(v);
        free(cost);
        free(prize);
        free(on);
        free(oe);
    }
    gsfw_pcsf_free(ws);
    json_free(cases);
}

/* The public unit tests of pcst_fast and its ports. */
static void test_peer_cases(void **state)
{
    (void)state;
    run_fixture(GSFW_SOURCE_DIR "/tests/data/pcsf-peer-tests.json", 21, 1e-10);
    run_fixture(GSFW_SOURCE_DIR "/tests/data/pcsf-peer-tests.json", 21, 1e-6);
}

/* 800 random instances (grids, random, disconnected and multigraphs, trees, paths, stars;
 * ties, zeros, wide magnitudes; every pruning; rooted and unrooted) with the outputs of
 * pcst_fast's original sources (tolerance 1e-10), made by scripts/reference/
 * pcsf_fixture.py; none of them is close enough to an edge's tolerance to differ at 1e-6. */
static void test_reference_random_cases(void **state)
{
    (void)state;
    run_fixture(GSFW_SOURCE_DIR "/tests/data/pcsf-reference-random.json", 800, 1e-10);
    run_fixture(GSFW_SOURCE_DIR "/tests/data/pcsf-reference-random.json", 800, 1e-6);
}

/* A fixture's grid: the h x w grid's edges, the case's one cost on every edge, and
 * output buffers. */
typedef struct {
    gsfw_graph *g;
    int n, m;
    const int *u, *v;
    double *costs;
    int *nodes, *edges;
} grid_case;

static void grid_case_init(grid_case *gc, const json_value *c, int h, int w)
{
    gc->g = NULL;
    assert_int_equal(gsfw_graph_grid(h, w, &gc->g, NULL), GSFW_OK);
    gc->n = gsfw_graph_nodes(gc->g);
    gc->m = gsfw_graph_edge_count(gc->g);
    const double *unit;
    gsfw_graph_edges(gc->g, &gc->u, &gc->v, &unit);
    gc->costs = malloc((size_t)gc->m * sizeof *gc->costs);
    gc->nodes = malloc((size_t)gc->n * sizeof *gc->nodes);
    gc->edges = malloc((size_t)gc->m * sizeof *gc->edges);
    assert_true(gc->costs && gc->nodes && gc->edges);
    for (int e = 0; e < gc->m; e++) gc->costs[e] = json_get(c, "cost")->number;
}

/* The case's PCSF (its root, clusters and pruning) at tolerance eps into gc's buffers. */
static void grid_case_run(grid_case *gc, gsfw_pcsf *ws, const json_value *c,
                          const double *prizes, double eps, int *nn, int *ne)
{
    int pruning = gsfw_pruning_parse(json_get(c, "pruning")->string);
    assert_true(pruning >= 0);
    assert_int_equal(gsfw_pcsf_set_tolerance(ws, eps, NULL), GSFW_OK);
    assert_int_equal(gsfw_pcsf_run(ws, gc->n, gc->m, gc->u, gc->v, prizes, gc->costs,
                                   (int)json_get(c, "root")->number,
                                   (int)json_get(c, "target_num_active_clusters")->number,
                                   (gsfw_pruning)pruning, gc->nodes, nn, gc->edges, ne, NULL),
                     GSFW_OK);
}

static void grid_case_free(grid_case *gc)
{
    free(gc->costs);
    free(gc->nodes);
    free(gc->edges);
    gsfw_graph_free(gc->g);
}

/* Grids with the prizes of an .npy file and one cost for every edge, expected outputs per
 * tolerance (scripts/reference/pcsf_fixture_images.py). */
static void test_reference_image_grids(void **state)
{
    (void)state;
    json_value *cases = load(GSFW_SOURCE_DIR "/tests/data/pcsf-reference-images.json", 2);
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    for (size_t k = 0; k < cases->len; k++) {
        const json_value *c = &cases->items[k];
        const char *name = json_get(c, "name")->string;
        int h = (int)json_get(c, "height")->number, w = (int)json_get(c, "width")->number;
        char path[512];
        snprintf(path, sizeof path, "%s/tests/data/%s", GSFW_SOURCE_DIR,
                 json_get(c, "prizes_npy")->string);
        double *prizes = NULL;
        int ndim, shape[2];
        assert_int_equal(gsfw_npy_read(path, &prizes, &ndim, shape, NULL), GSFW_OK);
        assert_int_equal(shape[0] * shape[1], h * w);
        grid_case gc;
        grid_case_init(&gc, c, h, w);
        const json_value *X = json_get(c, "expected");
        assert_int_equal(X->len, 2);
        for (size_t t = 0; t < X->len; t++) {
            double eps = strtod(X->keys[t], NULL);
            int nn, ne;
            grid_case_run(&gc, ws, c, prizes, eps, &nn, &ne);
            char what[300];
            snprintf(what, sizeof what, "%s (tolerance %g) nodes", name, eps);
            expect_set(gc.nodes, nn, json_get(&X->items[t], "nodes"), what);
            snprintf(what, sizeof what, "%s (tolerance %g) edges", name, eps);
            expect_set(gc.edges, ne, json_get(&X->items[t], "edges"), what);
        }
        /* the fixture's point: the two tolerances disagree on this instance */
        assert_false(same_ids(json_get(&X->items[0], "nodes"), json_get(&X->items[1], "nodes")) &&
                     same_ids(json_get(&X->items[0], "edges"), json_get(&X->items[1], "edges")));
        grid_case_free(&gc);
        gsfw_free(prizes);
    }
    gsfw_pcsf_free(ws);
    json_free(cases);
}

/* FNV-1a 64 over ids, each as 4 bytes little-endian, continuing from h (the hash of
 * scripts/reference/pcsf_fixture_large.py). */
static uint64_t fnv1a_ids(uint64_t h, const int *ids, int n)
{
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 4; b++) {
            h ^= ((uint32_t)ids[i] >> (8 * b)) & 0xFF;
            h *= 0x100000001B3ULL;
        }
    return h;
}

/* The same over doubles, each as the 8 bytes little-endian of its IEEE-754 encoding. */
static uint64_t fnv1a_doubles_from(uint64_t h, const double *x, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &x[i], sizeof bits);
        for (int b = 0; b < 8; b++) {
            h ^= (bits >> (8 * b)) & 0xFF;
            h *= 0x100000001B3ULL;
        }
    }
    return h;
}

static uint64_t fnv1a_doubles(const double *x, int n)
{
    return fnv1a_doubles_from(0xCBF29CE484222325ULL, x, n);
}

static uint64_t hex64(const json_value *v)
{
    assert_non_null(v);
    assert_int_equal(v->type, JSON_STRING);
    return strtoull(v->string, NULL, 16);
}

/* The output (nodes[0..nn), edges[0..ne), sorted here) against want's node and edge
 * counts and hash (FNV-1a 64 of the sorted node ids, then the sorted edge ids); prints
 * both when they differ. */
static void expect_hashed_output(const char *what, int *nodes, int nn, int *edges, int ne,
                                 const json_value *want)
{
    qsort(nodes, (size_t)nn, sizeof *nodes, cmp_int);
    qsort(edges, (size_t)ne, sizeof *edges, cmp_int);
    const uint64_t hash = fnv1a_ids(fnv1a_ids(0xCBF29CE484222325ULL, nodes, nn), edges, ne);
    const int wn = (int)json_get(want, "nodes")->number;
    const int we = (int)json_get(want, "edges")->number;
    const uint64_t wh = hex64(json_get(want, "hash"));
    if (nn != wn || ne != we || hash != wh)
        fprintf(stderr, "%s: %d nodes, %d edges, hash %016llx; pcst_fast: %d nodes, %d edges, "
                "hash %016llx\n", what, nn, ne, (unsigned long long)hash, wn, we,
                (unsigned long long)wh);
    assert_int_equal(nn, wn);
    assert_int_equal(ne, we);
    assert_true(hash == wh);
}

/* Grids of 4e4..1e5 nodes (scripts/reference/pcsf_fixture_large.py): bench_pcsf's grid
 * (prizes generated again here, as bench_pcsf does) and image grids (prizes in an .npy),
 * unit costs; expected per tolerance: the output's node and edge counts and FNV-1a 64 of
 * its sorted node ids, then its sorted edge ids. */
static void test_reference_large_grids(void **state)
{
    (void)state;
    json_value *cases = load(GSFW_SOURCE_DIR "/tests/data/pcsf-reference-large.json", 3);
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    int differ = 0;
    for (size_t k = 0; k < cases->len; k++) {
        const json_value *c = &cases->items[k];
        const char *name = json_get(c, "name")->string;
        int h = (int)json_get(c, "height")->number, w = (int)json_get(c, "width")->number;
        const json_value *P = json_get(c, "prizes"), *seed = json_get(P, "splitmix64");
        double *prizes = NULL;
        if (seed) {
            /* bench_pcsf's make_prizes: scale * U[0,1), the state starting at the seed */
            double scale = json_get(P, "scale")->number;
            uint64_t st = (uint64_t)seed->number;
            prizes = malloc((size_t)h * w * sizeof *prizes);
            assert_non_null(prizes);
            for (int i = 0; i < h * w; i++) prizes[i] = scale * gsfw_splitmix_uniform(&st);
        } else {
            char path[512];
            snprintf(path, sizeof path, "%s/tests/data/%s", GSFW_SOURCE_DIR,
                     json_get(P, "npy")->string);
            double *p = NULL;
            int ndim, shape[2];
            assert_int_equal(gsfw_npy_read(path, &p, &ndim, shape, NULL), GSFW_OK);
            assert_int_equal(ndim == 1 ? shape[0] : shape[0] * shape[1], h * w);
            prizes = malloc((size_t)h * w * sizeof *prizes);
            assert_non_null(prizes);
            memcpy(prizes, p, (size_t)h * w * sizeof *prizes);
            gsfw_free(p);
        }
        /* the instance the references ran: a changed generator or file is not the engine's
         * failure */
        if (fnv1a_doubles(prizes, h * w) != hex64(json_get(c, "prizes_hash")))
            fprintf(stderr, "%s: the prizes are not those of the fixture\n", name);
        assert_true(fnv1a_doubles(prizes, h * w) == hex64(json_get(c, "prizes_hash")));
        grid_case gc;
        grid_case_init(&gc, c, h, w);
        const json_value *X = json_get(c, "expected");
        assert_int_equal(X->len, 2);
        for (size_t t = 0; t < X->len; t++) {
            double eps = strtod(X->keys[t], NULL);
            const json_value *want = &X->items[t];
            int nn, ne;
            grid_case_run(&gc, ws, c, prizes, eps, &nn, &ne);
            char what[320];
            snprintf(what, sizeof what, "%s (tolerance %g)", name, eps);
            expect_hashed_output(what, gc.nodes, nn, gc.edges, ne, want);
        }
        differ += strcmp(json_get(&X->items[0], "hash")->string,
                         json_get(&X->items[1], "hash")->string) != 0;
        grid_case_free(&gc);
        free(prizes);
    }
    /* the fixture's point: at least one instance where the tolerances give other outputs */
    assert_true(differ >= 1);
    gsfw_pcsf_free(ws);
    json_free(cases);
}

/* bench_pcsf's preferential-attachment network (scripts/reference/pcsf_fixture_network.py),
 * generated again here; expected: pcst_fast's output counts and hash, per pruning. */
static void test_reference_network(void **state)
{
    (void)state;
    json_value *cases = load(GSFW_SOURCE_DIR "/tests/data/pcsf-reference-network.json", 2);
    gsfw_pcsf *ws = NULL;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    for (size_t k = 0; k < cases->len; k++) {
        const json_value *c = &cases->items[k];
        const char *name = json_get(c, "name")->string;
        const int n = (int)json_get(c, "nodes")->number, m = (int)json_get(c, "edges")->number;
        assert_true(n >= 3 && m == 2 * n - 3);
        int *eu = malloc((size_t)m * sizeof *eu), *ev = malloc((size_t)m * sizeof *ev);
        int *ends = malloc(2 * (size_t)m * sizeof *ends);
        double *costs = malloc((size_t)m * sizeof *costs), *prizes = malloc((size_t)n * sizeof *prizes);
        int *on = malloc((size_t)n * sizeof *on), *oe = malloc((size_t)m * sizeof *oe);
        assert_true(eu && ev && ends && costs && prizes && on && oe);
        gsfw_pa_network(n, eu, ev, costs, ends);
        const double scale = json_get(c, "prize_scale")->number;
        uint64_t st = 20220101ULL; /* bench_pcsf's make_prizes */
        for (int i = 0; i < n; i++) prizes[i] = scale * gsfw_splitmix_uniform(&st);
        /* the instance the reference ran: a changed generator is not the engine's failure */
        for (int e = 0; e < m; e++) {
            ends[2 * e] = eu[e];
            ends[2 * e + 1] = ev[e];
        }
        uint64_t ih = fnv1a_ids(0xCBF29CE484222325ULL, ends, 2 * m);
        ih = fnv1a_doubles_from(fnv1a_doubles_from(ih, costs, m), prizes, n);
        if (ih != hex64(json_get(c, "instance_hash")))
            fprintf(stderr, "%s: the instance is not that of the fixture\n", name);
        assert_true(ih == hex64(json_get(c, "instance_hash")));
        int pruning = gsfw_pruning_parse(json_get(c, "pruning")->string);
        assert_true(pruning >= 0);
        int nn = 0, ne = 0;
        assert_int_equal(gsfw_pcsf_run(ws, n, m, eu, ev, prizes, costs, -1, 1,
                                       (gsfw_pruning)pruning, on, &nn, oe, &ne, NULL),
                         GSFW_OK);
        expect_hashed_output(name, on, nn, oe, ne, json_get(c, "expected"));
        free(eu);
        free(ev);
        free(ends);
        free(costs);
        free(prizes);
        free(on);
        free(oe);
    }
    gsfw_pcsf_free(ws);
    json_free(cases);
}

static void test_tolerance_setting(void **state)
{
    (void)state;
    gsfw_pcsf *ws = NULL;
    gsfw_err err;
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    assert_int_equal(gsfw_pcsf_set_tolerance(ws, -1e-9, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "outside [0, 1)"));
    assert_int_equal(gsfw_pcsf_set_tolerance(ws, 1.0, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_pcsf_set_tolerance(NULL, 1e-6, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_pcsf_set_tolerance(ws, 0.0, &err), GSFW_OK);
    gsfw_pcsf_free(ws);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_peer_cases),
        cmocka_unit_test(test_reference_random_cases),
        cmocka_unit_test(test_reference_image_grids),
        cmocka_unit_test(test_reference_large_grids),
        cmocka_unit_test(test_reference_network),
        cmocka_unit_test(test_tolerance_setting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
