/* gsfw solve --loss ls|logistic|huber, --huber-delta, --intercept and --A as .mtx or a
 * float32 .npy: the printed values are those of the library objective at the written
 * iterates, the operator file formats give the same runs, and bad flags are refused. */
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
#include "support/ref_operator.h"
#include "util/rng.h"

enum { N = 120, D = 64 };

typedef struct {
    const char *dir;
    double A[N * D], A32[N * D], y_ls[N], y_lab[N];
} fixture;

static void write_f32_npy(const char *path, const double *A, int n, int d)
{
    char header[128];
    int len = snprintf(header, sizeof header,
                       "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }", n, d);
    int total = 10 + len + 1, pad = (64 - total % 64) % 64;
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    unsigned short hlen = (unsigned short)(len + pad + 1);
    fwrite("\x93NUMPY\x01\x00", 1, 8, fp);
    unsigned char hl[2] = {(unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
    fwrite(hl, 1, 2, fp);
    fwrite(header, 1, (size_t)len, fp);
    for (int k = 0; k < pad; k++) fputc(' ', fp);
    fputc('\n', fp);
    for (int k = 0; k < n * d; k++) {
        float v = (float)A[k];
        fwrite(&v, sizeof v, 1, fp); /* little-endian hosts only, like the readers' tests */
    }
    fclose(fp);
}

/* int8 vector .npy */
static void write_i8_npy(const char *path, const double *v, int n)
{
    char header[128];
    int len = snprintf(header, sizeof header,
                       "{'descr': '|i1', 'fortran_order': False, 'shape': (%d,), }", n);
    int pad = (64 - (10 + len + 1) % 64) % 64;
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    unsigned short hlen = (unsigned short)(len + pad + 1);
    fwrite("\x93NUMPY\x01\x00", 1, 8, fp);
    unsigned char hl[2] = {(unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
    fwrite(hl, 1, 2, fp);
    fwrite(header, 1, (size_t)len, fp);
    for (int k = 0; k < pad; k++) fputc(' ', fp);
    fputc('\n', fp);
    for (int k = 0; k < n; k++) fputc((signed char)v[k] & 0xff, fp);
    fclose(fp);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    fx->dir = strdup(tmpdir_create());
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 77);
    double xs[D] = {0};
    const int blk[4] = {18, 19, 26, 27};
    for (int k = 0; k < 4; k++) xs[blk[k]] = k % 2 ? -1.5 : 1.5;
    for (int k = 0; k < N * D; k++) {
        fx->A[k] = gsfw_rng_normal(&rng);
        fx->A32[k] = (double)(float)fx->A[k];
    }
    for (int i = 0; i < N; i++) {
        double u = 0;
        for (int j = 0; j < D; j++) u += fx->A[i * D + j] * xs[j];
        fx->y_ls[i] = u + 0.3 * gsfw_rng_normal(&rng);
        fx->y_lab[i] = gsfw_rng_uniform(&rng) < 1 / (1 + exp(-u)) ? 1.0 : -1.0;
    }
    int sa[2] = {N, D}, sy[2] = {N, 1};
    assert_int_equal(gsfw_npy_write(path_in(fx->dir, "A.npy"), fx->A, 2, sa, NULL), GSFW_OK);
    assert_int_equal(gsfw_npy_write(path_in(fx->dir, "A64.npy"), fx->A32, 2, sa, NULL), GSFW_OK);
    write_f32_npy(path_in(fx->dir, "A32.npy"), fx->A, N, D);
    assert_int_equal(gsfw_npy_write(path_in(fx->dir, "y.npy"), fx->y_ls, 1, sy, NULL), GSFW_OK);
    assert_int_equal(gsfw_npy_write(path_in(fx->dir, "labels.npy"), fx->y_lab, 1, sy, NULL),
                     GSFW_OK);
    write_i8_npy(path_in(fx->dir, "labels_i8.npy"), fx->y_lab, N);
    FILE *fp = fopen(path_in(fx->dir, "A.mtx"), "w");
    assert_non_null(fp);
    fprintf(fp, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", N, D, N * D);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < D; j++) fprintf(fp, "%d %d %.17g\n", i + 1, j + 1, fx->A[i * D + j]);
    fclose(fp);
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

static double field(const char *out, const char *key)
{
    const char *p = strstr(out, key);
    if (!p) fail_msg("'%s' missing from: %s", key, out);
    return strtod(p + strlen(key), NULL);
}

/* Run solve with the extra flags; returns the summary (caller frees). */
static cli_result solve(const fixture *fx, const char *A, const char *y, const char *const *extra)
{
    const char *args[32] = {"solve", "--A", path_in(fx->dir, A), "--y", path_in(fx->dir, y),
                            "--model", "subgraph", "--graph", "grid:8x8", "--s", "4",
                            "--C", "3", "--method", "accfw", "--iters", "60",
                            "--out", path_in(fx->dir, "x.npy")};
    int k = 19;
    for (int i = 0; extra[i]; i++) args[k++] = extra[i];
    args[k] = NULL;
    return cli_run(args);
}

static double *read_x(const fixture *fx)
{
    double *x;
    int ndim, shape[2];
    assert_int_equal(gsfw_npy_read(path_in(fx->dir, "x.npy"), &x, &ndim, shape, NULL), GSFW_OK);
    assert_int_equal(shape[0], D);
    return x;
}

/* f_last printed = the library objective at the written x_T */
static void check_f_last(const fixture *fx, const cli_result *r, const gsfw_loss_options *opt,
                         const double *y)
{
    double *x = read_x(fx);
    gsfw_operator *op = ref_dense_operator(N, D, fx->A);
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_linear(op, N, y, opt, &obj, NULL), GSFW_OK);
    double f;
    assert_int_equal(obj->value(obj->ctx, x, &f), 0);
    double printed = field(r->out, "f_last=");
    if (!(fabs(printed - f) <= 1e-9 * fabs(f))) fail_msg("f_last=%.17g, objective %.17g", printed, f);
    gsfw_objective_free(obj);
    ref_operator_free(op);
    gsfw_free(x);
}

static void test_each_loss_prints_its_value(void **state)
{
    fixture *fx = *state;
    gsfw_loss_options opt;
    gsfw_loss_options_default(&opt);
    const char *ls[] = {"--loss", "ls", NULL};
    cli_result r = solve(fx, "A.npy", "y.npy", ls);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " loss=ls "));
    check_f_last(fx, &r, &opt, fx->y_ls);
    cli_result_free(&r);

    opt.loss = GSFW_LOSS_HUBER;
    opt.huber_delta = 0.5;
    const char *huber[] = {"--loss", "huber", "--huber-delta", "0.5", NULL};
    r = solve(fx, "A.npy", "y.npy", huber);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " loss=huber "));
    check_f_last(fx, &r, &opt, fx->y_ls);
    cli_result_free(&r);

    opt.loss = GSFW_LOSS_LOGISTIC;
    opt.intercept = 1;
    const char *logistic[] = {"--loss", "logistic", "--intercept", "--best-out",
                              path_in(fx->dir, "best.npy"), NULL};
    r = solve(fx, "A.npy", "labels.npy", logistic);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " loss=logistic intercept="));
    check_f_last(fx, &r, &opt, fx->y_lab);
    /* intercept= is b*(x_best) */
    double *xb;
    int ndim, shape[2];
    assert_int_equal(gsfw_npy_read(path_in(fx->dir, "best.npy"), &xb, &ndim, shape, NULL), GSFW_OK);
    gsfw_operator *op = ref_dense_operator(N, D, fx->A);
    gsfw_objective *obj;
    assert_int_equal(gsfw_objective_linear(op, N, fx->y_lab, &opt, &obj, NULL), GSFW_OK);
    double b;
    assert_int_equal(gsfw_objective_intercept(obj, xb, &b, NULL), GSFW_OK);
    assert_true(fabs(field(r.out, "intercept=") - b) <= 1e-8 * fmax(1.0, fabs(b)));
    gsfw_objective_free(obj);
    ref_operator_free(op);
    gsfw_free(xb);
    cli_result_free(&r);
}

static void test_operator_files_agree(void **state)
{
    fixture *fx = *state;
    /* L given: the two operators estimate ||A||^2 differently */
    const char *const losses[3][6] = {{"--loss", "ls", "--L", "400", NULL},
                                      {"--loss", "logistic", "--intercept", "--L", "100", NULL},
                                      {"--loss", "huber", "--L", "400", NULL}};
    for (int l = 0; l < 3; l++) {
        const char *y = l == 1 ? "labels.npy" : "y.npy";
        cli_result dense = solve(fx, "A.npy", y, losses[l]);
        cli_result sparse = solve(fx, "A.mtx", y, losses[l]);
        assert_int_equal(dense.status, 0);
        assert_int_equal(sparse.status, 0);
        double fd = field(dense.out, "f_last="), fs = field(sparse.out, "f_last=");
        if (!(fabs(fd - fs) <= 1e-8 * fabs(fd)))
            fail_msg("loss %s: f_last %.17g from .npy, %.17g from .mtx", losses[l][1], fd, fs);
        cli_result_free(&dense);
        cli_result_free(&sparse);
        /* a float32 .npy is read as the doubles it holds */
        cli_result f32 = solve(fx, "A32.npy", y, losses[l]);
        cli_result f64 = solve(fx, "A64.npy", y, losses[l]);
        assert_int_equal(f32.status, 0);
        assert_int_equal(f64.status, 0);
        assert_true(field(f32.out, "f_last=") == field(f64.out, "f_last="));
        cli_result_free(&f32);
        cli_result_free(&f64);
    }
}

static void test_integer_labels(void **state)
{
    fixture *fx = *state;
    const char *logistic[] = {"--loss", "logistic", NULL};
    cli_result a = solve(fx, "A.npy", "labels.npy", logistic);
    cli_result b = solve(fx, "A.npy", "labels_i8.npy", logistic);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_true(field(a.out, "f_last=") == field(b.out, "f_last="));
    cli_result_free(&a);
    cli_result_free(&b);
}

static void expect_failure(const fixture *fx, const char *y, const char *const *extra, int status,
                           const char *phrase)
{
    cli_result r = solve(fx, "A.npy", y, extra);
    if (r.status != status || !strstr(r.err, phrase))
        fail_msg("status %d (want %d), stderr '%s' (want '%s')", r.status, status, r.err, phrase);
    cli_result_free(&r);
}

static void test_bad_loss_flags(void **state)
{
    fixture *fx = *state;
    const char *hinge[] = {"--loss", "hinge", NULL};
    expect_failure(fx, "y.npy", hinge, 2, "--loss: unknown loss 'hinge'");
    const char *delta_ls[] = {"--huber-delta", "0.5", NULL};
    expect_failure(fx, "y.npy", delta_ls, 2, "--huber-delta needs --loss huber");
    const char *delta0[] = {"--loss", "huber", "--huber-delta", "0", NULL};
    expect_failure(fx, "y.npy", delta0, 2, "--huber-delta must be > 0, got 0");
    const char *icpt[] = {"--intercept", NULL};
    expect_failure(fx, "y.npy", icpt, 2, "--intercept needs --loss logistic");
    const char *labels[] = {"--loss", "logistic", NULL};
    expect_failure(fx, "y.npy", labels, 1, "is not -1 or +1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_each_loss_prints_its_value, setup, teardown),
        cmocka_unit_test_setup_teardown(test_operator_files_agree, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_labels, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_loss_flags, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
