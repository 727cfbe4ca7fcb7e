/* `gsfw pcsf` end to end: every case of tests/data/pcsf-peer-tests.json (and one in
 * eight of tests/data/pcsf-reference-random.json) written to temporary files and run
 * through the built binary (GSFW_BIN); the two printed lines are compared with the
 * expected outputs as sets. The image grids of tests/data/pcsf-reference-images.json
 * with both merge tolerances (--tolerance). Plus the error contract. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/stat.h>

#include "gsfw.h"
#include "support/cli_runner.h"
#include "support/json_mini.h"

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Parse "label: a b c" from the line starting at *p; advances *p past the line. */
static int parse_line(const char **p, const char *label, int *ids, int cap)
{
    size_t l = strlen(label);
    if (strncmp(*p, label, l) != 0) return -1;
    const char *s = *p + l;
    int n = 0;
    while (*s && *s != '\n') {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s) {
            if (*s == ' ') {
                s++;
                continue;
            }
            return -1;
        }
        if (n < cap) ids[n] = (int)v;
        n++;
        s = end;
    }
    if (*s == '\n') s++;
    *p = s;
    return n;
}

static void write_case_files(const json_value *c, const char *edges_path, const char *prizes_path,
                             int as_npy)
{
    const json_value *E = json_get(c, "edges"), *P = json_get(c, "prizes"),
                     *C = json_get(c, "costs");
    FILE *f = fopen(edges_path, "w");
    assert_non_null(f);
    fprintf(f, "# peer test %s\n", json_get(c, "name")->string);
    for (size_t e = 0; e < E->len; e++)
        fprintf(f, "%d %d %.17g\n", (int)E->items[e].items[0].number,
                (int)E->items[e].items[1].number, C->items[e].number);
    fclose(f);
    if (as_npy) {
        double *x = malloc((P->len + 1) * sizeof *x);
        for (size_t i = 0; i < P->len; i++) x[i] = P->items[i].number;
        int shape[2] = {(int)P->len, 1};
        assert_int_equal(gsfw_npy_write(prizes_path, x, 1, shape, NULL), GSFW_OK);
        free(x);
    } else {
        f = fopen(prizes_path, "w");
        assert_non_null(f);
        for (size_t i = 0; i < P->len; i++) fprintf(f, "%.17g\n", P->items[i].number);
        fclose(f);
    }
}

static void expect_set(const int *got, int ngot, const json_value *want, const char *what)
{
    int *w = calloc(want->len + 1, sizeof *w);
    int *g = calloc((size_t)ngot + 1, sizeof *g);
    for (size_t i = 0; i < want->len; i++) w[i] = (int)want->items[i].number;
    memcpy(g, got, (size_t)ngot * sizeof *g);
    qsort(w, want->len, sizeof *w, cmp_int);
    qsort(g, (size_t)ngot, sizeof *g, cmp_int);
    int ok = ngot == (int)want->len;
    for (int i = 0; ok && i < ngot; i++) ok = g[i] == w[i];
    if (!ok) fprintf(stderr, "%s differs\n", what);
    assert_true(ok);
    free(w);
    free(g);
}

/* Run every stride-th case of a fixture (schema of pcsf-peer-tests.json) through
 * `gsfw pcsf`, prizes alternately as text and as .npy. */
static void run_fixture_cli(const char *path, size_t min_cases, size_t stride)
{
    char msg[256];
    json_value *cases = json_parse_file(path, msg, sizeof msg);
    if (!cases) fprintf(stderr, "%s\n", msg);
    assert_non_null(cases);
    assert_true(cases->len >= min_cases);
    const char *dir = tmpdir_create();
    assert_non_null(dir);
    char edges[512], prizes[512], root[32], clusters[32];
    snprintf(edges, sizeof edges, "%s", path_in(dir, "edges.txt"));
    enum { CAP = 1024 };
    int *nodes = malloc(CAP * sizeof *nodes), *es = malloc(CAP * sizeof *es);
    assert_true(nodes && es);
    for (size_t k = 0; k < cases->len; k += stride) {
        const json_value *c = &cases->items[k];
        int as_npy = (int)((k / stride) % 2);
        snprintf(prizes, sizeof prizes, "%s", path_in(dir, as_npy ? "prizes.npy" : "prizes.txt"));
        write_case_files(c, edges, prizes, as_npy);
        snprintf(root, sizeof root, "%d", (int)json_get(c, "root")->number);
        snprintf(clusters, sizeof clusters, "%d",
                 (int)json_get(c, "target_num_active_clusters")->number);
        const char *args[] = {"pcsf", "--edges", edges, "--prizes", prizes, "--root", root,
                              "--clusters", clusters, "--pruning",
                              json_get(c, "pruning")->string, NULL};
        cli_result r = cli_run(args);
        if (r.status != 0) fprintf(stderr, "%s: %s\n", json_get(c, "name")->string, r.err);
        assert_int_equal(r.status, 0);
        const char *p = r.out;
        int nn = parse_line(&p, "nodes:", nodes, CAP);
        int ne = parse_line(&p, "edges:", es, CAP);
        assert_true(nn >= 0 && ne >= 0 && nn <= CAP && ne <= CAP);
        assert_int_equal(*p, '\0'); /* exactly two lines */
        snprintf(msg, sizeof msg, "%s nodes", json_get(c, "name")->string);
        expect_set(nodes, nn, json_get(c, "expected_nodes"), msg);
        snprintf(msg, sizeof msg, "%s edges", json_get(c, "name")->string);
        expect_set(es, ne, json_get(c, "expected_edges"), msg);
        cli_result_free(&r);
    }
    free(nodes);
    free(es);
    json_free(cases);
    tmpdir_remove(dir);
}

static void test_peer_cases_cli(void **state)
{
    (void)state;
    run_fixture_cli(GSFW_SOURCE_DIR "/tests/data/pcsf-peer-tests.json", 21, 1);
}

/* The random instances with pcst_fast's outputs (scripts/reference): every case runs
 * through the library in test_pcsf.c; here one in eight goes through the whole CLI. */
static void test_reference_random_cli(void **state)
{
    (void)state;
    run_fixture_cli(GSFW_SOURCE_DIR "/tests/data/pcsf-reference-random.json", 800, 8);
}

static void expect_status(const char *const *args, int status, const char *needle)
{
    cli_result r = cli_run(args);
    if (r.status != status || (needle && !strstr(r.err, needle)))
        fprintf(stderr, "status %d, stderr: %s\n", r.status, r.err);
    assert_int_equal(r.status, status);
    if (needle) assert_non_null(strstr(r.err, needle));
    if (status != 0) assert_int_equal(r.out[0], '\0');
    cli_result_free(&r);
}

/* --tolerance: the image grids of tests/data/pcsf-reference-images.json through
 * `gsfw pcsf --graph grid:HxW`, each with the tolerance of every expected output (the
 * default for 1e-6), and the values it refuses. */
static void test_tolerance_cli(void **state)
{
    (void)state;
    char msg[256];
    json_value *cases =
        json_parse_file(GSFW_SOURCE_DIR "/tests/data/pcsf-reference-images.json", msg, sizeof msg);
    assert_non_null(cases);
    enum { CAP = 1 << 14 };
    int *nodes = malloc(CAP * sizeof *nodes), *es = malloc(CAP * sizeof *es);
    assert_true(nodes && es);
    for (size_t k = 0; k < cases->len; k++) {
        const json_value *c = &cases->items[k];
        char grid[64], prizes[512];
        snprintf(grid, sizeof grid, "grid:%dx%d", (int)json_get(c, "height")->number,
                 (int)json_get(c, "width")->number);
        snprintf(prizes, sizeof prizes, "%s/tests/data/%s", GSFW_SOURCE_DIR,
                 json_get(c, "prizes_npy")->string);
        assert_true(json_get(c, "cost")->number == 1.0); /* what --graph grid gives */
        const json_value *X = json_get(c, "expected");
        for (size_t t = 0; t < X->len; t++) {
            const char *tol = X->keys[t];
            const int dflt = strtod(tol, NULL) == GSFW_PCSF_DEFAULT_TOLERANCE;
            const char *args[] = {"pcsf", "--graph", grid, "--prizes", prizes, "--pruning",
                                  json_get(c, "pruning")->string, dflt ? NULL : "--tolerance",
                                  tol, NULL};
            cli_result r = cli_run(args);
            assert_int_equal(r.status, 0);
            const char *p = r.out;
            int nn = parse_line(&p, "nodes:", nodes, CAP);
            int ne = parse_line(&p, "edges:", es, CAP);
            assert_true(nn >= 0 && ne >= 0 && nn <= CAP && ne <= CAP);
            snprintf(msg, sizeof msg, "%s, tolerance %s, nodes", json_get(c, "name")->string, tol);
            expect_set(nodes, nn, json_get(&X->items[t], "nodes"), msg);
            snprintf(msg, sizeof msg, "%s, tolerance %s, edges", json_get(c, "name")->string, tol);
            expect_set(es, ne, json_get(&X->items[t], "edges"), msg);
            cli_result_free(&r);
        }
    }
    free(nodes);
    free(es);
    json_free(cases);
    const char *dir = tmpdir_create();
    char prizes[512];
    snprintf(prizes, sizeof prizes, "%s", path_in(dir, "p.txt"));
    assert_int_equal(write_text(prizes, "1\n2\n3\n4\n"), 0);
    const char *negative[] = {"pcsf", "--graph", "grid:2x2", "--prizes", prizes, "--tolerance",
                              "-1e-9", NULL};
    expect_status(negative, 2, "--tolerance -1e-9 is outside [0, 1)");
    const char *one[] = {"pcsf", "--graph", "grid:2x2", "--prizes", prizes, "--tolerance", "1",
                         NULL};
    expect_status(one, 2, "outside [0, 1)");
    const char *word[] = {"pcsf", "--graph", "grid:2x2", "--prizes", prizes, "--tolerance",
                          "small", NULL};
    expect_status(word, 2, "--tolerance");
    const char *zero[] = {"pcsf", "--graph", "grid:2x2", "--prizes", prizes, "--tolerance", "0",
                          NULL};
    expect_status(zero, 0, NULL);
    tmpdir_remove(dir);
}

static void test_cli_errors(void **state)
{
    (void)state;
    const char *dir = tmpdir_create();
    char edges[512], prizes[512], bad[512], nan[512], grid_prizes[512];
    snprintf(edges, sizeof edges, "%s", path_in(dir, "e.txt"));
    snprintf(prizes, sizeof prizes, "%s", path_in(dir, "p.txt"));
    snprintf(bad, sizeof bad, "%s", path_in(dir, "short.txt"));
    snprintf(nan, sizeof nan, "%s", path_in(dir, "nan.txt"));
    snprintf(grid_prizes, sizeof grid_prizes, "%s", path_in(dir, "g.txt"));
    assert_int_equal(write_text(edges, "0 1 3\n1 2 4\n"), 0);
    assert_int_equal(write_text(prizes, "0\n5\n6\n"), 0);
    assert_int_equal(write_text(bad, "0\n5\n"), 0);
    assert_int_equal(write_text(nan, "0\nnan\n6\n"), 0);
    assert_int_equal(write_text(grid_prizes, "1\n2\n3\n4\n"), 0);

    const char *ok[] = {"pcsf", "--edges", edges, "--prizes", prizes, "--root", "-1",
                        "--clusters", "1", "--pruning", "strong", NULL};
    cli_result r = cli_run(ok);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "nodes: 1 2\nedges: 1\n");
    cli_result_free(&r);
    const char *grid[] = {"pcsf", "--graph", "grid:2x2", "--prizes", grid_prizes, "--pruning",
                          "gw", NULL};
    expect_status(grid, 0, NULL);

    const char *help[] = {"pcsf", "--help", NULL};
    r = cli_run(help);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--pruning"));
    cli_result_free(&r);

    const char *unknown[] = {"pcsf", "--edges", edges, "--prizes", prizes, "--pruning", "best",
                             NULL};
    expect_status(unknown, 2, "unknown pruning 'best'");
    const char *count[] = {"pcsf", "--edges", edges, "--prizes", bad, NULL};
    expect_status(count, 1, "has only 2 prizes");
    const char *gridcount[] = {"pcsf", "--graph", "grid:3x3", "--prizes", prizes, NULL};
    expect_status(gridcount, 1, "has 9 nodes but --prizes");
    const char *nanp[] = {"pcsf", "--edges", edges, "--prizes", nan, NULL};
    expect_status(nanp, 1, "prize of node 1 is nan");
    const char *rooted[] = {"pcsf", "--edges", edges, "--prizes", prizes, "--root", "0",
                            "--clusters", "1", NULL};
    expect_status(rooted, 2, "--clusters 0");
    const char *badroot[] = {"pcsf", "--edges", edges, "--prizes", prizes, "--root", "3",
                             "--clusters", "0", NULL};
    expect_status(badroot, 1, "--root 3 is out of range");
    const char *missing[] = {"pcsf", "--edges", edges, NULL};
    expect_status(missing, 2, "--prizes");
    const char *nofile[] = {"pcsf", "--edges", edges, "--prizes", path_in(dir, "none.txt"), NULL};
    expect_status(nofile, 1, "--prizes");
    const char *flag[] = {"pcsf", "--edges", edges, "--prizes", prizes, "--bogus", "1", NULL};
    expect_status(flag, 2, "--bogus");

    /* a NUL byte in a text prize file is an error, not the end of the line ("5\0junk"
     * was read as 5) */
    char nul[512];
    snprintf(nul, sizeof nul, "%s", path_in(dir, "nul.txt"));
    FILE *fp = fopen(nul, "wb");
    assert_non_null(fp);
    fwrite("0\n5\0junk\n6\n", 1, 11, fp);
    fclose(fp);
    const char *nulp[] = {"pcsf", "--edges", edges, "--prizes", nul, NULL};
    expect_status(nulp, 1, "line 2 contains a NUL byte");
    /* long comment lines are fine; the 511-character limit of the old reader is gone */
    char longp[512];
    snprintf(longp, sizeof longp, "%s", path_in(dir, "long.txt"));
    fp = fopen(longp, "w");
    assert_non_null(fp);
    fputs("0 #", fp);
    for (int i = 0; i < 5000; i++) fputc('x', fp);
    fputs("\n5\n6", fp); /* no final newline */
    fclose(fp);
    const char *longok[] = {"pcsf", "--edges", edges, "--prizes", longp, "--root", "-1",
                            "--clusters", "1", "--pruning", "strong", NULL};
    r = cli_run(longok);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "nodes: 1 2\nedges: 1\n");
    cli_result_free(&r);
    remove(nul);
    remove(longp);

    /* prizes through a pipe (a FIFO fed by a child), text and .npy: the file is read once,
     * so the format check does not swallow the start of the data */
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s", path_in(dir, "fifo"));
    static const unsigned char npy4[] =
        "\x93NUMPY\x01\x00\x76\x00{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }";
    for (int kind = 0; kind < 2; kind++) {
        assert_int_equal(mkfifo(fifo, 0600), 0);
        pid_t child = fork();
        assert_true(child >= 0);
        if (child == 0) {
            FILE *w = fopen(fifo, "wb");
            if (!w) _exit(1);
            if (kind == 0) {
                fputs("0\n5\n6\n", w);
            } else {
                /* header padded with blanks to 118 bytes + newline, then 3 doubles */
                unsigned char hdr[128];
                memset(hdr, ' ', sizeof hdr);
                memcpy(hdr, npy4, sizeof npy4 - 1);
                hdr[127] = '\n';
                const double v[3] = {0, 5, 6};
                fwrite(hdr, 1, sizeof hdr, w);
                fwrite(v, sizeof v[0], 3, w);
            }
            fclose(w);
            _exit(0);
        }
        const char *piped[] = {"pcsf", "--edges", edges, "--prizes", fifo, "--root", "-1",
                               "--clusters", "1", "--pruning", "strong", NULL};
        r = cli_run(piped);
        int wst = 0;
        waitpid(child, &wst, 0);
        if (r.status) fprintf(stderr, "%s", r.err);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.out, "nodes: 1 2\nedges: 1\n");
        cli_result_free(&r);
        remove(fifo);
    }
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_peer_cases_cli),
        cmocka_unit_test(test_reference_random_cli),
        cmocka_unit_test(test_tolerance_cli),
        cmocka_unit_test(test_cli_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
