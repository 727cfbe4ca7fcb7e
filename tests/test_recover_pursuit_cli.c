/* `gsfw recover` on the graph subspace pursuit: its default stop is the exact fit, f <=
 * 1e-12 f(0) (recover's own tolerance for the Frank-Wolfe path, tol_rel 1e-3, once ended
 * levels early and called that converged), a tolerance the user types is honoured, and
 * --threads 2 recovers the same bytes. Here f(0) = ||y||^2 / 2 <= (d / n) ||x*||^2 / 2
 * (rows of an orthonormal transform scaled by sqrt(d / n), x* of unit norm). The
 * 256 x 256 vessel map with one coarse level, seeds 2, 6 and 7: with the old stop, three
 * runs that ended at rel_err 0.02-0.04 (OpenBLAS's Haswell kernel, one thread; the
 * paths depend on the kernel, the bounds checked here do not). */
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

static double field(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    assert_non_null(p);
    return strtod(p + strlen(key), NULL);
}

/* Run the recovery of seed into dir/name with the flag a and its value b (both NULL: none);
 * returns the summary line (malloc'ed). */
static char *recover(const char *dir, const char *name, const char *seed, const char *a,
                     const char *b)
{
    const char *args[] = {"recover", "--image", GSFW_SOURCE_DIR "/data/vessels_256.png",
                          "--sensing", "dct", "--ratio", "3", "--pursuit", "on", "--levels",
                          "2", "--seed", seed, "--no-plot", "--out-dir", path_in(dir, name),
                          a, b, NULL};
    cli_result r = cli_run(args);
    if (r.status != 0) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.status, 0);
    char *out = r.out;
    r.out = NULL;
    cli_result_free(&r);
    return out;
}

static long file_size(const char *path, unsigned char **bytes)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    *bytes = malloc((size_t)n);
    assert_non_null(*bytes);
    assert_int_equal(fread(*bytes, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return n;
}

static void test_pursuit_stops_at_the_exact_fit(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    static const char *const seeds[] = {"2", "7", "6"};
    char *exact = NULL;
    double f_zero_max = 0.0;
    for (int k = 0; k < 3; k++) {
        free(exact);
        exact = recover(dir, "default", seeds[k], NULL, NULL);
        fprintf(stderr, "seed %s: f %g rel_err %g\n", seeds[k], field(exact, " f="),
                field(exact, "rel_err="));
        f_zero_max = 0.5 * field(exact, " d=") / field(exact, " n=") * (1 + 1e-9);
        if (strstr(exact, "status=converged"))
            assert_true(field(exact, " f=") <= 1e-12 * f_zero_max);
        else
            assert_true(strstr(exact, "status=stalled") || strstr(exact, "status=max_iter"));
    }
    /* seed 6 again, with the tolerance typed */
    char *loose = recover(dir, "loose", "6", "--tol-rel", "1e-3");
    char *two = recover(dir, "threads", "6", "--threads", "2");
    if (strstr(loose, "status=converged")) assert_true(field(loose, " f=") <= 1e-3 * f_zero_max);
    assert_true(field(loose, " iters=") <= field(exact, " iters="));
    /* a second thread for the transforms: the same answer to the bit */
    unsigned char *x1, *x2;
    long n1 = file_size(path_in(path_in(dir, "default"), "recovered.npy"), &x1);
    long n2 = file_size(path_in(path_in(dir, "threads"), "recovered.npy"), &x2);
    assert_int_equal(n1, n2);
    assert_memory_equal(x1, x2, (size_t)n1);
    assert_true(field(two, "rel_err=") == field(exact, "rel_err="));
    free(x1);
    free(x2);
    free(exact);
    free(loose);
    free(two);
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pursuit_stops_at_the_exact_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
