/* `gsfw recover`: the output files and the summary line on MNIST digit 7, every method,
 * PNG input, and clean rejection of bad input (exit status 1..127, a message naming the
 * problem, nothing left in the output directory). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gsfw.h"
#include "support/cli_runner.h"

#define MNIST7 GSFW_SOURCE_DIR "/data/mnist_7.npy"
#define MNIST7_PNG GSFW_SOURCE_DIR "/data/mnist_7.png"

static const char *const summary_keys[] = {
    "method=", "iters=", "time_s=", "setup_s=", " f=", "est_err=", "rel_err=", "psnr=",
    "support_f1=", "oracle_calls=", "pcsf_calls=", "status=", " n=", " s=", " g="};

static double field(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    assert_non_null(p);
    return strtod(p + strlen(key), NULL);
}

static void check_summary(const char *out, const char *method)
{
    /* exactly one line */
    size_t len = strlen(out);
    assert_true(len > 0 && out[len - 1] == '\n');
    assert_ptr_equal(strchr(out, '\n'), out + len - 1);
    for (size_t k = 0; k < sizeof summary_keys / sizeof summary_keys[0]; k++) {
        if (!strstr(out, summary_keys[k])) fprintf(stderr, "missing %s in: %s", summary_keys[k], out);
        assert_non_null(strstr(out, summary_keys[k]));
    }
    char want[64];
    snprintf(want, sizeof want, "method=%s ", method);
    assert_non_null(strstr(out, want));
    assert_true(isfinite(field(out, "rel_err=")));
    assert_true(isfinite(field(out, " f=")));
    double f1 = field(out, "support_f1=");
    assert_true(f1 >= 0 && f1 <= 1);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* tmpdir_remove() is not recursive; the tests here create nested directories. */
static void rm_rf(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int count_lines(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp) return -1;
    int c, n = 0;
    while ((c = fgetc(fp)) != EOF) n += c == '\n';
    fclose(fp);
    return n;
}

static void test_mnist_outputs(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    const char *out = strdup(path_in(dir, "out/nested")); /* created with mkdir -p */
    const char *args[] = {"recover", "--image", MNIST7, "--ratio", "5", "--method", "accfw",
                          "--iters", "20", "--seed", "1", "--out-dir", out, NULL};
    cli_result r = cli_run(args);
    if (r.status) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.status, 0);
    check_summary(r.out, "accfw");
    assert_true(field(r.out, "iters=") == 20);
    assert_true(field(r.out, " n=") == 300); /* floor(5 * 60) */
    assert_true(field(r.out, " s=") == 60);
    assert_true(field(r.out, " g=") == 1);
    const char *files[] = {"recovered.npy", "recovered.png", "truth.png", "trace.csv",
                           "convergence.png", "panel.png"};
    for (int k = 0; k < 6; k++) assert_true(file_exists(path_in(out, files[k])));
    assert_int_equal(dir_count(out), 6);
    /* recovered.npy is image-shaped */
    double *x;
    int ndim, shape[2];
    assert_int_equal(gsfw_npy_read(path_in(out, "recovered.npy"), &x, &ndim, shape, NULL),
                     GSFW_OK);
    assert_int_equal(ndim, 2);
    assert_int_equal(shape[0], 28);
    assert_int_equal(shape[1], 28);
    gsfw_free(x);
    /* trace: header with est_err + iterates 0..20 */
    FILE *fp = fopen(path_in(out, "trace.csv"), "r");
    char header[128];
    assert_non_null(fgets(header, sizeof header, fp));
    fclose(fp);
    assert_string_equal(header, "iter,time_s,f,gap,est_err,support,gap_bound,step,active\n");
    assert_int_equal(count_lines(path_in(out, "trace.csv")), 22);
    /* the same seed gives the same numbers (deterministic draw) */
    cli_result r2 = cli_run(args);
    assert_int_equal(r2.status, 0);
    assert_true(field(r.out, "rel_err=") == field(r2.out, "rel_err="));
    cli_result_free(&r2);
    cli_result_free(&r);
    free((void *)out);
    rm_rf(dir);
}

static void test_every_method(void **state)
{
    (void)state;
    const char *methods[] = {"accfw", "fw", "iht", "cosamp", "graph-iht", "graph-cosamp",
                             "gen-mp"};
    const char *dir = tmpdir_create();
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        char sub[64];
        snprintf(sub, sizeof sub, "out-%s", methods[m]);
        const char *out = strdup(path_in(dir, sub));
        const char *args[] = {"recover", "--image", MNIST7, "--ratio", "5", "--method",
                              methods[m], "--iters", "8", "--no-plot", "--out-dir", out, NULL};
        cli_result r = cli_run(args);
        if (r.status) fprintf(stderr, "%s: %s", methods[m], r.err);
        assert_int_equal(r.status, 0);
        check_summary(r.out, methods[m]);
        assert_int_equal(dir_count(out), 4); /* no convergence.png with --no-plot */
        cli_result_free(&r);
        /* reference-compatible settings run too */
        const char *args2[] = {"recover", "--image", MNIST7, "--ratio", "3", "--method",
                               methods[m], "--iters", "3", "--no-plot", "--reference-compat",
                               "--model", "subgraph", "--out-dir", out, NULL};
        r = cli_run(args2);
        assert_int_equal(r.status, 0);
        check_summary(r.out, methods[m]);
        cli_result_free(&r);
        free((void *)out);
    }
    rm_rf(dir);
}

static void test_png_input_and_accuracy(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    const char *out = strdup(path_in(dir, "png"));
    const char *args[] = {"recover", "--image", MNIST7_PNG, "--ratio", "5", "--method",
                          "cosamp", "--no-plot", "--out-dir", out, NULL};
    cli_result r = cli_run(args);
    assert_int_equal(r.status, 0);
    check_summary(r.out, "cosamp");
    /* CoSaMP with n = 5s on a 60-sparse digit recovers it */
    assert_true(field(r.out, "rel_err=") < 1e-6);
    assert_true(field(r.out, "support_f1=") == 1.0);
    cli_result_free(&r);
    free((void *)out);
    rm_rf(dir);
}

/* Run recover with `extra` arguments and expect a clean failure mentioning `needle`. */
static void expect_failure(const char *dir, const char *image, const char *const *extra,
                           const char *needle)
{
    const char *out = strdup(path_in(dir, "never"));
    const char *args[32];
    int k = 0;
    args[k++] = "recover";
    args[k++] = "--image";
    args[k++] = image;
    args[k++] = "--out-dir";
    args[k++] = out;
    for (int i = 0; extra[i]; i++) args[k++] = extra[i];
    args[k] = NULL;
    cli_result r = cli_run(args);
    if (r.status == 0 || !strstr(r.err, needle))
        fprintf(stderr, "expected failure with '%s', got status %d: %s", needle, r.status, r.err);
    assert_true(r.status >= 1 && r.status <= 127);
    assert_non_null(strstr(r.err, needle));
    assert_string_equal(r.out, "");
    struct stat sb;
    assert_true(stat(out, &sb) != 0); /* the output directory was not left behind */
    cli_result_free(&r);
    free((void *)out);
}

static void test_bad_input(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    const char *const r5[] = {"--ratio", "5", NULL};
    /* not an image */
    const char *text = strdup(path_in(dir, "text.npy"));
    assert_int_equal(write_text(text, "this is not a numpy file\n"), 0);
    expect_failure(dir, text, r5, "image");
    const char *txt = strdup(path_in(dir, "image.txt"));
    assert_int_equal(write_text(txt, "1 2 3\n"), 0);
    expect_failure(dir, txt, r5, ".npy");
    const char *badpng = strdup(path_in(dir, "bad.png"));
    assert_int_equal(write_text(badpng, "no png here"), 0);
    expect_failure(dir, badpng, r5, "image");
    /* 1-D array */
    double v[6] = {0, 1, 2, 0, 1, 0};
    int s1[2] = {6, 1};
    const char *vec = strdup(path_in(dir, "vec.npy"));
    assert_int_equal(gsfw_npy_write(vec, v, 1, s1, NULL), GSFW_OK);
    expect_failure(dir, vec, r5, "2-D");
    /* all zero */
    double z[12] = {0};
    int s2[2] = {3, 4};
    const char *zero = strdup(path_in(dir, "zero.npy"));
    assert_int_equal(gsfw_npy_write(zero, z, 2, s2, NULL), GSFW_OK);
    expect_failure(dir, zero, r5, "all zero");
    /* NaN pixel */
    double w[12] = {0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0};
    w[7] = NAN;
    const char *nan = strdup(path_in(dir, "nan.npy"));
    assert_int_equal(gsfw_npy_write(nan, w, 2, s2, NULL), GSFW_OK);
    expect_failure(dir, nan, r5, "finite");
    /* ratio */
    const char *const r0[] = {"--ratio", "0", NULL};
    expect_failure(dir, MNIST7, r0, "--ratio");
    const char *const rneg[] = {"--ratio", "-2", NULL};
    expect_failure(dir, MNIST7, rneg, "--ratio");
    const char *const rtiny[] = {"--ratio", "0.01", NULL}; /* floor(0.01 * 60) = 0 */
    expect_failure(dir, MNIST7, rtiny, "at least 1");
    const char *const rtext[] = {"--ratio", "abc", NULL};
    expect_failure(dir, MNIST7, rtext, "--ratio");
    /* method / model */
    const char *const meth[] = {"--ratio", "5", "--method", "lasso", NULL};
    expect_failure(dir, MNIST7, meth, "lasso");
    const char *const model[] = {"--ratio", "5", "--model", "tree", NULL};
    expect_failure(dir, MNIST7, model, "tree");
    /* missing image file */
    expect_failure(dir, "/nonexistent/img.npy", r5, "img.npy");
    /* gnuplot missing: the run fails cleanly and removes what it created */
    setenv("GSFW_GNUPLOT", "/nonexistent/gnuplot", 1);
    const char *const it[] = {"--ratio", "5", "--iters", "2", NULL};
    expect_failure(dir, MNIST7, it, "gnuplot");
    unsetenv("GSFW_GNUPLOT");
    /* an out-dir that cannot be created (below a regular file), and an existing empty
     * directory stays empty on failure */
    const char *blocker = strdup(path_in(dir, "blocker"));
    assert_int_equal(write_text(blocker, "x"), 0);
    const char *bad_out = strdup(path_in(blocker, "sub"));
    const char *args[] = {"recover", "--image", MNIST7, "--ratio", "5", "--iters", "2",
                          "--out-dir", bad_out, NULL};
    cli_result r = cli_run(args);
    assert_true(r.status >= 1 && r.status <= 127);
    assert_non_null(strstr(r.err, "out-dir"));
    cli_result_free(&r);
    const char *empty = strdup(path_in(dir, "empty"));
    assert_int_equal(mkdir(empty, 0777), 0);
    const char *args2[] = {"recover", "--image", zero, "--ratio", "5", "--out-dir", empty, NULL};
    r = cli_run(args2);
    assert_true(r.status >= 1 && r.status <= 127);
    assert_int_equal(dir_count(empty), 0);
    cli_result_free(&r);
    free((void *)text);
    free((void *)txt);
    free((void *)badpng);
    free((void *)vec);
    free((void *)zero);
    free((void *)nan);
    free((void *)blocker);
    free((void *)bad_out);
    free((void *)empty);
    rm_rf(dir);
}

/* A directory where the fourth output should go: the run fails, an existing
 * recovered.npy keeps its contents, and nothing new is left behind. */
static void test_outputs_all_or_nothing(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    const char *out = strdup(path_in(dir, "out"));
    assert_int_equal(mkdir(out, 0777), 0);
    assert_int_equal(write_text(path_in(out, "recovered.npy"), "precious"), 0);
    assert_int_equal(mkdir(path_in(out, "trace.csv"), 0777), 0);
    /* a file named like the old fixed staging names is not ours to touch */
    assert_int_equal(write_text(path_in(out, ".gsfw-staging-trace.csv"), "mine"), 0);
    const char *args[] = {"recover", "--image", MNIST7, "--ratio", "5", "--iters", "3",
                          "--no-plot", "--out-dir", out, NULL};
    cli_result r = cli_run(args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "trace.csv"));
    assert_non_null(strstr(r.err, "directory"));
    cli_result_free(&r);
    assert_int_equal(dir_count(out), 3); /* recovered.npy, the trace.csv directory and
                                          * .gsfw-staging-trace.csv */
    assert_true(file_holds(path_in(out, ".gsfw-staging-trace.csv"), "mine"));
    assert_true(file_holds(path_in(out, "recovered.npy"), "precious"));

    /* a symbolic link among the outputs is refused before the work, and left alone */
    const char *out2 = strdup(path_in(dir, "out2"));
    assert_int_equal(mkdir(out2, 0777), 0);
    assert_int_equal(write_text(path_in(dir, "elsewhere.csv"), "theirs"), 0);
    assert_int_equal(symlink("../elsewhere.csv", path_in(out2, "trace.csv")), 0);
    const char *args2[] = {"recover", "--image", MNIST7, "--ratio", "5", "--iters", "3",
                           "--no-plot", "--out-dir", out2, NULL};
    r = cli_run(args2);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "symbolic link"));
    cli_result_free(&r);
    assert_int_equal(dir_count(out2), 1);
    struct stat lst;
    assert_int_equal(lstat(path_in(out2, "trace.csv"), &lst), 0);
    assert_true(S_ISLNK(lst.st_mode));
    free((void *)out2);
    free((void *)out);
    rm_rf(dir);
}

/* Pixels whose squares overflow or underflow are normalised correctly: the ground truth
 * is image / ||image||, so scaling the image changes nothing in the summary. */
static void test_extreme_pixel_scales(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    double base[16] = {0, 1, 2, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0};
    const double scales[3] = {1.0, 1e200, 1e-310};
    char line[3][4096];
    for (int k = 0; k < 3; k++) {
        double img[16];
        for (int i = 0; i < 16; i++) img[i] = base[i] * scales[k];
        char name[32];
        snprintf(name, sizeof name, "img%d.npy", k);
        const char *p = strdup(path_in(dir, name));
        int shape[2] = {4, 4};
        assert_int_equal(gsfw_npy_write(p, img, 2, shape, NULL), GSFW_OK);
        snprintf(name, sizeof name, "out%d", k);
        const char *out = strdup(path_in(dir, name));
        const char *args[] = {"recover", "--image", p, "--ratio", "3", "--iters", "5",
                              "--no-plot", "--out-dir", out, NULL};
        cli_result r = cli_run(args);
        if (r.status) fprintf(stderr, "scale %g: %s", scales[k], r.err);
        assert_int_equal(r.status, 0);
        assert_true(isfinite(field(r.out, "rel_err=")));
        /* everything after time_s... differs only in timings: compare f and errors */
        snprintf(line[k], sizeof line[k], "%.17g %.17g %.17g", field(r.out, " f="),
                 field(r.out, "rel_err="), field(r.out, "support_f1="));
        cli_result_free(&r);
        free((void *)p);
        free((void *)out);
    }
    assert_string_equal(line[1], line[0]);
    assert_string_equal(line[2], line[0]);
    rm_rf(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mnist_outputs),
        cmocka_unit_test(test_every_method),
        cmocka_unit_test(test_png_input_and_accuracy),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_outputs_all_or_nothing),
        cmocka_unit_test(test_extreme_pixel_scales),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
