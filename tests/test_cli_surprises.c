/* No silent surprises on the command line: an edge list that disagrees with the vector is
 * refused (naming both counts) unless --nodes states the size; options a method or model
 * ignores are reported on stderr; '-' means standard output; the summary carries est_err
 * when the truth is given; recover warns about images that are not sparse. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gsfw.h"
#include "support/cli_runner.h"
#include "util/rng.h"

enum { N = 12, D = 6 };

typedef struct {
    const char *dir;
    char A[512], y[512], x[512], edges4[512], edges6[512];
    double x_true[D];
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    fx->dir = strdup(tmpdir_create());
    double A[N * D], y[N] = {0};
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 7);
    for (int k = 0; k < N * D; k++) A[k] = gsfw_rng_normal(&rng) / sqrt((double)N);
    fx->x_true[1] = 0.6;
    fx->x_true[2] = 0.8;
    for (int r = 0; r < N; r++)
        for (int c = 0; c < D; c++) y[r] += A[r * D + c] * fx->x_true[c];
    snprintf(fx->A, sizeof fx->A, "%s", path_in(fx->dir, "A.npy"));
    snprintf(fx->y, sizeof fx->y, "%s", path_in(fx->dir, "y.npy"));
    snprintf(fx->x, sizeof fx->x, "%s", path_in(fx->dir, "x.npy"));
    snprintf(fx->edges4, sizeof fx->edges4, "%s", path_in(fx->dir, "path4.txt"));
    snprintf(fx->edges6, sizeof fx->edges6, "%s", path_in(fx->dir, "path6.txt"));
    int sa[2] = {N, D}, sy[2] = {N, 1}, sx[2] = {D, 1};
    assert_int_equal(gsfw_npy_write(fx->A, A, 2, sa, NULL), GSFW_OK);
    assert_int_equal(gsfw_npy_write(fx->y, y, 1, sy, NULL), GSFW_OK);
    assert_int_equal(gsfw_npy_write(fx->x, fx->x_true, 1, sx, NULL), GSFW_OK);
    assert_int_equal(write_text(fx->edges4, "0 1\n1 2\n2 3\n"), 0);       /* nodes 0..3 */
    assert_int_equal(write_text(fx->edges6, "0 1\n1 2\n2 3\n3 4\n4 5\n"), 0); /* 0..5 */
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    tmpdir_remove(fx->dir);
    free((void *)fx->dir);
    free(fx);
    return 0;
}

#define SOLVE(fx, ...)                                                                          \
    {"solve", "--A", (fx)->A, "--y", (fx)->y, "--s", "2", "--C", "1", "--method", "accfw",     \
     "--iters", "20", __VA_ARGS__, NULL}

static void expect(const cli_result *r, int status, const char *err_has, const char *err_lacks)
{
    if (r->status != status || (err_has && !strstr(r->err, err_has)) ||
        (err_lacks && strstr(r->err, err_lacks)))
        fprintf(stderr, "status %d (want %d)\nstdout: %s\nstderr: %s\n", r->status, status,
                r->out, r->err);
    assert_int_equal(r->status, status);
    if (err_has) assert_non_null(strstr(r->err, err_has));
    if (err_lacks) assert_null(strstr(r->err, err_lacks));
}

static void test_edge_list_smaller_than_vector_is_refused(void **state)
{
    fixture *fx = *state;
    const char *a[] = SOLVE(fx, "--model", "subgraph", "--edges", fx->edges4);
    cli_result r = cli_run(a);
    expect(&r, 1, "has 4 nodes (ids 0..3) but the vector has 6 entries", NULL);
    assert_non_null(strstr(r.err, "--nodes 6"));
    assert_string_equal(r.out, "");
    cli_result_free(&r);

    /* the same through tail and dmo */
    const char *t[] = {"tail", "--z", fx->x, "--s", "2", "--g", "1", "--edges", fx->edges4, NULL};
    r = cli_run(t);
    expect(&r, 1, "has 4 nodes (ids 0..3) but the vector has 6 entries", NULL);
    cli_result_free(&r);
    const char *m[] = {"dmo", "--model", "head", "--z", fx->x, "--s", "2", "--edges", fx->edges4,
                       NULL};
    r = cli_run(m);
    expect(&r, 1, "has 4 nodes (ids 0..3) but the vector has 6 entries", NULL);
    cli_result_free(&r);
}

static void test_nodes_states_isolated_nodes(void **state)
{
    fixture *fx = *state;
    const char *a[] = SOLVE(fx, "--model", "subgraph", "--edges", fx->edges4, "--nodes", "6");
    cli_result r = cli_run(a);
    expect(&r, 0, NULL, "warning");
    assert_non_null(strstr(r.out, "model=subgraph"));
    cli_result_free(&r);

    /* the subgraph oracle on the padded graph: nodes 4 and 5 are isolated, so with g = 1
     * and s = 2 the best support of z = (0, 0, 0, 0, 5, 4) is one node, 4 */
    double z[D] = {0, 0, 0, 0, 5, 4};
    int sz[2] = {D, 1};
    const char *zp = path_in(fx->dir, "z.npy");
    assert_int_equal(gsfw_npy_write(zp, z, 1, sz, NULL), GSFW_OK);
    const char *m[] = {"dmo", "--model", "subgraph", "--z", zp, "--s", "2", "--g", "1",
                       "--edges", fx->edges4, "--nodes", "6", NULL};
    r = cli_run(m);
    expect(&r, 0, NULL, NULL);
    assert_string_equal(r.out, "4\n");
    cli_result_free(&r);

    const char *bad[] = SOLVE(fx, "--model", "subgraph", "--edges", fx->edges4, "--nodes", "5");
    r = cli_run(bad);
    expect(&r, 1, "--nodes 5 but the vector has 6 entries", NULL);
    cli_result_free(&r);
    const char *big[] = {"tail", "--z", fx->x, "--s", "2", "--g", "1", "--edges", fx->edges6,
                         "--nodes", "6", NULL};
    r = cli_run(big);
    expect(&r, 0, NULL, NULL);
    cli_result_free(&r);
    const char *grid[] = SOLVE(fx, "--model", "subgraph", "--graph", "grid:2x3", "--nodes", "6");
    r = cli_run(grid);
    expect(&r, 2, "--nodes goes with --edges", NULL);
    cli_result_free(&r);
}

static void test_ignored_options_are_reported(void **state)
{
    fixture *fx = *state;
    const char *a[] = SOLVE(fx, "--model", "topk", "--graph", "grid:2x3", "--g", "2");
    cli_result r = cli_run(a);
    expect(&r, 0, "gsfw solve: warning: --graph is ignored by --model topk", NULL);
    assert_non_null(strstr(r.err, "gsfw solve: warning: --g is ignored by --model topk"));
    cli_result_free(&r);

    const char *fw[] = {"solve", "--A", fx->A, "--y", fx->y, "--s", "2", "--C", "1",
                        "--model", "topk", "--method", "fw", "--iters", "5", "--L", "3", NULL};
    r = cli_run(fw);
    expect(&r, 0, "warning: --L is ignored by --method fw", NULL);
    cli_result_free(&r);

    const char *iht[] = {"solve", "--A", fx->A, "--y", fx->y, "--s", "2", "--C", "1",
                         "--model", "head", "--graph", "grid:2x3", "--method", "iht", "--iters",
                         "5", NULL};
    r = cli_run(iht);
    expect(&r, 0, "warning: --model head is ignored by --method iht (it always uses topk)", NULL);
    assert_non_null(strstr(r.err, "warning: --graph is ignored by --method iht"));
    cli_result_free(&r);

    /* a graph model with its graph: nothing to say */
    const char *ok[] = SOLVE(fx, "--model", "subgraph", "--graph", "grid:2x3", "--g", "1");
    r = cli_run(ok);
    expect(&r, 0, NULL, "warning");
    cli_result_free(&r);
}

static double distance(const double *a, const double *b, int d)
{
    double s = 0.0;
    for (int i = 0; i < d; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(s);
}

static double field(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    assert_non_null(p);
    return strtod(p + strlen(key), NULL);
}

static void test_summary_has_est_err_with_truth(void **state)
{
    fixture *fx = *state;
    const char *out = path_in(fx->dir, "last.npy"), *best = path_in(fx->dir, "best.npy");
    const char *a[] = SOLVE(fx, "--model", "topk", "--x-true", fx->x, "--out", out, "--best-out",
                            best);
    cli_result r = cli_run(a);
    expect(&r, 0, NULL, NULL);
    double *xl = NULL, *xb = NULL;
    int ndim, shape[2];
    assert_int_equal(gsfw_npy_read(out, &xl, &ndim, shape, NULL), GSFW_OK);
    assert_int_equal(gsfw_npy_read(best, &xb, &ndim, shape, NULL), GSFW_OK);
    assert_true(fabs(field(r.out, " est_err=") - distance(xl, fx->x_true, D)) <= 1e-15);
    assert_true(fabs(field(r.out, " est_err_best=") - distance(xb, fx->x_true, D)) <= 1e-15);
    gsfw_free(xl);
    gsfw_free(xb);
    cli_result_free(&r);

    const char *no[] = SOLVE(fx, "--model", "topk");
    r = cli_run(no);
    expect(&r, 0, NULL, NULL);
    assert_null(strstr(r.out, "est_err"));
    cli_result_free(&r);
}

static void test_dash_is_stdout(void **state)
{
    fixture *fx = *state;
    int dash_existed = file_exists("-");
    const char *a[] = SOLVE(fx, "--model", "topk", "--trace", "-", "--x-true", fx->x);
    cli_result r = cli_run(a);
    expect(&r, 0, NULL, NULL);
    /* the trace is stdout (header + 21 rows), the summary went to stderr */
    assert_int_equal(strncmp(r.out, "iter,time_s,f,gap,est_err,support", 33), 0);
    int lines = 0;
    for (const char *p = r.out; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, 22);
    assert_non_null(strstr(r.err, "method=accfw"));
    if (!dash_existed) assert_false(file_exists("-"));
    cli_result_free(&r);

    const char *two[] = SOLVE(fx, "--model", "topk", "--trace", "-", "--out", "-");
    r = cli_run(two);
    expect(&r, 2, "only one of --out, --best-out, --trace and --polished-out can be '-'", NULL);
    cli_result_free(&r);
}

static void write_image(const char *path, int dense)
{
    double img[16 * 16];
    for (int i = 0; i < 16 * 16; i++) {
        int r = i / 16, c = i % 16;
        int stroke = c == 7 || c == 8 || r == 3;
        /* dark strokes on white, or bright strokes on black */
        img[i] = dense ? (stroke ? 0.0 : 1.0) : (stroke ? 1.0 : 0.0);
    }
    int shape[2] = {16, 16};
    assert_int_equal(gsfw_npy_write(path, img, 2, shape, NULL), GSFW_OK);
}

static void test_recover_warns_on_dense_images(void **state)
{
    fixture *fx = *state;
    const char *dense = path_in(fx->dir, "white.npy"), *sparse = path_in(fx->dir, "black.npy");
    write_image(dense, 1);
    write_image(sparse, 0);
    const char *out = path_in(fx->dir, "rec");
    /* white background: 256 - 46 = 210 nonzero pixels of 256 */
    const char *a[] = {"recover", "--image", dense, "--ratio", "2", "--method", "iht", "--iters",
                       "3", "--no-plot", "--out-dir", out, NULL};
    cli_result r = cli_run(a);
    expect(&r, 0, "warning: the image is not sparse: 210 of its 256 pixels (82%) are nonzero",
           NULL);
    assert_non_null(strstr(r.err, "n = 420 measurements, more than the pixels"));
    assert_non_null(strstr(r.err, "(1 - img)"));
    cli_result_free(&r);

    const char *b[] = {"recover", "--image", sparse, "--ratio", "2", "--method", "iht", "--iters",
                       "3", "--no-plot", "--out-dir", out, NULL};
    r = cli_run(b);
    expect(&r, 0, NULL, "warning");
    cli_result_free(&r);

    const char *c[] = {"recover", "--image", sparse, "--ratio", "2", "--method", "cosamp",
                       "--model", "head", "--g", "2", "--L", "2", "--iters", "3", "--no-plot",
                       "--out-dir", out, NULL};
    r = cli_run(c);
    expect(&r, 0, "gsfw recover: warning: --model head is ignored by --method cosamp", NULL);
    assert_non_null(strstr(r.err, "warning: --g is ignored by --method cosamp"));
    assert_non_null(strstr(r.err, "warning: --L is ignored by --method cosamp"));
    cli_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_list_smaller_than_vector_is_refused),
        cmocka_unit_test(test_nodes_states_isolated_nodes),
        cmocka_unit_test(test_ignored_options_are_reported),
        cmocka_unit_test(test_summary_has_est_err_with_truth),
        cmocka_unit_test(test_dash_is_stdout),
        cmocka_unit_test(test_recover_warns_on_dense_images),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
