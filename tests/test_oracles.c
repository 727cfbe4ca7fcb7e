/* The dual maximisation oracles and the selection routine behind them, checked against
 * independent references: a sort-based top-s, exhaustive optima on tiny graphs, closed
 * forms on path and edgeless graphs, and the oracles' proven factors delta. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"
#include "util/rng.h"
#include "util/select.h"

/* ------------------------------------------------------------------ helpers */

typedef struct {
    double mag;
    int idx;
} ranked;

/* Larger |z| first, then smaller index: the order the library documents. */
static int cmp_ranked(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->mag != b->mag) return a->mag > b->mag ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Reference: all d indices in rank order, by a full sort. */
static void ref_rank(const double *z, int d, int *order)
{
    ranked *r = malloc((size_t)d * sizeof *r);
    assert_non_null(r);
    for (int i = 0; i < d; i++) {
        r[i].mag = fabs(z[i]);
        r[i].idx = i;
    }
    qsort(r, (size_t)d, sizeof *r, cmp_ranked);
    for (int i = 0; i < d; i++) order[i] = r[i].idx;
    free(r);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorted copies of two index lists are equal. */
static void assert_same_set(const int *a, const int *b, int k)
{
    int *x = malloc((size_t)(k ? k : 1) * sizeof(int));
    int *y = malloc((size_t)(k ? k : 1) * sizeof(int));
    assert_non_null(x);
    assert_non_null(y);
    memcpy(x, a, (size_t)k * sizeof(int));
    memcpy(y, b, (size_t)k * sizeof(int));
    qsort(x, (size_t)k, sizeof(int), cmp_int);
    qsort(y, (size_t)k, sizeof(int), cmp_int);
    for (int i = 0; i < k; i++) assert_int_equal(x[i], y[i]);
    free(x);
    free(y);
}

/* Ids in [0, n) and pairwise distinct. */
static void assert_valid_ids(const int *S, int k, int n)
{
    unsigned char *seen = calloc((size_t)n, 1);
    assert_non_null(seen);
    for (int i = 0; i < k; i++) {
        assert_true(S[i] >= 0 && S[i] < n);
        assert_false(seen[S[i]]);
        seen[S[i]] = 1;
    }
    free(seen);
}

static double sum_sq(const double *z, const int *S, int k)
{
    double t = 0.0;
    for (int i = 0; i < k; i++) t += z[S[i]] * z[S[i]];
    return t;
}

static int contains(const int *S, int k, int x)
{
    for (int i = 0; i < k; i++)
        if (S[i] == x) return 1;
    return 0;
}

/* Components of G[S] through the library's graph routine. */
static int induced_components(const gsfw_graph *G, const int *S, int k)
{
    unsigned char *mask = calloc((size_t)gsfw_graph_nodes(G), 1);
    int *work = malloc(2 * (size_t)gsfw_graph_nodes(G) * sizeof(int));
    assert_non_null(mask);
    assert_non_null(work);
    for (int i = 0; i < k; i++) mask[S[i]] = 1;
    int c = gsfw_graph_induced_components(G, mask, work);
    free(mask);
    free(work);
    return c;
}

enum { Z_GAUSS, Z_TIES, Z_SPARSE, Z_CONST, Z_KINDS };

/* Test vectors: Gaussian; small integers in -3..3 (many ties, zeros, +-); mostly zeros;
 * constant magnitude with random signs. */
static void fill_z(gsfw_rng *rng, double *z, int d, int kind)
{
    for (int i = 0; i < d; i++) {
        switch (kind) {
        case Z_GAUSS: z[i] = gsfw_rng_normal(rng); break;
        case Z_TIES: z[i] = (double)((int)gsfw_rng_below(rng, 7) - 3); break;
        case Z_SPARSE: z[i] = gsfw_rng_below(rng, 5) == 0 ? gsfw_rng_normal(rng) : 0.0; break;
        default: z[i] = gsfw_rng_below(rng, 2) ? 1.5 : -1.5; break;
        }
    }
}

static int run_select(gsfw_dmo *dmo, const double *z, int *S)
{
    int size = -1;
    assert_int_equal(dmo->select(dmo->ctx, z, S, &size, NULL), 0);
    assert_true(size >= 0 && size <= dmo->max_support);
    return size;
}

/* --------------------------------------------------------------- selection */

/* The value selections: the k-th largest |z| is the sorted reference's, bit for bit, and
 * the sums of the k largest |z_i| and z_i^2 agree with the sums over the reference's top
 * k to their rounding (k terms of one sign: k eps relative). */
static void check_top_values(const double *z, int d, const int *order, int k, double *vwork)
{
    const double kth = fabs(z[order[k - 1]]);
    double got = gsfw_select_kth_abs(z, d, k, vwork);
    assert_memory_equal(&got, &kth, sizeof got);
    for (int squares = 0; squares < 2; squares++) {
        double ref = 0.0;
        for (int i = 0; i < k; i++) ref += squares ? z[order[i]] * z[order[i]] : fabs(z[order[i]]);
        double sum = gsfw_select_top_abs_sum(z, d, k, squares, vwork);
        assert_true(fabs(sum - ref) <= 2.0 * k * DBL_EPSILON * ref);
    }
}

/* Every split k of every pattern matches the sort-based reference, and the partition
 * API separates the two parts (worst of the top ranks before best of the rest). */
static void check_select_against_sort(const double *z, int d, int *order, int *work,
                                      int *out, double *vwork)
{
    ref_rank(z, d, order);
    int ks[] = {1, 2, 3, d / 3, d / 2, d - 1, d};
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        int k = ks[t];
        if (k < 1 || k > d) continue;
        check_top_values(z, d, order, k, vwork);
        gsfw_select_top_abs(z, d, k, work, out);
        assert_valid_ids(out, k, d);
        assert_same_set(out, order, k);
        /* the same result in place (out == idx_work) */
        gsfw_select_top_abs(z, d, k, work, work);
        assert_same_set(work, order, k);
        gsfw_select_bottom_abs(z, d, k, work, out);
        assert_same_set(out, order + (d - k), k);
        gsfw_select_bottom_abs(z, d, k, work, work);
        assert_same_set(work, order + (d - k), k);
        /* partition of a permuted index array */
        for (int i = 0; i < d; i++) work[i] = d - 1 - i;
        gsfw_select_partition_abs(z, work, d, k);
        assert_same_set(work, order, k);
        if (k < d) {
            int worst_top = work[0], best_rest = work[k];
            for (int i = 1; i < k; i++)
                if (gsfw_abs_before(z, worst_top, work[i])) worst_top = work[i];
            for (int i = k + 1; i < d; i++)
                if (gsfw_abs_before(z, work[i], best_rest)) best_rest = work[i];
            assert_true(gsfw_abs_before(z, worst_top, best_rest));
        }
    }
}

static void test_select_matches_sort(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 11);
    int sizes[] = {1, 2, 3, 5, 16, 17, 18, 31, 64, 100, 257, 1000, 4099};
    int dmax = 4099;
    double *z = malloc((size_t)dmax * sizeof(double));
    int *order = malloc((size_t)dmax * sizeof(int));
    int *work = malloc((size_t)dmax * sizeof(int));
    int *out = malloc((size_t)dmax * sizeof(int));
    double *vwork = malloc((size_t)dmax * sizeof(double));
    assert_true(z && order && work && out && vwork);
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        int d = sizes[t];
        for (int kind = 0; kind < Z_KINDS; kind++) {
            for (int rep = 0; rep < 3; rep++) {
                fill_z(&rng, z, d, kind);
                check_select_against_sort(z, d, order, work, out, vwork);
            }
        }
        /* structured patterns that defeat naive pivot rules */
        for (int pat = 0; pat < 7; pat++) {
            for (int i = 0; i < d; i++) {
                switch (pat) {
                case 0: z[i] = i; break;                           /* ascending */
                case 1: z[i] = -(double)(d - i); break;            /* descending, negative */
                case 2: z[i] = i < d / 2 ? i : d - i; break;       /* organ pipe */
                case 3: z[i] = i % 7; break;                       /* sawtooth */
                case 4: z[i] = 0.0; break;                         /* all zero */
                case 5: z[i] = (i % 2) ? -0.0 : 0.0; break;        /* signed zeros */
                default: /* subnormal to 2^500: every exponent's bits in the radix passes */
                    z[i] = ldexp((i % 2 ? -1.0 : 1.0) * (1.0 + (i % 5) / 8.0),
                                 (int)((37L * i) % 1570) - 1070);
                    break;
                }
            }
            check_select_against_sort(z, d, order, work, out, vwork);
        }
    }
    free(z);
    free(order);
    free(work);
    free(out);
    free(vwork);
}

/* Large inputs with many equal keys stay fast (a quadratic selection would time out). */
static void test_select_large(void **state)
{
    (void)state;
    int d = 200000;
    double *z = malloc((size_t)d * sizeof(double));
    int *work = malloc((size_t)d * sizeof(int));
    int *out = malloc((size_t)d * sizeof(int));
    double *vwork = malloc((size_t)d * sizeof(double));
    assert_true(z && work && out && vwork);
    for (int pat = 0; pat < 3; pat++) {
        for (int i = 0; i < d; i++) z[i] = pat == 0 ? 1.0 : pat == 1 ? (double)i : (double)(i % 3);
        int k = d / 2;
        gsfw_select_top_abs(z, d, k, work, out);
        /* the value selection: exact here (integers below 2^53) */
        double kth = pat == 1 ? (double)(d - k) : 1.0, sum = 0.0; /* i % 3: 66 666 twos */
        for (int i = 0; i < k; i++) sum += z[out[i]];
        assert_true(gsfw_select_kth_abs(z, d, k, vwork) == kth);
        assert_true(gsfw_select_top_abs_sum(z, d, k, 0, vwork) == sum);
        /* With equal magnitudes the tie-break by index decides. */
        if (pat == 0)
            for (int i = 0; i < k; i++) assert_true(out[i] < k);
        if (pat == 1)
            for (int i = 0; i < k; i++) assert_true(out[i] >= d - k);
    }
    free(z);
    free(work);
    free(out);
    free(vwork);
}

static void test_sort_small(void **state)
{
    (void)state;
    double z[] = {0.5, -2.0, 2.0, 0.0, -0.5, 1.0};
    int idx[] = {0, 1, 2, 3, 4, 5};
    gsfw_sort_abs_small(z, idx, 6);
    int want[] = {1, 2, 5, 0, 4, 3};
    for (int i = 0; i < 6; i++) assert_int_equal(idx[i], want[i]);
}

static int cmp_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* gsfw_sort_ints agrees with qsort on every size up to 300, on random keys with repeats,
 * sorted, reversed and constant inputs. */
static void test_sort_ints_matches_qsort(void **state)
{
    (void)state;
    enum { NMAX = 300 };
    int a[NMAX], b[NMAX];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 5);
    for (int n = 0; n <= NMAX; n++) {
        for (int pat = 0; pat < 4; pat++) {
            for (int i = 0; i < n; i++)
                a[i] = pat == 0 ? (int)gsfw_rng_below(&rng, (uint64_t)(n / 2 + 1)) - n / 4
                     : pat == 1 ? i : pat == 2 ? n - i : 7;
            memcpy(b, a, sizeof a);
            gsfw_sort_ints(a, n);
            qsort(b, (size_t)n, sizeof(int), cmp_ints);
            for (int i = 0; i < n; i++) assert_int_equal(a[i], b[i]);
        }
    }
}

/* ------------------------------------------------------------------ top-s */

static void test_topk_exact(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 21);
    int d = 97;
    double z[97];
    int S[97], order[97];
    int svals[] = {1, 2, 7, 48, 96, 97};
    for (size_t t = 0; t < sizeof svals / sizeof svals[0]; t++) {
        int s = svals[t];
        gsfw_dmo *dmo = NULL;
        assert_int_equal(gsfw_dmo_topk(d, s, &dmo, NULL), GSFW_OK);
        assert_int_equal(dmo->d, d);
        assert_int_equal(dmo->max_support, s);
        assert_true(dmo->delta == 1.0);
        assert_non_null(dmo->name);
        assert_non_null(dmo->model);
        for (int kind = 0; kind < Z_KINDS; kind++) {
            for (int rep = 0; rep < 4; rep++) {
                fill_z(&rng, z, d, kind);
                ref_rank(z, d, order);
                int size = run_select(dmo, z, S);
                assert_int_equal(size, s);
                assert_valid_ids(S, size, d);
                assert_same_set(S, order, s);
            }
        }
        gsfw_dmo_free(dmo);
    }
}

static void test_topk_errors(void **state)
{
    (void)state;
    gsfw_err err;
    gsfw_dmo *dmo = (gsfw_dmo *)&err; /* must be reset to NULL on failure */
    assert_int_equal(gsfw_dmo_topk(5, 6, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_null(dmo);
    assert_int_equal(err.code, GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "s = 6 exceeds the dimension 5"));
    assert_int_equal(gsfw_dmo_topk(5, 0, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "s = 0"));
    assert_int_equal(gsfw_dmo_topk(5, -1, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_dmo_topk(0, 1, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_dmo_topk(5, 2, NULL, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_dmo_topk(5, 2, &dmo, NULL), GSFW_OK); /* err is optional */
    gsfw_dmo_free(dmo);
    gsfw_dmo_free(NULL);
}

/* ---------------------------------------------------------- approximate top-s */

/* |S| = s distinct ids, ||z_S|| >= delta ||z_S*||, S within B u S* (only original
 * bottom-s indices are removed, only S* indices inserted), exact for delta = 1. */
static void test_topk_approx_guarantee(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 31);
    int d = 40;
    double z[40];
    int S[40], order[40];
    int svals[] = {1, 2, 5, 10, 20, 25, 39, 40};
    double deltas[] = {0.05, 0.1, 0.3, 0.5, 0.8, 0.95, 1.0};
    for (size_t a = 0; a < sizeof svals / sizeof svals[0]; a++) {
        for (size_t b = 0; b < sizeof deltas / sizeof deltas[0]; b++) {
            int s = svals[a];
            double delta = deltas[b];
            gsfw_dmo *dmo = NULL;
            assert_int_equal(gsfw_dmo_topk_approx(d, s, delta, 7 + a, &dmo, NULL), GSFW_OK);
            assert_true(dmo->delta == delta);
            assert_int_equal(dmo->max_support, s);
            for (int kind = 0; kind < Z_KINDS; kind++) {
                for (int rep = 0; rep < 5; rep++) {
                    fill_z(&rng, z, d, kind);
                    ref_rank(z, d, order);
                    int size = run_select(dmo, z, S);
                    assert_int_equal(size, s);
                    assert_valid_ids(S, s, d);
                    double opt = sum_sq(z, order, s);
                    double got = sum_sq(z, S, s);
                    assert_true(got >= delta * delta * opt * (1.0 - 1e-12));
                    for (int i = 0; i < s; i++)
                        assert_true(contains(order, s, S[i]) ||
                                    contains(order + (d - s), s, S[i]));
                    if (delta == 1.0) assert_same_set(S, order, s);
                }
            }
            gsfw_dmo_free(dmo);
        }
    }
}

/* The answer is the FIRST set along the swap sequence that is delta-good. */
static void test_topk_approx_first_good_set(void **state)
{
    (void)state;
    /* S* = {0, 1} with weights 100 and 81, every other weight 1e-4; bottom-2 = {8, 9}. */
    double z[10] = {10, 9, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.01, 0.01};
    int S[2];
    for (uint64_t seed = 0; seed < 20; seed++) {
        gsfw_dmo *dmo = NULL;
        /* delta^2 * 181 = 45.25: one swap (either top index) suffices */
        assert_int_equal(gsfw_dmo_topk_approx(10, 2, 0.5, seed, &dmo, NULL), GSFW_OK);
        assert_int_equal(run_select(dmo, z, S), 2);
        int tops = contains(S, 2, 0) + contains(S, 2, 1);
        int bottoms = contains(S, 2, 8) + contains(S, 2, 9);
        assert_int_equal(tops, 1);
        assert_int_equal(bottoms, 1);
        gsfw_dmo_free(dmo);
        /* delta^2 * 181 = 146.6 > 100 + 1e-4: both swaps needed, S = S* */
        assert_int_equal(gsfw_dmo_topk_approx(10, 2, 0.9, seed, &dmo, NULL), GSFW_OK);
        assert_int_equal(run_select(dmo, z, S), 2);
        int want[2] = {0, 1};
        assert_same_set(S, want, 2);
        gsfw_dmo_free(dmo);
    }
    /* Both random orders are used: over seeds, either top index can be the one swapped
     * in, and either bottom index the one swapped out. */
    int in_seen[2] = {0, 0}, kept_seen[2] = {0, 0};
    for (uint64_t seed = 0; seed < 64; seed++) {
        gsfw_dmo *dmo = NULL;
        assert_int_equal(gsfw_dmo_topk_approx(10, 2, 0.5, seed, &dmo, NULL), GSFW_OK);
        run_select(dmo, z, S);
        in_seen[0] |= contains(S, 2, 0);
        in_seen[1] |= contains(S, 2, 1);
        kept_seen[0] |= contains(S, 2, 8);
        kept_seen[1] |= contains(S, 2, 9);
        gsfw_dmo_free(dmo);
    }
    assert_true(in_seen[0] && in_seen[1] && kept_seen[0] && kept_seen[1]);

    /* Constant magnitudes: the bottom set itself is optimal and is returned unchanged
     * (the bottom-s in rank order are the s largest ids). */
    double c[8] = {2, -2, 2, -2, 2, -2, 2, -2};
    gsfw_dmo *dmo = NULL;
    assert_int_equal(gsfw_dmo_topk_approx(8, 3, 0.7, 1, &dmo, NULL), GSFW_OK);
    int T[3], want[3] = {5, 6, 7};
    assert_int_equal(run_select(dmo, c, T), 3);
    assert_same_set(T, want, 3);
    /* z = 0: every set is optimal */
    double zero[8] = {0};
    assert_int_equal(run_select(dmo, zero, T), 3);
    assert_valid_ids(T, 3, 8);
    gsfw_dmo_free(dmo);
}

/* Same seed: identical answers call by call; another seed: a different sequence. */
static void test_topk_approx_deterministic(void **state)
{
    (void)state;
    int d = 50, s = 10, calls = 25;
    double z[50];
    int A[10], B[10], C[10];
    gsfw_dmo *a = NULL, *b = NULL, *c = NULL;
    assert_int_equal(gsfw_dmo_topk_approx(d, s, 0.6, 42, &a, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_topk_approx(d, s, 0.6, 42, &b, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_topk_approx(d, s, 0.6, 43, &c, NULL), GSFW_OK);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 5);
    int differ = 0;
    for (int t = 0; t < calls; t++) {
        fill_z(&rng, z, d, Z_GAUSS);
        run_select(a, z, A);
        run_select(b, z, B);
        run_select(c, z, C);
        assert_memory_equal(A, B, sizeof A);
        if (memcmp(A, C, sizeof A) != 0) differ = 1;
    }
    assert_true(differ);
    gsfw_dmo_free(a);
    gsfw_dmo_free(b);
    gsfw_dmo_free(c);
}

static void test_topk_approx_errors(void **state)
{
    (void)state;
    gsfw_err err;
    gsfw_dmo *dmo = NULL;
    double bad[] = {0.0, -0.5, 1.5, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(gsfw_dmo_topk_approx(10, 3, bad[i], 1, &dmo, &err),
                         GSFW_ERR_INVALID_ARG);
        assert_null(dmo);
        assert_non_null(strstr(err.message, "delta"));
    }
    assert_int_equal(gsfw_dmo_topk_approx(10, 11, 0.5, 1, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "s = 11 exceeds"));
    assert_int_equal(gsfw_dmo_topk_approx(10, 0, 0.5, 1, &dmo, &err), GSFW_ERR_INVALID_ARG);
}

/* --------------------------------------------------------------------- l1 */

static void test_l1(void **state)
{
    (void)state;
    gsfw_dmo *dmo = NULL;
    int S[1];
    assert_int_equal(gsfw_dmo_l1(5, 1.0, 0, &dmo, NULL), GSFW_OK);
    assert_int_equal(dmo->max_support, 1);
    double z[5] = {1, -3, 3, 2, -0.5};
    assert_int_equal(run_select(dmo, z, S), 1);
    assert_int_equal(S[0], 1); /* tie |-3| = |3|: the smaller index */
    double zero[5] = {0};
    assert_int_equal(run_select(dmo, zero, S), 1);
    assert_int_equal(S[0], 0);
    gsfw_dmo_free(dmo);

    /* delta < 1: any qualifying index, seeded; over many calls more than one shows up */
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 9);
    double w[30];
    gsfw_dmo *a = NULL, *b = NULL;
    assert_int_equal(gsfw_dmo_l1(30, 0.5, 77, &a, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_l1(30, 0.5, 77, &b, NULL), GSFW_OK);
    int distinct_answers = 0, last = -1;
    for (int t = 0; t < 50; t++) {
        fill_z(&rng, w, 30, t % 2 ? Z_GAUSS : Z_TIES);
        double mx = 0;
        for (int i = 0; i < 30; i++) mx = fmax(mx, fabs(w[i]));
        int Sa[1], Sb[1];
        assert_int_equal(run_select(a, w, Sa), 1);
        assert_int_equal(run_select(b, w, Sb), 1);
        assert_int_equal(Sa[0], Sb[0]);
        assert_true(Sa[0] >= 0 && Sa[0] < 30);
        assert_true(fabs(w[Sa[0]]) >= 0.5 * mx);
        if (Sa[0] != last) distinct_answers++;
        last = Sa[0];
    }
    assert_true(distinct_answers > 1);
    gsfw_dmo_free(a);
    gsfw_dmo_free(b);

    /* The test is |z_i| >= delta max|z| (not >): with z = (4, -2, 1) and delta = 0.5,
     * indices 0 and 1 qualify, 2 never does. */
    double q[3] = {4, -2, 1};
    int seen[3] = {0, 0, 0};
    for (uint64_t seed = 0; seed < 40; seed++) {
        assert_int_equal(gsfw_dmo_l1(3, 0.5, seed, &a, NULL), GSFW_OK);
        assert_int_equal(run_select(a, q, S), 1);
        seen[S[0]] = 1;
        gsfw_dmo_free(a);
    }
    assert_true(seen[0] && seen[1] && !seen[2]);

    gsfw_err err;
    assert_int_equal(gsfw_dmo_l1(0, 1.0, 0, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_dmo_l1(5, 0.0, 0, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_dmo_l1(5, 2.0, 0, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_dmo_l1(5, NAN, 0, &dmo, &err), GSFW_ERR_INVALID_ARG);
}

/* ------------------------------------------------------------- graph models */

/* A random graph on n nodes: a random spanning tree over each of `pieces` blocks of
 * consecutive ids plus `extra` random edges inside blocks; `isolated` trailing nodes get
 * no edge. Node ids are then relabelled by a random permutation. */
static gsfw_graph *random_graph(gsfw_rng *rng, int n, int pieces, int extra, int isolated)
{
    int cap = 2 * n + extra + 4;
    int *u = malloc((size_t)cap * sizeof(int)), *v = malloc((size_t)cap * sizeof(int));
    int *perm = malloc((size_t)n * sizeof(int));
    assert_true(u && v && perm);
    for (int i = 0; i < n; i++) perm[i] = i;
    gsfw_rng_shuffle(rng, perm, n);
    int core = n - isolated, m = 0;
    int block = (core + pieces - 1) / pieces;
    for (int i = 1; i < core; i++) {
        int start = (i / block) * block;
        if (i == start) continue; /* first node of a block */
        int j = start + (int)gsfw_rng_below(rng, (uint64_t)(i - start));
        u[m] = perm[i];
        v[m] = perm[j];
        m++;
    }
    for (int e = 0; e < extra; e++) {
        int i = (int)gsfw_rng_below(rng, (uint64_t)core);
        int start = (i / block) * block;
        int end = start + block < core ? start + block : core;
        int j = start + (int)gsfw_rng_below(rng, (uint64_t)(end - start));
        if (i == j) continue;
        u[m] = perm[i];
        v[m] = perm[j];
        m++;
    }
    gsfw_graph *G = NULL;
    assert_int_equal(gsfw_graph_from_edges(n, m, u, v, NULL, &G, NULL), GSFW_OK);
    free(u);
    free(v);
    free(perm);
    return G;
}

/* Number of nodes in the components of G that contain at least one of the ids in seeds. */
static int reach_of(const gsfw_graph *G, const int *seeds, int k)
{
    int *label = malloc((size_t)gsfw_graph_nodes(G) * sizeof(int));
    int count = 0;
    assert_non_null(label);
    assert_int_equal(gsfw_graph_components(G, label, &count, NULL), GSFW_OK);
    unsigned char *hit = calloc((size_t)count, 1);
    assert_non_null(hit);
    for (int i = 0; i < k; i++) hit[label[seeds[i]]] = 1;
    int total = 0;
    for (int i = 0; i < gsfw_graph_nodes(G); i++) total += hit[label[i]];
    free(hit);
    free(label);
    return total;
}

/* For all 1 <= g <= s <= smax and a batch of random z: the subgraph oracle's answer is
 * feasible, has min(s, reach of its seeds) nodes, and is within its proven factors of
 * the brute-force optimum; the brute-force answer is feasible and never beaten. */
static void check_subgraph_vs_brute(const gsfw_graph *G, int smax, int nz, gsfw_rng *rng)
{
    int n = gsfw_graph_nodes(G);
    double *z = malloc((size_t)n * sizeof(double));
    int *S = malloc((size_t)n * sizeof(int)), *B = malloc((size_t)n * sizeof(int));
    int *order = malloc((size_t)n * sizeof(int));
    assert_true(z && S && B && order);
    if (smax > n) smax = n;
    for (int s = 1; s <= smax; s++) {
        for (int g = 1; g <= s; g++) {
            gsfw_dmo *heur = NULL, *exact = NULL;
            assert_int_equal(gsfw_dmo_subgraph(G, s, g, &heur, NULL), GSFW_OK);
            assert_int_equal(gsfw_dmo_brute_force(G, s, g, &exact, NULL), GSFW_OK);
            assert_true(fabs(heur->delta - sqrt((double)g / s)) < 1e-15);
            assert_true(exact->delta == 1.0);
            assert_int_equal(heur->d, n);
            for (int t = 0; t < nz; t++) {
                fill_z(rng, z, n, t % Z_KINDS);
                int hs = run_select(heur, z, S);
                int bs = run_select(exact, z, B);
                assert_valid_ids(S, hs, n);
                assert_valid_ids(B, bs, n);
                assert_true(hs >= 1 && hs <= s);
                assert_true(bs >= 1 && bs <= s);
                assert_true(induced_components(G, S, hs) <= g);
                assert_true(induced_components(G, B, bs) <= g);
                /* S contains the top-g seeds and stops only at s or an exhausted reach */
                ref_rank(z, n, order);
                for (int i = 0; i < g; i++) assert_true(contains(S, hs, order[i]));
                int reach = reach_of(G, order, g);
                assert_int_equal(hs, reach < s ? reach : s);
                double got = sum_sq(z, S, hs), opt = sum_sq(z, B, bs);
                double tol = 1e-12 * (opt > 0 ? opt : 1);
                assert_true(got <= opt + tol);
                int ceil_sg = (s + g - 1) / g;
                assert_true(got >= opt / ceil_sg - tol);
                assert_true(got >= opt * g / s - tol);
            }
            gsfw_dmo_free(heur);
            gsfw_dmo_free(exact);
        }
    }
    free(z);
    free(S);
    free(B);
    free(order);
}

static void test_subgraph_grids(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 41);
    int dims[][3] = {{3, 3, 9}, {4, 4, 7}, {3, 5, 8}, {1, 7, 7}};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        gsfw_graph *G = NULL;
        assert_int_equal(gsfw_graph_grid(dims[i][0], dims[i][1], &G, NULL), GSFW_OK);
        check_subgraph_vs_brute(G, dims[i][2], 12, &rng);
        gsfw_graph_free(G);
    }
}

static void test_subgraph_random_graphs(void **state)
{
    (void)state;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 43);
    for (int rep = 0; rep < 8; rep++) {
        int n = 8 + (int)gsfw_rng_below(&rng, 6);
        /* connected, connected with extra edges, 2-3 pieces, pieces plus isolated nodes */
        int pieces = rep < 4 ? 1 : 2 + rep % 2;
        int extra = rep % 2 ? n : 0;
        int isolated = rep >= 6 ? 2 : 0;
        gsfw_graph *G = random_graph(&rng, n, pieces, extra, isolated);
        check_subgraph_vs_brute(G, 6, 8, &rng);
        gsfw_graph_free(G);
    }
}

/* A seed in a small component: growth stops when the component is exhausted. */
static void test_subgraph_exhausted_component(void **state)
{
    (void)state;
    /* triangle 0-1-2, path 3-4-5-6-7 */
    int u[] = {0, 1, 2, 3, 4, 5, 6}, v[] = {1, 2, 0, 4, 5, 6, 7};
    gsfw_graph *G = NULL;
    assert_int_equal(gsfw_graph_from_edges(8, 7, u, v, NULL, &G, NULL), GSFW_OK);
    double z[8] = {5, 0.1, 0.1, 1, 1, 1, 1, 1};
    int S[8];
    gsfw_dmo *dmo = NULL;
    assert_int_equal(gsfw_dmo_subgraph(G, 5, 1, &dmo, NULL), GSFW_OK);
    int size = run_select(dmo, z, S);
    int want[] = {0, 1, 2};
    assert_int_equal(size, 3);
    assert_same_set(S, want, 3);
    gsfw_dmo_free(dmo);
    /* g = 2 seeds 0 and 3 (|z| ties on the path go to the smaller id); the path's
     * weight-1 nodes beat the triangle's 0.01, so growth walks along the path */
    assert_int_equal(gsfw_dmo_subgraph(G, 5, 2, &dmo, NULL), GSFW_OK);
    size = run_select(dmo, z, S);
    int want2[] = {0, 3, 4, 5, 6};
    assert_int_equal(size, 5);
    assert_same_set(S, want2, 5);
    gsfw_dmo_free(dmo);
    gsfw_graph_free(G);
}

/* Best-neighbour-first ranks the frontier by each node's own weight (no look-ahead): a
 * light node hiding a heavy branch loses to a medium one. */
static void test_subgraph_best_first(void **state)
{
    (void)state;
    /* centre 0 with branches 0-1-2-3 (light then heavy) and 0-4-5-6 (medium) */
    int u[] = {0, 1, 2, 0, 4, 5}, v[] = {1, 2, 3, 4, 5, 6};
    gsfw_graph *G = NULL;
    assert_int_equal(gsfw_graph_from_edges(7, 6, u, v, NULL, &G, NULL), GSFW_OK);
    double z[7] = {10, 1, 8, 8, 2, 2, 2};
    int S[7];
    gsfw_dmo *dmo = NULL;
    assert_int_equal(gsfw_dmo_subgraph(G, 3, 1, &dmo, NULL), GSFW_OK);
    /* from 0: frontier {1 (w 1), 4 (w 4)} -> 4; then {1, 5 (w 4)} -> 5 */
    int size = run_select(dmo, z, S);
    int want[] = {0, 4, 5};
    assert_int_equal(size, 3);
    assert_same_set(S, want, 3);
    gsfw_dmo_free(dmo);
    gsfw_graph_free(G);
}

/* Star: centre 0 is the seed, so growth must take the s-1 heaviest leaves, exercising
 * the heap with many pushes before the pops. */
static void test_subgraph_star_heap(void **state)
{
    (void)state;
    enum { LEAVES = 60 };
    int u[LEAVES], v[LEAVES], order[LEAVES + 1], S[LEAVES + 1];
    double z[LEAVES + 1];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 61);
    for (int i = 0; i < LEAVES; i++) {
        u[i] = 0;
        v[i] = i + 1;
    }
    gsfw_graph *G = NULL;
    assert_int_equal(gsfw_graph_from_edges(LEAVES + 1, LEAVES, u, v, NULL, &G, NULL), GSFW_OK);
    for (int rep = 0; rep < 20; rep++) {
        fill_z(&rng, z, LEAVES + 1, rep % 2 ? Z_TIES : Z_GAUSS);
        z[0] = 100.0;
        ref_rank(z, LEAVES + 1, order); /* order[0] = 0, then the leaves by rank */
        int s = 1 + (int)gsfw_rng_below(&rng, LEAVES);
        gsfw_dmo *dmo = NULL;
        assert_int_equal(gsfw_dmo_subgraph(G, s, 1, &dmo, NULL), GSFW_OK);
        int size = run_select(dmo, z, S);
        assert_int_equal(size, s);
        assert_same_set(S, order, s);
        gsfw_dmo_free(dmo);
    }
    gsfw_graph_free(G);
}

static void test_graph_oracle_errors(void **state)
{
    (void)state;
    gsfw_graph *G = NULL;
    assert_int_equal(gsfw_graph_grid(2, 5, &G, NULL), GSFW_OK); /* 10 nodes */
    gsfw_err err;
    gsfw_dmo *dmo = NULL;
    gsfw_error (*ctor[2])(const gsfw_graph *, int, int, gsfw_dmo **, gsfw_err *) = {
        gsfw_dmo_subgraph, gsfw_dmo_brute_force};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(ctor[k](G, 3, 5, &dmo, &err), GSFW_ERR_INVALID_ARG);
        assert_null(dmo);
        assert_non_null(strstr(err.message, "g = 5 exceeds s = 3"));
        assert_int_equal(ctor[k](G, 0, 1, &dmo, &err), GSFW_ERR_INVALID_ARG);
        assert_non_null(strstr(err.message, "s = 0"));
        assert_int_equal(ctor[k](G, 11, 1, &dmo, &err), GSFW_ERR_INVALID_ARG);
        assert_non_null(strstr(err.message, "s = 11 exceeds the number of nodes 10"));
        assert_int_equal(ctor[k](G, 3, 0, &dmo, &err), GSFW_ERR_INVALID_ARG);
        assert_non_null(strstr(err.message, "g = 0"));
        assert_int_equal(ctor[k](NULL, 3, 1, &dmo, &err), GSFW_ERR_INVALID_ARG);
        assert_int_equal(ctor[k](G, 3, 1, NULL, &err), GSFW_ERR_INVALID_ARG);
        assert_int_equal(ctor[k](G, 10, 10, &dmo, &err), GSFW_OK); /* s = n, g = s */
        gsfw_dmo_free(dmo);
    }
    gsfw_graph_free(G);

    /* the enumeration limit */
    assert_int_equal(gsfw_graph_grid(10, 10, &G, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_brute_force(G, 10, 1, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_null(dmo);
    assert_non_null(strstr(err.message, "subsets"));
    assert_int_equal(gsfw_dmo_brute_force(G, 3, 1, &dmo, &err), GSFW_OK); /* 166751 sets */
    gsfw_dmo_free(dmo);
    gsfw_graph_free(G);
}

/* Every oracle refuses NaN / Inf in z instead of returning a meaningless support. */
static void test_nonfinite_input(void **state)
{
    (void)state;
    gsfw_graph *G = NULL;
    assert_int_equal(gsfw_graph_grid(3, 3, &G, NULL), GSFW_OK);
    gsfw_dmo *d[5] = {NULL};
    assert_int_equal(gsfw_dmo_topk(9, 3, &d[0], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_topk_approx(9, 3, 0.5, 1, &d[1], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_l1(9, 0.5, 1, &d[2], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_subgraph(G, 3, 1, &d[3], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_brute_force(G, 3, 1, &d[4], NULL), GSFW_OK);
    double z[9] = {1, 2, 3, 4, NAN, 6, 7, 8, 9};
    int S[9], size;
    for (int k = 0; k < 5; k++) {
        z[4] = NAN;
        assert_int_not_equal(d[k]->select(d[k]->ctx, z, S, &size, NULL), 0);
        z[4] = -INFINITY;
        assert_int_not_equal(d[k]->select(d[k]->ctx, z, S, &size, NULL), 0);
        gsfw_dmo_free(d[k]);
    }
    gsfw_graph_free(G);
}

/* ------------------------------------------------- brute force vs closed forms */

/* Path graph: for g = 1 the optimum is the best window of s consecutive nodes; for
 * g = 2 the best pair of disjoint intervals with total length <= s (naive O(n^4)). */
static void test_brute_force_path(void **state)
{
    (void)state;
    int n = 12;
    int u[11], v[11];
    for (int i = 0; i < n - 1; i++) {
        u[i] = i;
        v[i] = i + 1;
    }
    gsfw_graph *G = NULL;
    assert_int_equal(gsfw_graph_from_edges(n, n - 1, u, v, NULL, &G, NULL), GSFW_OK);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 51);
    double z[12], w[12], pre[13];
    int B[12];
    for (int s = 1; s <= n; s++) {
        gsfw_dmo *one = NULL, *two = NULL;
        assert_int_equal(gsfw_dmo_brute_force(G, s, 1, &one, NULL), GSFW_OK);
        if (s >= 2) assert_int_equal(gsfw_dmo_brute_force(G, s, 2, &two, NULL), GSFW_OK);
        for (int t = 0; t < 6; t++) {
            fill_z(&rng, z, n, t % Z_KINDS);
            pre[0] = 0;
            for (int i = 0; i < n; i++) {
                w[i] = z[i] * z[i];
                pre[i + 1] = pre[i] + w[i];
            }
            double best1 = 0;
            for (int a = 0; a + s <= n; a++) best1 = fmax(best1, pre[a + s] - pre[a]);
            int bs = run_select(one, z, B);
            double got1 = sum_sq(z, B, bs);
            assert_true(fabs(got1 - best1) <= 1e-12 * fmax(1, best1));
            assert_true(induced_components(G, B, bs) == 1);
            if (!two) continue;
            double best2 = best1;
            for (int a = 0; a < n; a++)
                for (int b = a; b < n; b++)
                    for (int c = b + 2; c < n; c++)
                        for (int e = c; e < n; e++)
                            if ((b - a + 1) + (e - c + 1) <= s)
                                best2 = fmax(best2, pre[b + 1] - pre[a] + pre[e + 1] - pre[c]);
            bs = run_select(two, z, B);
            double got2 = sum_sq(z, B, bs);
            assert_true(fabs(got2 - best2) <= 1e-12 * fmax(1, best2));
            assert_true(induced_components(G, B, bs) <= 2);
        }
        gsfw_dmo_free(one);
        gsfw_dmo_free(two);
    }
    gsfw_graph_free(G);
}

/* Edgeless graph: every component is a single node, so the optimum is the top min(s, g)
 * weights. */
static void test_brute_force_edgeless(void **state)
{
    (void)state;
    int n = 11;
    gsfw_graph *G = NULL;
    assert_int_equal(gsfw_graph_from_edges(n, 0, NULL, NULL, NULL, &G, NULL), GSFW_OK);
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 53);
    double z[11];
    int B[11], order[11];
    for (int s = 1; s <= 6; s++) {
        for (int g = 1; g <= s; g++) {
            gsfw_dmo *dmo = NULL;
            assert_int_equal(gsfw_dmo_brute_force(G, s, g, &dmo, NULL), GSFW_OK);
            for (int t = 0; t < 4; t++) {
                fill_z(&rng, z, n, t % Z_KINDS);
                ref_rank(z, n, order);
                int bs = run_select(dmo, z, B);
                double want = sum_sq(z, order, g);
                assert_true(bs <= g);
                assert_true(fabs(sum_sq(z, B, bs) - want) <= 1e-12 * fmax(1, want));
            }
            gsfw_dmo_free(dmo);
        }
    }
    gsfw_graph_free(G);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_matches_sort),
        cmocka_unit_test(test_select_large),
        cmocka_unit_test(test_sort_small),
        cmocka_unit_test(test_sort_ints_matches_qsort),
        cmocka_unit_test(test_topk_exact),
        cmocka_unit_test(test_topk_errors),
        cmocka_unit_test(test_topk_approx_guarantee),
        cmocka_unit_test(test_topk_approx_first_good_set),
        cmocka_unit_test(test_topk_approx_deterministic),
        cmocka_unit_test(test_topk_approx_errors),
        cmocka_unit_test(test_l1),
        cmocka_unit_test(test_subgraph_grids),
        cmocka_unit_test(test_subgraph_random_graphs),
        cmocka_unit_test(test_subgraph_exhausted_component),
        cmocka_unit_test(test_subgraph_best_first),
        cmocka_unit_test(test_subgraph_star_heap),
        cmocka_unit_test(test_graph_oracle_errors),
        cmocka_unit_test(test_nonfinite_input),
        cmocka_unit_test(test_brute_force_path),
        cmocka_unit_test(test_brute_force_edgeless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
