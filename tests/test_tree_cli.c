/* `gsfw dmo --model tree | tree-connected` end to end through the built binary: the
 * printed support equals the library oracle's on the same tree (parent files as int64,
 * int32 and float64 .npy, and quadtree:HxW), `gsfw solve` accepts the tree models, and
 * the error contract (exit 1 for bad data, 2 for bad usage, a message naming the
 * problem). */
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
#include "util/rng.h"

/* A 1-D little-endian .npy of the given descr ('<i8', '<i4' or '<f8'). */
static void write_ids_npy(const char *path, const int *ids, int n, const char *descr)
{
    char header[128];
    int len = snprintf(header, sizeof header,
                       "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }", descr, n);
    int total = 10 + len + 1, pad = (64 - total % 64) % 64;
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    unsigned short hlen = (unsigned short)(len + pad + 1);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff),
                             (unsigned char)(hlen >> 8)};
    assert_int_equal(fwrite(pre, 1, 10, f), 10);
    fputs(header, f);
    for (int i = 0; i < pad; i++) fputc(' ', f);
    fputc('\n', f);
    for (int i = 0; i < n; i++) {
        if (!strcmp(descr, "<i8")) {
            int64_t v = ids[i];
            fwrite(&v, 8, 1, f);
        } else if (!strcmp(descr, "<i4")) {
            int32_t v = ids[i];
            fwrite(&v, 4, 1, f);
        } else {
            double v = ids[i];
            fwrite(&v, 8, 1, f);
        }
    }
    assert_int_equal(fclose(f), 0);
}

static void write_vector(const char *path, const double *z, int n)
{
    int shape[2] = {n, 1};
    assert_int_equal(gsfw_npy_write(path, z, 1, shape, NULL), GSFW_OK);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The oracle's support, ascending, as the CLI prints it ("3 5 8\n"). */
static void expected_line(gsfw_dmo *dmo, const double *z, char *line, size_t cap)
{
    int support[256], size = 0;
    assert_int_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0);
    qsort(support, (size_t)size, sizeof(int), cmp_int);
    size_t used = 0;
    line[0] = '\0';
    for (int k = 0; k < size; k++)
        used += (size_t)snprintf(line + used, cap - used, k ? " %d" : "%d", support[k]);
    snprintf(line + used, cap - used, "\n");
}

static void test_dmo_matches_library(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 4242);
    static const char *descrs[] = {"<i8", "<i4", "<f8"};
    for (int trial = 0; trial < 6; trial++) {
        int n = 20 + trial * 7, parent[64];
        double z[64];
        for (int i = 0; i < n; i++) {
            int root = i == 0 || gsfw_rng_uniform(&rng) < 0.1;
            parent[i] = root ? -1 : (int)gsfw_rng_below(&rng, (uint64_t)i);
            z[i] = gsfw_rng_normal(&rng);
        }
        const char *pp = path_in(dir, "parents.npy"), *zp = path_in(dir, "z.npy");
        write_ids_npy(pp, parent, n, descrs[trial % 3]);
        write_vector(zp, z, n);
        gsfw_tree *t;
        assert_int_equal(gsfw_tree_from_parents(n, parent, &t, NULL), GSFW_OK);
        int s = 3 + trial, g = 1 + trial % 3;
        char s_text[16], g_text[16], want[1024];
        snprintf(s_text, sizeof s_text, "%d", s);
        snprintf(g_text, sizeof g_text, "%d", g);
        for (int kind = 0; kind < 2; kind++) {
            gsfw_dmo *dmo;
            if (kind == 0)
                assert_int_equal(gsfw_dmo_tree_forest(t, s, g, &dmo, NULL), GSFW_OK);
            else
                assert_int_equal(gsfw_dmo_tree_connected(t, s, &dmo, NULL), GSFW_OK);
            expected_line(dmo, z, want, sizeof want);
            const char *args[] = {"dmo", "--model", kind ? "tree-connected" : "tree", "--tree",
                                  pp, "--z", zp, "--s", s_text,
                                  kind ? NULL : "--g", g_text, NULL};
            cli_result r = cli_run(args);
            if (r.status != 0) fprintf(stderr, "%s", r.err);
            assert_int_equal(r.status, 0);
            assert_string_equal(r.out, want);
            cli_result_free(&r);
            gsfw_dmo_free(dmo);
        }
        gsfw_tree_free(t);
    }
    tmpdir_remove(dir);
}

static void test_quadtree_and_solve(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 99);
    double z[64];
    for (int i = 0; i < 64; i++) z[i] = gsfw_rng_normal(&rng);
    const char *zp = path_in(dir, "z.npy");
    write_vector(zp, z, 64);
    gsfw_tree *t;
    assert_int_equal(gsfw_tree_quadtree(8, 8, &t, NULL), GSFW_OK);
    gsfw_dmo *dmo;
    assert_int_equal(gsfw_dmo_tree_rooted(t, 10, &dmo, NULL), GSFW_OK);
    char want[1024];
    expected_line(dmo, z, want, sizeof want);
    const char *args[] = {"dmo", "--model", "tree", "--tree", "quadtree:8x8", "--z", zp,
                          "--s", "10", NULL};
    cli_result r = cli_run(args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want);
    cli_result_free(&r);
    gsfw_dmo_free(dmo);
    gsfw_tree_free(t);

    /* gsfw solve with the tree model: A = I (64 x 64), y = z */
    double *A = calloc(64 * 64, sizeof(double));
    assert_non_null(A);
    for (int i = 0; i < 64; i++) A[i * 64 + i] = 1.0;
    int sa[2] = {64, 64};
    assert_int_equal(gsfw_npy_write(path_in(dir, "A.npy"), A, 2, sa, NULL), GSFW_OK);
    free(A);
    const char *solve[] = {"solve", "--A", path_in(dir, "A.npy"), "--y", zp, "--model",
                           "tree", "--tree", "quadtree:8x8", "--s", "5", "--C", "1",
                           "--method", "fw", "--iters", "10", NULL};
    r = cli_run(solve);
    if (r.status != 0) fprintf(stderr, "%s", r.err);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "model=tree "));
    assert_non_null(strstr(r.out, "delta=1 "));
    cli_result_free(&r);
    tmpdir_remove(dir);
}

static void expect_failure(const char *const *args, int status, const char *needle)
{
    cli_result r = cli_run(args);
    if (r.status != status || !strstr(r.err, needle))
        fprintf(stderr, "status %d, stderr: %s\n", r.status, r.err);
    assert_int_equal(r.status, status);
    assert_non_null(strstr(r.err, needle));
    assert_string_equal(r.out, "");
    cli_result_free(&r);
}

static void test_errors(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    double z[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const char *zp = path_in(dir, "z.npy");
    write_vector(zp, z, 10);
    const int cycle[10] = {-1, 3, 0, 4, 1, 0, 0, 0, 0, 0};
    const int out_of_range[10] = {-1, 0, 0, 1, 1, 2, 2, 12, 3, 3};
    const int short_tree[8] = {-1, 0, 0, 1, 1, 2, 2, 3};
    const int fine[10] = {-1, 0, 0, 1, 1, 2, 2, 3, 3, 4};
    char cyc[512], oor[512], shrt[512], ok[512];
    snprintf(cyc, sizeof cyc, "%s", path_in(dir, "cycle.npy"));
    snprintf(oor, sizeof oor, "%s", path_in(dir, "oor.npy"));
    snprintf(shrt, sizeof shrt, "%s", path_in(dir, "short.npy"));
    snprintf(ok, sizeof ok, "%s", path_in(dir, "ok.npy"));
    write_ids_npy(cyc, cycle, 10, "<i8");
    write_ids_npy(oor, out_of_range, 10, "<i4");
    write_ids_npy(shrt, short_tree, 8, "<i8");
    write_ids_npy(ok, fine, 10, "<i8");

    const char *a1[] = {"dmo", "--model", "tree", "--tree", cyc, "--z", zp, "--s", "3", NULL};
    expect_failure(a1, 1, "cycle through node 1");
    const char *a2[] = {"dmo", "--model", "tree", "--tree", oor, "--z", zp, "--s", "3", NULL};
    expect_failure(a2, 1, "node 7 has parent 12, outside 0..9");
    const char *a3[] = {"dmo", "--model", "tree", "--tree", shrt, "--z", zp, "--s", "3", NULL};
    expect_failure(a3, 1, "has 8 nodes but the vector has 10 entries");
    /* the quadtree's size is checked against the vector before it is built, then its shape */
    const char *a4[] = {"dmo", "--model", "tree", "--tree", "quadtree:6x6", "--z", zp, "--s", "3",
                        NULL};
    expect_failure(a4, 1, "--tree quadtree:6x6 has 36 nodes but the vector has 10 entries");
    double z36[36] = {0};
    char z36p[512];
    snprintf(z36p, sizeof z36p, "%s", path_in(dir, "z36.npy"));
    write_vector(z36p, z36, 36);
    const char *a4b[] = {"dmo", "--model", "tree", "--tree", "quadtree:6x6", "--z", z36p, "--s",
                         "3", NULL};
    expect_failure(a4b, 1, "side 6 is not a power of two");
    const char *a5[] = {"dmo", "--model", "tree", "--z", zp, "--s", "3", NULL};
    expect_failure(a5, 2, "--model tree needs a tree");
    const char *a6[] = {"dmo", "--model", "topk", "--tree", ok, "--z", zp, "--s", "3", NULL};
    expect_failure(a6, 2, "--tree is for the tree models");
    const char *a7[] = {"dmo", "--model", "tree-connected", "--tree", ok, "--z", zp, "--s", "3",
                        "--g", "2", NULL};
    expect_failure(a7, 2, "--model tree-connected needs --g 1, got 2");
    const char *a8[] = {"dmo", "--model", "tree", "--tree", "quadtree:abc", "--z", zp, "--s", "3",
                        NULL};
    expect_failure(a8, 2, "--tree expects quadtree:HxW");
    /* float64 parents must be integral */
    double frac[10] = {-1, 0, 0.5, 1, 1, 2, 2, 3, 3, 4};
    char fp[512];
    snprintf(fp, sizeof fp, "%s", path_in(dir, "frac.npy"));
    write_vector(fp, frac, 10);
    const char *a9[] = {"dmo", "--model", "tree", "--tree", fp, "--z", zp, "--s", "3", NULL};
    expect_failure(a9, 1, "entry 2 is 0.5, not an integer");
    /* an integer beyond int is out of range, not "not an integer", and is not wrapped */
    frac[2] = 4294967296.0;
    write_vector(fp, frac, 10);
    expect_failure(a9, 1, "entry 2 is 4294967296, out of range; a parent is a node id (0..9)");
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dmo_matches_library),
        cmocka_unit_test(test_quadtree_and_solve),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
