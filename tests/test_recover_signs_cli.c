/* `gsfw recover --sensing dct-signs | hadamard-signs` with a wavelet basis: on a smooth
 * image the scrambled rows recover it (plain subsampled rows, coherent with the wavelets,
 * do markedly worse), and an unknown kind is a usage error naming the known ones. */
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

enum { SIDE = 32 };

static double field(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    assert_non_null(p);
    return strtod(p + strlen(key), NULL);
}

/* A smooth bump plus a step edge: compressible in Haar along quadtree paths. */
static const char *write_image(const char *dir)
{
    static double img[SIDE * SIDE];
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++) {
            double dr = r - 12.0, dc = c - 18.0;
            img[r * SIDE + c] = exp(-(dr * dr + dc * dc) / 40.0) + (r >= 22 ? 0.4 : 0.0);
        }
    const char *path = path_in(dir, "img.npy");
    int shape[2] = {SIDE, SIDE};
    assert_int_equal(gsfw_npy_write(path, img, 2, shape, NULL), GSFW_OK);
    return path;
}

static double rel_err_of(const char *dir, const char *image, const char *sensing)
{
    const char *const args[] = {"recover", "--image", image, "--basis", "haar", "--model", "tree",
                                "--ratio", "3", "--sensing", sensing, "--no-plot", "--out-dir",
                                path_in(dir, sensing), NULL};
    cli_result r = cli_run(args);
    if (r.status != 0) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.status, 0);
    char want[64];
    snprintf(want, sizeof want, "sensing=%s ", sensing);
    assert_non_null(strstr(r.out, want));
    double e = field(r.out, "rel_err=");
    cli_result_free(&r);
    return e;
}

static void test_scrambled_rows_recover(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    const char *image = write_image(dir);
    double hs = rel_err_of(dir, image, "hadamard-signs");
    double ds = rel_err_of(dir, image, "dct-signs");
    double h = rel_err_of(dir, image, "hadamard");
    double dct = rel_err_of(dir, image, "dct");
    fprintf(stderr, "rel_err: hadamard-signs %.3g dct-signs %.3g hadamard %.3g dct %.3g\n", hs,
            ds, h, dct);
    assert_true(hs < 0.1);
    assert_true(ds < 0.1);
    assert_true(h > 2.0 * hs);
    assert_true(dct > 2.0 * ds);
    tmpdir_remove(dir);
}

static void test_unknown_kind(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    const char *const args[] = {"recover", "--image", write_image(dir), "--basis", "haar",
                                "--ratio", "3", "--sensing", "hadamard-sign", "--out-dir",
                                path_in(dir, "out"), NULL};
    cli_result r = cli_run(args);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown sensing kind 'hadamard-sign'"));
    assert_non_null(strstr(r.err, "dct-signs, hadamard-signs"));
    cli_result_free(&r);
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scrambled_rows_recover),
        cmocka_unit_test(test_unknown_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
