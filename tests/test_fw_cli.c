/* The command line of the Frank-Wolfe family: methods, step rules, tolerance stops,
 * starting points and polish in `gsfw solve`, and recover's polished answer. */
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
#include "support/cli_runner.h"
#include "support/planted.h"
#include "util/rng.h"

#define N 40
#define D 64
#define S 5

static const char *dir;
static planted_problem prob;

/* the value of "key=" in a summary line (NaN when absent) */
static double field(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

static int has(const char *line, const char *text) { return strstr(line, text) != NULL; }

static int setup(void **state)
{
    (void)state;
    dir = tmpdir_create();
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 17);
    prob = planted_alloc(N, D, &rng);
    const int block[S] = {18, 19, 20, 27, 35}; /* connected on the 8 x 8 grid */
    for (int k = 0; k < S; k++) prob.x_star[block[k]] = 1.0 + 0.1 * k;
    planted_measure(&prob, 1.0);
    int shape_a[2] = {N, D}, shape_y[2] = {N, 1}, shape_x[2] = {D, 1};
    if (gsfw_npy_write(path_in(dir, "A.npy"), prob.A, 2, shape_a, NULL)) return -1;
    if (gsfw_npy_write(path_in(dir, "y.npy"), prob.y, 1, shape_y, NULL)) return -1;
    if (gsfw_npy_write(path_in(dir, "xs.npy"), prob.x_star, 1, shape_x, NULL)) return -1;
    double far[D] = {0};
    far[0] = 5.0; /* outside the unit ball */
    if (gsfw_npy_write(path_in(dir, "far.npy"), far, 1, shape_x, NULL)) return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    planted_free(&prob);
    tmpdir_remove(dir);
    return 0;
}

#define SOLVE_ARGS(method, step)                                                               \
    "solve", "--A", path_in(dir, "A.npy"), "--y", path_in(dir, "y.npy"), "--model",            \
        "subgraph", "--s", "5", "--graph", "grid:8x8", "--C", "1", "--method", method, "--step", \
        step

/* Every method and step rule runs from the command line and says which rule it used. */
static void test_methods_and_steps(void **state)
{
    (void)state;
    const char *methods[] = {"fw", "accfw", "afw", "pfw", "bpcg"};
    const char *steps[] = {"agnostic", "short", "adaptive", "line"};
    for (int m = 0; m < 5; m++) {
        for (int r = 0; r < 4; r++) {
            const char *args[] = {SOLVE_ARGS(methods[m], steps[r]), "--iters", "30", NULL};
            cli_result res = cli_run(args);
            if (res.status != 0) fail_msg("%s/%s: %s", methods[m], steps[r], res.err);
            char want[64];
            snprintf(want, sizeof want, "method=%s ", methods[m]);
            assert_true(has(res.out, want));
            snprintf(want, sizeof want, "step=%s ", steps[r]);
            assert_true(has(res.out, want));
            assert_true(field(res.out, "gap_bound=") >= 0);
            cli_result_free(&res);
        }
    }
}

/* --tol stops with status=converged and a bound below it; --x0 outside the ball is
 * refused; --polish on writes a model point with --polished-out; a baseline refuses the
 * Frank-Wolfe flags. */
static void test_tol_x0_polish(void **state)
{
    (void)state;
    /* the exact top-s oracle (the heuristic subgraph oracle stalls in its
     * delta-neighbourhood, above such a tolerance) */
    const char *conv[] = {"solve", "--A", path_in(dir, "A.npy"), "--y", path_in(dir, "y.npy"),
                          "--model", "topk", "--s", "5", "--C", "1", "--method", "fw", "--step",
                          "line", "--iters", "5000", "--tol", "1e-9", NULL};
    cli_result r = cli_run(conv);
    assert_int_equal(r.status, 0);
    assert_true(has(r.out, "status=converged "));
    assert_true(field(r.out, "gap_bound=") <= 1e-9);
    assert_true(field(r.out, " iters=") < 5000);
    cli_result_free(&r);

    const char *far[] = {SOLVE_ARGS("fw", "line"), "--iters", "5", "--x0", path_in(dir, "far.npy"),
                         NULL};
    r = cli_run(far);
    assert_int_equal(r.status, 1);
    assert_true(has(r.err, "exceeds the radius"));
    cli_result_free(&r);

    const char *pol[] = {SOLVE_ARGS("accfw", "auto"), "--iters", "200", "--polish", "on",
                         "--polished-out", path_in(dir, "pol.npy"), NULL};
    r = cli_run(pol);
    assert_int_equal(r.status, 0);
    assert_true(field(r.out, "polished_nnz=") <= S);
    cli_result_free(&r);
    double *x = NULL;
    int ndim, shape[2];
    assert_int_equal(gsfw_npy_read(path_in(dir, "pol.npy"), &x, &ndim, shape, NULL), GSFW_OK);
    double e = 0;
    for (int i = 0; i < D; i++) e += (x[i] - prob.x_star[i]) * (x[i] - prob.x_star[i]);
    assert_true(sqrt(e) <= 1e-8); /* noiseless, enough rows: the refit is exact */
    gsfw_free(x);

    /* the polished answer is a valid warm start */
    const char *warm[] = {SOLVE_ARGS("pfw", "line"), "--iters", "3", "--x0", path_in(dir, "pol.npy"),
                          NULL};
    r = cli_run(warm);
    assert_int_equal(r.status, 0);
    assert_true(field(r.out, "f_best=") <= 1e-20);
    cli_result_free(&r);

    const char *base[] = {"solve", "--A", path_in(dir, "A.npy"), "--y", path_in(dir, "y.npy"),
                          "--model", "topk", "--s", "5", "--C", "1", "--method", "iht",
                          "--iters", "5", "--tol", "1e-3", NULL};
    r = cli_run(base);
    assert_int_equal(r.status, 2);
    assert_true(has(r.err, "--tol needs --method fw or accfw or afw or pfw or bpcg or graph-sp"));
    cli_result_free(&r);
    const char *cosamp[] = {"solve", "--A", path_in(dir, "A.npy"), "--y", path_in(dir, "y.npy"),
                            "--model", "topk", "--s", "5", "--C", "1", "--method", "cosamp",
                            "--iters", "20", NULL};
    r = cli_run(cosamp);
    assert_int_equal(r.status, 0);
    assert_true(field(r.out, "f_best=") <= 1e-20);
    cli_result_free(&r);
}

/* recover polishes by default and stops on the relative bound: MNIST 7 at ratio 5 comes
 * back exactly (rel_err at rounding level), with the unpolished figures beside it. */
static void test_recover_polishes_by_default(void **state)
{
    (void)state;
    const char *args[] = {"recover", "--image", GSFW_SOURCE_DIR "/data/mnist_7.npy", "--ratio",
                          "5", "--out-dir", path_in(dir, "r7"), "--no-plot", NULL};
    cli_result r = cli_run(args);
    assert_int_equal(r.status, 0);
    assert_true(has(r.out, "returned=polished "));
    assert_true(has(r.out, "status=converged "));
    assert_true(field(r.out, " rel_err=") <= 1e-10);
    assert_true(field(r.out, "support_f1=") == 1.0);
    assert_true(field(r.out, " nnz=") == 60.0); /* the digit's pixels */
    assert_true(field(r.out, "raw_rel_err=") > field(r.out, " rel_err="));
    assert_true(field(r.out, "raw_nnz=") >= field(r.out, " nnz="));
    cli_result_free(&r);
    const char *raw[] = {"recover", "--image", GSFW_SOURCE_DIR "/data/mnist_7.npy", "--ratio",
                         "5", "--iters", "20", "--polish", "off", "--out-dir", path_in(dir, "r7"),
                         "--no-plot", NULL};
    r = cli_run(raw);
    assert_int_equal(r.status, 0);
    assert_true(has(r.out, "returned=best "));
    assert_true(has(r.out, "status=max_iter "));
    assert_true(field(r.out, " rel_err=") == field(r.out, "raw_rel_err="));
    cli_result_free(&r);
}

/* Warm restarts: recover turns them on with its default stop (MNIST 0 at ratio 2, seed 2:
 * the first polish misses the support, the rounds find it); --restarts 0 turns them off,
 * an explicit --iters leaves them off; solve takes --restarts with --polish on only, and
 * with the Frank-Wolfe methods only. */
static void test_restarts_flags(void **state)
{
    (void)state;
#define MNIST0 "recover", "--image", GSFW_SOURCE_DIR "/data/mnist_0.npy", "--ratio", "2", \
               "--seed", "2", "--out-dir", path_in(dir, "r0"), "--no-plot"
    const char *dflt[] = {MNIST0, NULL};
    cli_result r = cli_run(dflt);
    assert_int_equal(r.status, 0);
    assert_true(field(r.out, " rel_err=") <= 1e-10);
    assert_true(field(r.out, " restarts=") >= 1);
    assert_true(field(r.out, "restart_best=") >= 1);
    cli_result_free(&r);
    const char *off[] = {MNIST0, "--restarts", "0", NULL};
    r = cli_run(off);
    assert_int_equal(r.status, 0);
    assert_true(field(r.out, " rel_err=") > 0.05);
    assert_false(has(r.out, "restarts="));
    cli_result_free(&r);
    const char *iters[] = {MNIST0, "--iters", "30", NULL};
    r = cli_run(iters);
    assert_int_equal(r.status, 0);
    assert_false(has(r.out, "restarts="));
    cli_result_free(&r);
    const char *with_iters[] = {MNIST0, "--iters", "30", "--restarts", "3", NULL};
    r = cli_run(with_iters);
    assert_int_equal(r.status, 0);
    assert_true(field(r.out, " restarts=") >= 1 && field(r.out, " restarts=") <= 3);
    cli_result_free(&r);
#undef MNIST0
    const char *solve[] = {SOLVE_ARGS("accfw", "line"), "--iters", "3", "--polish", "on",
                           "--restarts", "2", "--restart-iters", "5", NULL};
    r = cli_run(solve);
    assert_int_equal(r.status, 0);
    assert_true(has(r.out, " restarts="));
    assert_true(field(r.out, "f_polished=") < 1e-20);
    cli_result_free(&r);
    const char *no_polish[] = {SOLVE_ARGS("accfw", "line"), "--iters", "3", "--restarts", "2",
                               NULL};
    r = cli_run(no_polish);
    assert_int_equal(r.status, 2);
    assert_true(has(r.err, "--restarts needs --polish on"));
    cli_result_free(&r);
    const char *baseline[] = {"solve", "--A", path_in(dir, "A.npy"), "--y", path_in(dir, "y.npy"),
                              "--model", "topk", "--s", "5", "--C", "1", "--method", "iht",
                              "--iters", "3", "--restarts", "2", NULL};
    r = cli_run(baseline);
    assert_int_equal(r.status, 2);
    assert_true(has(r.err, "--restarts"));
    cli_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_methods_and_steps),
        cmocka_unit_test(test_tol_x0_polish),
        cmocka_unit_test(test_recover_polishes_by_default),
        cmocka_unit_test(test_restarts_flags),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
