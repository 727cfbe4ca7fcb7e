/* The pictures of `gsfw recover`: panel.png shows truth | recovered | |error| with every
 * image pixel drawn as an integer k x k block (k making the images >= 300 px tall), in the
 * grey levels of truth.png; the plots carry axis labels and the model the summary names.
 * gnuplot is wrapped by a script (GSFW_GNUPLOT) that keeps a copy of what it is given. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "gsfw.h"
#include "png_io.h"
#include "support/cli_runner.h"

#define MNIST7 GSFW_SOURCE_DIR "/data/mnist_7.npy"

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, fp);
    buf[got] = '\0';
    fclose(fp);
    return buf;
}

/* A gnuplot that appends each script it runs to LOG, then runs the real one. */
static void wrap_gnuplot(const char *dir)
{
    char wrapper[1024], text[2048];
    snprintf(wrapper, sizeof wrapper, "%s", path_in(dir, "gnuplot-wrapper.sh"));
    snprintf(text, sizeof text, "#!/bin/sh\ncat \"$1\" >> '%s'\nexec gnuplot \"$1\"\n",
             path_in(dir, "scripts.log"));
    assert_int_equal(write_text(wrapper, text), 0);
    assert_int_equal(chmod(wrapper, 0755), 0);
    setenv("GSFW_GNUPLOT", wrapper, 1);
}

static void test_panel_is_an_exact_upscale(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    char out[1024];
    snprintf(out, sizeof out, "%s", path_in(dir, "out"));
    const char *a[] = {"recover", "--image", MNIST7, "--ratio", "5", "--iters", "30",
                       "--out-dir", out, NULL};
    cli_result r = cli_run(a);
    if (r.status) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.status, 0);
    cli_result_free(&r);

    double *panel = NULL, *truth = NULL, *rec = NULL;
    int ph, pw, th, tw;
    char truth_png[1100];
    snprintf(truth_png, sizeof truth_png, "%s/truth.png", out);
    assert_int_equal(gsfw_png_read_gray(truth_png, &truth, &th, &tw, NULL), GSFW_OK);
    snprintf(truth_png, sizeof truth_png, "%s/recovered.png", out);
    assert_int_equal(gsfw_png_read_gray(truth_png, &rec, &th, &tw, NULL), GSFW_OK);
    snprintf(truth_png, sizeof truth_png, "%s/panel.png", out);
    assert_int_equal(gsfw_png_read_gray(truth_png, &panel, &ph, &pw, NULL), GSFW_OK);
    /* 28 x 28 images at k = ceil(300 / 28) = 11: 308 px tall, with 70 px of titles above
     * and 20 below; three panels of 308 px, 20 px left, two gaps and a right margin of
     * 170 px */
    const int k = 11, top = 70, left = 20, gap = 170;
    assert_int_equal(ph, top + 28 * k + 20);
    assert_int_equal(pw, left + 3 * 28 * k + 3 * gap);
    /* the centre of each block has the grey of the raw image's pixel (truth.png and
     * recovered.png use the same scale, 0 .. max x*), and the block is uniform */
    int checked = 0;
    for (int p = 0; p < 2; p++) {
        const double *img = p == 0 ? truth : rec;
        const int x0 = left + p * (28 * k + gap);
        for (int r = 0; r < 28; r++)
            for (int c = 0; c < 28; c++) {
                int pr = top + r * k, pc = x0 + c * k;
                double centre = panel[(pr + k / 2) * pw + pc + k / 2];
                if (fabs(centre - img[r * 28 + c]) > 2.5 / 255) {
                    fprintf(stderr, "panel %d pixel (%d, %d): %g in the panel, %g in the image\n",
                            p, r, c, centre, img[r * 28 + c]);
                    fail();
                }
                for (int i = 2; i < k - 2; i++)
                    for (int j = 2; j < k - 2; j++)
                        assert_true(fabs(panel[(pr + i) * pw + pc + j] - centre) < 1.5 / 255);
                checked++;
            }
    }
    assert_int_equal(checked, 2 * 28 * 28);
    gsfw_free(panel);
    gsfw_free(truth);
    gsfw_free(rec);
    tmpdir_remove(dir);
}

static void test_plots_are_labelled_with_the_summary_model(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    wrap_gnuplot(dir);
    char out[1024];
    snprintf(out, sizeof out, "%s", path_in(dir, "out"));
    const char *a[] = {"recover", "--image", MNIST7, "--ratio", "5", "--method", "iht",
                       "--iters", "10", "--out-dir", out, NULL};
    cli_result r = cli_run(a);
    unsetenv("GSFW_GNUPLOT");
    if (r.status) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "model=topk"));
    char *scripts = slurp(path_in(dir, "scripts.log"));
    assert_non_null(scripts);
    /* both pictures' titles name the model of the summary, never the default head */
    assert_non_null(strstr(scripts, "'iht, topk model, n = 300"));
    assert_null(strstr(scripts, "head model"));
    assert_non_null(strstr(scripts, "set xlabel 'iteration t'"));
    assert_non_null(strstr(scripts, "set xlabel 'time since the start of the solve (s)'"));
    assert_non_null(strstr(scripts, "set ylabel 'value (log scale"));
    assert_non_null(strstr(scripts, "Frank-Wolfe gap"));
    assert_non_null(strstr(scripts, "set cblabel 'absolute error'"));
    free(scripts);
    cli_result_free(&r);
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_panel_is_an_exact_upscale),
        cmocka_unit_test(test_plots_are_labelled_with_the_summary_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
