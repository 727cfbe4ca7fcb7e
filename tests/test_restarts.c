/* Warm restarts from the polished point (settings.restarts): they recover planted
 * supports that one run misses, never return a worse polished point than the first run,
 * leave the first run's figures alone, stop at an exact fit, are deterministic, equal
 * warm-started solves from the polished point, allocate nothing per round, and are
 * checked as settings. */
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

#include "support/alloc_counter.h"

/* A connected region of s pixels grown at random from the centre of a side x side grid,
 * values in [0.5, 1.5), unit norm; A with i.i.d. N(0, 1/n) entries, n = floor(ratio s),
 * y = A x*. Everything from the seed. */
typedef struct {
    int side, d, n, s;
    double *x_star, *A, *y;
    gsfw_graph *grid;
    gsfw_objective *obj;
} blob_problem;

static int neighbours_in(const double *x, int side, int i)
{
    const int r = i / side, c = i % side;
    return (r > 0 && x[i - side] != 0) + (r < side - 1 && x[i + side] != 0) +
           (c > 0 && x[i - 1] != 0) + (c < side - 1 && x[i + 1] != 0);
}

static blob_problem blob(int side, int s, double ratio, uint64_t seed)
{
    blob_problem p = {.side = side, .d = side * side, .s = s, .n = (int)floor(ratio * s)};
    const int d = p.d, n = p.n;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    p.x_star = calloc((size_t)d, sizeof(double));
    p.A = malloc((size_t)n * (size_t)d * sizeof(double));
    p.y = calloc((size_t)n, sizeof(double));
    assert_true(p.x_star && p.A && p.y);
    p.x_star[(side / 2) * side + side / 2] = 1.0;
    for (int k = 1; k < s;) {
        int i = (int)(gsfw_rng_uniform(&rng) * d);
        if (p.x_star[i] != 0 || !neighbours_in(p.x_star, side, i)) continue;
        p.x_star[i] = 0.5 + gsfw_rng_uniform(&rng);
        k++;
    }
    double nrm = 0;
    for (int i = 0; i < d; i++) nrm += p.x_star[i] * p.x_star[i];
    for (int i = 0; i < d; i++) p.x_star[i] /= sqrt(nrm);
    for (int i = 0; i < n * d; i++) p.A[i] = gsfw_rng_normal(&rng) / sqrt((double)n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++) p.y[i] += p.A[(size_t)i * d + j] * p.x_star[j];
    assert_int_equal(gsfw_graph_grid(side, side, &p.grid, NULL), GSFW_OK);
    assert_int_equal(gsfw_objective_least_squares(n, d, p.A, GSFW_ROW_MAJOR, p.y, &p.obj, NULL),
                     GSFW_OK);
    return p;
}

static void blob_free(blob_problem *p)
{
    gsfw_objective_free(p->obj);
    gsfw_graph_free(p->grid);
    free(p->x_star);
    free(p->A);
    free(p->y);
}

static gsfw_dmo *head_oracle(const blob_problem *p)
{
    gsfw_dmo *dmo = NULL;
    assert_int_equal(gsfw_dmo_head(p->grid, p->s, 1, &dmo, NULL), GSFW_OK);
    return dmo;
}

/* gsfw recover's default stop, with polish and the given restarts */
static gsfw_settings recover_settings(int restarts)
{
    gsfw_settings st;
    gsfw_settings_default(&st);
    st.polish = 1;
    st.max_iter = 300;
    st.tol_rel = 1e-3;
    st.restarts = restarts;
    return st;
}

typedef struct {
    double *x_best, *x_last, *x_pol;
    gsfw_iterate trace[301];
    gsfw_result res;
    gsfw_info info;
} outcome;

static void solve_into(const blob_problem *p, gsfw_dmo *dmo, const gsfw_settings *st,
                       outcome *o)
{
    memset(o, 0, sizeof *o);
    o->x_best = malloc((size_t)p->d * sizeof(double));
    o->x_last = malloc((size_t)p->d * sizeof(double));
    o->x_pol = malloc((size_t)p->d * sizeof(double));
    o->res = (gsfw_result){.x_best = o->x_best, .x_last = o->x_last, .x_polished = o->x_pol,
                           .trace = o->trace, .trace_capacity = 301};
    gsfw_err err;
    if (gsfw_solve(p->obj, dmo, st, &o->res, &o->info, &err)) fail_msg("%s", err.message);
}

static void outcome_free(outcome *o)
{
    free(o->x_best);
    free(o->x_last);
    free(o->x_pol);
}

static double rel_err(const double *x, const double *x_star, int d)
{
    double e = 0;
    for (int i = 0; i < d; i++) e += (x[i] - x_star[i]) * (x[i] - x_star[i]);
    return sqrt(e); /* ||x*|| = 1 */
}

/* The first run's iterates, trace and figures, as a run without restarts gives them. */
static void assert_first_run_kept(const outcome *with, const outcome *without, int d)
{
    assert_int_equal(with->info.iterations, without->info.iterations);
    assert_int_equal(with->info.status, without->info.status);
    assert_int_equal(with->info.best_iter, without->info.best_iter);
    assert_true(with->info.f_best == without->info.f_best);
    assert_true(with->info.f_last == without->info.f_last);
    assert_true(with->info.L == without->info.L);
    assert_int_equal(with->res.trace_len, without->res.trace_len);
    assert_memory_equal(with->x_best, without->x_best, (size_t)d * sizeof(double));
    assert_memory_equal(with->x_last, without->x_last, (size_t)d * sizeof(double));
    for (int t = 0; t < with->res.trace_len; t++)
        assert_true(with->trace[t].f == without->trace[t].f);
}

/* A planted region whose support one run misses (rel_err 0.34) and the restarts find
 * (seed 3: so under the Prescott, Sandybridge, Haswell and SkylakeX kernels alike). */
static void test_restarts_recover_where_one_run_fails(void **state)
{
    (void)state;
    blob_problem p = blob(12, 24, 1.7, 3);
    gsfw_dmo *dmo = head_oracle(&p);
    gsfw_settings one = recover_settings(0), more = recover_settings(10);
    outcome a, b;
    solve_into(&p, dmo, &one, &a);
    solve_into(&p, dmo, &more, &b);
    assert_true(rel_err(a.x_pol, p.x_star, p.d) > 0.05);
    assert_true(rel_err(b.x_pol, p.x_star, p.d) < 1e-10);
    assert_true(b.info.f_polished < a.info.f_polished);
    assert_in_range(b.info.restarts, 1, 10);
    assert_in_range(b.info.restart_best, 1, b.info.restarts);
    assert_int_equal(a.info.restarts, 0);
    assert_true(b.info.oracle_calls > a.info.oracle_calls);
    assert_true(b.info.gradient_calls > a.info.gradient_calls);
    assert_int_equal(b.info.polished_size, p.s);
    assert_first_run_kept(&b, &a, p.d);
    outcome_free(&a);
    outcome_free(&b);
    gsfw_dmo_free(dmo);
    blob_free(&p);
}

/* On every instance: the returned polished point is never worse than the first run's,
 * and when no round ran it is the first run's, bit for bit. */
static void test_restarts_never_worse(void **state)
{
    (void)state;
    int rounds_seen = 0, exact_seen = 0;
    for (uint64_t seed = 0; seed < 12; seed++) {
        blob_problem p = blob(12, 24, seed % 2 ? 1.7 : 2.0, seed);
        gsfw_dmo *dmo = head_oracle(&p);
        gsfw_settings one = recover_settings(0), more = recover_settings(10);
        outcome a, b;
        solve_into(&p, dmo, &one, &a);
        solve_into(&p, dmo, &more, &b);
        assert_true(b.info.f_polished <= a.info.f_polished);
        assert_first_run_kept(&b, &a, p.d);
        if (b.info.restarts == 0) {
            exact_seen++;
            assert_memory_equal(a.x_pol, b.x_pol, (size_t)p.d * sizeof(double));
            assert_int_equal(a.info.oracle_calls, b.info.oracle_calls);
        } else {
            rounds_seen++;
        }
        if (b.info.restart_best == 0)
            assert_memory_equal(a.x_pol, b.x_pol, (size_t)p.d * sizeof(double));
        outcome_free(&a);
        outcome_free(&b);
        gsfw_dmo_free(dmo);
        blob_free(&p);
    }
    assert_true(rounds_seen > 0 && exact_seen > 0); /* both branches were exercised */
}

/* A first polish that fits exactly ends the restarts before any round. */
static void test_restarts_stop_at_exact_fit(void **state)
{
    (void)state;
    blob_problem p = blob(12, 24, 2.0, 1);
    gsfw_dmo *dmo = head_oracle(&p);
    gsfw_settings st = recover_settings(10);
    outcome o;
    solve_into(&p, dmo, &st, &o);
    assert_true(rel_err(o.x_pol, p.x_star, p.d) < 1e-10);
    assert_int_equal(o.info.restarts, 0);
    assert_int_equal(o.info.restart_best, 0);
    outcome_free(&o);
    gsfw_dmo_free(dmo);
    blob_free(&p);
}

/* Two solves with the same objects give the same answer and counts. */
static void test_restarts_deterministic(void **state)
{
    (void)state;
    blob_problem p = blob(12, 24, 1.7, 9);
    gsfw_dmo *dmo = head_oracle(&p);
    gsfw_settings st = recover_settings(10);
    outcome a, b;
    solve_into(&p, dmo, &st, &a);
    solve_into(&p, dmo, &st, &b);
    assert_true(a.info.restarts >= 2);
    assert_memory_equal(a.x_pol, b.x_pol, (size_t)p.d * sizeof(double));
    assert_true(a.info.f_polished == b.info.f_polished);
    assert_int_equal(a.info.restarts, b.info.restarts);
    assert_int_equal(a.info.restart_best, b.info.restart_best);
    assert_int_equal(a.info.oracle_calls, b.info.oracle_calls);
    assert_int_equal(gsfw_info_count(&a.info, "pcsf_calls"),
                     gsfw_info_count(&b.info, "pcsf_calls"));
    assert_int_equal(a.info.gradient_calls, b.info.gradient_calls);
    outcome_free(&a);
    outcome_free(&b);
    gsfw_dmo_free(dmo);
    blob_free(&p);
}

/* A round is a solve from the polished point: AccFW with the line step, restart_iters
 * iterations, the first run's L, polish. With the top-s oracle (whose contains hook lets
 * gsfw_solve take the polished point as x0) the two agree bit for bit. */
static void test_round_equals_warm_solve(void **state)
{
    (void)state;
    blob_problem p = blob(12, 24, 1.7, 3);
    gsfw_dmo *topk = NULL;
    assert_int_equal(gsfw_dmo_topk(p.d, p.s, &topk, NULL), GSFW_OK);
    gsfw_settings first = recover_settings(0), with = recover_settings(1);
    with.restart_iters = 15;
    outcome a, b, c;
    solve_into(&p, topk, &first, &a);
    solve_into(&p, topk, &with, &b);
    assert_int_equal(b.info.restarts, 1);
    gsfw_settings warm;
    gsfw_settings_default(&warm);
    warm.method = GSFW_METHOD_ACCFW;
    warm.step = GSFW_STEP_LINE;
    warm.max_iter = 15;
    warm.L = a.info.L;
    warm.polish = 1;
    warm.x0 = a.x_pol;
    solve_into(&p, topk, &warm, &c);
    const double *expect = c.info.f_polished < a.info.f_polished ? c.x_pol : a.x_pol;
    assert_memory_equal(b.x_pol, expect, (size_t)p.d * sizeof(double));
    assert_true(b.info.f_polished == fmin(a.info.f_polished, c.info.f_polished));
    assert_int_equal(b.info.restart_best, c.info.f_polished < a.info.f_polished);
    /* the counts and times add up */
    assert_int_equal(b.info.oracle_calls, a.info.oracle_calls + c.info.oracle_calls);
    assert_int_equal(b.info.gradient_calls, a.info.gradient_calls + c.info.gradient_calls);
    outcome_free(&a);
    outcome_free(&b);
    outcome_free(&c);
    gsfw_dmo_free(topk);
    blob_free(&p);
}

/* The callback sees the rounds' iterates too and can stop them. */
typedef struct {
    int calls, stop_at;
} stop_after;

static int stop_cb(const gsfw_iterate *it, const double *x, void *user)
{
    (void)it;
    (void)x;
    stop_after *s = user;
    return ++s->calls == s->stop_at;
}

static void test_callback_stops_a_round(void **state)
{
    (void)state;
    blob_problem p = blob(12, 24, 1.7, 9);
    gsfw_dmo *dmo = head_oracle(&p);
    gsfw_settings st = recover_settings(10);
    stop_after count = {0, -1};
    gsfw_settings plain = recover_settings(0);
    st.callback = stop_cb;
    st.callback_data = &count;
    outcome a, b, first;
    solve_into(&p, dmo, &plain, &first);
    solve_into(&p, dmo, &st, &a);
    const int first_run_calls = a.info.iterations + 1;
    assert_true(a.info.restarts >= 2 && count.calls > first_run_calls);
    stop_after stop = {0, first_run_calls + 5};
    st.callback_data = &stop;
    solve_into(&p, dmo, &st, &b);
    assert_int_equal(b.info.status, GSFW_STATUS_CALLBACK_STOP);
    assert_int_equal(b.info.restarts, 1);
    assert_int_equal(stop.calls, first_run_calls + 5);
    /* the answer is still the best polished point seen: the first run's or better */
    assert_true(b.info.f_polished <= first.info.f_polished);
    assert_int_equal(b.info.iterations, first.info.iterations);
    outcome_free(&first);
    outcome_free(&a);
    outcome_free(&b);
    gsfw_dmo_free(dmo);
    blob_free(&p);
}

/* The allocations of a solve do not depend on the rounds run nor on their length. */
static long allocations_of(const blob_problem *p, int restarts, int restart_iters, int *rounds)
{
    gsfw_dmo *dmo = head_oracle(p);
    gsfw_settings st = recover_settings(restarts);
    st.restart_iters = restart_iters;
    double x_pol[121];
    gsfw_result res = {.x_polished = x_pol};
    gsfw_info info;
    gsfw_err err;
#if COUNTING
    const long before = allocations;
#endif
    if (gsfw_solve(p->obj, dmo, &st, &res, &info, &err)) fail_msg("%s", err.message);
#if COUNTING
    const long made = allocations - before;
#else
    const long made = 0; /* the sanitizers own malloc: nothing is counted */
#endif
    *rounds = info.restarts;
    gsfw_dmo_free(dmo);
    return made;
}

static void test_rounds_allocate_nothing(void **state)
{
    (void)state;
    if (!COUNTING) skip();
    /* d = 121 <= 128: the head projection's qsort of d doubles stays on glibc's stack
     * buffer (larger arrays are malloc'ed by glibc in every call) */
    blob_problem p = blob(11, 22, 1.7, 37); /* five rounds under four BLAS kernels */
    assert_int_equal(p.d, 121);
    int r1, r10, r1_long;
    (void)allocations_of(&p, 1, 20, &r1); /* warm-up: one-time set-up of the libraries */
    const long one = allocations_of(&p, 1, 20, &r1);
    const long many = allocations_of(&p, 10, 20, &r10);
    const long longer = allocations_of(&p, 1, 60, &r1_long);
    assert_int_equal(r1, 1);
    assert_true(r10 >= 3);
    assert_int_equal(r1_long, 1);
    assert_int_equal(one, many);
    assert_int_equal(one, longer);
    blob_free(&p);
}

static void test_restart_settings_checked(void **state)
{
    (void)state;
    blob_problem p = blob(12, 24, 2.0, 1);
    gsfw_dmo *dmo = head_oracle(&p);
    gsfw_settings st = recover_settings(3);
    gsfw_info info;
    gsfw_err err;
    double x[144];
    gsfw_result res = {.x_polished = x};
    st.polish = 0;
    assert_int_equal(gsfw_solve(p.obj, dmo, &st, &res, &info, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "polish"));
    st.polish = 1;
    st.restarts = -1;
    assert_int_equal(gsfw_solve(p.obj, dmo, &st, &res, &info, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "restarts"));
    st.restarts = 2;
    st.restart_iters = 0;
    assert_int_equal(gsfw_solve(p.obj, dmo, &st, &res, &info, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "restart_iters"));
    /* by name, through the registry, as the command line and Python set it */
    gsfw_spec *spec = NULL;
    assert_int_equal(gsfw_spec_create(GSFW_USES_SOLVE, &spec, &err), GSFW_OK);
    assert_int_equal(gsfw_spec_set(spec, "restarts", "7", &err), GSFW_OK);
    assert_int_equal(gsfw_spec_set(spec, "restart_iters", "12", &err), GSFW_OK);
    assert_int_not_equal(gsfw_spec_set(spec, "restarts", "-1", &err), GSFW_OK);
    gsfw_settings from_spec;
    gsfw_spec_settings(spec, &from_spec);
    assert_int_equal(from_spec.restarts, 7);
    assert_int_equal(from_spec.restart_iters, 12);
    gsfw_spec_free(spec);
    gsfw_settings def;
    gsfw_settings_default(&def);
    assert_int_equal(def.restarts, 0);
    assert_int_equal(def.restart_iters, 20);
    gsfw_dmo_free(dmo);
    blob_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restarts_recover_where_one_run_fails),
        cmocka_unit_test(test_restarts_never_worse),
        cmocka_unit_test(test_restarts_stop_at_exact_fit),
        cmocka_unit_test(test_restarts_deterministic),
        cmocka_unit_test(test_round_equals_warm_solve),
        cmocka_unit_test(test_callback_stops_a_round),
        cmocka_unit_test(test_rounds_allocate_nothing),
        cmocka_unit_test(test_restart_settings_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
