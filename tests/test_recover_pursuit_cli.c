/* `gsfw recover` on the graph subspace pursuit: its default stop is the exact fit (recover's
 * own tolerance for the Frank-Wolfe path, tol_rel 1e-3, must not end a level early), a
 * tolerance the user types is honoured, and --threads 2 recovers the same bytes. On the
 * 256 x 256 vessel map with one coarse level, seed 0: with tol_rel 1e-3 the run stops at
 * rel_err 0.026, one iteration before the exact fit. */
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

/* Run the recovery into dir/name with extra flags (NULL-terminated, at most 4); returns the
 * summary line (malloc'ed). */
static char *recover(const char *dir, const char *name, const char *a, const char *b)
{
    const char *args[] = {"recover", "--image", GSFW_SOURCE_DIR "/data/vessels_256.png",
                          "--sensing", "dct", "--ratio", "3", "--pursuit", "on", "--levels",
                          "2", "--seed", "0", "--no-plot", "--out-dir", path_in(dir, name),
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
    char *exact = recover(dir, "default", NULL, NULL);
    char *loose = recover(dir, "loose", "--tol-rel", "1e-3");
    char *two = recover(dir, "threads", "--threads", "2");
    fprintf(stderr, "default: rel_err %g, --tol-rel 1e-3: rel_err %g\n",
            field(exact, "rel_err="), field(loose, "rel_err="));
    assert_true(field(exact, "rel_err=") < 1e-9);
    assert_true(field(exact, " f=") <= 1e-12 * 0.5 * 1.1); /* f(0) = ||y||^2 / 2 ~ 1/2 */
    /* the typed tolerance ends the run when f <= 1e-3 f(0), before the exact fit */
    assert_true(field(loose, " iters=") < field(exact, " iters="));
    assert_true(field(loose, "rel_err=") > 1e-6);
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
