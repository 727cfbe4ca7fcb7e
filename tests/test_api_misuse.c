/* Misuse of the public API (include/gsfw.h): every function called with each kind of bad
 * argument that applies to it. A failing call must return the expected error code (never
 * GSFW_OK, a crash or undefined behaviour: make test-asan runs this under ASan/UBSan),
 * fill gsfw_err with a message that names the problem, fail the same way with err = NULL,
 * and leave the caller's outputs alone. The functions without an error channel answer
 * bad input with a sentinel (NaN, -1) or do nothing (the *_free functions, the settings
 * defaults with NULL). Objective hooks and DMO select callbacks that fail inside
 * gsfw_solve surface as GSFW_ERR_CALLBACK with the hook or oracle named. */
#include <float.h>
#include <limits.h>
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
#include "png_io.h"
#include "support/cli_runner.h"

/* ------------------------------------------------------------------ checking */

/* What a report holds before the call: a failing call must overwrite it. */
#define STALE_MESSAGE "stale message from an earlier call"

static void check_failure(gsfw_error rc, const gsfw_err *err, gsfw_error code,
                          const char *needle, const char *what, const char *file, int line)
{
    if (rc != code || err->code != code)
        fail_msg("%s:%d: %s\n  expected error %d (%s), got %d; err.code %d, message '%s'",
                 file, line, what, (int)code, gsfw_error_message(code), (int)rc,
                 (int)err->code, err->message);
    if (err->message[0] == '\0' || strstr(err->message, STALE_MESSAGE))
        fail_msg("%s:%d: %s\n  error %d without a message", file, line, what, (int)code);
    if (needle && !strstr(err->message, needle))
        fail_msg("%s:%d: %s\n  message '%s' lacks '%s'", file, line, what, err->message,
                 needle);
}

/* Evaluate CALL, an expression that passes ERR as its gsfw_err * argument, twice: with a
 * report, which must carry CODE and a message containing NEEDLE (NULL: any message), then
 * with ERR = NULL, which must fail with the same code. */
#define EXPECT_FAIL(CODE, NEEDLE, CALL)                                                     \
    do {                                                                                    \
        gsfw_err report_;                                                                   \
        report_.code = GSFW_OK;                                                             \
        strcpy(report_.message, STALE_MESSAGE);                                             \
        gsfw_err *ERR = &report_;                                                           \
        gsfw_error rc_ = (CALL);                                                            \
        check_failure(rc_, &report_, (CODE), (NEEDLE), #CALL, __FILE__, __LINE__);          \
        ERR = NULL;                                                                         \
        rc_ = (CALL);                                                                       \
        if (rc_ != (CODE))                                                                  \
            fail_msg("%s:%d: %s\n  with err = NULL: expected error %d, got %d", __FILE__,   \
                     __LINE__, #CALL, (int)(CODE), (int)rc_);                               \
    } while (0)

/* A pointer value no library call can return: outputs preset to it show whether a
 * failing call reset them. */
static char sentinel_object;
#define SENTINEL ((void *)&sentinel_object)

/* --------------------------------------------------- toy objective and oracle */

#define TOY_D 6

enum {
    HOOK_VALUE = 1 << 0,
    HOOK_GRADIENT = 1 << 1,
    HOOK_VALUE_GRAD = 1 << 2,
    HOOK_RESET = 1 << 3,
    HOOK_UPDATE = 1 << 4,
    HOOK_CACHED = 1 << 5,
    HOOK_LIPSCHITZ = 1 << 6,
    HOOK_MINIMIZE = 1 << 7,
    HOOK_RESERVE = 1 << 8
};

/* Return codes of the failing hooks: the messages must quote them. */
enum {
    CODE_VALUE = 41,
    CODE_GRADIENT,
    CODE_VALUE_GRAD,
    CODE_RESET,
    CODE_UPDATE,
    CODE_CACHED,
    CODE_LIPSCHITZ,
    CODE_MINIMIZE,
    CODE_RESERVE
};

/* f(x) = 0.5 ||x - c||^2 with c = (1, -2, 3, -4, 5, -6): hooks chosen by `has` fail
 * when their bit is in `fail`. */
typedef struct {
    unsigned fail;
    int nan_value;     /* value hooks report NaN */
    int inf_gradient;  /* gradient hooks put +Inf into entry 2 */
    double lipschitz;  /* what the lipschitz hook reports */
    int value_grad_ok; /* > 0: value_grad fails (CODE_VALUE_GRAD) after this many calls */
    int value_grad_calls;
    double x[TOY_D];   /* cached point of the incremental interface */
    double dir[TOY_D]; /* its direction */
} toy;

static double toy_c(int i) { return (i % 2 ? -1.0 : 1.0) * (i + 1); }

static double toy_eval(const toy *t, const double *x, double *grad)
{
    double f = 0.0;
    for (int i = 0; i < TOY_D; i++) {
        double r = x[i] - toy_c(i);
        f += 0.5 * r * r;
        if (grad) grad[i] = r;
    }
    if (grad && t->inf_gradient) grad[2] = INFINITY;
    return t->nan_value ? NAN : f;
}

static int toy_value(void *ctx, const double *x, double *f)
{
    toy *t = ctx;
    if (t->fail & HOOK_VALUE) return CODE_VALUE;
    *f = toy_eval(t, x, NULL);
    return 0;
}

static int toy_gradient(void *ctx, const double *x, double *grad)
{
    toy *t = ctx;
    if (t->fail & HOOK_GRADIENT) return CODE_GRADIENT;
    toy_eval(t, x, grad);
    return 0;
}

static int toy_value_grad(void *ctx, const double *x, double *f, double *grad)
{
    toy *t = ctx;
    if (t->fail & HOOK_VALUE_GRAD) return CODE_VALUE_GRAD;
    if (t->value_grad_ok > 0 && ++t->value_grad_calls > t->value_grad_ok) return CODE_VALUE_GRAD;
    double v = toy_eval(t, x, grad);
    if (f) *f = v;
    return 0;
}

static int toy_reset(void *ctx, const double *x)
{
    toy *t = ctx;
    if (t->fail & HOOK_RESET) return CODE_RESET;
    memcpy(t->x, x, sizeof t->x);
    return 0;
}

static int toy_set_direction(void *ctx, double cx, int nnz, const int *idx, const double *val)
{
    toy *t = ctx;
    if (t->fail & HOOK_UPDATE) return CODE_UPDATE;
    for (int i = 0; i < TOY_D; i++) t->dir[i] = cx * t->x[i];
    for (int k = 0; k < nnz; k++) t->dir[idx[k]] += val[k];
    return 0;
}

static int toy_along(void *ctx, double gamma, double *f, double *slope)
{
    toy *t = ctx;
    double x[TOY_D], g[TOY_D], sl = 0.0;
    for (int i = 0; i < TOY_D; i++) x[i] = t->x[i] + gamma * t->dir[i];
    double v = toy_eval(t, x, g);
    for (int i = 0; i < TOY_D; i++) sl += g[i] * t->dir[i];
    if (f) *f = v;
    if (slope) *slope = sl;
    return 0;
}

static int toy_step(void *ctx, double gamma)
{
    toy *t = ctx;
    for (int i = 0; i < TOY_D; i++) t->x[i] += gamma * t->dir[i];
    return 0;
}

static int toy_cached(void *ctx, double *f, double *grad)
{
    toy *t = ctx;
    if (t->fail & HOOK_CACHED) return CODE_CACHED;
    double v = toy_eval(t, t->x, grad);
    if (f) *f = v;
    return 0;
}

static int toy_lipschitz(void *ctx, double *L)
{
    toy *t = ctx;
    if (t->fail & HOOK_LIPSCHITZ) return CODE_LIPSCHITZ;
    *L = t->lipschitz;
    return 0;
}

/* What the toy's codes mean (the gradient's only). */
static const char *toy_code_text(int code)
{
    return code == CODE_GRADIENT ? "the toy's gradient hook was told to fail" : NULL;
}

/* The minimiser of f on a support: w_j = c_{S_j}. */
static int toy_minimize_on(void *ctx, int k, const int *S, double *w, int max_iter, double tol,
                           double *f)
{
    toy *t = ctx;
    (void)max_iter;
    (void)tol;
    if (t->fail & HOOK_MINIMIZE) return CODE_MINIMIZE;
    double v = 0.0;
    for (int i = 0; i < TOY_D; i++) v += 0.5 * toy_c(i) * toy_c(i);
    for (int j = 0; j < k; j++) {
        w[j] = toy_c(S[j]);
        v -= 0.5 * w[j] * w[j];
    }
    *f = v;
    return 0;
}

static int toy_reserve(void *ctx, int max_support)
{
    toy *t = ctx;
    (void)max_support;
    return t->fail & HOOK_RESERVE ? CODE_RESERVE : 0;
}

/* A hand-made objective on the stack (never given to gsfw_objective_free, which would
 * free() it): value and gradient, plus the hooks named in `has`. */
static gsfw_objective toy_objective(toy *t, unsigned has)
{
    gsfw_objective o;
    memset(&o, 0, sizeof o);
    o.d = TOY_D;
    o.ctx = t;
    o.value = toy_value;
    o.gradient = toy_gradient;
    if (has & HOOK_VALUE_GRAD) o.value_grad = toy_value_grad;
    if (has & HOOK_RESET) o.reset = toy_reset;
    if (has & HOOK_UPDATE) {
        o.set_direction = toy_set_direction;
        o.along = toy_along;
        o.step = toy_step;
    }
    if (has & HOOK_CACHED) o.cached_value_grad = toy_cached;
    if (has & HOOK_LIPSCHITZ) o.lipschitz = toy_lipschitz;
    if (has & HOOK_MINIMIZE) o.minimize_on = toy_minimize_on;
    if (has & HOOK_RESERVE) o.reserve = toy_reserve;
    return o;
}

#define INCREMENTAL (HOOK_RESET | HOOK_UPDATE | HOOK_CACHED)

typedef enum {
    SEL_TOP1,        /* the largest |z_i| (a valid answer) */
    SEL_FAIL,        /* returns 57 */
    SEL_TOO_MANY,    /* size above max_support */
    SEL_NEGATIVE,    /* size -1 */
    SEL_OUT_OF_RANGE,/* id d */
    SEL_DUPLICATE,   /* id 0 twice */
    SEL_EMPTY        /* no id (a valid answer only for z = 0) */
} toy_select_mode;

#define CODE_SELECT 57

static int toy_select(void *ctx, const double *z, int *support, int *size,
                      gsfw_dmo_stats *stats)
{
    (void)stats;
    switch (*(const toy_select_mode *)ctx) {
    case SEL_FAIL: return CODE_SELECT;
    case SEL_TOO_MANY: *size = 3; return 0;
    case SEL_NEGATIVE: *size = -1; return 0;
    case SEL_OUT_OF_RANGE: support[0] = TOY_D; *size = 1; return 0;
    case SEL_DUPLICATE: support[0] = support[1] = 0; *size = 2; return 0;
    case SEL_EMPTY: *size = 0; return 0;
    case SEL_TOP1: break;
    }
    int best = 0;
    for (int i = 1; i < TOY_D; i++)
        if (fabs(z[i]) > fabs(z[best])) best = i;
    support[0] = best;
    *size = 1;
    return 0;
}

/* A user DMO on the stack (destroy NULL: gsfw_dmo_free leaves it alone). */
static gsfw_dmo toy_dmo(const char *name, toy_select_mode *mode)
{
    gsfw_dmo o = {.d = TOY_D, .max_support = 2, .delta = 1.0, .name = name, .model = "toy",
                  .ctx = mode, .select = toy_select};
    return o;
}

static gsfw_settings settings_for(gsfw_method method)
{
    gsfw_settings set;
    gsfw_settings_default(&set);
    set.method = method;
    set.L = 1.0;
    set.max_iter = 3;
    return set;
}

static gsfw_baseline_settings baseline_for(gsfw_method method)
{
    gsfw_baseline_settings set;
    gsfw_baseline_settings_default(&set);
    set.method = method;
    set.L = 1.0;
    set.max_iter = 3;
    return set;
}

/* Every method value, the Frank-Wolfe family and the baselines alike. */
#define N_METHODS (GSFW_METHOD_GRAPH_SP + 1)

/* Runs set->method through its entry point: gsfw_solve for the Frank-Wolfe family, and
 * gsfw_baseline_solve for the baselines, with the fields both settings share (L, C,
 * max_iter, time_limit, x_true, callback) and the tail projection `tail` (NULL: the head;
 * only the baselines take one). */
static gsfw_error solve_method(gsfw_objective *obj, gsfw_dmo *dmo, gsfw_dmo *tail,
                               const gsfw_settings *set, gsfw_result *res, gsfw_info *info,
                               gsfw_err *err)
{
    if (!gsfw_method_is_baseline(set->method)) {
        assert_null(tail);
        return gsfw_solve(obj, dmo, set, res, info, err);
    }
    gsfw_baseline_settings b = baseline_for(set->method);
    b.L = set->L;
    b.C = set->C;
    b.max_iter = set->max_iter;
    b.time_limit = set->time_limit;
    b.x_true = set->x_true;
    b.callback = set->callback;
    b.callback_data = set->callback_data;
    b.tol = set->tol;
    b.tol_rel = set->tol_rel;
    return gsfw_baseline_solve(obj, dmo, tail, &b, res, info, err);
}

/* ------------------------------------------ static helpers, no-ops on NULL */

static void test_helpers_and_null_noops(void **state)
{
    (void)state;
    assert_string_equal(gsfw_version(), GSFW_VERSION);
    for (int c = GSFW_OK; c <= GSFW_ERR_INTERNAL; c++) {
        const char *m = gsfw_error_message((gsfw_error)c);
        assert_non_null(m);
        assert_true(m[0] != '\0');
        assert_null(strstr(m, "unknown"));
    }
    assert_string_equal(gsfw_error_message((gsfw_error)-1), "unknown error code");
    assert_string_equal(gsfw_error_message((gsfw_error)99), "unknown error code");
    assert_string_equal(gsfw_status_name((gsfw_status)-1), "unknown");
    assert_string_equal(gsfw_status_name((gsfw_status)99), "unknown");
    assert_string_equal(gsfw_method_name((gsfw_method)-1), "unknown");
    assert_string_equal(gsfw_method_name((gsfw_method)99), "unknown");
    assert_int_equal(gsfw_method_parse(NULL), -1);
    assert_int_equal(gsfw_method_parse(""), -1);
    assert_int_equal(gsfw_method_parse("FW"), -1);
    assert_int_equal(gsfw_method_parse("fw "), -1);
    assert_int_equal(gsfw_method_is_baseline((gsfw_method)-1), 0);
    assert_int_equal(gsfw_method_is_baseline((gsfw_method)99), 0);
    assert_int_equal(gsfw_pruning_parse(NULL), -1);
    assert_int_equal(gsfw_pruning_parse(""), -1);
    assert_int_equal(gsfw_pruning_parse("gw2"), -1);

    /* the settings defaults have nothing to fill */
    gsfw_settings_default(NULL);
    gsfw_baseline_settings_default(NULL);
    gsfw_proj_settings_default(NULL, GSFW_PROJ_HEAD, 3, 1);

    /* every destructor takes NULL */
    gsfw_free(NULL);
    gsfw_graph_free(NULL);
    gsfw_objective_free(NULL);
    gsfw_dmo_free(NULL);
    gsfw_pcsf_free(NULL);
    gsfw_headtail_free(NULL);
    gsfw_headtail_reset(NULL);
    /* a DMO without destroy belongs to its creator: gsfw_dmo_free leaves it alone */
    toy_select_mode mode = SEL_TOP1;
    gsfw_dmo user = toy_dmo("user", &mode);
    gsfw_dmo_free(&user);
    assert_string_equal(user.name, "user");
}

/* --------------------------------------------------------------------- graphs */

static void test_graph_constructors(void **state)
{
    (void)state;
    int u[3] = {0, 1, 2}, v[3] = {1, 2, 3};
    double cost[3] = {1, 1, 1};
    gsfw_graph *g = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL",
                gsfw_graph_from_edges(4, 3, u, v, NULL, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "n = -1", gsfw_graph_from_edges(-1, 3, u, v, NULL, &g, ERR));
    assert_null(g);
    g = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "m = -3", gsfw_graph_from_edges(4, -3, u, v, NULL, &g, ERR));
    assert_null(g);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "edge array u is NULL",
                gsfw_graph_from_edges(4, 3, NULL, v, NULL, &g, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "edge array v is NULL",
                gsfw_graph_from_edges(4, 3, u, NULL, NULL, &g, ERR));
    /* more edges than int-counted adjacency lists hold: refused before any edge is read
     * (the arrays here hold 3) */
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "1073741824 edges is more than the 1073741823",
                gsfw_graph_from_edges(4, (INT_MAX - 1) / 2 + 1, u, v, NULL, &g, ERR));
    /* ids out of range: too large, negative, any id with n = 0 */
    EXPECT_FAIL(GSFW_ERR_GRAPH, "edge 2 (2, 3) has a node id outside 0..2",
                gsfw_graph_from_edges(3, 3, u, v, NULL, &g, ERR));
    u[1] = -1;
    EXPECT_FAIL(GSFW_ERR_GRAPH, "edge 1 (-1, 2)", gsfw_graph_from_edges(4, 3, u, v, NULL, &g, ERR));
    u[1] = 1;
    EXPECT_FAIL(GSFW_ERR_GRAPH, "outside", gsfw_graph_from_edges(0, 3, u, v, NULL, &g, ERR));
    /* costs: NaN, Inf, negative */
    cost[1] = NAN;
    EXPECT_FAIL(GSFW_ERR_GRAPH, "edge 1 (1, 2) has cost nan",
                gsfw_graph_from_edges(4, 3, u, v, cost, &g, ERR));
    cost[1] = INFINITY;
    EXPECT_FAIL(GSFW_ERR_GRAPH, "has cost inf", gsfw_graph_from_edges(4, 3, u, v, cost, &g, ERR));
    cost[1] = -0.5;
    EXPECT_FAIL(GSFW_ERR_GRAPH, "has cost -0.5", gsfw_graph_from_edges(4, 3, u, v, cost, &g, ERR));
    assert_null(g);

    g = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL", gsfw_graph_grid(2, 3, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "grid 0 x 3", gsfw_graph_grid(0, 3, &g, ERR));
    assert_null(g);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "grid 3 x -2", gsfw_graph_grid(3, -2, &g, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "at most 2e8", gsfw_graph_grid(100000, 100000, &g, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "grid 2147483647 x 2147483647",
                gsfw_graph_grid(INT32_MAX, INT32_MAX, &g, ERR));
    assert_null(g);
}

static void test_graph_components(void **state)
{
    (void)state;
    gsfw_graph *g = NULL;
    assert_int_equal(gsfw_graph_grid(2, 3, &g, NULL), GSFW_OK);
    int label[6] = {-7, -7, -7, -7, -7, -7}, count = -7;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "the graph is NULL",
                gsfw_graph_components(NULL, label, &count, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "label is NULL", gsfw_graph_components(g, NULL, &count, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "count is NULL", gsfw_graph_components(g, label, NULL, ERR));
    assert_int_equal(count, -7);
    for (int i = 0; i < 6; i++) assert_int_equal(label[i], -7);
    assert_int_equal(gsfw_graph_components(g, label, &count, NULL), GSFW_OK);
    assert_int_equal(count, 1);

    /* no error channel: -1 answers bad input */
    unsigned char mask[6] = {1, 0, 1, 0, 0, 0};
    int work[12];
    assert_int_equal(gsfw_graph_induced_components(NULL, mask, work), -1);
    assert_int_equal(gsfw_graph_induced_components(g, mask, NULL), -1);
    assert_int_equal(gsfw_graph_induced_components(g, mask, work), 2);
    assert_int_equal(gsfw_graph_induced_components(g, NULL, work), 1); /* every node */

    /* accessors: counts and the edge list in gsfw_graph_grid's order; NULL reads as empty */
    const int *eu = NULL, *ev = NULL;
    const double *ec = (const double *)SENTINEL;
    assert_int_equal(gsfw_graph_nodes(g), 6);
    assert_int_equal(gsfw_graph_edge_count(g), 7);
    gsfw_graph_edges(g, &eu, &ev, &ec);
    const int grid_u[7] = {0, 0, 1, 1, 2, 3, 4}, grid_v[7] = {1, 3, 2, 4, 5, 4, 5};
    for (int e = 0; e < 7; e++) {
        assert_int_equal(eu[e], grid_u[e]);
        assert_int_equal(ev[e], grid_v[e]);
    }
    assert_null(ec);
    gsfw_graph_edges(g, NULL, NULL, NULL);
    gsfw_graph_free(g);
    int u[2] = {2, 0}, v[2] = {1, 2};
    double cost[2] = {0.5, 2};
    assert_int_equal(gsfw_graph_from_edges(3, 2, u, v, cost, &g, NULL), GSFW_OK);
    gsfw_graph_edges(g, &eu, &ev, &ec);
    assert_true(eu[0] == 2 && ev[0] == 1 && eu[1] == 0 && ev[1] == 2);
    assert_true(ec && ec[0] == 0.5 && ec[1] == 2);
    gsfw_graph_free(g);
    assert_int_equal(gsfw_graph_nodes(NULL), 0);
    assert_int_equal(gsfw_graph_edge_count(NULL), 0);
    gsfw_graph_edges(NULL, &eu, &ev, &ec);
    assert_true(!eu && !ev && !ec);
}

/* ----------------------------------------------------------------- objectives */

static void test_objective_constructors(void **state)
{
    (void)state;
    double A[6] = {1, 2, 3, 4, 5, 6}, y[2] = {1, 0};
    gsfw_objective *obj = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL",
                gsfw_objective_least_squares(2, 3, A, GSFW_ROW_MAJOR, y, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_DIMENSION, "0 x 3",
                gsfw_objective_least_squares(0, 3, A, GSFW_ROW_MAJOR, y, &obj, ERR));
    assert_null(obj);
    EXPECT_FAIL(GSFW_ERR_DIMENSION, "2 x -3",
                gsfw_objective_least_squares(2, -3, A, GSFW_ROW_MAJOR, y, &obj, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "A is NULL",
                gsfw_objective_least_squares(2, 3, NULL, GSFW_ROW_MAJOR, y, &obj, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "y is NULL",
                gsfw_objective_least_squares(2, 3, A, GSFW_ROW_MAJOR, NULL, &obj, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "unknown layout 7",
                gsfw_objective_least_squares(2, 3, A, (gsfw_layout)7, y, &obj, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "unknown layout -1",
                gsfw_objective_least_squares(2, 3, A, (gsfw_layout)-1, y, &obj, ERR));
    A[5] = NAN; /* row 1, column 2 row-major; row 1, column 2 column-major too */
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "A[1, 2] is nan",
                gsfw_objective_least_squares(2, 3, A, GSFW_ROW_MAJOR, y, &obj, ERR));
    A[5] = 6;
    A[2] = -INFINITY; /* row-major (0, 2), column-major (0, 1) */
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "A[0, 1] is -inf",
                gsfw_objective_least_squares(2, 3, A, GSFW_COL_MAJOR, y, &obj, ERR));
    A[2] = 3;
    y[1] = NAN;
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "y[1] is nan",
                gsfw_objective_least_squares(2, 3, A, GSFW_ROW_MAJOR, y, &obj, ERR));
    assert_null(obj);

    obj = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL",
                gsfw_objective_callback(3, NULL, toy_value, toy_gradient, NULL, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_DIMENSION, "got 0",
                gsfw_objective_callback(0, NULL, toy_value, toy_gradient, NULL, &obj, ERR));
    assert_null(obj);
    EXPECT_FAIL(GSFW_ERR_DIMENSION, "got -4",
                gsfw_objective_callback(-4, NULL, toy_value, toy_gradient, NULL, &obj, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "value and gradient",
                gsfw_objective_callback(3, NULL, NULL, toy_gradient, toy_value_grad, &obj, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "value and gradient",
                gsfw_objective_callback(3, NULL, toy_value, NULL, toy_value_grad, &obj, ERR));
    assert_null(obj);
}

/* No error channel: NaN answers bad input; an empty matrix has norm 0. */
static void test_power_iteration(void **state)
{
    (void)state;
    const double A[4] = {1, 2, 3, 4};
    double work[2 + 2 * 2];
    assert_true(isnan(gsfw_power_iteration_col_major(2, 2, NULL, 10, 1e-9, work)));
    assert_true(isnan(gsfw_power_iteration_col_major(2, 2, A, 10, 1e-9, NULL)));
    assert_true(isnan(gsfw_power_iteration_col_major(-2, 2, A, 10, 1e-9, work)));
    assert_true(isnan(gsfw_power_iteration_col_major(2, -2, A, 10, 1e-9, work)));
    assert_true(isnan(gsfw_power_iteration_col_major(2, 2, A, 0, 1e-9, work)));
    assert_true(isnan(gsfw_power_iteration_col_major(2, 2, A, -5, 1e-9, work)));
    assert_true(gsfw_power_iteration_col_major(0, 2, NULL, 10, 1e-9, NULL) == 0.0);
    assert_true(gsfw_power_iteration_col_major(2, 2, A, 100, 1e-12, work) > 29.0);
}

/* ---------------------------------------------------------------------- DMOs */

static void test_sparse_oracles(void **state)
{
    (void)state;
    gsfw_dmo *dmo = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL", gsfw_dmo_topk(5, 2, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "dimension must be >= 1 (got 0)",
                gsfw_dmo_topk(0, 1, &dmo, ERR));
    assert_null(dmo);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got -5", gsfw_dmo_topk(-5, 1, &dmo, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "s = 0", gsfw_dmo_topk(5, 0, &dmo, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "s = -2", gsfw_dmo_topk(5, -2, &dmo, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "s = 6 exceeds the dimension 5",
                gsfw_dmo_topk(5, 6, &dmo, ERR));

    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL",
                gsfw_dmo_topk_approx(5, 2, 0.5, 1, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got 0", gsfw_dmo_topk_approx(0, 1, 0.5, 1, &dmo, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "s = 0", gsfw_dmo_topk_approx(5, 0, 0.5, 1, &dmo, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "s = 6 exceeds",
                gsfw_dmo_topk_approx(5, 6, 0.5, 1, &dmo, ERR));
    const double bad_delta[] = {0.0, -0.5, 1.5, NAN, INFINITY, -INFINITY};
    for (size_t k = 0; k < sizeof bad_delta / sizeof bad_delta[0]; k++) {
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "delta",
                    gsfw_dmo_topk_approx(5, 2, bad_delta[k], 1, &dmo, ERR));
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "must be in (0, 1]",
                    gsfw_dmo_l1(5, bad_delta[k], 1, &dmo, ERR));
    }
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "delta = nan", gsfw_dmo_l1(5, NAN, 1, &dmo, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL", gsfw_dmo_l1(5, 1, 1, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "l1 DMO: the dimension must be >= 1 (got 0)",
                gsfw_dmo_l1(0, 1, 1, &dmo, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got -3", gsfw_dmo_l1(-3, 1, 1, &dmo, ERR));
    assert_null(dmo);
}

typedef gsfw_error (*graph_dmo_ctor)(const gsfw_graph *, int, int, gsfw_dmo **, gsfw_err *);

static void test_graph_oracles(void **state)
{
    (void)state;
    gsfw_graph *g = NULL, *empty = NULL;
    assert_int_equal(gsfw_graph_grid(3, 3, &g, NULL), GSFW_OK);
    assert_int_equal(gsfw_graph_from_edges(0, 0, NULL, NULL, NULL, &empty, NULL), GSFW_OK);
    const graph_dmo_ctor ctor[4] = {gsfw_dmo_subgraph, gsfw_dmo_brute_force, gsfw_dmo_head,
                                    gsfw_dmo_tail};
    const char *who[4] = {"subgraph DMO", "brute-force DMO", "head", "tail"};
    for (int k = 0; k < 4; k++) {
        gsfw_dmo *dmo = SENTINEL;
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL", ctor[k](g, 3, 1, NULL, ERR));
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "the graph is NULL", ctor[k](NULL, 3, 1, &dmo, ERR));
        assert_null(dmo);
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, who[k], ctor[k](NULL, 3, 1, &dmo, ERR));
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "the graph has no nodes",
                    ctor[k](empty, 1, 1, &dmo, ERR));
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "s = 0", ctor[k](g, 0, 1, &dmo, ERR));
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "s = -1", ctor[k](g, -1, 1, &dmo, ERR));
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "s = 10 exceeds the number of nodes 9",
                    ctor[k](g, 10, 1, &dmo, ERR));
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "g = 0", ctor[k](g, 3, 0, &dmo, ERR));
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "g = -2", ctor[k](g, 3, -2, &dmo, ERR));
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "g = 4 exceeds s = 3", ctor[k](g, 3, 4, &dmo, ERR));
        assert_null(dmo);
    }
    gsfw_graph *big = NULL;
    assert_int_equal(gsfw_graph_grid(10, 10, &big, NULL), GSFW_OK);
    gsfw_dmo *dmo = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "subsets", gsfw_dmo_brute_force(big, 10, 1, &dmo, ERR));
    assert_null(dmo);
    gsfw_graph_free(big);
    gsfw_graph_free(empty);
    gsfw_graph_free(g);
}

/* gsfw_dmo_headtail and gsfw_headtail_create share the settings checks: every bad
 * setting fails both, with its value in the message. */
static void expect_bad_settings(const gsfw_graph *g, const gsfw_proj_settings *st,
                                gsfw_error code, const char *needle)
{
    gsfw_dmo *dmo = SENTINEL;
    gsfw_headtail *ht = SENTINEL;
    EXPECT_FAIL(code, needle, gsfw_dmo_headtail(g, st, &dmo, ERR));
    EXPECT_FAIL(code, needle, gsfw_headtail_create(g, st, &ht, ERR));
    assert_null(dmo);
    assert_null(ht);
}

static void test_projection_settings(void **state)
{
    (void)state;
    gsfw_graph *g = NULL, *empty = NULL;
    assert_int_equal(gsfw_graph_grid(3, 3, &g, NULL), GSFW_OK);
    assert_int_equal(gsfw_graph_from_edges(0, 0, NULL, NULL, NULL, &empty, NULL), GSFW_OK);
    gsfw_proj_settings st;
    gsfw_dmo *dmo = NULL;
    gsfw_headtail *ht = NULL;
    for (int kind = GSFW_PROJ_HEAD; kind <= GSFW_PROJ_TAIL; kind++) {
        for (int method = GSFW_PROJ_PRACTICAL; method <= GSFW_PROJ_THEORY; method++) {
#define FRESH()                                                                             \
    do {                                                                                    \
        gsfw_proj_settings_default(&st, (gsfw_proj_kind)kind, 3, 1);                        \
        st.method = (gsfw_proj_method)method;                                               \
    } while (0)
            FRESH();
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL",
                        gsfw_dmo_headtail(g, &st, NULL, ERR));
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL",
                        gsfw_headtail_create(g, &st, NULL, ERR));
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "settings is NULL",
                        gsfw_dmo_headtail(g, NULL, &dmo, ERR));
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "settings is NULL",
                        gsfw_headtail_create(g, NULL, &ht, ERR));
            expect_bad_settings(NULL, &st, GSFW_ERR_INVALID_ARG, "the graph is NULL");
            expect_bad_settings(empty, &st, GSFW_ERR_INVALID_ARG, "the graph has no nodes");
            st.s = 0;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "s = 0");
            st.s = 10;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "s = 10");
            FRESH();
            st.g = 0;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "g = 0");
            st.g = 4;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "g = 4");
            FRESH();
            st.kind = (gsfw_proj_kind)7;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "unknown kind 7");
            FRESH();
            st.method = (gsfw_proj_method)3;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "unknown method 3");
            FRESH();
            st.pruning = (gsfw_pruning)9;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "unknown pruning 9");
            st.pruning = (gsfw_pruning)-1;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "unknown pruning -1");
            FRESH();
            st.max_calls = 0;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "max_calls = 0");
            st.max_calls = -4;
            expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "max_calls = -4");
            if (method == GSFW_PROJ_PRACTICAL) {
                FRESH();
                st.s_low = 0;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "window [0, 3]");
                FRESH();
                st.s_low = 3;
                st.s_high = 2;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "window [3, 2]");
                /* a window that starts above the graph's 9 nodes is refused; one that
                 * ends above them is clamped (the default's floor(1.05 s) for s near n) */
                FRESH();
                st.s_low = 10;
                st.s_high = 12;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG,
                                    "window [10, 12] lies above the graph's 9 nodes");
                FRESH();
                st.s_low = 8;
                st.s_high = 40;
                assert_int_equal(gsfw_headtail_create(g, &st, &ht, NULL), GSFW_OK);
                const double zw[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
                int sw[9], nw = 0;
                gsfw_proj_info iw;
                assert_int_equal(gsfw_headtail_project(ht, zw, sw, &nw, &iw, NULL), GSFW_OK);
                assert_true(nw >= 8 && nw <= 9);
                assert_int_equal(iw.target_met, 1);
                gsfw_headtail_free(ht);
                ht = NULL;
            } else {
                FRESH();
                st.nu = 2.0;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "nu = 2,");
                st.nu = INFINITY;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "nu = inf");
                FRESH();
                st.delta = 0.0;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "delta = 0,");
                st.delta = NAN;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "delta = nan");
                st.delta = 2.0;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "delta = 2,");
                FRESH();
                st.err_tol = 0.0;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "err_tol = 0)");
                st.err_tol = NAN;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "err_tol = nan");
                FRESH();
                st.budget = INFINITY;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "budget = inf");
                st.budget = NAN;
                expect_bad_settings(g, &st, GSFW_ERR_INVALID_ARG, "budget = nan");
            }
#undef FRESH
        }
    }
    gsfw_graph_free(empty);
    gsfw_graph_free(g);
}

static void test_projection_run(void **state)
{
    (void)state;
    gsfw_graph *g = NULL;
    assert_int_equal(gsfw_graph_grid(3, 3, &g, NULL), GSFW_OK);
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, 3, 1);
    gsfw_headtail *ht = NULL;
    assert_int_equal(gsfw_headtail_create(g, &st, &ht, NULL), GSFW_OK);
    double z[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    int support[9], size = -7;
    for (int i = 0; i < 9; i++) support[i] = -7;
    gsfw_proj_info info;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "the projection object is NULL",
                gsfw_headtail_project(NULL, z, support, &size, &info, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "z is NULL",
                gsfw_headtail_project(ht, NULL, support, &size, &info, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "support is NULL",
                gsfw_headtail_project(ht, z, NULL, &size, &info, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "size is NULL",
                gsfw_headtail_project(ht, z, support, NULL, &info, ERR));
    z[4] = NAN;
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "z[4] = nan",
                gsfw_headtail_project(ht, z, support, &size, &info, ERR));
    z[4] = -INFINITY;
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "z[4] = -inf",
                gsfw_headtail_project(ht, z, support, &size, NULL, ERR));
    z[4] = 1e200; /* finite, but its square (the prize) is not */
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "squares to infinity",
                gsfw_headtail_project(ht, z, support, &size, &info, ERR));
    /* the caller's support and size are untouched by every failure */
    assert_int_equal(size, -7);
    for (int i = 0; i < 9; i++) assert_int_equal(support[i], -7);
    /* and the object still works */
    z[4] = 5;
    assert_int_equal(gsfw_headtail_project(ht, z, support, &size, &info, NULL), GSFW_OK);
    assert_true(size >= 1 && size <= 9);
    gsfw_headtail_free(ht);
    gsfw_graph_free(g);
}

/* ---------------------------------------------------------------------- PCSF */

static void test_pcsf(void **state)
{
    (void)state;
    gsfw_pcsf *ws = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "output pointer is NULL", gsfw_pcsf_create(NULL, ERR));
    assert_int_equal(gsfw_pcsf_create(&ws, NULL), GSFW_OK);
    /* path 0 - 1 - 2 - 3 */
    int eu[3] = {0, 1, 2}, ev[3] = {1, 2, 3};
    double prizes[4] = {1, 2, 3, 4}, costs[3] = {1, 1, 1};
    int nodes[4] = {-7, -7, -7, -7}, edges[3] = {-7, -7, -7}, nn = -7, ne = -7;
    const gsfw_pruning gw = GSFW_PRUNING_GW;
#define RUN(N, M, U, V, P, C, ROOT, TARGET, PRUNING, ON, NN, OE, NE)                          \
    gsfw_pcsf_run(ws, N, M, U, V, P, C, ROOT, TARGET, PRUNING, ON, NN, OE, NE, ERR)
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "workspace is NULL",
                gsfw_pcsf_run(NULL, 4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges,
                              &ne, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "n_out_nodes is NULL",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, NULL, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "n_out_edges is NULL",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges, NULL));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "out_nodes is NULL",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, gw, NULL, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "out_edges is NULL",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, NULL, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "node count -4 is negative",
                RUN(-4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "edge count -3 is negative",
                RUN(4, -3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "edge arrays are NULL",
                RUN(4, 3, NULL, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "prizes are NULL",
                RUN(4, 3, eu, ev, NULL, costs, -1, 1, gw, nodes, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "unknown pruning 4",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, (gsfw_pruning)4, nodes, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "unknown pruning -1",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, (gsfw_pruning)-1, nodes, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "root 4 is out of range",
                RUN(4, 3, eu, ev, prizes, costs, 4, 0, gw, nodes, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "root -2 is out of range",
                RUN(4, 3, eu, ev, prizes, costs, -2, 1, gw, nodes, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "clusters -1 is negative",
                RUN(4, 3, eu, ev, prizes, costs, -1, -1, gw, nodes, &nn, edges, &ne));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "needs target clusters = 0, got 2",
                RUN(4, 3, eu, ev, prizes, costs, 1, 2, gw, nodes, &nn, edges, &ne));
    prizes[2] = NAN;
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "prize of node 2 is nan",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges, &ne));
    prizes[2] = -3;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "prize of node 2 is -3",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges, &ne));
    prizes[2] = 3;
    costs[1] = INFINITY;
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "cost of edge 1 (1, 2) is inf",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges, &ne));
    costs[1] = -1;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "cost of edge 1 (1, 2) is -1",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges, &ne));
    costs[1] = 1;
    ev[2] = 4;
    EXPECT_FAIL(GSFW_ERR_GRAPH, "edge 2 (2, 4) has a node id outside 0..3",
                RUN(4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn, edges, &ne));
    ev[2] = 3;
#undef RUN
    /* the output arrays are untouched; the counts say "nothing" */
    for (int i = 0; i < 4; i++) assert_int_equal(nodes[i], -7);
    for (int e = 0; e < 3; e++) assert_int_equal(edges[e], -7);
    assert_int_equal(nn, 0);
    assert_int_equal(ne, 0);
    /* the workspace still works */
    assert_int_equal(gsfw_pcsf_run(ws, 4, 3, eu, ev, prizes, costs, -1, 1, gw, nodes, &nn,
                                   edges, &ne, NULL), GSFW_OK);
    assert_true(nn >= 1);
    gsfw_pcsf_free(ws);
}

/* ------------------------------------------------------------------- file I/O */

/* The files of a reader/writer test, in a fresh directory: an existing output (which a
 * failed write must leave intact), a file of the wrong kind, a missing file and a path
 * in a missing directory. */
typedef struct {
    char *dir, *out, *wrong_kind, *missing, *nodir;
    int files; /* entries in dir before the calls */
} io_paths;

static io_paths io_paths_make(const char *ext, const char *wrong_contents)
{
    io_paths p;
    char name[32];
    p.dir = strdup(tmpdir_create());
    assert_non_null(p.dir);
    snprintf(name, sizeof name, "out.%s", ext);
    p.out = strdup(path_in(p.dir, name));
    snprintf(name, sizeof name, "text.%s", ext);
    p.wrong_kind = strdup(path_in(p.dir, name));
    snprintf(name, sizeof name, "missing.%s", ext);
    p.missing = strdup(path_in(p.dir, name));
    snprintf(name, sizeof name, "no/such/dir/x.%s", ext);
    p.nodir = strdup(path_in(p.dir, name));
    assert_true(p.out && p.wrong_kind && p.missing && p.nodir);
    assert_int_equal(write_text(p.out, "old contents"), 0);
    assert_int_equal(write_text(p.wrong_kind, wrong_contents), 0);
    p.files = dir_count(p.dir);
    return p;
}

/* The old output is intact and no temporary file was left behind; then clean up. */
static void io_paths_check_and_free(io_paths *p)
{
    assert_true(file_holds(p->out, "old contents"));
    assert_int_equal(dir_count(p->dir), p->files);
    tmpdir_remove(p->dir);
    free(p->dir);
    free(p->out);
    free(p->wrong_kind);
    free(p->missing);
    free(p->nodir);
}

static void test_npy_io(void **state)
{
    (void)state;
    io_paths p = io_paths_make("npy", "not an array\n");
    const char *dir = p.dir, *out = p.out, *text = p.wrong_kind, *missing = p.missing,
               *nodir = p.nodir;

    double *data = SENTINEL;
    int ndim = -7, shape[2] = {-7, -7};
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "path is NULL",
                gsfw_npy_read(NULL, &data, &ndim, shape, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "data is NULL", gsfw_npy_read(text, NULL, &ndim, shape, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "ndim is NULL", gsfw_npy_read(text, &data, NULL, shape, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "shape is NULL",
                gsfw_npy_read(text, &data, &ndim, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_IO, "missing.npy", gsfw_npy_read(missing, &data, &ndim, shape, ERR));
    assert_null(data);
    data = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_IO, "Is a directory", gsfw_npy_read(dir, &data, &ndim, shape, ERR));
    EXPECT_FAIL(GSFW_ERR_FORMAT, "not a .npy file", gsfw_npy_read(text, &data, &ndim, shape, ERR));
    assert_null(data);
    assert_int_equal(ndim, -7);
    assert_int_equal(shape[0], -7);
    assert_int_equal(shape[1], -7);

    const double values[4] = {1, 2, 3, 4};
    int sh[2] = {2, 2};
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "path is NULL", gsfw_npy_write(NULL, values, 2, sh, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "shape is NULL", gsfw_npy_write(out, values, 2, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "ndim must be 1 or 2, got 0",
                gsfw_npy_write(out, values, 0, sh, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "ndim must be 1 or 2, got 3",
                gsfw_npy_write(out, values, 3, sh, ERR));
    /* argument errors are named even where the file could not be created */
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "ndim must be 1 or 2, got -1",
                gsfw_npy_write(nodir, values, -1, sh, ERR));
    sh[1] = -2;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "negative shape (2, -2)",
                gsfw_npy_write(out, values, 2, sh, ERR));
    sh[0] = -3;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "negative shape (-3,)",
                gsfw_npy_write(out, values, 1, sh, ERR));
    sh[0] = 2;
    sh[1] = 2;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "data is NULL", gsfw_npy_write(out, NULL, 2, sh, ERR));
    EXPECT_FAIL(GSFW_ERR_IO, "no/such/dir", gsfw_npy_write(nodir, values, 2, sh, ERR));
    EXPECT_FAIL(GSFW_ERR_IO, "directory", gsfw_npy_write(dir, values, 2, sh, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "empty output path", gsfw_npy_write("", values, 2, sh, ERR));
    io_paths_check_and_free(&p);
}

static void test_edge_list_io(void **state)
{
    (void)state;
    char *dir = strdup(tmpdir_create());
    assert_non_null(dir);
    char *good = strdup(path_in(dir, "good.txt"));
    char *big_id = strdup(path_in(dir, "big_id.txt"));
    char *neg_cost = strdup(path_in(dir, "neg_cost.txt"));
    char *nan_cost = strdup(path_in(dir, "nan_cost.txt"));
    char *neg_id = strdup(path_in(dir, "neg_id.txt"));
    char *missing = strdup(path_in(dir, "missing.txt"));
    assert_int_equal(write_text(good, "0 1\n1 2\n"), 0);
    assert_int_equal(write_text(big_id, "0 1\n1 5\n"), 0);
    assert_int_equal(write_text(neg_cost, "0 1 2.5\n1 2 -1\n"), 0);
    assert_int_equal(write_text(nan_cost, "0 1 nan\n"), 0);
    assert_int_equal(write_text(neg_id, "0 -1\n"), 0);

    int m = -7, *u = SENTINEL, *v = SENTINEL;
    double *cost = SENTINEL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "path is NULL",
                gsfw_edges_read(NULL, 3, &m, &u, &v, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "m is NULL",
                gsfw_edges_read(good, 3, NULL, &u, &v, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "u is NULL",
                gsfw_edges_read(good, 3, &m, NULL, &v, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "v is NULL",
                gsfw_edges_read(good, 3, &m, &u, NULL, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "cost is NULL",
                gsfw_edges_read(good, 3, &m, &u, &v, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_IO, "missing.txt", gsfw_edges_read(missing, 3, &m, &u, &v, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_IO, "Is a directory", gsfw_edges_read(dir, 3, &m, &u, &v, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_GRAPH, "node id 5 is out of range (graph has 3 nodes)",
                gsfw_edges_read(big_id, 3, &m, &u, &v, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_GRAPH, "node id 0 is out of range (graph has 0 nodes)",
                gsfw_edges_read(neg_cost, 0, &m, &u, &v, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_GRAPH, "node id -1 is negative",
                gsfw_edges_read(neg_id, -1, &m, &u, &v, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_GRAPH, "cost -1 is negative",
                gsfw_edges_read(neg_cost, 3, &m, &u, &v, &cost, ERR));
    EXPECT_FAIL(GSFW_ERR_GRAPH, "cost nan is not finite",
                gsfw_edges_read(nan_cost, 3, &m, &u, &v, &cost, ERR));
    /* outputs say "nothing read" */
    assert_int_equal(m, 0);
    assert_null(u);
    assert_null(v);
    assert_null(cost);

    tmpdir_remove(dir);
    free(dir);
    free(good);
    free(big_id);
    free(neg_cost);
    free(nan_cost);
    free(neg_id);
    free(missing);
}

static void test_png_io(void **state)
{
    (void)state;
    io_paths p = io_paths_make("png", "not an image at all\n");
    const char *dir = p.dir, *out = p.out, *text = p.wrong_kind, *missing = p.missing,
               *nodir = p.nodir;

    double *img = SENTINEL;
    int h = -7, w = -7;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "path is NULL", gsfw_png_read_gray(NULL, &img, &h, &w, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "img is NULL", gsfw_png_read_gray(text, NULL, &h, &w, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "height is NULL",
                gsfw_png_read_gray(text, &img, NULL, &w, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "width is NULL",
                gsfw_png_read_gray(text, &img, &h, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_IO, "missing.png", gsfw_png_read_gray(missing, &img, &h, &w, ERR));
    EXPECT_FAIL(GSFW_ERR_IO, "Is a directory", gsfw_png_read_gray(dir, &img, &h, &w, ERR));
    EXPECT_FAIL(GSFW_ERR_FORMAT, "is not a PNG file", gsfw_png_read_gray(text, &img, &h, &w, ERR));
    assert_null(img);
    assert_int_equal(h, -7);
    assert_int_equal(w, -7);

    double pix[6] = {0, 0.2, 0.4, 0.6, 0.8, 1};
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "path is NULL",
                gsfw_png_write_gray(NULL, pix, 2, 3, 0, 1, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "img is NULL",
                gsfw_png_write_gray(out, NULL, 2, 3, 0, 1, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got 0 x 3", gsfw_png_write_gray(out, pix, 0, 3, 0, 1, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got 2 x -3",
                gsfw_png_write_gray(out, pix, 2, -3, 0, 1, ERR));
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "[nan, 1]", gsfw_png_write_gray(out, pix, 2, 3, NAN, 1, ERR));
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "[0, inf]",
                gsfw_png_write_gray(out, pix, 2, 3, 0, INFINITY, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "lo = hi = 0.5",
                gsfw_png_write_gray(out, pix, 2, 3, 0.5, 0.5, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "too wide",
                gsfw_png_write_gray(out, pix, 2, 3, -DBL_MAX, DBL_MAX, ERR));
    pix[4] = NAN;
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "pixel 4 (row 1, column 1) is NaN",
                gsfw_png_write_gray(out, pix, 2, 3, 0, 1, ERR));
    pix[4] = 0.8;
    EXPECT_FAIL(GSFW_ERR_IO, "no/such/dir", gsfw_png_write_gray(nodir, pix, 2, 3, 0, 1, ERR));
    EXPECT_FAIL(GSFW_ERR_IO, "directory", gsfw_png_write_gray(dir, pix, 2, 3, 0, 1, ERR));
    io_paths_check_and_free(&p);
}

/* ------------------------------------------------------------ gsfw_solve: input */

static void test_solve_arguments(void **state)
{
    (void)state;
    double A[TOY_D * TOY_D] = {0}, y[TOY_D];
    for (int i = 0; i < TOY_D; i++) {
        A[i * TOY_D + i] = 1.0 + i;
        y[i] = toy_c(i);
    }
    gsfw_objective *ls = NULL;
    gsfw_dmo *topk = NULL, *topk5 = NULL, *tail = NULL;
    gsfw_graph *path = NULL;
    int pu[TOY_D - 1], pv[TOY_D - 1];
    for (int e = 0; e < TOY_D - 1; e++) {
        pu[e] = e;
        pv[e] = e + 1;
    }
    assert_int_equal(gsfw_objective_least_squares(TOY_D, TOY_D, A, GSFW_ROW_MAJOR, y, &ls,
                                                  NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_topk(TOY_D, 2, &topk, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_topk(TOY_D - 1, 2, &topk5, NULL), GSFW_OK);
    assert_int_equal(gsfw_graph_from_edges(TOY_D, TOY_D - 1, pu, pv, NULL, &path, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_tail(path, 2, 1, &tail, NULL), GSFW_OK);
    gsfw_settings set = settings_for(GSFW_METHOD_FW);

    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "the objective is NULL",
                gsfw_solve(NULL, topk, &set, NULL, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "the oracle is NULL",
                gsfw_solve(ls, NULL, &set, NULL, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "settings is NULL",
                gsfw_solve(ls, topk, NULL, NULL, NULL, ERR));

    /* hand-made objectives */
    toy t;
    memset(&t, 0, sizeof t);
    gsfw_objective o = toy_objective(&t, 0);
    o.value = NULL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "no value or gradient",
                gsfw_solve(&o, topk, &set, NULL, NULL, ERR));
    o = toy_objective(&t, 0);
    o.gradient = NULL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "no value or gradient",
                gsfw_solve(&o, topk, &set, NULL, NULL, ERR));
    o = toy_objective(&t, HOOK_RESET | HOOK_CACHED);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "set_direction is missing",
                gsfw_solve(&o, topk, &set, NULL, NULL, ERR));
    o = toy_objective(&t, HOOK_RESET | HOOK_UPDATE);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "cached_value_grad is missing",
                gsfw_solve(&o, topk, &set, NULL, NULL, ERR));
    o = toy_objective(&t, HOOK_CACHED);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "reset is missing",
                gsfw_solve(&o, topk, &set, NULL, NULL, ERR));
    /* a dimension below 1, with an oracle claiming the same */
    toy_select_mode mode = SEL_TOP1;
    gsfw_dmo u = toy_dmo("user", &mode);
    o = toy_objective(&t, 0);
    o.d = u.d = 0;
    EXPECT_FAIL(GSFW_ERR_DIMENSION, "d = 0 must be >= 1",
                gsfw_solve(&o, &u, &set, NULL, NULL, ERR));
    o.d = u.d = -5;
    EXPECT_FAIL(GSFW_ERR_DIMENSION, "d = -5 must be >= 1",
                gsfw_solve(&o, &u, &set, NULL, NULL, ERR));

    /* hand-made oracles */
    u = toy_dmo("user", &mode);
    u.select = NULL;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "'user' has no select callback",
                gsfw_solve(ls, &u, &set, NULL, NULL, ERR));
    u = toy_dmo(NULL, &mode);
    u.max_support = 0;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "'?' has max_support = 0, outside 1..6",
                gsfw_solve(ls, &u, &set, NULL, NULL, ERR));
    u.max_support = TOY_D + 1;
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "max_support = 7", gsfw_solve(ls, &u, &set, NULL, NULL, ERR));
    /* objects of different sizes: objective d = 6, oracle on 5 entries / on a 9-node graph */
    EXPECT_FAIL(GSFW_ERR_DIMENSION,
                "the objective has dimension 6 but the oracle 'topk' works on 5",
                gsfw_solve(ls, topk5, &set, NULL, NULL, ERR));
    gsfw_graph *grid = NULL;
    gsfw_dmo *head9 = NULL;
    assert_int_equal(gsfw_graph_grid(3, 3, &grid, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_head(grid, 2, 1, &head9, NULL), GSFW_OK);
    EXPECT_FAIL(GSFW_ERR_DIMENSION, "'head' works on 9 entries",
                gsfw_solve(ls, head9, &set, NULL, NULL, ERR));
    gsfw_dmo_free(head9);
    gsfw_graph_free(grid);

    /* settings out of range */
    set = settings_for((gsfw_method)-1);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "method -1 (unknown) is not a Frank-Wolfe method",
                gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
    char unknown[64];
    snprintf(unknown, sizeof unknown, "method %d (unknown) is not a ", N_METHODS);
    set = settings_for((gsfw_method)N_METHODS);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, unknown, gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
    gsfw_baseline_settings bset = baseline_for((gsfw_method)-1);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "method -1 (unknown) is not a baseline",
                gsfw_baseline_solve(ls, topk, NULL, &bset, NULL, NULL, ERR));
    bset = baseline_for((gsfw_method)N_METHODS);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, unknown,
                gsfw_baseline_solve(ls, topk, NULL, &bset, NULL, NULL, ERR));
    {
        /* an unknown method is not sent to the other entry point */
        gsfw_err e;
        set = settings_for((gsfw_method)-1);
        assert_int_equal(gsfw_solve(ls, topk, &set, NULL, NULL, &e), GSFW_ERR_INVALID_ARG);
        assert_null(strstr(e.message, "gsfw_baseline_solve"));
        bset = baseline_for((gsfw_method)N_METHODS);
        assert_int_equal(gsfw_baseline_solve(ls, topk, NULL, &bset, NULL, NULL, &e),
                         GSFW_ERR_INVALID_ARG);
        assert_null(strstr(e.message, "gsfw_solve"));
    }
    /* each method through the other family's entry point: refused, naming the right one */
    for (int method = 0; method < N_METHODS; method++) {
        char needle[96];
        if (gsfw_method_is_baseline((gsfw_method)method)) {
            set = settings_for((gsfw_method)method);
            snprintf(needle, sizeof needle, "method %d (%s) is not a Frank-Wolfe method", method,
                     gsfw_method_name((gsfw_method)method));
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, needle,
                        gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "the baselines run through gsfw_baseline_solve",
                        gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
        } else {
            bset = baseline_for((gsfw_method)method);
            snprintf(needle, sizeof needle, "method %d (%s) is not a baseline", method,
                     gsfw_method_name((gsfw_method)method));
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, needle,
                        gsfw_baseline_solve(ls, topk, NULL, &bset, NULL, NULL, ERR));
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "the Frank-Wolfe family runs through gsfw_solve",
                        gsfw_baseline_solve(ls, topk, NULL, &bset, NULL, NULL, ERR));
        }
    }
    for (int method = 0; method < N_METHODS; method++) {
        const int fw_family = !gsfw_method_is_baseline((gsfw_method)method);
        if (fw_family) { /* settings only the Frank-Wolfe family has */
            set = settings_for((gsfw_method)method);
            set.option = (gsfw_option)0;
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "option must be I (1) or II (2), got 0",
                        gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
            set.option = (gsfw_option)3;
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got 3", gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
            set = settings_for((gsfw_method)method);
            set.L_rule = (gsfw_lipschitz_rule)2; /* GSFW_L_GIVEN is reported, not a rule */
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "unknown L_rule 2",
                        gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
            set.L_rule = (gsfw_lipschitz_rule)-1;
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "unknown L_rule -1",
                        gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
            set = settings_for((gsfw_method)method);
            set.delta = NAN;
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "delta must be in (0, 1]",
                        gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
            set.delta = 1.5;
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got 1.5", gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
        } else { /* settings only the baselines have */
            bset = baseline_for((gsfw_method)method);
            bset.inner_iters = 0;
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "inner_iters must be >= 1, got 0",
                        gsfw_baseline_solve(ls, topk, NULL, &bset, NULL, NULL, ERR));
            bset.inner_iters = -3;
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "inner_iters must be >= 1, got -3",
                        gsfw_baseline_solve(ls, topk, NULL, &bset, NULL, NULL, ERR));
        }
        /* settings both have */
        const double bad_C[] = {0.0, -1.0, NAN, INFINITY, -INFINITY};
        for (size_t k = 0; k < sizeof bad_C / sizeof bad_C[0]; k++) {
            set = settings_for((gsfw_method)method);
            set.C = bad_C[k];
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "C must be finite and > 0",
                        solve_method(ls, topk, NULL, &set, NULL, NULL, ERR));
        }
        set = settings_for((gsfw_method)method);
        set.max_iter = -1;
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "max_iter must be >= 0, got -1",
                    solve_method(ls, topk, NULL, &set, NULL, NULL, ERR));
        set = settings_for((gsfw_method)method);
        set.L = NAN;
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "L must be finite",
                    solve_method(ls, topk, NULL, &set, NULL, NULL, ERR));
        set.L = INFINITY;
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got inf",
                    solve_method(ls, topk, NULL, &set, NULL, NULL, ERR));
        set.L = -INFINITY;
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got -inf",
                    solve_method(ls, topk, NULL, &set, NULL, NULL, ERR));
        /* the tolerances, also for the baselines that ignore them (only graph-sp reads
         * them): one message for every method */
        const double bad_tol[][2] = {{NAN, 0.0}, {-1.0, 0.0}, {INFINITY, 0.0}, {0.0, NAN},
                                     {0.0, -0.5}, {NAN, NAN}};
        for (size_t k = 0; k < sizeof bad_tol / sizeof bad_tol[0]; k++) {
            set = settings_for((gsfw_method)method);
            set.tol = bad_tol[k][0];
            set.tol_rel = bad_tol[k][1];
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "tol and tol_rel must be finite and >= 0 (0 = off)",
                        solve_method(ls, topk, NULL, &set, NULL, NULL, ERR));
        }
        set = settings_for((gsfw_method)method);
        set.time_limit = NAN;
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "time_limit is NaN",
                    solve_method(ls, topk, NULL, &set, NULL, NULL, ERR));
        set = settings_for((gsfw_method)method);
        double x_true[TOY_D] = {0, 0, 0, 0, 0, 0};
        x_true[3] = -INFINITY;
        set.x_true = x_true;
        EXPECT_FAIL(GSFW_ERR_NONFINITE, "x_true[3] is -inf",
                    solve_method(ls, topk, NULL, &set, NULL, NULL, ERR));
        set = settings_for((gsfw_method)method);
        gsfw_iterate trace[2];
        gsfw_result res = {.x_best = NULL, .x_last = NULL, .trace = trace, .trace_capacity = -1, .trace_len = 0};
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "negative trace capacity -1",
                    solve_method(ls, topk, NULL, &set, &res, NULL, ERR));
    }
    /* gsfw_baseline_solve's own NULL arguments */
    bset = baseline_for(GSFW_METHOD_IHT);
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "solve: the objective is NULL",
                gsfw_baseline_solve(NULL, topk, NULL, &bset, NULL, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "solve: the head oracle is NULL",
                gsfw_baseline_solve(ls, NULL, topk, &bset, NULL, NULL, ERR));
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "solve: settings is NULL",
                gsfw_baseline_solve(ls, topk, NULL, NULL, NULL, NULL, ERR));
    /* one prefix, "solve: ", for gsfw_baseline_solve's own checks and for those it shares
     * with gsfw_solve (max_iter: gsfw_run_init), as for gsfw_solve's: the command line
     * strips it, so a baseline's failure reads like any other of `gsfw solve` */
    for (int k = 0; k < 8; k++) {
        gsfw_baseline_settings b = baseline_for(GSFW_METHOD_IHT);
        gsfw_objective *obj_k = ls;
        switch (k) {
        case 0: obj_k = NULL; break;
        case 1: b.method = GSFW_METHOD_FW; break;
        case 2: b.L = NAN; break;
        case 3: b.C = 0.0; break;
        case 4: b.tol = NAN; break;
        case 5: b.inner_iters = 0; break;
        case 6: b.max_iter = -1; break;
        default: b.time_limit = NAN; break;
        }
        gsfw_err e;
        assert_int_equal(gsfw_baseline_solve(obj_k, topk, NULL, &b, NULL, NULL, &e),
                         GSFW_ERR_INVALID_ARG);
        if (strncmp(e.message, "solve: ", 7))
            fail_msg("case %d: '%s' does not start with 'solve: '", k, e.message);
    }
    /* method-specific needs */
    set = settings_for(GSFW_METHOD_FW);
    set.option = GSFW_OPTION_II; /* the tail oracle proves no delta */
    EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "Option II needs delta in (0, 1]; the oracle 'tail'",
                gsfw_solve(ls, tail, &set, NULL, NULL, ERR));
    o = toy_objective(&t, 0); /* no lipschitz hook */
    const gsfw_method needs_L[] = {GSFW_METHOD_ACCFW, GSFW_METHOD_IHT, GSFW_METHOD_GRAPH_IHT,
                                   GSFW_METHOD_GEN_MP};
    for (size_t k = 0; k < sizeof needs_L / sizeof needs_L[0]; k++) {
        set = settings_for(needs_L[k]);
        set.L = 0.0;
        set.L_rule = GSFW_L_SPECTRAL; /* AccFW: the rule that asks the lipschitz hook */
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "needs the smoothness constant L",
                    solve_method(&o, topk, NULL, &set, NULL, NULL, ERR));
    }
    {
        /* for contrast: AccFW's default atom rule needs no lipschitz hook */
        set = settings_for(GSFW_METHOD_ACCFW);
        set.L = 0.0;
        gsfw_info info;
        assert_int_equal(gsfw_solve(&o, topk, &set, NULL, &info, NULL), GSFW_OK);
        assert_int_equal(info.L_source, GSFW_L_ATOM);
        assert_true(info.L > 0);
    }
    const gsfw_method needs_ls[] = {GSFW_METHOD_COSAMP, GSFW_METHOD_GRAPH_COSAMP};
    for (size_t k = 0; k < 2; k++) {
        set = settings_for(needs_ls[k]);
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "needs an objective with a minimize_on hook",
                    solve_method(&o, topk, NULL, &set, NULL, NULL, ERR));
    }
    /* the baselines' tail projection */
    const gsfw_method with_tail[] = {GSFW_METHOD_IHT, GSFW_METHOD_GRAPH_IHT, GSFW_METHOD_COSAMP,
                                     GSFW_METHOD_GRAPH_COSAMP};
    for (size_t k = 0; k < 4; k++) {
        set = settings_for(with_tail[k]);
        EXPECT_FAIL(GSFW_ERR_DIMENSION, "the objective has dimension 6 but the tail "
                    "projection 'topk' works on 5 entries",
                    solve_method(ls, topk, topk5, &set, NULL, NULL, ERR));
        u = toy_dmo("bad-tail", &mode);
        u.select = NULL;
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "'bad-tail' has no select callback",
                    solve_method(ls, topk, &u, &set, NULL, NULL, ERR));
        u = toy_dmo("bad-tail", &mode);
        u.max_support = -1;
        EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "'bad-tail' has max_support = -1",
                    solve_method(ls, topk, &u, &set, NULL, NULL, ERR));
    }
    gsfw_dmo_free(tail);
    gsfw_graph_free(path);
    gsfw_dmo_free(topk5);
    gsfw_dmo_free(topk);
    gsfw_objective_free(ls);
}

/* A failing solve leaves x_best, x_last, the trace and info as they were: on bad
 * arguments (to gsfw_solve and to gsfw_baseline_solve), and when the first oracle call
 * fails (before any iterate is recorded). */
static void test_solve_outputs_untouched(void **state)
{
    (void)state;
    toy t;
    memset(&t, 0, sizeof t);
    gsfw_objective o = toy_objective(&t, INCREMENTAL | HOOK_VALUE_GRAD);
    toy_select_mode good = SEL_TOP1, failing = SEL_FAIL;
    gsfw_dmo ok = toy_dmo("ok", &good), bad = toy_dmo("bad", &failing);
    const double mark = 42.0;
    double x_best[TOY_D], x_last[TOY_D];
    gsfw_iterate trace[4];
    gsfw_info info, info_before;
    const int oracle_round = 2;
    for (int round = 0; round < 6; round++) {
        for (int i = 0; i < TOY_D; i++) x_best[i] = x_last[i] = mark;
        memset(trace, 0x5a, sizeof trace);
        memset(&info, 0x5a, sizeof info);
        memcpy(&info_before, &info, sizeof info);
        gsfw_result res = {.x_best = x_best, .x_last = x_last, .trace = trace, .trace_capacity = 4, .trace_len = -7};
        gsfw_settings set = settings_for(GSFW_METHOD_FW);
        gsfw_err err;
        gsfw_error rc;
        if (round == 0) {
            set.C = -1.0;
            rc = gsfw_solve(&o, &ok, &set, &res, &info, &err);
            assert_int_equal(rc, GSFW_ERR_INVALID_ARG);
        } else if (round == 1) {
            set.method = (gsfw_method)42;
            rc = gsfw_solve(&o, &ok, &set, &res, &info, &err);
            assert_int_equal(rc, GSFW_ERR_INVALID_ARG);
        } else if (round == oracle_round) {
            rc = gsfw_solve(&o, &bad, &set, &res, &info, &err);
            assert_int_equal(rc, GSFW_ERR_CALLBACK);
        } else if (round == 3) { /* a baseline through gsfw_solve */
            set.method = GSFW_METHOD_IHT;
            rc = gsfw_solve(&o, &ok, &set, &res, &info, &err);
            assert_int_equal(rc, GSFW_ERR_INVALID_ARG);
        } else {
            gsfw_baseline_settings bset = baseline_for(GSFW_METHOD_COSAMP);
            if (round == 4)
                bset.inner_iters = 0;
            else
                bset.method = GSFW_METHOD_FW; /* a Frank-Wolfe method through the baselines */
            rc = gsfw_baseline_solve(&o, &ok, NULL, &bset, &res, &info, &err);
            assert_int_equal(rc, GSFW_ERR_INVALID_ARG);
        }
        for (int i = 0; i < TOY_D; i++) {
            assert_true(x_best[i] == mark);
            assert_true(x_last[i] == mark);
        }
        if (round != oracle_round) { /* argument errors touch nothing at all */
            assert_int_equal(res.trace_len, -7);
            assert_memory_equal(&info, &info_before, sizeof info);
        } else {
            assert_int_equal(res.trace_len, 0); /* no iterate recorded */
        }
        gsfw_iterate untouched;
        memset(&untouched, 0x5a, sizeof untouched);
        for (int k = 0; k < 4; k++) assert_memory_equal(&trace[k], &untouched, sizeof untouched);
    }
}

/* ------------------------------------------------------ gsfw_solve: callbacks */

static void test_solve_oracle_failures(void **state)
{
    (void)state;
    double A[TOY_D * TOY_D] = {0}, y[TOY_D];
    for (int i = 0; i < TOY_D; i++) {
        A[i * TOY_D + i] = 1.0;
        y[i] = toy_c(i);
    }
    gsfw_objective *ls = NULL;
    assert_int_equal(gsfw_objective_least_squares(TOY_D, TOY_D, A, GSFW_ROW_MAJOR, y, &ls,
                                                  NULL), GSFW_OK);
    toy_select_mode good = SEL_TOP1;
    gsfw_dmo ok = toy_dmo("ok", &good);
    struct {
        toy_select_mode mode;
        const char *needle;
    } cases[] = {
        {SEL_FAIL, "failed (code 57)"},
        {SEL_TOO_MANY, "returned 3 ids, outside 0..2"},
        {SEL_NEGATIVE, "returned -1 ids"},
        {SEL_OUT_OF_RANGE, "returned id 6 outside 0..5"},
        {SEL_DUPLICATE, "returned id 0 twice"},
    };
    for (int method = 0; method < N_METHODS; method++) {
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            toy_select_mode mode = cases[c].mode;
            gsfw_dmo bad = toy_dmo("misbehaving", &mode);
            gsfw_settings set = settings_for((gsfw_method)method);
            /* as the oracle passed to the solve (also the tail when none is given) */
            EXPECT_FAIL(GSFW_ERR_CALLBACK, "'misbehaving'",
                        solve_method(ls, &bad, NULL, &set, NULL, NULL, ERR));
            EXPECT_FAIL(GSFW_ERR_CALLBACK, cases[c].needle,
                        solve_method(ls, &bad, NULL, &set, NULL, NULL, ERR));
            /* as the baselines' tail projection behind a good head */
            if (method == GSFW_METHOD_IHT || method == GSFW_METHOD_GRAPH_IHT ||
                method == GSFW_METHOD_COSAMP || method == GSFW_METHOD_GRAPH_COSAMP ||
                method == GSFW_METHOD_GRAPH_SP) {
                EXPECT_FAIL(GSFW_ERR_CALLBACK, cases[c].needle,
                            solve_method(ls, &ok, &bad, &set, NULL, NULL, ERR));
            }
        }
    }
    /* a library oracle refusing a non-finite input: an AccFW step point that overflows
     * (L = DBL_MIN makes w = x - grad / (L eta) infinite) is named as such */
    gsfw_dmo *topk = NULL;
    assert_int_equal(gsfw_dmo_topk(TOY_D, 2, &topk, NULL), GSFW_OK);
    gsfw_settings set = settings_for(GSFW_METHOD_ACCFW);
    set.L = DBL_MIN;
    EXPECT_FAIL(GSFW_ERR_NONFINITE, "'topk' was handed a non-finite point",
                gsfw_solve(ls, topk, &set, NULL, NULL, ERR));
    gsfw_dmo_free(topk);
    gsfw_objective_free(ls);
}

static void test_solve_objective_failures(void **state)
{
    (void)state;
    toy_select_mode good = SEL_TOP1;
    gsfw_dmo ok = toy_dmo("ok", &good);
    toy t;
    gsfw_objective o;
    gsfw_settings set;
    for (int method = 0; method < N_METHODS; method++) {
        const int ls_method = method == GSFW_METHOD_COSAMP || method == GSFW_METHOD_GRAPH_COSAMP ||
                              method == GSFW_METHOD_GRAPH_SP;
        const unsigned base = ls_method ? HOOK_MINIMIZE | HOOK_RESERVE : 0;
        set = settings_for((gsfw_method)method);
        /* plain objective: value, then gradient */
        memset(&t, 0, sizeof t);
        o = toy_objective(&t, base);
        t.fail = HOOK_VALUE;
        EXPECT_FAIL(GSFW_ERR_CALLBACK, "the objective failed (code 41)",
                    solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        t.fail = HOOK_GRADIENT;
        EXPECT_FAIL(GSFW_ERR_CALLBACK, "the objective failed (code 42)",
                    solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        /* an objective that explains its codes is quoted */
        o.code_text = toy_code_text;
        EXPECT_FAIL(GSFW_ERR_CALLBACK, "the objective failed (code 42: the toy's gradient "
                    "hook was told to fail)", solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        o.code_text = NULL;
        t.fail = 0;
        t.nan_value = 1;
        EXPECT_FAIL(GSFW_ERR_NONFINITE, "the objective value is nan at x = 0, where C plays "
                    "no part", solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        t.nan_value = 0;
        t.inf_gradient = 1;
        EXPECT_FAIL(GSFW_ERR_NONFINITE, "entry 2 of the objective's gradient is inf",
                    solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        /* value_grad */
        memset(&t, 0, sizeof t);
        o = toy_objective(&t, base | HOOK_VALUE_GRAD);
        t.fail = HOOK_VALUE_GRAD;
        EXPECT_FAIL(GSFW_ERR_CALLBACK, "the objective failed (code 43)",
                    solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        /* incremental hooks */
        memset(&t, 0, sizeof t);
        o = toy_objective(&t, base | INCREMENTAL);
        t.fail = HOOK_RESET;
        EXPECT_FAIL(GSFW_ERR_CALLBACK, "the objective reset failed (code 44)",
                    solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        /* the pursuit moves only to refit points, through reset: it never updates */
        t.fail = HOOK_UPDATE;
        if (method != GSFW_METHOD_GRAPH_SP)
            EXPECT_FAIL(GSFW_ERR_CALLBACK, "the objective update failed (code 45)",
                        solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        t.fail = HOOK_CACHED;
        EXPECT_FAIL(GSFW_ERR_CALLBACK, "the objective failed (code 46)",
                    solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        /* the lipschitz hook, for the methods that estimate L (AccFW with the spectral
         * rule; fw and the active-set methods' default steps need no L) */
        if (method == GSFW_METHOD_ACCFW || method == GSFW_METHOD_IHT ||
            method == GSFW_METHOD_GRAPH_IHT || method == GSFW_METHOD_GEN_MP) {
            memset(&t, 0, sizeof t);
            o = toy_objective(&t, HOOK_LIPSCHITZ);
            set = settings_for((gsfw_method)method);
            set.L = 0.0;
            set.L_rule = GSFW_L_SPECTRAL;
            t.fail = HOOK_LIPSCHITZ;
            EXPECT_FAIL(GSFW_ERR_CALLBACK, "could not estimate L",
                        solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
            t.fail = 0;
            /* a zero estimate is the data's fault (a zero matrix), so is a non-finite one */
            t.lipschitz = 0.0;
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "got 0: is the data matrix zero?",
                        solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
            t.lipschitz = -2.0;
            EXPECT_FAIL(GSFW_ERR_CALLBACK, "estimate is negative, -2",
                        solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
            const double bad_L[] = {NAN, INFINITY, 5e-324};
            for (size_t k = 0; k < sizeof bad_L / sizeof bad_L[0]; k++) {
                t.lipschitz = bad_L[k];
                EXPECT_FAIL(GSFW_ERR_NONFINITE, "rescale them or set L",
                            solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
            }
            /* a given L whose inverse overflows is refused before any step */
            t.lipschitz = 1.0;
            set.L = 5e-324;
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "L = 4.94066e-324 is too small",
                        solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        }
        /* the restricted minimisation and its workspace */
        if (ls_method) {
            memset(&t, 0, sizeof t);
            o = toy_objective(&t, HOOK_MINIMIZE | HOOK_RESERVE);
            set = settings_for((gsfw_method)method);
            assert_int_equal(solve_method(&o, &ok, NULL, &set, NULL, NULL, NULL), GSFW_OK);
            t.fail = HOOK_MINIMIZE;
            EXPECT_FAIL(GSFW_ERR_CALLBACK, "minimize_on failed (code 48)",
                        solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
            t.fail = HOOK_RESERVE;
            EXPECT_FAIL(GSFW_ERR_NOMEM, "reserve hook code 49",
                        solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
            o = toy_objective(&t, 0);
            EXPECT_FAIL(GSFW_ERR_INVALID_ARG, "needs an objective with a minimize_on hook",
                        solve_method(&o, &ok, NULL, &set, NULL, NULL, ERR));
        }
    }
    /* AccFW's curvature rule evaluates f at the first atom (the objective's second
     * evaluation, after the one at x_0): its failure is reported as such */
    memset(&t, 0, sizeof t);
    o = toy_objective(&t, HOOK_VALUE_GRAD);
    set = settings_for(GSFW_METHOD_ACCFW);
    set.L = 0.0;
    set.L_rule = GSFW_L_ATOM;
    {
        gsfw_err e;
        t.value_grad_ok = 1;
        t.value_grad_calls = 0;
        assert_int_equal(gsfw_solve(&o, &ok, &set, NULL, NULL, &e), GSFW_ERR_CALLBACK);
        assert_non_null(strstr(e.message, "evaluating the first atom"));
        assert_int_equal(t.value_grad_calls, 2);
        t.value_grad_calls = 0;
        assert_int_equal(gsfw_solve(&o, &ok, &set, NULL, NULL, NULL), GSFW_ERR_CALLBACK);
        t.value_grad_ok = 0;
    }

    /* for contrast: the same toys succeed when nothing fails, and a callback asking to
     * stop is a status, not an error */
    memset(&t, 0, sizeof t);
    o = toy_objective(&t, INCREMENTAL | HOOK_VALUE_GRAD);
    set = settings_for(GSFW_METHOD_FW);
    gsfw_info info;
    assert_int_equal(gsfw_solve(&o, &ok, &set, NULL, &info, NULL), GSFW_OK);
    assert_int_equal(info.status, GSFW_STATUS_MAX_ITER);
}

static int stop_at_once(const gsfw_iterate *it, const double *x, void *user)
{
    (void)it;
    (void)x;
    (void)user;
    return 1;
}

static void test_callback_stop_is_not_an_error(void **state)
{
    (void)state;
    toy t;
    memset(&t, 0, sizeof t);
    gsfw_objective o = toy_objective(&t, 0);
    toy_select_mode good = SEL_TOP1;
    gsfw_dmo ok = toy_dmo("ok", &good);
    gsfw_settings set = settings_for(GSFW_METHOD_FW);
    set.callback = stop_at_once;
    gsfw_info info;
    gsfw_err err;
    assert_int_equal(gsfw_solve(&o, &ok, &set, NULL, &info, &err), GSFW_OK);
    assert_int_equal(err.code, GSFW_OK);
    assert_int_equal(info.status, GSFW_STATUS_CALLBACK_STOP);
}

/* Model oracles by spec, and the registry's parameter list, refuse what they cannot
 * build: a negative index, a definition without build, a nan delta, an s or g other than
 * the one the model fixes, d other than the graph's or the tree's node count; the exact brute force refuses |z| whose squares
 * overflow (they would all tie at inf). */
static void test_model_spec_checks(void **state)
{
    (void)state;
    assert_null(gsfw_registry_param(-1));
    assert_null(gsfw_registry_param(-1000));
    assert_non_null(gsfw_registry_param(0));
    gsfw_graph *grid = NULL;
    assert_int_equal(gsfw_graph_grid(3, 3, &grid, NULL), GSFW_OK);
    gsfw_dmo *dmo = NULL;
    gsfw_err err;
    gsfw_model_def no_build = {0};
    gsfw_model_spec spec = {.d = 9, .s = 2, .def = &no_build};
    assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "no build"));
    spec = (gsfw_model_spec){.model = "topk-approx", .d = 9, .s = 2, .delta = NAN};
    assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "delta is nan"));
    spec = (gsfw_model_spec){.model = "subgraph", .d = 1000, .s = 2, .graph = grid};
    assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, &err), GSFW_ERR_DIMENSION);
    assert_string_equal(err.message, "model 'subgraph': the graph has 9 nodes but d = 1000");
    /* a value the model fixes ("s=1", "g=1" in its uses) is refused as the spec check
     * refuses it, not replaced by the model's own */
    spec = (gsfw_model_spec){.model = "l1", .d = 9, .s = 5};
    assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_null(dmo);
    assert_string_equal(err.message, "model l1 needs s 1, got 5");
    for (int s = 0; s <= 1; s++) { /* 0, left unset, takes the fixed value, as g does */
        spec.s = s;
        assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, &err), GSFW_OK);
        assert_int_equal(dmo->model_size, 1);
        gsfw_dmo_free(dmo);
    }
    gsfw_dmo *tail = NULL;
    spec = (gsfw_model_spec){.model = "l1", .d = 9, .s = 3, .graph = grid};
    assert_int_equal(gsfw_baseline_oracles(GSFW_METHOD_GRAPH_IHT, &spec, 0, &dmo, &tail, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_string_equal(err.message, "model l1 needs s 1, got 3");
    assert_true(!dmo && !tail);
    /* d = 0 takes the graph's node count: Graph-IHT's head is over 2s, its tail over s
     * (it was clipped to s = 1, as if the vector had no entries) */
    spec = (gsfw_model_spec){.model = "head", .s = 2, .graph = grid};
    assert_int_equal(gsfw_baseline_oracles(GSFW_METHOD_GRAPH_IHT, &spec, 0, &dmo, &tail, &err),
                     GSFW_OK);
    assert_int_equal(dmo->model_size, 4);
    assert_int_equal(tail->model_size, 2);
    gsfw_dmo_free(dmo);
    gsfw_dmo_free(tail);
    int parent[3] = {-1, 0, 0};
    gsfw_tree *tree = NULL;
    assert_int_equal(gsfw_tree_from_parents(3, parent, &tree, NULL), GSFW_OK);
    spec = (gsfw_model_spec){.model = "tree-connected", .s = 2, .g = 2, .tree = tree};
    assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, &err), GSFW_ERR_INVALID_ARG);
    assert_string_equal(err.message, "model tree-connected needs g 1, got 2");
    spec.g = 0; /* the default, 1 */
    assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, &err), GSFW_OK);
    gsfw_dmo_free(dmo);
    spec = (gsfw_model_spec){.model = "tree", .d = 9, .s = 2, .tree = tree};
    assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, &err), GSFW_ERR_DIMENSION);
    spec.d = 3; /* and 0: the tree's */
    assert_int_equal(gsfw_dmo_from_model(&spec, &dmo, &err), GSFW_OK);
    gsfw_dmo_free(dmo);
    assert_int_equal(gsfw_dmo_brute_force(grid, 2, 1, &dmo, NULL), GSFW_OK);
    double z[9] = {1e200, 1e200, 1e200, 0, 0, 0, 0, 0, 0};
    int support[9], size = 0;
    assert_int_not_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0); /* a bad input */
    gsfw_dmo_free(dmo);
    gsfw_tree_free(tree);
    gsfw_graph_free(grid);
}

/* AccFW estimates L along its first atom: an oracle that selects nothing at x_0, with
 * no lipschitz hook to fall back on, is named as the cause, not a missing L. */
static void test_atom_curvature_names_the_oracle(void **state)
{
    (void)state;
    toy t;
    memset(&t, 0, sizeof t);
    gsfw_objective o = toy_objective(&t, 0);
    toy_select_mode empty = SEL_EMPTY;
    gsfw_dmo none = toy_dmo("none", &empty);
    gsfw_settings set = settings_for(GSFW_METHOD_ACCFW);
    set.L = 0.0; /* estimated: the atom rule */
    set.L_rule = GSFW_L_ATOM;
    gsfw_info info;
    gsfw_err err;
    assert_int_equal(gsfw_solve(&o, &none, &set, NULL, &info, &err), GSFW_ERR_INVALID_ARG);
    assert_string_equal(err.message, "solve: accfw estimates L along its first atom, but the "
                                     "oracle 'none' selected no coordinate at x_0; set L");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_helpers_and_null_noops),
        cmocka_unit_test(test_graph_constructors),
        cmocka_unit_test(test_graph_components),
        cmocka_unit_test(test_objective_constructors),
        cmocka_unit_test(test_power_iteration),
        cmocka_unit_test(test_sparse_oracles),
        cmocka_unit_test(test_graph_oracles),
        cmocka_unit_test(test_projection_settings),
        cmocka_unit_test(test_projection_run),
        cmocka_unit_test(test_pcsf),
        cmocka_unit_test(test_npy_io),
        cmocka_unit_test(test_edge_list_io),
        cmocka_unit_test(test_png_io),
        cmocka_unit_test(test_solve_arguments),
        cmocka_unit_test(test_solve_outputs_untouched),
        cmocka_unit_test(test_solve_oracle_failures),
        cmocka_unit_test(test_solve_objective_failures),
        cmocka_unit_test(test_callback_stop_is_not_an_error),
        cmocka_unit_test(test_model_spec_checks),
        cmocka_unit_test(test_atom_curvature_names_the_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
