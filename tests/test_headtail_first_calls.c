/* The head / tail projections' cheap first mode (gsfw_proj_settings.first_calls) and the
 * DMO's refine hook: with first_calls = 1 every projection (the tail's, and the certified
 * head's) makes one PCSF run and lands in the size window (by the size repair when the
 * run misses it); after refine the full lambda-search is back (here it needs more runs on
 * some vectors); reset returns to the first mode; refine reports when there is nothing to
 * refine; a refined search does not start from the first mode's lambda. The head's
 * sqrt(1/14) guarantee across warm and first-mode calls: test_headtail_guarantee.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"

enum { SIDE = 40, N = SIDE * SIDE, S = 120, G = 3, VECTORS = 6 };

/* A few bright blobs on a noisy background, different for each k. */
static void vector(int k, double *z)
{
    for (int i = 0; i < N; i++) {
        const int r = i / SIDE, c = i % SIDE;
        double v = 0.05 * sin(1.7 * i + k);
        for (int b = 0; b < 3; b++) {
            const double br = 8 + 11 * ((b + k) % 3), bc = 6 + 13 * b, dr = r - br, dc = c - bc;
            v += (1.0 + 0.2 * k) * exp(-(dr * dr + dc * dc) / (12.0 + b + k));
        }
        z[i] = v;
    }
}

static gsfw_dmo *oracle(const gsfw_graph *grid, gsfw_proj_kind kind, int first_calls)
{
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, kind, S, G);
    st.first_calls = first_calls;
    st.near_miss = -1.0; /* the full search, which the first mode restricts */
    gsfw_dmo *dmo = NULL;
    assert_int_equal(gsfw_dmo_headtail(grid, &st, &dmo, NULL), GSFW_OK);
    assert_non_null(dmo->refine);
    return dmo;
}

/* PCSF runs of one projection of z; its size into *size. */
static long project(gsfw_dmo *dmo, const double *z, int *support, int *size)
{
    gsfw_dmo_stats stats;
    memset(&stats, 0, sizeof stats);
    assert_int_equal(dmo->select(dmo->ctx, z, support, size, &stats), 0);
    return gsfw_dmo_count(dmo, &stats, "pcsf_calls");
}

/* For either kind (the head DMO is the certified one: its answer here is the lambda
 * search's, whose energy certifies itself, so its run count is the search's). */
static void first_mode_one_run_in_window(gsfw_proj_kind kind)
{
    gsfw_graph *grid = NULL;
    assert_int_equal(gsfw_graph_grid(SIDE, SIDE, &grid, NULL), GSFW_OK);
    gsfw_dmo *cheap = oracle(grid, kind, 1), *full = oracle(grid, kind, 0);
    static double z[N];
    static int support[N];
    int size = 0;
    long full_runs = 0;
    for (int round = 0; round < 2; round++) { /* round 1: after reset */
        if (round) assert_int_equal(cheap->reset(cheap->ctx), 0);
        for (int k = 0; k < VECTORS; k++) {
            vector(k, z);
            assert_int_equal(project(cheap, z, support, &size), 1);
            assert_true(size >= S && size <= (int)floor(1.05 * S));
            if (round == 0) full_runs += project(full, z, support, &size);
        }
    }
    assert_true(full_runs > VECTORS); /* so one run per projection is a real restriction */
    /* refine: the full search from then on, until reset */
    assert_int_equal(cheap->refine(cheap->ctx), 0);
    assert_int_not_equal(cheap->refine(cheap->ctx), 0); /* nothing left to refine */
    long refined_runs = 0;
    for (int k = 0; k < VECTORS; k++) {
        vector(k, z);
        refined_runs += project(cheap, z, support, &size);
        assert_true(size >= S && size <= (int)floor(1.05 * S));
    }
    assert_true(refined_runs > VECTORS);
    assert_int_equal(cheap->reset(cheap->ctx), 0);
    vector(0, z);
    assert_int_equal(project(cheap, z, support, &size), 1);
    /* an oracle without a first mode has nothing to refine */
    assert_int_not_equal(full->refine(full->ctx), 0);
    gsfw_dmo_free(cheap);
    gsfw_dmo_free(full);
    gsfw_graph_free(grid);
}

static void test_first_mode_one_run_in_window(void **state)
{
    (void)state;
    first_mode_one_run_in_window(GSFW_PROJ_TAIL);
}

static void test_head_first_mode_one_run_in_window(void **state)
{
    (void)state;
    first_mode_one_run_in_window(GSFW_PROJ_HEAD);
}

static const double *sort_key;

static int by_magnitude_desc(const void *a, const void *b)
{
    const double x = fabs(sort_key[*(const int *)a]), y = fabs(sort_key[*(const int *)b]);
    return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

/* vector(k) on its `kept` largest entries only, those after the `strong` largest scaled
 * by `scale`: as a tail projection's input, a refit on the union of the current support
 * and a head projection's, large on the coordinates that carry the signal. */
static void sparse_vector(int k, int kept, int strong, double scale, double *z)
{
    static int order[N];
    vector(k, z);
    for (int i = 0; i < N; i++) order[i] = i;
    sort_key = z;
    qsort(order, N, sizeof order[0], by_magnitude_desc);
    for (int j = strong; j < kept; j++) z[order[j]] *= scale;
    for (int j = kept; j < N; j++) z[order[j]] = 0.0;
}

/* The first tail projection of a pursuit sees a vector on exactly s_high coordinates:
 * the reference's first lambda, twice the s_high-th largest prize, is the smallest
 * prize, here 1e-18 of the others, and lands in the window. The first mode keeps that
 * lambda (relative to the prizes' scale) for the next vectors, on 1.6 S coordinates,
 * where the single run keeps them all and the size repair trims. A refined search must
 * not climb from there by factors of 8 (the old start: 10 runs and more per projection)
 * but start within k(lambda)'s range. */
static void test_refined_search_starts_in_range(void **state)
{
    (void)state;
    gsfw_graph *grid = NULL;
    assert_int_equal(gsfw_graph_grid(SIDE, SIDE, &grid, NULL), GSFW_OK);
    gsfw_dmo *dmo = oracle(grid, GSFW_PROJ_TAIL, 1);
    static double z[N];
    static int support[N];
    const int s_high = (int)floor(1.05 * S);
    int size = 0;
    sparse_vector(0, s_high, S, 1e-9, z);
    assert_int_equal(project(dmo, z, support, &size), 1);
    for (int k = 1; k < 3; k++) {
        sparse_vector(k, 8 * S / 5, S, 1e-3, z);
        assert_int_equal(project(dmo, z, support, &size), 1);
    }
    assert_int_equal(dmo->refine(dmo->ctx), 0);
    for (int k = 3; k < VECTORS; k++) {
        sparse_vector(k, 8 * S / 5, S, 1e-3, z);
        const long runs = project(dmo, z, support, &size);
        assert_in_range(runs, 1, 5);
        assert_true(size >= S && size <= s_high);
    }
    gsfw_dmo_free(dmo);
    gsfw_graph_free(grid);
}

static void test_first_calls_range(void **state)
{
    (void)state;
    gsfw_graph *grid = NULL;
    assert_int_equal(gsfw_graph_grid(8, 8, &grid, NULL), GSFW_OK);
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, 5, 1);
    st.first_calls = -1;
    gsfw_dmo *dmo = NULL;
    gsfw_err err;
    assert_int_equal(gsfw_dmo_headtail(grid, &st, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "first_calls = -1"));
    assert_null(dmo);
    gsfw_graph_free(grid);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_mode_one_run_in_window),
        cmocka_unit_test(test_head_first_mode_one_run_in_window),
        cmocka_unit_test(test_refined_search_starts_in_range),
        cmocka_unit_test(test_first_calls_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
