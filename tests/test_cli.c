/* The gsfw command line: the solve / dmo contract, exact traces, and clean rejection of
 * bad input (exit status, a message naming the problem, no output file left behind). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "gsfw.h"
#include "support/cli_runner.h"
#include "util/rng.h"

enum { N = 30, D = 64, S = 4 };

typedef struct {
    const char *dir;
    double A[N * D], y[N], x_true[D];
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    fx->dir = strdup(tmpdir_create());
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 42);
    for (int k = 0; k < N * D; k++) fx->A[k] = gsfw_rng_normal(&rng) / sqrt((double)N);
    /* x*: a 2x2 block on the 8x8 grid, unit norm */
    int blk[4] = {18, 19, 26, 27};
    for (int k = 0; k < 4; k++) fx->x_true[blk[k]] = 0.5;
    for (int r = 0; r < N; r++)
        for (int c = 0; c < D; c++) fx->y[r] += fx->A[r * D + c] * fx->x_true[c];
    int sa[2] = {N, D}, sy[2] = {N, 1}, sx[2] = {D, 1};
    assert_int_equal(gsfw_npy_write(path_in(fx->dir, "A.npy"), fx->A, 2, sa, NULL), GSFW_OK);
    assert_int_equal(gsfw_npy_write(path_in(fx->dir, "y.npy"), fx->y, 1, sy, NULL), GSFW_OK);
    assert_int_equal(gsfw_npy_write(path_in(fx->dir, "x.npy"), fx->x_true, 1, sx, NULL), GSFW_OK);
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

/* Parse the f column of a trace written by gsfw solve. */
static int read_trace_f(const char *path, double *f, int cap, int *with_est)
{
    FILE *fp = fopen(path, "r");
    if (!fp) return -1;
    char line[1024];
    if (!fgets(line, sizeof line, fp)) return -1;
    *with_est = strstr(line, "est_err") != NULL;
    int rows = 0;
    while (fgets(line, sizeof line, fp) && rows < cap) {
        int iter;
        double t, fv;
        if (sscanf(line, "%d,%lf,%lf", &iter, &t, &fv) != 3 || iter != rows) break;
        f[rows++] = fv;
    }
    fclose(fp);
    return rows;
}

static void test_solve_trace_matches_library(void **state)
{
    fixture *fx = *state;
    const char *trace = path_in(fx->dir, "trace.csv"), *out = path_in(fx->dir, "out.npy");
    const char *args[] = {"solve", "--A", path_in(fx->dir, "A.npy"), "--y", path_in(fx->dir, "y.npy"),
                          "--model", "topk", "--s", "4", "--C", "1.0", "--method", "accfw",
                          "--L", "3", "--iters", "25", "--trace", trace, "--out", out,
                          "--x-true", path_in(fx->dir, "x.npy"), NULL};
    cli_result r = cli_run(args);
    if (r.status) fail_msg("solve failed: %s", r.err);
    assert_non_null(strstr(r.out, "iters=25"));
    double f_cli[40];
    int with_est = 0;
    assert_int_equal(read_trace_f(trace, f_cli, 40, &with_est), 26);
    assert_true(with_est);

    gsfw_objective *obj = NULL;
    gsfw_dmo *dmo = NULL;
    assert_int_equal(gsfw_objective_least_squares(N, D, fx->A, GSFW_ROW_MAJOR, fx->y, &obj, NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_topk(D, S, &dmo, NULL), GSFW_OK);
    gsfw_settings set;
    gsfw_settings_default(&set);
    set.method = GSFW_METHOD_ACCFW;
    set.L = 3;
    set.C = 1;
    set.max_iter = 25;
    gsfw_iterate tr[26];
    double x_last[D];
    gsfw_result res = {.x_best = NULL, .x_last = x_last, .trace = tr, .trace_capacity = 26, .trace_len = 0};
    assert_int_equal(gsfw_solve(obj, dmo, &set, &res, NULL, NULL), GSFW_OK);
    for (int t = 0; t <= 25; t++) assert_true(f_cli[t] == tr[t].f); /* 17 digits: exact */

    double *x = NULL;
    int ndim, shape[2];
    assert_int_equal(gsfw_npy_read(out, &x, &ndim, shape, NULL), GSFW_OK);
    assert_int_equal(ndim, 1);
    assert_int_equal(shape[0], D);
    for (int i = 0; i < D; i++) assert_true(x[i] == x_last[i]);
    gsfw_free(x);
    gsfw_dmo_free(dmo);
    gsfw_objective_free(obj);
    cli_result_free(&r);
    remove(trace);
    remove(out);
}

static void test_dmo_topk_and_subgraph(void **state)
{
    fixture *fx = *state;
    double z[D] = {0};
    z[5] = 3;
    z[60] = -5;
    z[7] = 1;
    z[33] = 2;
    int sz[2] = {D, 1};
    const char *zp = path_in(fx->dir, "z.npy");
    assert_int_equal(gsfw_npy_write(zp, z, 1, sz, NULL), GSFW_OK);
    const char *a1[] = {"dmo", "--model", "topk", "--z", zp, "--s", "3", NULL};
    cli_result r = cli_run(a1);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "5 33 60\n");
    cli_result_free(&r);
    /* subgraph on the 8x8 grid, s = 2, g = 1: seed 60 plus its best neighbour (all zero
     * except none: any neighbour); the output must be 2 adjacent nodes containing 60 */
    const char *a2[] = {"dmo", "--model", "subgraph", "--z", zp, "--s", "2", "--g", "1",
                        "--graph", "grid:8x8", NULL};
    r = cli_run(a2);
    assert_int_equal(r.status, 0);
    int u = -1, v = -1;
    assert_int_equal(sscanf(r.out, "%d %d", &u, &v), 2);
    assert_true(u == 60 || v == 60);
    int other = u == 60 ? v : u;
    assert_true(other == 52 || other == 59 || other == 61);
    cli_result_free(&r);
    remove(zp);
}

/* Each bad invocation: expected exit status, a word the message must contain, and no
 * file created in the test directory. */
static void expect_rejected(fixture *fx, const char *const *args, int status, const char *needle)
{
    int before = dir_count(fx->dir);
    cli_result r = cli_run(args);
    if (r.status != status || !strstr(r.err, needle))
        fail_msg("expected exit %d and '%s' in stderr, got %d: %s", status, needle, r.status, r.err);
    assert_true(strlen(r.err) > 0);
    assert_int_equal(dir_count(fx->dir), before);
    cli_result_free(&r);
}

static void test_bad_input_rejected(void **state)
{
    fixture *fx = *state;
    const char *dir = fx->dir;
    char A[512], y[512], out[512], trace[512];
    snprintf(A, sizeof A, "%s", path_in(dir, "A.npy"));
    snprintf(y, sizeof y, "%s", path_in(dir, "y.npy"));
    snprintf(out, sizeof out, "%s", path_in(dir, "out-new.npy"));
    snprintf(trace, sizeof trace, "%s", path_in(dir, "trace-new.csv"));

    /* y of the wrong length */
    double ybad[N - 1] = {0};
    int sy[2] = {N - 1, 1};
    char yb[512];
    snprintf(yb, sizeof yb, "%s", path_in(dir, "ybad.npy"));
    assert_int_equal(gsfw_npy_write(yb, ybad, 1, sy, NULL), GSFW_OK);
    /* NaN in A */
    double Anan[N * D];
    memcpy(Anan, fx->A, sizeof Anan);
    Anan[3 * D + 7] = NAN;
    int sa[2] = {N, D};
    char an[512];
    snprintf(an, sizeof an, "%s", path_in(dir, "Anan.npy"));
    assert_int_equal(gsfw_npy_write(an, Anan, 2, sa, NULL), GSFW_OK);
    /* truncated .npy: the first 200 bytes of A.npy */
    char at[512];
    snprintf(at, sizeof at, "%s", path_in(dir, "Atrunc.npy"));
    {
        FILE *src = fopen(A, "rb"), *dst = fopen(at, "wb");
        char buf[200];
        size_t got = fread(buf, 1, sizeof buf, src);
        fwrite(buf, 1, got, dst);
        fclose(src);
        fclose(dst);
    }
    char e_bad_id[512], e_bad_line[512];
    snprintf(e_bad_id, sizeof e_bad_id, "%s", path_in(dir, "edges-id.txt"));
    snprintf(e_bad_line, sizeof e_bad_line, "%s", path_in(dir, "edges-line.txt"));
    assert_int_equal(write_text(e_bad_id, "0 1\n1 2\n# comment\n2 64\n"), 0);
    assert_int_equal(write_text(e_bad_line, "0 1\n1 two\n"), 0);

#define SOLVE(...) {"solve", "--A", A, "--y", y, "--model", "topk", "--C", "1", "--method", "fw", \
                    "--iters", "5", "--out", out, "--trace", trace, __VA_ARGS__, NULL}
    {
        const char *a[] = {"solve", "--A", A, "--y", yb, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", out, "--trace", trace, NULL};
        expect_rejected(fx, a, 1, "--y");
    }
    {
        const char *a[] = {"solve", "--A", an, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", out, "--trace", trace, NULL};
        expect_rejected(fx, a, 1, "A[3, 7]");
    }
    {
        const char *a[] = {"solve", "--A", at, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", out, "--trace", trace, NULL};
        expect_rejected(fx, a, 1, "truncated");
    }
    {
        const char *a[] = {"solve", "--A", "/nonexistent/A.npy", "--y", y, "--model", "topk", "--s",
                           "4", "--C", "1", "--method", "fw", "--iters", "5", "--out", out, NULL};
        expect_rejected(fx, a, 1, "/nonexistent/A.npy");
    }
    { const char *a[] = SOLVE("--s", "65"); expect_rejected(fx, a, 1, "--s"); }
    { const char *a[] = SOLVE("--s", "0"); expect_rejected(fx, a, 2, "--s"); }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "0",
                           "--method", "fw", "--iters", "5", "--out", out, NULL};
        expect_rejected(fx, a, 2, "--C");
    }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "-2",
                           "--method", "fw", "--iters", "5", "--out", out, NULL};
        expect_rejected(fx, a, 2, "--C");
    }
    { const char *a[] = SOLVE("--s", "2", "--g", "3"); expect_rejected(fx, a, 2, "--g"); }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "subgraph", "--s", "4", "--g", "1",
                           "--edges", e_bad_id, "--C", "1", "--method", "fw", "--iters", "5",
                           "--out", out, NULL};
        expect_rejected(fx, a, 1, "64");
    }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "subgraph", "--s", "4", "--g", "1",
                           "--edges", e_bad_line, "--C", "1", "--method", "fw", "--iters", "5",
                           "--out", out, NULL};
        expect_rejected(fx, a, 1, ":2");
    }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "subgraph", "--s", "4", "--g", "1",
                           "--graph", "grid:7x8", "--C", "1", "--method", "fw", "--iters", "5",
                           "--out", out, NULL};
        expect_rejected(fx, a, 1, "grid:7x8");
    }
    { const char *a[] = SOLVE("--s", "4", "--bogus", "1"); expect_rejected(fx, a, 2, "--bogus"); }
    { const char *a[] = SOLVE("--s", "4", "--iters", "5"); expect_rejected(fx, a, 2, "twice"); }
    { const char *a[] = SOLVE("--s", "x4"); expect_rejected(fx, a, 2, "--s"); }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "nope", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", NULL};
        expect_rejected(fx, a, 2, "nope");
    }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "newton", "--iters", "5", NULL};
        expect_rejected(fx, a, 2, "unknown method 'newton'");
    }
    {
        const char *a[] = {"solve", "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", NULL};
        expect_rejected(fx, a, 2, "--A");
    }
    {
        /* output directory that does not exist: the run fails and writes nothing */
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", "/nonexistent-dir/x.npy", NULL};
        expect_rejected(fx, a, 1, "/nonexistent-dir");
    }
    {
        /* a later output failing must not delete or change an existing file */
        char keep[512];
        snprintf(keep, sizeof keep, "%s", path_in(dir, "keep.npy"));
        assert_int_equal(write_text(keep, "precious"), 0);
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", keep, "--trace",
                           "/nonexistent-dir/t.csv", NULL};
        expect_rejected(fx, a, 1, "--trace");
        assert_true(file_holds(keep, "precious"));
        remove(keep);
    }
    {
        /* the second output cannot be written (a directory is in the way): the first,
         * which exists, keeps its old contents, and no temporary or backup is left */
        char keep[512], blocked[512];
        snprintf(keep, sizeof keep, "%s", path_in(dir, "keep2.npy"));
        snprintf(blocked, sizeof blocked, "%s", path_in(dir, "best-dir.npy"));
        assert_int_equal(write_text(keep, "precious"), 0);
        assert_int_equal(mkdir(blocked, 0700), 0);
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", keep, "--best-out",
                           blocked, NULL};
        expect_rejected(fx, a, 1, "directory");
        assert_true(file_holds(keep, "precious"));
        remove(keep);
        rmdir(blocked);
    }
    {
        /* a non-finite ground truth is named by flag, file and index */
        double xt[D] = {0};
        xt[2] = NAN;
        int sx[2] = {D, 1};
        char xp[512];
        snprintf(xp, sizeof xp, "%s", path_in(dir, "xtrue-nan.npy"));
        assert_int_equal(gsfw_npy_write(xp, xt, 1, sx, NULL), GSFW_OK);
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--x-true", xp, NULL};
        expect_rejected(fx, a, 1, "--x-true");
        expect_rejected(fx, a, 1, "entry 2");
        remove(xp);
    }
    {
        /* two outputs naming one file are refused before any work */
        char same[512];
        snprintf(same, sizeof same, "%s", path_in(dir, "same.npy"));
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", same, "--trace", same,
                           NULL};
        expect_rejected(fx, a, 2, "same file");
        char spelt[600]; /* the same new file, spelt differently */
        snprintf(spelt, sizeof spelt, "%s/./same.npy", dir);
        const char *b[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", same, "--trace", spelt,
                           NULL};
        expect_rejected(fx, b, 2, "same file");
    }
    {
        /* an output written in place (stdout) is not written when another is unusable */
        char blocked[512];
        snprintf(blocked, sizeof blocked, "%s", path_in(dir, "blocked.npy"));
        assert_int_equal(mkdir(blocked, 0700), 0);
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", "/dev/stdout",
                           "--best-out", blocked, NULL};
        cli_result r = cli_run(a);
        assert_int_equal(r.status, 1);
        assert_string_equal(r.out, "");
        cli_result_free(&r);
        rmdir(blocked);
    }
    {
        /* special files are written in place: /dev/null stays a device (a rename onto
         * it as root would have replaced the system's /dev/null by a regular file) */
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--out", "/dev/null", "--trace",
                           "/dev/null", NULL};
        cli_result r = cli_run(a);
        if (r.status) fprintf(stderr, "%s", r.err);
        assert_int_equal(r.status, 0);
        cli_result_free(&r);
        struct stat st;
        assert_int_equal(stat("/dev/null", &st), 0);
        assert_true(S_ISCHR(st.st_mode));
        /* /dev/stdout goes through the process's own stdout: the trace, then the summary */
        const char *b[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", "1",
                           "--method", "fw", "--iters", "5", "--trace", "/dev/stdout", NULL};
        r = cli_run(b);
        assert_int_equal(r.status, 0);
        assert_ptr_equal(strstr(r.out, "iter,time_s,f,gap,support,gap_bound,step,active\n"), r.out);
        assert_non_null(strstr(r.out, "\n5,"));
        assert_non_null(strstr(r.out, "\nmethod=fw "));
        cli_result_free(&r);
    }
    /* numbers: no blanks (leading ones were let through by strtol/strtod), no
     * out-of-range values */
    { const char *a[] = SOLVE("--s", " 4"); expect_rejected(fx, a, 2, "--s"); }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C", " 1",
                           "--method", "fw", "--iters", "5", NULL};
        expect_rejected(fx, a, 2, "--C");
    }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C",
                           "1e-400", "--method", "fw", "--iters", "5", NULL};
        expect_rejected(fx, a, 2, "underflows");
    }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "subgraph", "--s", "4", "--g", "1",
                           "--graph", "grid: 8x8", "--C", "1", "--method", "fw", "--iters", "5",
                           NULL};
        expect_rejected(fx, a, 2, "grid:HxW");
    }
    /* flags are checked before files: a bad flag is a usage error even with a bad file */
    {
        const char *a[] = {"solve", "--A", "/nonexistent/A.npy", "--y", y, "--model", "topk", "--s",
                           "0", "--C", "1", "--method", "fw", "--iters", "5", NULL};
        expect_rejected(fx, a, 2, "--s");
    }
    {
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "l1", "--s", "3", "--C", "1",
                           "--method", "fw", "--iters", "5", NULL};
        expect_rejected(fx, a, 2, "l1");
    }
    {
        /* l1 takes s = 1 only: --s may be left out, and the run is the one with --s 1 */
        const char *a[] = {"solve", "--A", A, "--y", y, "--model", "l1", "--C", "1",
                           "--method", "fw", "--iters", "5", NULL};
        const char *b[] = {"solve", "--A", A, "--y", y, "--model", "l1", "--s", "1", "--C",
                           "1", "--method", "fw", "--iters", "5", NULL};
        cli_result ra = cli_run(a), rb = cli_run(b);
        if (ra.status != 0) fail_msg("l1 without --s: exit %d: %s", ra.status, ra.err);
        assert_int_equal(rb.status, 0);
        /* the summaries agree up to the timings, which come last */
        const char *ta = strstr(ra.out, " setup_s="), *tb = strstr(rb.out, " setup_s=");
        assert_non_null(ta);
        assert_non_null(tb);
        assert_int_equal(ta - ra.out, tb - rb.out);
        assert_memory_equal(ra.out, rb.out, (size_t)(ta - ra.out));
        cli_result_free(&ra);
        cli_result_free(&rb);
        const char *c[] = {"dmo", "--model", "l1", "--z", y, NULL};
        cli_result rc = cli_run(c);
        if (rc.status != 0) fail_msg("dmo l1 without --s: exit %d: %s", rc.status, rc.err);
        cli_result_free(&rc);
        /* a model that reads s still needs it */
        const char *d[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--C", "1",
                           "--method", "fw", "--iters", "5", NULL};
        expect_rejected(fx, d, 2, "missing required option --s");
        /* a mistyped model is named as such, not as a missing --s */
        const char *e[] = {"solve", "--A", A, "--y", y, "--model", "l11", "--C", "1",
                           "--method", "fw", "--iters", "5", NULL};
        expect_rejected(fx, e, 2, "unknown model 'l11'");
    }
    { const char *a[] = {"frobnicate", NULL}; expect_rejected(fx, a, 2, "frobnicate"); }
    {
        const char *a[] = {"dmo", "--model", "topk", "--z", yb, "--s", "40", NULL};
        expect_rejected(fx, a, 1, "--s");
    }
#undef SOLVE
    remove(yb);
    remove(an);
    remove(at);
    remove(e_bad_id);
    remove(e_bad_line);
}

static void test_help_and_version(void **state)
{
    (void)state;
    const char *cmds[] = {"solve", "dmo", "pcsf", "tail"};
    for (int i = 0; i < 4; i++) {
        const char *a[] = {cmds[i], "--help", NULL};
        cli_result r = cli_run(a);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "usage: gsfw"));
        cli_result_free(&r);
    }
    const char *v[] = {"--version", NULL};
    cli_result r = cli_run(v);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, GSFW_VERSION));
    cli_result_free(&r);
}

/* Output lost to a full disk is a failure: stdout on /dev/full makes every command that
 * prints fail with exit status 1 and say so, also when its output is small enough to
 * stay in the stdio buffer until exit. */
static void test_stdout_write_failure(void **state)
{
    fixture *fx = *state;
    struct stat st;
    if (stat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode)) skip();
    int probe = open("/dev/full", O_WRONLY); /* some sandboxes list it but refuse it */
    if (probe < 0) skip();
    close(probe);
    double z[D] = {0};
    z[5] = 3;
    z[9] = 1;
    int sz[2] = {D, 1};
    const char *zp = path_in(fx->dir, "zfull.npy");
    assert_int_equal(gsfw_npy_write(zp, z, 1, sz, NULL), GSFW_OK);
    const char *A = path_in(fx->dir, "A.npy"), *y = path_in(fx->dir, "y.npy");
    const char *dmo[] = {"dmo", "--model", "topk", "--z", zp, "--s", "2", NULL};
    const char *pcsf[] = {"pcsf", "--graph", "grid:8x8", "--prizes", zp, NULL};
    const char *tail[] = {"tail", "--z", zp, "--s", "2", "--g", "1", "--graph", "grid:8x8",
                          NULL};
    const char *solve[] = {"solve", "--A", A, "--y", y, "--model", "topk", "--s", "4", "--C",
                           "1", "--method", "fw", "--iters", "3", NULL};
    const char *version[] = {"--version", NULL}, *help[] = {"dmo", "--help", NULL};
    const char *const *runs[] = {dmo, pcsf, tail, solve, version, help};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        cli_result ok = cli_run(runs[i]);
        assert_int_equal(ok.status, 0); /* the same run succeeds with a usable stdout */
        assert_true(strlen(ok.out) > 0);
        cli_result_free(&ok);
        cli_result r = cli_run_stdout_to("/dev/full", runs[i]);
        if (r.status != 1 || !strstr(r.err, "cannot write to standard output") ||
            !strstr(r.err, strerror(ENOSPC)))
            fail_msg("gsfw %s with stdout on /dev/full: exit %d, stderr '%s'", runs[i][0],
                     r.status, r.err);
        cli_result_free(&r);
    }
    remove(zp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_trace_matches_library),
        cmocka_unit_test(test_dmo_topk_and_subgraph),
        cmocka_unit_test(test_bad_input_rejected),
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_stdout_write_failure),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
