/* Trees, the wavelet quadtree and the exact tree DMOs, checked against independent
 * references: exhaustive search over every node subset of small random forests, a
 * direct feasibility check per model, the quadtree's parents recomputed from the
 * (level, band, i, j) description of GSL's layout, and the supports of the actual Haar
 * basis functions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"
#include "util/rng.h"

enum { ROOTED, FOREST, CONNECTED };

/* ------------------------------------------------------------------ references */

/* Union-find root. */
static int uf_find(int *uf, int x)
{
    while (uf[x] != x) x = uf[x] = uf[uf[x]];
    return x;
}

/* Independent membership test of a node mask in a model: the ids in range come from the
 * mask itself. rooted/forest: every member's parent is a member (or it is a root), at
 * most g members are roots; connected: the edges (i, parent i) inside the mask join the
 * members into at most one component. */
static int feasible(int kind, int n, const int *parent, const unsigned char *in, int s, int g)
{
    int count = 0;
    for (int i = 0; i < n; i++) count += in[i];
    if (count > s) return 0;
    if (kind == CONNECTED) {
        int uf[64], comps = count;
        for (int i = 0; i < n; i++) uf[i] = i;
        for (int i = 0; i < n; i++) {
            if (!in[i] || parent[i] < 0 || !in[parent[i]]) continue;
            int a = uf_find(uf, i), b = uf_find(uf, parent[i]);
            if (a != b) {
                uf[a] = b;
                comps--;
            }
        }
        return comps <= 1;
    }
    int roots = 0;
    for (int i = 0; i < n; i++) {
        if (!in[i]) continue;
        if (parent[i] < 0)
            roots++;
        else if (!in[parent[i]])
            return 0;
    }
    return roots <= (kind == ROOTED ? 1 : g);
}

/* Best sum of z^2 over every feasible subset (n <= 12: at most 4096 subsets). */
static double brute_best(int kind, int n, const int *parent, const double *z, int s, int g)
{
    double best = 0.0;
    unsigned char in[16];
    for (unsigned mask = 1; mask < (1u << n); mask++) {
        double sum = 0.0;
        for (int i = 0; i < n; i++) {
            in[i] = (mask >> i) & 1u;
            if (in[i]) sum += z[i] * z[i];
        }
        if (sum > best && feasible(kind, n, parent, in, s, g)) best = sum;
    }
    return best;
}

/* The most nodes of an optimal subset (sum of z^2 within rounding of best; n <= 12): the
 * weights are >= 0, so the oracles return min(s, available) nodes (an optimum grown
 * within the trees it may use). */
static int brute_max_count(int kind, int n, const int *parent, const double *z, int s, int g,
                           double best)
{
    int most = 0;
    unsigned char in[16];
    for (unsigned mask = 1; mask < (1u << n); mask++) {
        int count = 0;
        double sum = 0.0;
        for (int i = 0; i < n; i++) {
            in[i] = (mask >> i) & 1u;
            count += in[i];
            if (in[i]) sum += z[i] * z[i];
        }
        if (count > most && sum >= best - 1e-12 * fmax(1.0, best) &&
            feasible(kind, n, parent, in, s, g))
            most = count;
    }
    return most;
}

/* The fewest roots of an optimal subset with `count` nodes (n <= 12): the forest model's
 * tie rule after the most nodes. */
static int brute_fewest_trees(int n, const int *parent, const double *z, int s, int g,
                              double best, int count)
{
    int fewest = n + 1;
    unsigned char in[16];
    for (unsigned mask = 1; mask < (1u << n); mask++) {
        int nodes = 0, roots = 0;
        double sum = 0.0;
        for (int i = 0; i < n; i++) {
            in[i] = (mask >> i) & 1u;
            nodes += in[i];
            roots += in[i] && parent[i] < 0;
            if (in[i]) sum += z[i] * z[i];
        }
        if (nodes == count && roots < fewest && sum >= best - 1e-12 * fmax(1.0, best) &&
            feasible(FOREST, n, parent, in, s, g))
            fewest = roots;
    }
    return fewest;
}

/* A random forest on n nodes with scattered ids: nodes are attached in a random order,
 * each to a random earlier node or (with probability p_root, and always the first) as a
 * new root. */
static void random_forest(gsfw_rng *rng, int n, double p_root, int *parent)
{
    int perm[64];
    for (int i = 0; i < n; i++) perm[i] = i;
    gsfw_rng_shuffle(rng, perm, n);
    for (int k = 0; k < n; k++) {
        int v = perm[k];
        if (k == 0 || gsfw_rng_uniform(rng) < p_root)
            parent[v] = -1;
        else
            parent[v] = perm[gsfw_rng_below(rng, (uint64_t)k)];
    }
}

/* Entries drawn from a few repeated values (ties, zeros) or normal. */
static void random_z(gsfw_rng *rng, int n, double *z)
{
    static const double pool[] = {0.0, 1.0, -1.0, 2.0, 0.5, 0.0};
    int tied = gsfw_rng_uniform(rng) < 0.5;
    for (int i = 0; i < n; i++)
        z[i] = tied ? pool[gsfw_rng_below(rng, 6)] : gsfw_rng_normal(rng);
}

static gsfw_dmo *make_oracle(int kind, const gsfw_tree *t, int s, int g)
{
    gsfw_dmo *dmo = NULL;
    gsfw_err err;
    gsfw_error rc = kind == ROOTED   ? gsfw_dmo_tree_rooted(t, s, &dmo, &err)
                    : kind == FOREST ? gsfw_dmo_tree_forest(t, s, g, &dmo, &err)
                                     : gsfw_dmo_tree_connected(t, s, &dmo, &err);
    if (rc) fprintf(stderr, "%s\n", err.message);
    assert_int_equal(rc, GSFW_OK);
    assert_non_null(dmo);
    return dmo;
}

/* ------------------------------------------------------------------ DP vs brute force */

static void check_against_brute_force(int kind)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 20240 + (uint64_t)kind);
    int parent[16], support[16];
    double z[16];
    unsigned char in[16];
    for (int trial = 0; trial < 600; trial++) {
        int n = 1 + (int)gsfw_rng_below(&rng, 12);
        double p_root = trial % 3 == 0 ? 0.0 : 0.3;
        random_forest(&rng, n, p_root, parent);
        gsfw_tree *t = NULL;
        assert_int_equal(gsfw_tree_from_parents(n, parent, &t, NULL), GSFW_OK);
        int s = 1 + (int)gsfw_rng_below(&rng, (uint64_t)n);
        int g = kind == FOREST ? 1 + (int)gsfw_rng_below(&rng, (uint64_t)s) : 1;
        gsfw_dmo *dmo = make_oracle(kind, t, s, g);
        assert_int_equal(dmo->max_support, s);
        assert_int_equal(dmo->model_size, s);
        assert_true(dmo->delta == 1.0);
        assert_int_equal(dmo->reset(dmo->ctx), 0);
        for (int rep = 0; rep < 4; rep++) {
            random_z(&rng, n, z);
            int size = -1;
            assert_int_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0);
            assert_true(size >= 0 && size <= s);
            memset(in, 0, sizeof in);
            double got = 0.0;
            for (int k = 0; k < size; k++) {
                assert_true(support[k] >= 0 && support[k] < n);
                assert_int_equal(in[support[k]], 0); /* distinct */
                in[support[k]] = 1;
                got += z[support[k]] * z[support[k]];
            }
            assert_true(feasible(kind, n, parent, in, s, g));
            assert_int_equal(dmo->contains(dmo->ctx, support, size), 1);
            double want = brute_best(kind, n, parent, z, s, g);
            assert_true(fabs(got - want) <= 1e-12 * fmax(1.0, want));
            assert_int_equal(size, brute_max_count(kind, n, parent, z, s, g, want));
            if (kind == FOREST && size > 0) {
                int roots = 0;
                for (int k = 0; k < size; k++) roots += parent[support[k]] < 0;
                assert_int_equal(roots, brute_fewest_trees(n, parent, z, s, g, want, size));
            }
            /* the same input gives the same answer */
            int again[16], size2 = -1;
            assert_int_equal(dmo->select(dmo->ctx, z, again, &size2, NULL), 0);
            assert_int_equal(size2, size);
            assert_memory_equal(again, support, (size_t)size * sizeof(int));
        }
        /* contains() agrees with the direct check on random subsets */
        for (int rep = 0; rep < 40; rep++) {
            int ids[16], k = 0;
            for (int i = 0; i < n; i++) {
                in[i] = gsfw_rng_uniform(&rng) < 0.4;
                if (in[i]) ids[k++] = i;
            }
            gsfw_rng_shuffle(&rng, ids, k);
            assert_int_equal(dmo->contains(dmo->ctx, ids, k),
                             feasible(kind, n, parent, in, s, g));
        }
        if (n >= 2) { /* duplicates and out-of-range ids are not sets of the model */
            int dup[2] = {0, 0}, out_of_range[1] = {n};
            assert_int_equal(dmo->contains(dmo->ctx, dup, 2), 0);
            assert_int_equal(dmo->contains(dmo->ctx, out_of_range, 1), 0);
        }
        gsfw_dmo_free(dmo);
        gsfw_tree_free(t);
    }
}

static void test_rooted_brute_force(void **state)
{
    (void)state;
    check_against_brute_force(ROOTED);
}

static void test_forest_brute_force(void **state)
{
    (void)state;
    check_against_brute_force(FOREST);
}

static void test_connected_brute_force(void **state)
{
    (void)state;
    check_against_brute_force(CONNECTED);
}

/* A path 0 - 1 - ... - 9 rooted at 0 with one heavy node far down: the rooted model
 * must carry the whole path to it, the connected model takes a window around it. */
static void test_path_closed_forms(void **state)
{
    (void)state;
    int parent[10];
    double z[10] = {0};
    for (int i = 0; i < 10; i++) parent[i] = i - 1;
    z[7] = 10.0;
    z[6] = 1.0;
    z[8] = 2.0;
    gsfw_tree *t;
    assert_int_equal(gsfw_tree_from_parents(10, parent, &t, NULL), GSFW_OK);
    assert_int_equal(gsfw_tree_num_roots(t), 1);
    int support[10], size;
    gsfw_dmo *rooted = make_oracle(ROOTED, t, 3, 1);
    assert_int_equal(rooted->select(rooted->ctx, z, support, &size, NULL), 0);
    /* the rooted subtree of 3 nodes is {0, 1, 2} whatever z is */
    unsigned char in[10] = {0};
    for (int k = 0; k < size; k++) in[support[k]] = 1;
    assert_int_equal(size, 3);
    assert_true(in[0] && in[1] && in[2]);
    gsfw_dmo *conn = make_oracle(CONNECTED, t, 3, 1);
    assert_int_equal(conn->select(conn->ctx, z, support, &size, NULL), 0);
    memset(in, 0, sizeof in);
    for (int k = 0; k < size; k++) in[support[k]] = 1;
    assert_int_equal(size, 3);
    assert_true(in[6] && in[7] && in[8]);
    gsfw_dmo_free(rooted);
    gsfw_dmo_free(conn);
    gsfw_tree_free(t);
}

/* The documented tie rule: earlier (smaller-id) children and roots get the nodes, the
 * connected model takes the most nodes, then the smallest top node. */
static void test_tie_rules(void **state)
{
    (void)state;
    /* root 0 with children 1, 2, 3; a second tree 4 - 5 - 6 - 7; all weights equal */
    int parent[8] = {-1, 0, 0, 0, -1, 4, 5, 6};
    double z[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    gsfw_tree *t;
    assert_int_equal(gsfw_tree_from_parents(8, parent, &t, NULL), GSFW_OK);
    int support[8], size;
    unsigned char in[8];
    struct {
        int kind, s, g;
        unsigned char want[8];
    } cases[] = {
        {ROOTED, 3, 1, {1, 1, 1, 0, 0, 0, 0, 0}},    /* root 0 before root 4, child 1, 2 first */
        {FOREST, 5, 2, {1, 1, 1, 1, 1, 0, 0, 0}},    /* all of tree 0, then root 4 */
        {CONNECTED, 3, 1, {1, 1, 1, 0, 0, 0, 0, 0}}, /* top 0 is the smallest */
        {CONNECTED, 4, 1, {1, 1, 1, 1, 0, 0, 0, 0}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        gsfw_dmo *dmo = make_oracle(cases[c].kind, t, cases[c].s, cases[c].g);
        assert_int_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0);
        memset(in, 0, sizeof in);
        for (int k = 0; k < size; k++) in[support[k]] = 1;
        assert_memory_equal(in, cases[c].want, sizeof in);
        gsfw_dmo_free(dmo);
    }
    /* zero weights: still min(s, available) nodes */
    double zero[8] = {0};
    gsfw_dmo *dmo = make_oracle(FOREST, t, 6, 2);
    assert_int_equal(dmo->select(dmo->ctx, zero, support, &size, NULL), 0);
    assert_int_equal(size, 6);
    gsfw_dmo_free(dmo);
    gsfw_tree_free(t);
    /* the forest model on a tie between three trees and two (roots 0, 1, 2; 3 below 2),
     * zero weights, s = 3: the fewest trees, {0, 2, 3}, whether or not g is below the
     * number of roots */
    int three[4] = {-1, -1, -1, 2};
    assert_int_equal(gsfw_tree_from_parents(4, three, &t, NULL), GSFW_OK);
    for (int g = 2; g <= 3; g++) {
        dmo = make_oracle(FOREST, t, 3, g);
        assert_int_equal(dmo->select(dmo->ctx, zero, support, &size, NULL), 0);
        memset(in, 0, sizeof in);
        for (int k = 0; k < size; k++) in[support[k]] = 1;
        assert_int_equal(size, 3);
        assert_true(in[0] && in[2] && in[3]);
        gsfw_dmo_free(dmo);
    }
    gsfw_tree_free(t);
    /* the connected model on a tie between a leaf (the smallest id) and the whole tree:
     * 1 with children 0 and 2, z = (1, 0, 0), s = 3 takes all three nodes, not {0} */
    int star[3] = {1, -1, 1};
    double leaf[3] = {1, 0, 0};
    assert_int_equal(gsfw_tree_from_parents(3, star, &t, NULL), GSFW_OK);
    dmo = make_oracle(CONNECTED, t, 3, 1);
    assert_int_equal(dmo->select(dmo->ctx, leaf, support, &size, NULL), 0);
    assert_int_equal(size, 3);
    assert_int_equal(dmo->select(dmo->ctx, zero, support, &size, NULL), 0);
    assert_int_equal(size, 3);
    gsfw_dmo_free(dmo);
    gsfw_tree_free(t);
}

/* Squares below the overflow threshold whose sums are not: 0 with children 1 and 2, 3
 * below 1, z = (1e154, 1e154, 1e154, 1). The best rooted subtree of 3 nodes is {0, 1, 2}
 * (3e308 in exact arithmetic), not {0, 1, 3}, although both sums overflow a double. */
static void test_sums_beyond_double(void **state)
{
    (void)state;
    int parent[4] = {-1, 0, 0, 1}, support[4], size = -1;
    double z[4] = {1e154, 1e154, 1e154, 1.0};
    gsfw_tree *t;
    assert_int_equal(gsfw_tree_from_parents(4, parent, &t, NULL), GSFW_OK);
    for (int kind = ROOTED; kind <= CONNECTED; kind++) {
        gsfw_dmo *dmo = make_oracle(kind, t, 3, 1);
        assert_int_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0);
        unsigned char in[4] = {0};
        for (int k = 0; k < size; k++) in[support[k]] = 1;
        assert_int_equal(size, 3);
        assert_true(in[0] && in[1] && in[2]);
        gsfw_dmo_free(dmo);
    }
    gsfw_tree_free(t);
}

/* The tree oracles in the baselines: CoSaMP with head = the rooted oracle with 2s and
 * tail = with s, and graph-CoSaMP / graph-IHT with the oracles the library builds from
 * the model name "tree" (gsfw_baseline_oracles). A planted rooted subtree of the 8x8
 * quadtree is recovered exactly from 40 Gaussian measurements, and the final iterate's
 * support is a set of the model. */
static void test_tree_baselines_recover(void **state)
{
    (void)state;
    enum { SIDE = 8, D = SIDE * SIDE, NM = 40, S = 6 };
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 515);
    gsfw_tree *t;
    assert_int_equal(gsfw_tree_quadtree(SIDE, SIDE, &t, NULL), GSFW_OK);
    const int *parent = gsfw_tree_parents(t);
    /* planted support: grow from the root by random nodes whose parent is in */
    double x_true[D] = {0};
    unsigned char in[D] = {0};
    in[0] = 1;
    for (int k = 1; k < S;) {
        int v = 1 + (int)gsfw_rng_below(&rng, D - 1);
        if (!in[v] && in[parent[v]]) {
            in[v] = 1;
            k++;
        }
    }
    for (int i = 0; i < D; i++)
        if (in[i]) {
            double sign = gsfw_rng_uniform(&rng) < 0.5 ? -1.0 : 1.0;
            x_true[i] = sign * (1.0 + gsfw_rng_uniform(&rng));
        }
    double *A = malloc((size_t)NM * D * sizeof(double)), y[NM];
    assert_non_null(A);
    for (int i = 0; i < NM * D; i++) A[i] = gsfw_rng_normal(&rng) / sqrt((double)NM);
    for (int r = 0; r < NM; r++) {
        y[r] = 0.0;
        for (int j = 0; j < D; j++) y[r] += A[r * D + j] * x_true[j];
    }
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_least_squares(NM, D, A, GSFW_ROW_MAJOR, y, &obj, NULL),
                     GSFW_OK);
    free(A);
    gsfw_dmo *model_check;
    assert_int_equal(gsfw_dmo_tree_rooted(t, S, &model_check, NULL), GSFW_OK);
    const gsfw_method methods[] = {GSFW_METHOD_COSAMP, GSFW_METHOD_GRAPH_COSAMP,
                                   GSFW_METHOD_GRAPH_IHT};
    for (int m = 0; m < 3; m++) {
        gsfw_dmo *head = NULL, *tail = NULL;
        gsfw_err err;
        if (methods[m] == GSFW_METHOD_COSAMP) {
            assert_int_equal(gsfw_dmo_tree_rooted(t, 2 * S, &head, NULL), GSFW_OK);
            assert_int_equal(gsfw_dmo_tree_rooted(t, S, &tail, NULL), GSFW_OK);
        } else {
            gsfw_model_spec spec = {.model = "tree", .d = D, .s = S, .g = 1, .tree = t};
            gsfw_error rc = gsfw_baseline_oracles(methods[m], &spec, 0, &head, &tail, &err);
            if (rc) fprintf(stderr, "%s\n", err.message);
            assert_int_equal(rc, GSFW_OK);
            assert_non_null(tail);
            assert_true(tail->delta == 1.0 && tail->model_size == S);
        }
        gsfw_baseline_settings set;
        gsfw_baseline_settings_default(&set);
        set.method = methods[m];
        set.max_iter = methods[m] == GSFW_METHOD_GRAPH_IHT ? 2000 : 20;
        double x[D];
        gsfw_result res = {.x_best = NULL, .x_last = x, .trace = NULL, .trace_capacity = 0,
                           .trace_len = 0};
        gsfw_error rc = gsfw_baseline_solve(obj, head, tail, &set, &res, NULL, &err);
        if (rc) fprintf(stderr, "%s\n", err.message);
        assert_int_equal(rc, GSFW_OK);
        double e2 = 0.0, n2 = 0.0;
        int sup[D], k = 0;
        for (int i = 0; i < D; i++) {
            e2 += (x[i] - x_true[i]) * (x[i] - x_true[i]);
            n2 += x_true[i] * x_true[i];
            if (x[i] != 0.0) sup[k++] = i;
        }
        if (e2 > 1e-12 * n2) fprintf(stderr, "method %d: error %g\n", m, sqrt(e2 / n2));
        assert_true(e2 <= 1e-12 * n2);
        assert_int_equal(model_check->contains(model_check->ctx, sup, k), 1);
        gsfw_dmo_free(head);
        gsfw_dmo_free(tail);
    }
    gsfw_dmo_free(model_check);
    gsfw_objective_free(obj);
    gsfw_tree_free(t);
}

/* ------------------------------------------------------------------ quadtree */

/* The parent of coefficient (r, c) from the description of the non-standard layout:
 * level l occupies [0, 2^(l+1))^2 minus [0, 2^l)^2, split into three bands by which of
 * r, c are >= 2^l; the parent of band-local (i, j) at level l >= 1 is (i/2, j/2) of the
 * same band at level l - 1; level 0 hangs from the scaling coefficient. */
static int quadtree_parent_reference(int side, int r, int c)
{
    if (r == 0 && c == 0) return -1;
    int m = r > c ? r : c, h = 1;
    while (2 * h <= m) h *= 2; /* h = 2^level */
    if (h == 1) return 0;
    int row_band = r >= h, col_band = c >= h; /* (0,1), (1,0) or (1,1) */
    int i = r - (row_band ? h : 0), j = c - (col_band ? h : 0);
    int hp = h / 2;
    int pr = i / 2 + (row_band ? hp : 0), pc = j / 2 + (col_band ? hp : 0);
    return pr * side + pc;
}

static void test_quadtree_layout(void **state)
{
    (void)state;
    for (int side = 1; side <= 16; side *= 2) {
        gsfw_tree *t;
        assert_int_equal(gsfw_tree_quadtree(side, side, &t, NULL), GSFW_OK);
        assert_int_equal(gsfw_tree_num_nodes(t), side * side);
        assert_int_equal(gsfw_tree_num_roots(t), 1);
        const int *parent = gsfw_tree_parents(t);
        for (int r = 0; r < side; r++)
            for (int c = 0; c < side; c++)
                assert_int_equal(parent[r * side + c], quadtree_parent_reference(side, r, c));
        /* the root has the three coarsest details as children */
        int children_of_root = 0;
        for (int v = 0; v < side * side; v++) children_of_root += parent[v] == 0;
        assert_int_equal(children_of_root, side >= 2 ? 3 : 0);
        gsfw_tree_free(t);
    }
}

/* On the actual Haar basis, a coefficient's basis function is supported on a region
 * that contains the supports of its children's. */
static void test_quadtree_supports_nest(void **state)
{
    (void)state;
    const int side = 8, n = side * side;
    gsfw_operator *op;
    gsfw_err err;
    assert_int_equal(gsfw_operator_wavelet2d(side, "haar", &op, &err), GSFW_OK);
    gsfw_tree *t;
    assert_int_equal(gsfw_tree_quadtree(side, side, &t, NULL), GSFW_OK);
    const int *parent = gsfw_tree_parents(t);
    unsigned char *support = calloc((size_t)n * n, 1);
    double *theta = calloc((size_t)n, sizeof(double)), *x = calloc((size_t)n, sizeof(double));
    assert_non_null(support);
    for (int k = 0; k < n; k++) {
        theta[k] = 1.0;
        assert_int_equal(op->apply(op->ctx, theta, x), 0);
        theta[k] = 0.0;
        int count = 0;
        for (int p = 0; p < n; p++) {
            support[(size_t)k * n + p] = fabs(x[p]) > 1e-12;
            count += support[(size_t)k * n + p];
        }
        assert_true(count > 0);
    }
    for (int k = 1; k < n; k++) {
        int p = parent[k];
        for (int q = 0; q < n; q++)
            if (support[(size_t)k * n + q]) assert_true(support[(size_t)p * n + q]);
        /* and strictly larger: a child's region is a quarter of its parent's (the level-0
         * details share the root's full support) */
        if (p != 0) {
            int ck = 0, cp = 0;
            for (int q = 0; q < n; q++) {
                ck += support[(size_t)k * n + q];
                cp += support[(size_t)p * n + q];
            }
            assert_int_equal(4 * ck, cp);
        }
    }
    free(support);
    free(theta);
    free(x);
    gsfw_tree_free(t);
    gsfw_operator_free(op);
}

/* ------------------------------------------------------------------ errors */

static void expect_error(gsfw_error rc, const gsfw_err *err, gsfw_error code, const char *text)
{
    assert_int_equal(rc, code);
    assert_int_equal(err->code, code);
    if (!strstr(err->message, text)) fprintf(stderr, "message: %s\n", err->message);
    assert_non_null(strstr(err->message, text));
}

static void test_bad_trees(void **state)
{
    (void)state;
    gsfw_tree *t = (gsfw_tree *)1;
    gsfw_err err;
    int out_of_range[10] = {-1, 0, 0, 1, 1, 2, 2, 12, 3, 3};
    expect_error(gsfw_tree_from_parents(10, out_of_range, &t, &err), &err, GSFW_ERR_GRAPH,
                 "node 7 has parent 12, outside 0..9");
    assert_null(t);
    int negative[3] = {-1, -2, 0};
    expect_error(gsfw_tree_from_parents(3, negative, &t, &err), &err, GSFW_ERR_GRAPH,
                 "node 1 has parent -2");
    int self[4] = {-1, 0, 2, 1};
    expect_error(gsfw_tree_from_parents(4, self, &t, &err), &err, GSFW_ERR_GRAPH,
                 "node 2 is its own parent");
    /* 0 is a root; 1 -> 3 -> 4 -> 1 is a cycle, reached first from node 1 */
    int cycle[5] = {-1, 3, 0, 4, 1};
    expect_error(gsfw_tree_from_parents(5, cycle, &t, &err), &err, GSFW_ERR_GRAPH,
                 "cycle through node 1");
    /* a cycle entered from a tail: 2 -> 3 -> 4 -> 3 names a node on the cycle (3) */
    int tail[5] = {-1, 0, 3, 4, 3};
    expect_error(gsfw_tree_from_parents(5, tail, &t, &err), &err, GSFW_ERR_GRAPH,
                 "cycle through node 3");
    int no_root[2] = {1, 0};
    expect_error(gsfw_tree_from_parents(2, no_root, &t, &err), &err, GSFW_ERR_GRAPH, "cycle");
    expect_error(gsfw_tree_from_parents(0, self, &t, &err), &err, GSFW_ERR_INVALID_ARG,
                 "n = 0");
    expect_error(gsfw_tree_from_parents(3, NULL, &t, &err), &err, GSFW_ERR_INVALID_ARG, "NULL");
    expect_error(gsfw_tree_quadtree(6, 6, &t, &err), &err, GSFW_ERR_INVALID_ARG,
                 "side 6 is not a power of two");
    expect_error(gsfw_tree_quadtree(8, 4, &t, &err), &err, GSFW_ERR_INVALID_ARG,
                 "8x4 is not square");
    expect_error(gsfw_tree_quadtree(0, 0, &t, &err), &err, GSFW_ERR_INVALID_ARG, "side 0");
    assert_null(t);

    int parent[4] = {-1, 0, 0, -1};
    assert_int_equal(gsfw_tree_from_parents(4, parent, &t, NULL), GSFW_OK);
    gsfw_dmo *dmo = (gsfw_dmo *)1;
    expect_error(gsfw_dmo_tree_rooted(t, 5, &dmo, &err), &err, GSFW_ERR_INVALID_ARG,
                 "s = 5 exceeds the number of nodes 4");
    assert_null(dmo);
    expect_error(gsfw_dmo_tree_connected(t, 0, &dmo, &err), &err, GSFW_ERR_INVALID_ARG, "s = 0");
    expect_error(gsfw_dmo_tree_forest(t, 2, 3, &dmo, &err), &err, GSFW_ERR_INVALID_ARG,
                 "g = 3 exceeds s = 2");
    expect_error(gsfw_dmo_tree_forest(NULL, 2, 1, &dmo, &err), &err, GSFW_ERR_INVALID_ARG,
                 "tree is NULL");
    /* the model table: "tree" (g = 1 rooted, g > 1 forest) and "tree-connected" */
    gsfw_model_spec spec = {.model = "tree", .d = 4, .s = 2, .g = 1};
    expect_error(gsfw_dmo_from_model(&spec, &dmo, &err), &err, GSFW_ERR_INVALID_ARG,
                 "needs a tree");
    spec.tree = t;
    const char *names[3][2] = {{"tree", "tree-rooted"}, {"tree", "tree-forest"},
                               {"tree-connected", "tree-connected"}};
    for (int k = 0; k < 3; k++) {
        spec.model = names[k][0];
        spec.g = k == 1 ? 2 : 1;
        assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, NULL), GSFW_OK);
        assert_string_equal(dmo->name, names[k][1]);
        gsfw_dmo_free(dmo);
    }
    assert_int_equal(gsfw_model_needs_graph("tree"), 2);
    assert_int_equal(gsfw_model_needs_graph("tree-connected"), 2);
    /* NaN input is refused by select */
    assert_int_equal(gsfw_dmo_tree_rooted(t, 2, &dmo, NULL), GSFW_OK);
    double z[4] = {1.0, NAN, 0.0, 1.0};
    int support[4], size;
    assert_int_not_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0);
    gsfw_dmo_free(dmo);
    gsfw_tree_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rooted_brute_force),
        cmocka_unit_test(test_forest_brute_force),
        cmocka_unit_test(test_connected_brute_force),
        cmocka_unit_test(test_path_closed_forms),
        cmocka_unit_test(test_tie_rules),
        cmocka_unit_test(test_sums_beyond_double),
        cmocka_unit_test(test_tree_baselines_recover),
        cmocka_unit_test(test_quadtree_layout),
        cmocka_unit_test(test_quadtree_supports_nest),
        cmocka_unit_test(test_bad_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
