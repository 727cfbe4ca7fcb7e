/* The baselines on a logistic loss whose labels their answer separates: the refits (and
 * steps) bound no norm, so f has no minimiser there and x grows with the iterations;
 * gsfw_baseline_solve reports GSFW_STATUS_UNBOUNDED instead of converged / max_iter.
 * Labels that no support separates keep the usual statuses, and the losses that attain
 * their minimum (least squares, Huber, squared hinge) have no no_minimiser hook. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "gsfw.h"
#include "util/rng.h"

enum { N = 100, H = 5, W = 6, D = H * W, S = 3 };

/* A (N x D, Gaussian, row-major) and labels y = sign(A x*) with x* on three neighbours
 * of the grid (separable on x*'s support); flips > 0 flips that many labels (every
 * third row), which no support of S nodes separates. */
typedef struct {
    double A[N * D], y[N], x_star[D];
} labelled;

static void make_labels(labelled *p, int flips)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 3);
    for (int k = 0; k < N * D; k++) p->A[k] = gsfw_rng_normal(&rng);
    memset(p->x_star, 0, sizeof p->x_star);
    p->x_star[2] = 1.5;
    p->x_star[3] = -2.0;
    p->x_star[4] = 1.0;
    for (int i = 0; i < N; i++) {
        double t = 0.0;
        for (int j = 0; j < D; j++) t += p->A[i * D + j] * p->x_star[j];
        p->y[i] = t >= 0 ? 1.0 : -1.0;
    }
    for (int k = 0; k < flips; k++) p->y[3 * k] = -p->y[3 * k];
}

typedef struct {
    gsfw_operator *op;
    gsfw_objective *obj;
} objective;

static objective make_objective(const labelled *p, const gsfw_loss_def *loss, int intercept)
{
    objective o = {NULL, NULL};
    gsfw_loss_options opt;
    gsfw_loss_options_def(&opt, loss);
    opt.intercept = intercept;
    assert_int_equal(gsfw_operator_dense(N, D, p->A, GSFW_ROW_MAJOR, GSFW_OP_COPY, &o.op,
                                         NULL), GSFW_OK);
    assert_int_equal(gsfw_objective_linear(o.op, N, p->y, &opt, &o.obj, NULL), GSFW_OK);
    return o;
}

static void free_objective(objective *o)
{
    gsfw_objective_free(o->obj);
    gsfw_operator_free(o->op);
}

static double norm(const double *x)
{
    double s = 0.0;
    for (int j = 0; j < D; j++) s += x[j] * x[j];
    return sqrt(s);
}

typedef struct {
    int calls, stop_at;
} stop_at;

static int stop_callback(const gsfw_iterate *it, const double *x, void *user)
{
    (void)x;
    stop_at *s = user;
    s->calls++;
    return it->iter == s->stop_at;
}

/* The best and the last iterate of the last run with a result. */
static double answer[2][D];

/* One baseline run on the subgraph model of the grid: its status, ||x_best|| and
 * ||x_last||. with_result = 0 passes no result (the check then keeps a best of its own). */
static gsfw_status run(gsfw_objective *obj, gsfw_method method, int iters, int inner_iters,
                       int with_result, stop_at *stop, double norms[2])
{
    gsfw_graph *grid = NULL;
    assert_int_equal(gsfw_graph_grid(H, W, &grid, NULL), GSFW_OK);
    gsfw_model_spec spec = {.model = "subgraph", .d = D, .s = S, .g = 1, .graph = grid};
    gsfw_dmo *head = NULL, *tail = NULL;
    assert_int_equal(gsfw_baseline_oracles(method, &spec, 0, &head, &tail, NULL), GSFW_OK);
    gsfw_baseline_settings set;
    gsfw_baseline_settings_default(&set);
    set.method = method;
    set.max_iter = iters;
    set.inner_iters = inner_iters;
    if (stop) {
        set.callback = stop_callback;
        set.callback_data = stop;
    }
    double xb[D], xl[D];
    gsfw_result res = {.x_best = xb, .x_last = xl};
    gsfw_info info;
    gsfw_err err;
    if (gsfw_baseline_solve(obj, head, tail, &set, with_result ? &res : NULL, &info, &err))
        fail_msg("%s: %s", gsfw_method_name(method), err.message);
    if (norms) {
        norms[0] = norm(xb);
        norms[1] = norm(xl);
    }
    if (with_result) {
        memcpy(answer[0], xb, sizeof xb);
        memcpy(answer[1], xl, sizeof xl);
    }
    gsfw_dmo_free(head);
    gsfw_dmo_free(tail);
    gsfw_graph_free(grid);
    return info.status;
}

/* The methods whose answer grows on separable labels, each with a shorter and a longer
 * run (iterations, inner iterations). */
static const struct {
    gsfw_method method;
    int iters[2], inner[2];
} growing[] = {
    {GSFW_METHOD_COSAMP, {20, 80}, {10, 50}},
    {GSFW_METHOD_GRAPH_COSAMP, {20, 80}, {10, 50}},
    {GSFW_METHOD_GRAPH_SP, {20, 80}, {10, 50}},
    {GSFW_METHOD_GEN_MP, {80, 300}, {10, 10}},
    {GSFW_METHOD_IHT, {1000, 5000}, {10, 10}}, /* slowly: the gradient steps shrink */
};
#define N_GROWING ((int)(sizeof growing / sizeof growing[0]))

static void test_status_name(void **state)
{
    (void)state;
    assert_string_equal(gsfw_status_name(GSFW_STATUS_UNBOUNDED), "unbounded");
    /* appended: the values before it keep theirs */
    assert_int_equal(GSFW_STATUS_UNBOUNDED, GSFW_STATUS_STALLED + 1);
    assert_int_equal(GSFW_STATUS_STALLED, 5);
}

/* graph-sp converges (f <= tol_rel f(0)) and cosamp runs out of iterations while x grows
 * with them: both are unbounded; so are Gen-MP and IHT, whose steps grow x as well. */
static void test_separable_is_unbounded(void **state)
{
    (void)state;
    labelled p;
    make_labels(&p, 0);
    objective o = make_objective(&p, &gsfw_loss_logistic, 0);
    for (int k = 0; k < N_GROWING; k++) {
        const char *name = gsfw_method_name(growing[k].method);
        double norms[2][2];
        gsfw_status st[2];
        for (int r = 0; r < 2; r++)
            st[r] = run(o.obj, growing[k].method, growing[k].iters[r], growing[k].inner[r], 1,
                        NULL, norms[r]);
        if (st[0] != GSFW_STATUS_UNBOUNDED || st[1] != GSFW_STATUS_UNBOUNDED)
            fail_msg("%s: status %s and %s, ||x_best|| %g and %g", name,
                     gsfw_status_name(st[0]), gsfw_status_name(st[1]), norms[0][0],
                     norms[1][0]);
        /* the defect the status reports: more (inner) iterations, a larger x */
        if (!(norms[1][0] > norms[0][0]))
            fail_msg("%s: ||x_best|| %g after the longer run, %g after the shorter", name,
                     norms[1][0], norms[0][0]);
        /* also when the caller asks for no iterate */
        assert_int_equal(run(o.obj, growing[k].method, growing[k].iters[0],
                             growing[k].inner[0], 0, NULL, NULL), GSFW_STATUS_UNBOUNDED);
    }
    free_objective(&o);
    /* with an intercept: the margins are taken at the fitted b, for every method and
     * both run lengths */
    o = make_objective(&p, &gsfw_loss_logistic, 1);
    for (int k = 0; k < N_GROWING; k++)
        for (int r = 0; r < 2; r++) {
            gsfw_status st = run(o.obj, growing[k].method, growing[k].iters[r],
                                 growing[k].inner[r], 1, NULL, NULL);
            if (st != GSFW_STATUS_UNBOUNDED)
                fail_msg("%s with an intercept, %d iterations: status %s",
                         gsfw_method_name(growing[k].method), growing[k].iters[r],
                         gsfw_status_name(st));
        }
    free_objective(&o);
}

/* Flipped labels: f has a minimiser on every support, and no run is reported unbounded. */
static void test_not_separable(void **state)
{
    (void)state;
    labelled p;
    make_labels(&p, 8);
    objective o = make_objective(&p, &gsfw_loss_logistic, 0);
    const gsfw_method all[] = {GSFW_METHOD_IHT, GSFW_METHOD_GRAPH_IHT, GSFW_METHOD_COSAMP,
                               GSFW_METHOD_GRAPH_COSAMP, GSFW_METHOD_GRAPH_SP,
                               GSFW_METHOD_GEN_MP};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        gsfw_status st = run(o.obj, all[k], 80, 10, 1, NULL, NULL);
        if (st == GSFW_STATUS_UNBOUNDED)
            fail_msg("%s: unbounded on labels no support separates", gsfw_method_name(all[k]));
    }
    assert_int_equal(run(o.obj, GSFW_METHOD_COSAMP, 20, 10, 1, NULL, NULL),
                     GSFW_STATUS_MAX_ITER);
    free_objective(&o);
}

/* A run the callback stops keeps its status: the caller stopped it. */
static void test_callback_stop_kept(void **state)
{
    (void)state;
    labelled p;
    make_labels(&p, 0);
    objective o = make_objective(&p, &gsfw_loss_logistic, 0);
    stop_at s = {0, 5};
    assert_int_equal(run(o.obj, GSFW_METHOD_COSAMP, 20, 10, 1, &s, NULL),
                     GSFW_STATUS_CALLBACK_STOP);
    assert_int_equal(s.calls, 6);
    free_objective(&o);
}

/* Few rows: random labels that most merged supports of CoSaMP (up to 3 S columns)
 * separate and its pruned ones (S columns) do not. */
enum { N_FEW = 16 };

/* CoSaMP refits on the merged support, which separates the labels, and prunes the refit
 * to a support that does not: neither the best nor the last iterate separates them, yet
 * x_last grows with the (inner) iterations, driven by the unbounded refits. The last
 * refit is checked too, and the run is unbounded (Graph-CoSaMP's as well). */
static void test_refit_separates(void **state)
{
    (void)state;
    static double A[N_FEW * D];
    double y[N_FEW];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 8);
    for (int k = 0; k < N_FEW * D; k++) A[k] = gsfw_rng_normal(&rng);
    for (int i = 0; i < N_FEW; i++) y[i] = gsfw_rng_normal(&rng) > 0 ? 1.0 : -1.0;
    gsfw_operator *op = NULL;
    gsfw_objective *obj = NULL;
    gsfw_loss_options opt;
    gsfw_loss_options_def(&opt, &gsfw_loss_logistic);
    opt.intercept = 0;
    assert_int_equal(gsfw_operator_dense(N_FEW, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, &op,
                                         NULL), GSFW_OK);
    assert_int_equal(gsfw_objective_linear(op, N_FEW, y, &opt, &obj, NULL), GSFW_OK);
    const gsfw_method refitting[] = {GSFW_METHOD_COSAMP, GSFW_METHOD_GRAPH_COSAMP};
    for (int k = 0; k < 2; k++) {
        const char *name = gsfw_method_name(refitting[k]);
        double norms[2][2];
        for (int r = 0; r < 2; r++) {
            const int iters = r ? 80 : 20;
            gsfw_status st = run(obj, refitting[k], iters, r ? 50 : 10, 1, NULL, norms[r]);
            int separates[2] = {-1, -1};
            assert_int_equal(obj->no_minimiser(obj->ctx, answer[0], &separates[0]), 0);
            assert_int_equal(obj->no_minimiser(obj->ctx, answer[1], &separates[1]), 0);
            if (separates[0] || separates[1])
                fail_msg("%s, %d iterations: the answer separates the labels (best %d, last "
                         "%d); this test wants one that does not", name, iters, separates[0],
                         separates[1]);
            if (st != GSFW_STATUS_UNBOUNDED)
                fail_msg("%s, %d iterations: status %s with separating refits", name, iters,
                         gsfw_status_name(st));
        }
        const double last_norm[2] = {norms[0][1], norms[1][1]};
        if (!(last_norm[1] > last_norm[0]))
            fail_msg("%s: ||x_last|| %g after the longer run, %g after the shorter: the "
                     "refits were to make it grow", name, last_norm[1], last_norm[0]);
    }
    gsfw_objective_free(obj);
    gsfw_operator_free(op);
}

/* gsfw_pursuit_solve called directly (not through gsfw_baseline_solve's graph-sp) checks
 * its answer too. */
static void test_pursuit_solve_checks(void **state)
{
    (void)state;
    labelled p;
    make_labels(&p, 0);
    objective o = make_objective(&p, &gsfw_loss_logistic, 0);
    gsfw_graph *grid = NULL;
    assert_int_equal(gsfw_graph_grid(H, W, &grid, NULL), GSFW_OK);
    gsfw_dmo *head = NULL, *tail = NULL;
    assert_int_equal(gsfw_dmo_head(grid, S, 1, &head, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_tail(grid, S, 1, &tail, NULL), GSFW_OK);
    gsfw_pursuit_settings set;
    gsfw_pursuit_settings_default(&set);
    set.max_iter = 20;
    gsfw_info info;
    assert_int_equal(gsfw_pursuit_solve(o.obj, head, tail, &set, NULL, &info, NULL), GSFW_OK);
    assert_int_equal(info.status, GSFW_STATUS_UNBOUNDED);
    /* labels no support separates: the pursuit's own status */
    free_objective(&o);
    make_labels(&p, 8);
    o = make_objective(&p, &gsfw_loss_logistic, 0);
    assert_int_equal(gsfw_pursuit_solve(o.obj, head, tail, &set, NULL, &info, NULL), GSFW_OK);
    assert_int_not_equal(info.status, GSFW_STATUS_UNBOUNDED);
    gsfw_dmo_free(head);
    gsfw_dmo_free(tail);
    gsfw_graph_free(grid);
    free_objective(&o);
}

/* Sleeps 10 ms at each iterate, so that a time limit of 1e-12 s has passed by the next
 * check even on a clock of coarse resolution. */
static int sleep_per_iterate(int level, const gsfw_iterate *it, const double *x, void *user)
{
    (void)level;
    (void)it;
    (void)x;
    (void)user;
    struct timespec req = {0, 10 * 1000 * 1000}, rem;
    while (nanosleep(&req, &rem) != 0) req = rem;
    return 0;
}

/* Two levels (the same objective, an identity prolong), from x* (which separates the
 * labels), with a time limit that ends the coarse level: the run ends there with
 * time_limit, the fine level does not run, and the answer is x*'s level's best carried
 * up. Only the finest level's answer is checked: a coarse answer is only a start. */
static void test_multilevel_coarse_stop_kept(void **state)
{
    (void)state;
    labelled p;
    make_labels(&p, 0);
    objective o = make_objective(&p, &gsfw_loss_logistic, 0);
    static double identity[D * D];
    for (int j = 0; j < D; j++) identity[j * D + j] = 1.0;
    gsfw_operator *prolong = NULL;
    assert_int_equal(gsfw_operator_dense(D, D, identity, GSFW_ROW_MAJOR, GSFW_OP_COPY,
                                         &prolong, NULL), GSFW_OK);
    gsfw_dmo *oracles[4];
    for (int k = 0; k < 4; k++) assert_int_equal(gsfw_dmo_topk(D, S, &oracles[k], NULL), GSFW_OK);
    gsfw_level levels[2] = {{o.obj, oracles[0], oracles[1], NULL},
                            {o.obj, oracles[2], oracles[3], prolong}};
    gsfw_pursuit_settings set;
    gsfw_pursuit_settings_default(&set);
    set.x0 = p.x_star;
    set.time_limit = 1e-12;
    set.callback = sleep_per_iterate;
    double xb[D];
    gsfw_result res = {.x_best = xb};
    gsfw_info info, level_info[2];
    assert_int_equal(gsfw_multilevel_solve(levels, 2, &set, &res, &info, level_info, NULL),
                     GSFW_OK);
    assert_int_equal(level_info[0].status, GSFW_STATUS_TIME_LIMIT);
    assert_int_equal(info.status, GSFW_STATUS_TIME_LIMIT);
    assert_true(level_info[1].gradient_calls == 0);
    int separates = 0;
    assert_int_equal(o.obj->no_minimiser(o.obj->ctx, xb, &separates), 0);
    assert_true(separates); /* the carried-up answer would have been flagged */
    for (int k = 0; k < 4; k++) gsfw_dmo_free(oracles[k]);
    gsfw_operator_free(prolong);
    free_objective(&o);
}

static int failing_check(void *ctx, const double *x, int *out)
{
    (void)ctx;
    (void)x;
    *out = 1; /* a failed check's answer must not be read */
    return 7;
}

/* The check of the answer is advisory: a hook that fails leaves a run that ended
 * normally as it was (its status, answer and GSFW_OK), on separable labels too, where a
 * working hook reports unbounded. */
static void test_failed_check_kept(void **state)
{
    (void)state;
    labelled p;
    make_labels(&p, 0);
    objective o = make_objective(&p, &gsfw_loss_logistic, 0);
    gsfw_objective failing = *o.obj; /* the same objective, its check failing */
    failing.no_minimiser = failing_check;
    for (int k = 0; k < N_GROWING; k++) {
        const gsfw_method m = growing[k].method;
        const int iters = growing[k].iters[0], inner = growing[k].inner[0];
        double ok_norms[2], failed_norms[2];
        assert_int_equal(run(o.obj, m, iters, inner, 1, NULL, ok_norms), GSFW_STATUS_UNBOUNDED);
        gsfw_status st = run(&failing, m, iters, inner, 1, NULL, failed_norms);
        if (st == GSFW_STATUS_UNBOUNDED)
            fail_msg("%s: unbounded from a check that failed", gsfw_method_name(m));
        /* the same run: the failed check changed nothing in the answer */
        assert_true(failed_norms[0] == ok_norms[0] && failed_norms[1] == ok_norms[1]);
    }
    free_objective(&o);
}

/* The hook: logistic objectives have it (x* separates, 0 does not); the losses that
 * attain their minimum do not, and their baseline statuses are unchanged. */
static void test_hook(void **state)
{
    (void)state;
    labelled p;
    make_labels(&p, 0);
    objective o = make_objective(&p, &gsfw_loss_logistic, 0);
    assert_non_null(o.obj->no_minimiser);
    double zero[D] = {0};
    int none = -1;
    assert_int_equal(o.obj->no_minimiser(o.obj->ctx, p.x_star, &none), 0);
    assert_int_equal(none, 1);
    assert_int_equal(o.obj->no_minimiser(o.obj->ctx, zero, &none), 0);
    assert_int_equal(none, 0);
    free_objective(&o);
    make_labels(&p, 8);
    o = make_objective(&p, &gsfw_loss_logistic, 0);
    assert_int_equal(o.obj->no_minimiser(o.obj->ctx, p.x_star, &none), 0);
    assert_int_equal(none, 0);
    free_objective(&o);

    make_labels(&p, 0);
    const gsfw_entry *hinge = gsfw_registry_find(GSFW_KIND_LOSS, "squared-hinge");
    assert_non_null(hinge);
    const gsfw_loss_def *attained[] = {&gsfw_loss_squared, &gsfw_loss_huber, hinge->def};
    for (int k = 0; k < 3; k++) {
        o = make_objective(&p, attained[k], 0);
        assert_null(o.obj->no_minimiser);
        assert_int_not_equal(run(o.obj, GSFW_METHOD_GRAPH_SP, 20, 10, 1, NULL, NULL),
                             GSFW_STATUS_UNBOUNDED);
        free_objective(&o);
    }
    gsfw_objective *ls = NULL;
    assert_int_equal(gsfw_objective_least_squares(N, D, p.A, GSFW_ROW_MAJOR, p.y, &ls, NULL),
                     GSFW_OK);
    assert_null(ls->no_minimiser);
    gsfw_objective_free(ls);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_name),
        cmocka_unit_test(test_separable_is_unbounded),
        cmocka_unit_test(test_not_separable),
        cmocka_unit_test(test_callback_stop_kept),
        cmocka_unit_test(test_failed_check_kept),
        cmocka_unit_test(test_refit_separates),
        cmocka_unit_test(test_pursuit_solve_checks),
        cmocka_unit_test(test_multilevel_coarse_stop_kept),
        cmocka_unit_test(test_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
