/* File I/O: .npy reader/writer (round trips with exact bits, Fortran order, format
 * versions, every malformed-input error, truncation and byte-mutation sweeps), the
 * edge-list parser (layout tolerance and each error with its line number), PNG reading
 * of every colour type and the quantising writer, and the atomic-file guarantees (no
 * partial or temporary file left behind on failure). Each test gets its own temporary
 * directory under /tmp, removed afterwards. */
#include <dirent.h>
#include <errno.h>
#include <float.h>
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
#include <png.h>

#include "gsfw.h"
#include "outputs.h"
#include "io/atomic.h"
#include "io/lines.h"
#include "io/npy.h"
#include "png_io.h"

/* ------------------------------------------------------------------ helpers */

#define PATH_CAP 4096

/* Per-test temporary directory (the cmocka state). */
static int setup_dir(void **state)
{
    char tmpl[] = "/tmp/gsfw-test-io-XXXXXX";
    if (!mkdtemp(tmpl)) return -1;
    *state = strdup(tmpl);
    return *state ? 0 : -1;
}

/* Remove dir and everything in it (files and nested directories). */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char p[PATH_CAP];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            struct stat st;
            if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
                remove_tree(p);
            else
                unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

static int teardown_dir(void **state)
{
    remove_tree(*state);
    free(*state);
    return 0;
}

/* out = dir/name (asserts that it fits). */
static void join(char *out, const char *dir, const char *name)
{
    int n = snprintf(out, PATH_CAP, "%s/%s", dir, name);
    assert_true(n > 0 && n < PATH_CAP);
}

static void write_bytes(const char *path, const void *bytes, size_t len)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    if (len) assert_int_equal(fwrite(bytes, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
}

static void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

/* Whole file into a malloc'ed buffer. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    long size = ftell(fp);
    assert_true(size >= 0);
    rewind(fp);
    unsigned char *buf = malloc((size_t)size + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)size, fp), (size_t)size);
    fclose(fp);
    *len = (size_t)size;
    return buf;
}

static int entries_in(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The call failed with code and its message contains every given fragment. */
static void expect_error(gsfw_error rc, const gsfw_err *err, gsfw_error code, ...)
{
    if (rc != code || err->code != code)
        fail_msg("expected error %d, got %d (err.code %d): %s", (int)code, (int)rc,
                 (int)err->code, err->message);
    va_list ap;
    va_start(ap, code);
    const char *frag;
    while ((frag = va_arg(ap, const char *)) != NULL)
        if (!strstr(err->message, frag)) {
            va_end(ap);
            fail_msg("message '%s' lacks '%s'", err->message, frag);
        }
    va_end(ap);
}

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    return u;
}

static double double_of(uint64_t u)
{
    double x;
    memcpy(&x, &u, 8);
    return x;
}

/* A .npy file by hand: magic, version major.0, the header text as given (no padding
 * added), then nbytes of data. Returns a malloc'ed buffer of *len bytes. */
static unsigned char *make_npy(int major, const char *header, const void *data, size_t nbytes,
                               size_t *len)
{
    size_t hlen = strlen(header), lsize = major == 1 ? 2 : 4;
    *len = 8 + lsize + hlen + nbytes;
    unsigned char *b = malloc(*len);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (unsigned char)major;
    b[7] = 0;
    for (size_t k = 0; k < lsize; k++) b[8 + k] = (unsigned char)(hlen >> (8 * k));
    memcpy(b + 8 + lsize, header, hlen);
    if (nbytes) memcpy(b + 8 + lsize + hlen, data, nbytes); /* little-endian host */
    return b;
}

static void write_npy(const char *path, int major, const char *header, const void *data,
                      size_t nbytes)
{
    size_t len;
    unsigned char *b = make_npy(major, header, data, nbytes, &len);
    write_bytes(path, b, len);
    free(b);
}

/* ------------------------------------------------------------------ npy */

static void read_back(const char *path, double **x, int *ndim, int shape[2])
{
    gsfw_err err;
    gsfw_error rc = gsfw_npy_read(path, x, ndim, shape, &err);
    if (rc) fail_msg("npy read failed: %s", err.message);
    assert_int_equal(err.code, GSFW_OK);
    assert_non_null(*x);
}

static void test_npy_roundtrip_1d(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "v.npy");
    /* Special values must survive bit for bit: signed zero, subnormal, extremes,
     * infinities and a NaN with a payload. */
    double v[9] = {1.5, -0.0, 4.9e-324, DBL_MAX, -DBL_MIN, INFINITY, -INFINITY,
                   double_of(0x7ff8000000000123ULL), 1.0 / 3.0};
    int shape[2] = {9, 1};
    gsfw_err err;
    assert_int_equal(gsfw_npy_write(p, v, 1, shape, &err), GSFW_OK);

    /* NumPy's layout: version 1.0, header block a multiple of 64 ending in '\n'. */
    size_t len;
    unsigned char *b = slurp(p, &len);
    assert_memory_equal(b, "\x93NUMPY\x01\x00", 8);
    size_t total = 10 + (size_t)(b[8] | b[9] << 8);
    assert_int_equal(total % 64, 0);
    assert_int_equal(b[total - 1], '\n');
    assert_int_equal(len, total + sizeof v);
    assert_non_null(strstr((const char *)b + 10, "'shape': (9,)"));
    assert_non_null(strstr((const char *)b + 10, "'descr': '<f8'"));
    free(b);

    double *x;
    int ndim, sh[2];
    read_back(p, &x, &ndim, sh);
    assert_int_equal(ndim, 1);
    assert_int_equal(sh[0], 9);
    assert_int_equal(sh[1], 1);
    for (int i = 0; i < 9; i++) assert_true(bits_of(x[i]) == bits_of(v[i]));
    gsfw_free(x);
    assert_int_equal(entries_in(*state), 1); /* no temporary file left */
}

static void test_npy_roundtrip_2d(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "m.npy");
    const int shapes[][2] = {{3, 5}, {1, 4}, {4, 1}, {17, 33}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int r = shapes[s][0], c = shapes[s][1];
        double *a = malloc((size_t)r * c * sizeof *a);
        for (int i = 0; i < r * c; i++) a[i] = sin(1.0 + i) * pow(10.0, (i % 7) - 3);
        gsfw_err err;
        assert_int_equal(gsfw_npy_write(p, a, 2, shapes[s], &err), GSFW_OK);
        double *x;
        int ndim, sh[2];
        read_back(p, &x, &ndim, sh);
        assert_int_equal(ndim, 2);
        assert_int_equal(sh[0], r);
        assert_int_equal(sh[1], c);
        assert_memory_equal(x, a, (size_t)r * c * sizeof *a);
        gsfw_free(x);
        free(a);
    }
    assert_int_equal(entries_in(*state), 1);
}

/* Zero-sized arrays are legal: valid pointer, shape kept. */
static void test_npy_empty_shapes(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "e.npy");
    const struct {
        int ndim, shape[2];
    } cases[] = {{1, {0, 1}}, {2, {0, 3}}, {2, {4, 0}}, {2, {0, 0}}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        gsfw_err err;
        assert_int_equal(gsfw_npy_write(p, NULL, cases[k].ndim, cases[k].shape, &err), GSFW_OK);
        double *x;
        int ndim, sh[2];
        read_back(p, &x, &ndim, sh);
        assert_int_equal(ndim, cases[k].ndim);
        assert_int_equal(sh[0], cases[k].shape[0]);
        if (ndim == 2) assert_int_equal(sh[1], cases[k].shape[1]);
        gsfw_free(x);
    }
}

static void test_npy_fortran_order(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "f.npy");
    /* [[1 2 3], [4 5 6]] stored column by column. */
    const double col_major[6] = {1, 4, 2, 5, 3, 6};
    write_npy(p, 1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }\n", col_major,
              sizeof col_major);
    double *x;
    int ndim, sh[2];
    read_back(p, &x, &ndim, sh);
    assert_int_equal(ndim, 2);
    assert_int_equal(sh[0], 2);
    assert_int_equal(sh[1], 3);
    for (int i = 0; i < 6; i++) assert_true(x[i] == i + 1);
    gsfw_free(x);

    /* Fortran order is irrelevant for 1-D data. */
    write_npy(p, 1, "{'descr': '<f8', 'fortran_order': True, 'shape': (6,), }\n", col_major,
              sizeof col_major);
    read_back(p, &x, &ndim, sh);
    assert_int_equal(ndim, 1);
    assert_memory_equal(x, col_major, sizeof col_major);
    gsfw_free(x);
}

static void test_npy_versions_2_and_3(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "v.npy");
    const double d[4] = {1, 2, 3, 4};
    for (int major = 2; major <= 3; major++) {
        write_npy(p, major, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }\n", d,
                  sizeof d);
        double *x;
        int ndim, sh[2];
        read_back(p, &x, &ndim, sh);
        assert_int_equal(ndim, 2);
        assert_int_equal(sh[0], 2);
        assert_memory_equal(x, d, sizeof d);
        gsfw_free(x);
    }
}

/* Header spellings NumPy or other writers may produce. */
static void test_npy_header_variants(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "h.npy");
    const double d[6] = {1, 2, 3, 4, 5, 6};
    const struct {
        const char *header;
        int ndim, rows, cols;
    } cases[] = {
        {"{'shape': (2, 3), 'fortran_order': False, 'descr': '<f8'}", 2, 2, 3},
        {"{\"descr\":\"<f8\",\"fortran_order\":False,\"shape\":(2,3)}", 2, 2, 3},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2,), }\n", 2, 3, 2},
        {"  { 'descr' : '<f8' , 'fortran_order' : False , 'shape' : ( 6 , ) , }   \n", 1, 6, 1},
        {"{'descr':'<f8','fortran_order':False,'shape':(6,)}", 1, 6, 1},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (6L,), }", 1, 6, 1},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (1, 6), }\t\r\n", 2, 1, 6},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        write_npy(p, 1, cases[k].header, d, sizeof d);
        double *x;
        int ndim, sh[2];
        read_back(p, &x, &ndim, sh);
        assert_int_equal(ndim, cases[k].ndim);
        assert_int_equal(sh[0], cases[k].rows);
        assert_int_equal(sh[1], cases[k].cols);
        assert_memory_equal(x, d, sizeof d);
        gsfw_free(x);
    }
}

/* Each malformed header: FORMAT error whose message names the file and the problem. */
static void test_npy_malformed_headers(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "bad.npy");
    const double d[6] = {0};
    const struct {
        const char *header;
        const char *fragment;
    } cases[] = {
        {"{'descr': '<i8', 'fortran_order': False, 'shape': (6,), }",
         "holds dtype '<i8'; only float64 ('<f8') is supported"},
        {"{'descr': '>f8', 'fortran_order': False, 'shape': (6,), }", "dtype '>f8'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", "dtype '<f4'"},
        {"{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (6,), }", "structured"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (), }", "shape () (0-D)"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 3), }", "shape (1, 2, 3)"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (-6,), }", "'shape' must be"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (6.0,), }", "'shape' must be"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': 6, }", "'shape' must be"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (6,", "'shape' must be"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,), }",
         "dimensions above"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 1), }",
         "dimensions above"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (2147483647, 2147483647), }",
         "overflows"},
        {"{'descr': '<f8', 'fortran_order': Maybe, 'shape': (6,), }", "True or False"},
        {"{'descr': '<f8', 'fortran_order': Falsey, 'shape': (6,), }", "True or False"},
        {"{'descr': '<f8', 'shape': (6,), }", "'fortran_order' is missing"},
        {"{'fortran_order': False, 'shape': (6,), }", "'descr' is missing"},
        {"{'descr': '<f8', 'fortran_order': False}", "'shape' is missing"},
        {"{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (6,)}", "twice"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'extra': 1}",
         "unexpected key 'extra'"},
        {"'descr': '<f8', 'fortran_order': False, 'shape': (6,)", "start with '{'"},
        {"{'descr': '<f8' 'fortran_order': False, 'shape': (6,)}", "expected ','"},
        {"{'descr': '<f8', 'fortran_order' False, 'shape': (6,)}", "expected ':'"},
        {"{'descr: '<f8', 'fortran_order': False, 'shape': (6,)}", "malformed header"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (6,)} x", "after the closing"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (6,)", "expected ','"},
        {"", "does not start with '{'"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        write_npy(p, 1, cases[k].header, d, sizeof d);
        double *x = (double *)&x; /* must be reset to NULL on failure */
        int ndim, sh[2];
        gsfw_err err;
        gsfw_error rc = gsfw_npy_read(p, &x, &ndim, sh, &err);
        expect_error(rc, &err, GSFW_ERR_FORMAT, "bad.npy", cases[k].fragment, NULL);
        assert_null(x);
    }
}

static void test_npy_malformed_files(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "bad.npy");
    double *x;
    int ndim, sh[2];
    gsfw_err err;
    const char *hdr6 = "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }\n";
    const double d[6] = {1, 2, 3, 4, 5, 6};

    /* missing file: IO error naming the path and the OS reason */
    char missing[PATH_CAP];
    join(missing, *state, "nope.npy");
    expect_error(gsfw_npy_read(missing, &x, &ndim, sh, &err), &err, GSFW_ERR_IO, "nope.npy",
                 strerror(ENOENT), NULL);

    write_bytes(p, "", 0);
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT, "bad.npy",
                 "is empty", NULL);

    write_text(p, "hello, world: this is not numpy");
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT, "bad magic", NULL);
    write_text(p, "\x93NU");
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT, "bad magic", NULL);
    write_text(p, "\x93NUMPY");
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT, "truncated", NULL);

    /* unsupported versions */
    size_t len;
    unsigned char *b = make_npy(1, hdr6, d, sizeof d, &len);
    b[6] = 4;
    write_bytes(p, b, len);
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT, "version 4.0",
                 NULL);
    b[6] = 1;
    b[7] = 1;
    write_bytes(p, b, len);
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT, "version 1.1",
                 NULL);
    b[7] = 0;

    /* header length beyond the end of the file (v1: 0xffff, v2: 0xffffffff) */
    b[8] = b[9] = 0xff;
    write_bytes(p, b, len);
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT, "header length",
                 NULL);
    free(b);
    b = make_npy(2, hdr6, d, sizeof d, &len);
    memset(b + 8, 0xff, 4);
    write_bytes(p, b, len);
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT, "header length",
                 NULL);
    free(b);

    /* truncated data */
    write_npy(p, 1, hdr6, d, 40);
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT,
                 "'", "bad.npy' is truncated: expected 48 bytes of data, found 40", NULL);
    /* bytes after the data (a damaged file, or a shape that says less than is there) */
    write_npy(p, 1, hdr6, d, sizeof d);
    {
        FILE *fp = fopen(p, "ab");
        assert_non_null(fp);
        fwrite("\0\0\0\0\0\0\0", 1, 7, fp);
        fclose(fp);
    }
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT, "bad.npy",
                 "55 bytes of data", "accounts for 48", NULL);
    write_npy(p, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }", d, sizeof d);
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT,
                 "accounts for 40 (5 values)", NULL);
    /* a huge (but representable) shape with no data: reported, not allocated */
    write_npy(p, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2147483647, 8), }", d,
              sizeof d);
    expect_error(gsfw_npy_read(p, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT,
                 "expected 137438953408 bytes of data, found 48", NULL);

    /* a directory is not a file */
    expect_error(gsfw_npy_read(*state, &x, &ndim, sh, &err), &err, GSFW_ERR_IO, NULL);

    /* NULL arguments */
    assert_int_equal(gsfw_npy_read(NULL, &x, &ndim, sh, NULL), GSFW_ERR_INVALID_ARG);
    assert_int_equal(gsfw_npy_read(p, NULL, &ndim, sh, NULL), GSFW_ERR_INVALID_ARG);
}

/* No prefix of a valid file and no single-byte corruption of its preamble/header may
 * crash the reader or make it read out of bounds (run under ASan to check). */
static void test_npy_truncation_and_mutation_sweep(void **state)
{
    char p[PATH_CAP], q[PATH_CAP];
    join(p, *state, "ok.npy");
    join(q, *state, "cut.npy");
    const double a[6] = {1, 2, 3, 4, 5, 6};
    const int shape[2] = {2, 3};
    assert_int_equal(gsfw_npy_write(p, a, 2, shape, NULL), GSFW_OK);
    size_t len;
    unsigned char *b = slurp(p, &len);
    double *x;
    int ndim, sh[2];
    gsfw_err err;
    for (size_t cut = 0; cut < len; cut++) {
        write_bytes(q, b, cut);
        gsfw_error rc = gsfw_npy_read(q, &x, &ndim, sh, &err);
        if (rc != GSFW_ERR_FORMAT) fail_msg("prefix of %zu bytes: rc %d", cut, (int)rc);
    }
    const unsigned char values[] = {0, 1, ' ', '\'', ',', '(', ')', '{', '}', ':', '9', 'L',
                                    'T', 0x7f, 0x80, 0xff};
    size_t header_end = len - sizeof a;
    for (size_t pos = 0; pos < header_end; pos++) {
        for (size_t k = 0; k < sizeof values; k++) {
            unsigned char saved = b[pos];
            b[pos] = values[k];
            write_bytes(q, b, len);
            b[pos] = saved;
            gsfw_error rc = gsfw_npy_read(q, &x, &ndim, sh, &err);
            if (rc == GSFW_OK) {
                /* Accepted: the shape must account for exactly the data present. */
                assert_true((size_t)sh[0] * (size_t)sh[1] == 6);
                gsfw_free(x);
            } else if (rc != GSFW_ERR_FORMAT) {
                fail_msg("byte %zu = %u: rc %d (%s)", pos, values[k], (int)rc, err.message);
            } else {
                assert_true(strlen(err.message) > 0);
            }
        }
    }
    free(b);
}

/* Feed bytes through a pipe (they fit its buffer) and read them as a .npy stream. */
static gsfw_error read_npy_pipe(const unsigned char *b, size_t len, double **x, int *ndim,
                                int sh[2], gsfw_err *err)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_true(len < 60000);
    assert_int_equal((size_t)write(fds[1], b, len), len);
    close(fds[1]);
    FILE *fp = fdopen(fds[0], "rb");
    assert_non_null(fp);
    gsfw_error rc = gsfw_npy_read_stream(fp, "pipe", x, ndim, sh, err);
    fclose(fp);
    return rc;
}

/* Through a pipe the size is unknown: a lying shape must neither allocate what it
 * promises nor hide extra bytes. */
static void test_npy_pipe(void **state)
{
    (void)state;
    const char *hdr6 = "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }\n";
    const double d[6] = {1, 2, 3, 4, 5, 6};
    size_t len;
    unsigned char *b = make_npy(1, hdr6, d, sizeof d, &len);
    double *x;
    int ndim, sh[2];
    gsfw_err err;
    assert_int_equal(read_npy_pipe(b, len, &x, &ndim, sh, &err), GSFW_OK);
    assert_int_equal(sh[0], 6);
    assert_memory_equal(x, d, sizeof d);
    gsfw_free(x);
    expect_error(read_npy_pipe(b, len - 8, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT,
                 "truncated", NULL);
    free(b);
    b = make_npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }\n", d, sizeof d,
                 &len);
    expect_error(read_npy_pipe(b, len, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT,
                 "more data than its header's shape", NULL);
    free(b);
    /* 2^31 - 1 rows of 8: 128 GiB promised, 48 bytes sent */
    b = make_npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2147483647, 8), }\n",
                 d, sizeof d, &len);
    expect_error(read_npy_pipe(b, len, &x, &ndim, sh, &err), &err, GSFW_ERR_FORMAT,
                 "truncated", NULL);
    free(b);
}

static void test_npy_bundled_data(void **state)
{
    (void)state;
    const struct {
        const char *file;
        int rows, cols, nnz;
    } cases[] = {{"angio.npy", 100, 100, 622}, {"mnist_7.npy", 28, 28, 60}};
    for (size_t k = 0; k < 2; k++) {
        char p[PATH_CAP];
        join(p, GSFW_SOURCE_DIR "/data", cases[k].file);
        double *x;
        int ndim, sh[2];
        read_back(p, &x, &ndim, sh);
        assert_int_equal(ndim, 2);
        assert_int_equal(sh[0], cases[k].rows);
        assert_int_equal(sh[1], cases[k].cols);
        int nnz = 0;
        for (int i = 0; i < sh[0] * sh[1]; i++) {
            assert_true(x[i] >= 0 && x[i] <= 1);
            nnz += x[i] != 0;
        }
        assert_int_equal(nnz, cases[k].nnz);
        gsfw_free(x);
    }
}

static void test_npy_write_errors(void **state)
{
    char p[PATH_CAP], nodir[PATH_CAP], target[PATH_CAP];
    join(p, *state, "w.npy");
    join(nodir, *state, "no-such-dir");
    join(target, nodir, "w.npy");
    const double d[4] = {1, 2, 3, 4};
    gsfw_err err;
    int bad_shape[2] = {-1, 2}, shape[2] = {2, 2};
    expect_error(gsfw_npy_write(p, d, 3, shape, &err), &err, GSFW_ERR_INVALID_ARG, NULL);
    expect_error(gsfw_npy_write(p, d, 0, shape, &err), &err, GSFW_ERR_INVALID_ARG, NULL);
    expect_error(gsfw_npy_write(p, d, 2, bad_shape, &err), &err, GSFW_ERR_INVALID_ARG, NULL);
    expect_error(gsfw_npy_write(p, NULL, 2, shape, &err), &err, GSFW_ERR_INVALID_ARG, NULL);
    assert_int_equal(entries_in(*state), 0);

    /* Missing directory: IO error naming the path and the reason, nothing created. */
    expect_error(gsfw_npy_write(target, d, 2, shape, &err), &err, GSFW_ERR_IO, target,
                 strerror(ENOENT), NULL);
    assert_false(exists(nodir));
    assert_int_equal(entries_in(*state), 0);

    /* Overwriting replaces the contents and leaves exactly one file. */
    assert_int_equal(gsfw_npy_write(p, d, 2, shape, &err), GSFW_OK);
    int shape1[2] = {3, 1};
    assert_int_equal(gsfw_npy_write(p, d + 1, 1, shape1, &err), GSFW_OK);
    double *x;
    int ndim, sh[2];
    read_back(p, &x, &ndim, sh);
    assert_int_equal(ndim, 1);
    assert_int_equal(sh[0], 3);
    assert_memory_equal(x, d + 1, 3 * sizeof(double));
    gsfw_free(x);
    assert_int_equal(entries_in(*state), 1);
}

/* ---------------------------------------------------------------- atomic */

static void test_atomic_commit_and_abort(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "a.txt");
    gsfw_atomic_file f;
    gsfw_err err;

    assert_int_equal(gsfw_atomic_open(&f, p, &err), GSFW_OK);
    fputs("partial", f.fp);
    assert_int_equal(entries_in(*state), 1); /* only the temporary file */
    assert_false(exists(p));
    gsfw_atomic_abort(&f);
    assert_int_equal(entries_in(*state), 0);
    gsfw_atomic_abort(&f); /* twice is harmless */

    assert_int_equal(gsfw_atomic_open(&f, p, &err), GSFW_OK);
    fputs("complete", f.fp);
    assert_int_equal(gsfw_atomic_commit(&f, &err), GSFW_OK);
    gsfw_atomic_abort(&f); /* after commit: must not remove the file */
    size_t len;
    unsigned char *b = slurp(p, &len);
    assert_int_equal(len, 8);
    assert_memory_equal(b, "complete", 8);
    free(b);
    assert_int_equal(entries_in(*state), 1);

    gsfw_atomic_file z;
    memset(&z, 0, sizeof z);
    gsfw_atomic_abort(&z);
    gsfw_atomic_abort(NULL);
    assert_int_equal(gsfw_atomic_commit(&z, NULL), GSFW_ERR_INVALID_ARG);
}

static void test_atomic_failures_leave_nothing(void **state)
{
    char nodir[PATH_CAP], p[PATH_CAP], sub[PATH_CAP];
    join(nodir, *state, "missing");
    join(p, nodir, "x.bin");
    gsfw_atomic_file f;
    gsfw_err err;
    expect_error(gsfw_atomic_open(&f, p, &err), &err, GSFW_ERR_IO, p, strerror(ENOENT), NULL);
    assert_null(f.fp);
    assert_null(f.tmp_path);
    assert_int_equal(entries_in(*state), 0);
    assert_int_equal(gsfw_atomic_open(&f, "", &err), GSFW_ERR_INVALID_ARG);

    /* A directory as destination is refused at open: nothing created. */
    join(sub, *state, "sub");
    assert_int_equal(mkdir(sub, 0700), 0);
    expect_error(gsfw_atomic_open(&f, sub, &err), &err, GSFW_ERR_IO, "sub", "directory", NULL);
    assert_int_equal(entries_in(*state), 1); /* just "sub" */
    assert_int_equal(entries_in(sub), 0);
    gsfw_atomic_abort(&f);

    /* The rename fails when a directory appears there after the open: temporary
     * removed. */
    char late[PATH_CAP];
    join(late, *state, "late");
    assert_int_equal(gsfw_atomic_open(&f, late, &err), GSFW_OK);
    fputs("data", f.fp);
    assert_int_equal(mkdir(late, 0700), 0);
    expect_error(gsfw_atomic_commit(&f, &err), &err, GSFW_ERR_IO, "late", NULL);
    assert_int_equal(entries_in(*state), 2); /* "sub" and "late" */
    assert_int_equal(entries_in(late), 0);
    gsfw_atomic_abort(&f);
}

/* New files get 0666 & ~umask (not mkstemp's 0600); replaced files keep their mode. */
static void test_atomic_permissions(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "perm.txt");
    mode_t mask = umask(022);
    umask(mask);
    gsfw_atomic_file f;
    assert_int_equal(gsfw_atomic_open(&f, p, NULL), GSFW_OK);
    assert_int_equal(gsfw_atomic_commit(&f, NULL), GSFW_OK);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);

    assert_int_equal(chmod(p, 0640), 0);
    assert_int_equal(gsfw_atomic_open(&f, p, NULL), GSFW_OK);
    assert_int_equal(gsfw_atomic_commit(&f, NULL), GSFW_OK);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
}

/* Contents of a small text file, compared in full. */
static void assert_text(const char *path, const char *want)
{
    size_t len;
    unsigned char *b = slurp(path, &len);
    assert_int_equal(len, strlen(want));
    assert_memory_equal(b, want, len);
    free(b);
}

/* A group either lands whole or leaves every destination as it was. */
static void test_rename_group(void **state)
{
    char n0[PATH_CAP], n1[PATH_CAP], n2[PATH_CAP], d0[PATH_CAP], d1[PATH_CAP], d2[PATH_CAP];
    join(n0, *state, "new0");
    join(n1, *state, "new1");
    join(n2, *state, "new2");
    join(d0, *state, "out0");
    join(d1, *state, "out1");
    join(d2, *state, "out2");
    const char *from[3] = {n0, n1, n2}, *to[3] = {d0, d1, d2};
    gsfw_err err;

    /* success: an existing destination is replaced, a missing one created, no backup
     * names are left */
    write_text(n0, "A0");
    write_text(n1, "A1");
    write_text(n2, "A2");
    write_text(d0, "old0");
    assert_int_equal(cli_move_group(from, to, 3, &err), GSFW_OK);
    assert_text(d0, "A0");
    assert_text(d1, "A1");
    assert_text(d2, "A2");
    assert_int_equal(entries_in(*state), 3);

    /* the third rename fails (its source is missing) after two moved: out0 and out1 get
     * their old contents back, out2 is untouched, and nothing else is left behind */
    write_text(n0, "B0");
    write_text(n1, "B1");
    expect_error(cli_move_group(from, to, 3, &err), &err, GSFW_ERR_IO, "out2",
                 strerror(ENOENT), "no output was changed", NULL);
    assert_text(d0, "A0");
    assert_text(d1, "A1");
    assert_text(d2, "A2");
    assert_int_equal(entries_in(*state), 3);

    /* a destination that did not exist before is removed again */
    assert_int_equal(unlink(d1), 0);
    write_text(n0, "C0");
    write_text(n1, "C1");
    expect_error(cli_move_group(from, to, 3, &err), &err, GSFW_ERR_IO, "out2", NULL);
    assert_text(d0, "A0");
    assert_false(exists(d1));
    assert_text(d2, "A2");
    assert_int_equal(entries_in(*state), 2);

    /* a directory in the way is refused before anything moves */
    assert_int_equal(mkdir(d1, 0700), 0);
    write_text(n0, "D0");
    write_text(n1, "D1");
    write_text(n2, "D2");
    expect_error(cli_move_group(from, to, 3, &err), &err, GSFW_ERR_IO, "out1",
                 "directory", NULL);
    assert_text(d0, "A0");
    assert_text(n0, "D0"); /* the sources stay for the caller to remove */
    assert_int_equal(cli_move_group(from, to, 0, &err), GSFW_OK);
    assert_int_equal(cli_move_group(from, to, CLI_GROUP_MAX + 1, &err),
                     GSFW_ERR_INVALID_ARG);
}

/* Special files are written in place (never replaced by a regular file); symbolic
 * links are written through; two outputs may not be one file. */
static void test_atomic_special_destinations(void **state)
{
    gsfw_atomic_file f;
    gsfw_err err;
    assert_int_equal(gsfw_atomic_open(&f, "/dev/null", &err), GSFW_OK);
    assert_true(f.in_place);
    fputs("discarded", f.fp);
    assert_int_equal(gsfw_atomic_commit(&f, &err), GSFW_OK);
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));

    char target[PATH_CAP], link_path[PATH_CAP], dangling[PATH_CAP];
    join(target, *state, "target.txt");
    join(link_path, *state, "link.txt");
    join(dangling, *state, "dangling.txt");
    write_text(target, "old");
    assert_int_equal(symlink("target.txt", link_path), 0);
    assert_int_equal(gsfw_atomic_open(&f, link_path, &err), GSFW_OK);
    fputs("new", f.fp);
    assert_int_equal(gsfw_atomic_commit(&f, &err), GSFW_OK);
    assert_int_equal(lstat(link_path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_text(target, "new");
    assert_int_equal(entries_in(*state), 2);
    assert_int_equal(symlink("missing.txt", dangling), 0);
    expect_error(gsfw_atomic_open(&f, dangling, &err), &err, GSFW_ERR_IO, "dangling.txt",
                 "symbolic link", NULL);
    assert_int_equal(entries_in(*state), 3);

    /* one output under two spellings is refused, also for a new file */
    char n0[PATH_CAP], n1[PATH_CAP], alias[PATH_CAP], spelt[PATH_CAP], fresh[PATH_CAP],
        fresh2[PATH_CAP];
    join(n0, *state, "n0");
    join(n1, *state, "n1");
    join(alias, *state, "alias.txt");
    snprintf(spelt, sizeof spelt, "%s//./target.txt", (const char *)*state);
    join(fresh, *state, "fresh.txt");
    snprintf(fresh2, sizeof fresh2, "%s/./fresh.txt", (const char *)*state);
    write_text(n0, "A");
    write_text(n1, "B");
    const char *from[2] = {n0, n1}, *twice[2] = {target, spelt}, *fresh_twice[2] = {fresh, fresh2};
    expect_error(cli_move_group(from, twice, 2, &err), &err, GSFW_ERR_INVALID_ARG,
                 "same file", NULL);
    expect_error(cli_move_group(from, fresh_twice, 2, &err), &err, GSFW_ERR_INVALID_ARG,
                 "same file", NULL);
    assert_text(target, "new");
    assert_text(n0, "A");
    assert_false(exists(fresh));
    /* two hard links of one file are two outputs: each name gets its own new file */
    assert_int_equal(link(target, alias), 0);
    const char *linked[2] = {target, alias};
    assert_int_equal(cli_move_group(from, linked, 2, &err), GSFW_OK);
    assert_text(target, "A");
    assert_text(alias, "B");
}

/* cli_commit_group: unopened entries are skipped; a failure removes every
 * temporary file and changes no destination. */
static void test_atomic_commit_group(void **state)
{
    char p0[PATH_CAP], p2[PATH_CAP], sub[PATH_CAP];
    join(p0, *state, "x.txt");
    join(p2, *state, "z.txt");
    join(sub, *state, "sub");
    gsfw_atomic_file f[3];
    memset(f, 0, sizeof f);
    gsfw_err err;
    assert_int_equal(gsfw_atomic_open(&f[0], p0, &err), GSFW_OK);
    fputs("x1", f[0].fp);
    assert_int_equal(gsfw_atomic_open(&f[2], p2, &err), GSFW_OK);
    fputs("z1", f[2].fp);
    assert_int_equal(cli_commit_group(f, 3, &err), GSFW_OK);
    assert_text(p0, "x1");
    assert_text(p2, "z1");
    assert_int_equal(entries_in(*state), 2);

    /* the second destination became a directory after its open: x.txt keeps its
     * contents */
    memset(f, 0, sizeof f);
    assert_int_equal(gsfw_atomic_open(&f[0], p0, &err), GSFW_OK);
    fputs("x2", f[0].fp);
    assert_int_equal(gsfw_atomic_open(&f[1], sub, &err), GSFW_OK);
    fputs("s2", f[1].fp);
    assert_int_equal(mkdir(sub, 0700), 0);
    expect_error(cli_commit_group(f, 2, &err), &err, GSFW_ERR_IO, "sub",
                 "directory", NULL);
    assert_text(p0, "x1");
    assert_int_equal(entries_in(*state), 3); /* x.txt, z.txt, sub */
    assert_int_equal(entries_in(sub), 0);
    for (int k = 0; k < 3; k++) gsfw_atomic_abort(&f[k]); /* harmless after a failure */
}

/* --------------------------------------------------------------- edge list */

typedef struct {
    gsfw_error rc;
    int m;
    int *u, *v;
    double *cost;
    gsfw_err err;
} edges_result;

static edges_result read_edges_text(const char *dir, const char *name, const char *text, int n)
{
    char p[PATH_CAP];
    join(p, dir, name);
    write_text(p, text);
    edges_result r;
    r.rc = gsfw_edges_read(p, n, &r.m, &r.u, &r.v, &r.cost, &r.err);
    return r;
}

static void edges_result_free(edges_result *r)
{
    gsfw_free(r->u);
    gsfw_free(r->v);
    gsfw_free(r->cost);
}

static void test_edges_basic(void **state)
{
    edges_result r = read_edges_text(*state, "e.txt", "0 1\n1 2\n2 0\n", 3);
    assert_int_equal(r.rc, GSFW_OK);
    assert_int_equal(r.m, 3);
    assert_null(r.cost);
    const int eu[3] = {0, 1, 2}, ev[3] = {1, 2, 0};
    assert_memory_equal(r.u, eu, sizeof eu);
    assert_memory_equal(r.v, ev, sizeof ev);
    edges_result_free(&r);

    /* n < 0: no upper bound on ids */
    r = read_edges_text(*state, "e.txt", "5 1000000\n", -1);
    assert_int_equal(r.rc, GSFW_OK);
    assert_int_equal(r.m, 1);
    assert_int_equal(r.v[0], 1000000);
    edges_result_free(&r);
}

static void test_edges_layout(void **state)
{
    /* comments (whole-line and trailing), blank lines, CRLF, tabs, BOM, no final newline */
    const char *text = "\xEF\xBB\xBF# a graph\n\n0 1 # first edge\r\n  1\t2  \r\n\r\n"
                       "   # indented comment\n2 3#no space\n\t\n3 0";
    edges_result r = read_edges_text(*state, "e.txt", text, 4);
    if (r.rc) fail_msg("%s", r.err.message);
    assert_int_equal(r.m, 4);
    const int eu[4] = {0, 1, 2, 3}, ev[4] = {1, 2, 3, 0};
    assert_memory_equal(r.u, eu, sizeof eu);
    assert_memory_equal(r.v, ev, sizeof ev);
    assert_null(r.cost);
    edges_result_free(&r);

    /* costs */
    r = read_edges_text(*state, "c.txt", "0 1 0.5\n1 2 2e3 # heavy\n2 0 0\n0 2 -0\n", 3);
    if (r.rc) fail_msg("%s", r.err.message);
    assert_int_equal(r.m, 4);
    assert_non_null(r.cost);
    assert_true(r.cost[0] == 0.5 && r.cost[1] == 2000 && r.cost[2] == 0 && r.cost[3] == 0);
    edges_result_free(&r);

    /* empty and comment-only files: no edges, valid id arrays */
    const char *empties[] = {"", "\n\n", "# nothing\n   \n# here\n"};
    for (int k = 0; k < 3; k++) {
        r = read_edges_text(*state, "z.txt", empties[k], 5);
        assert_int_equal(r.rc, GSFW_OK);
        assert_int_equal(r.m, 0);
        assert_non_null(r.u);
        assert_non_null(r.v);
        assert_null(r.cost);
        edges_result_free(&r);
    }
}

/* Lines longer than any buffer: a 300 kB comment, and a number with 100k leading zeros. */
static void test_edges_long_lines(void **state)
{
    size_t big = 300000;
    char *text = malloc(big + 64);
    text[0] = '#';
    memset(text + 1, 'x', big);
    strcpy(text + 1 + big, "\n0 1\n");
    edges_result r = read_edges_text(*state, "long.txt", text, 2);
    if (r.rc) fail_msg("%s", r.err.message);
    assert_int_equal(r.m, 1);
    edges_result_free(&r);

    memset(text, '0', big);
    strcpy(text + big, "7 1\nbad\n");
    r = read_edges_text(*state, "long.txt", text, 10);
    expect_error(r.rc, &r.err, GSFW_ERR_FORMAT, "long.txt:2:", "got 'bad'", NULL);
    free(text);

    /* past the line limit (an endless input must not exhaust memory) */
    size_t huge = GSFW_LINE_MAX + 16;
    text = malloc(huge + 8);
    assert_non_null(text);
    strcpy(text, "0 1\n#");
    memset(text + 5, 'x', huge - 5);
    strcpy(text + huge, "\n1 2\n");
    r = read_edges_text(*state, "huge.txt", text, 10);
    expect_error(r.rc, &r.err, GSFW_ERR_FORMAT, "huge.txt:2:", "longer than", NULL);
    free(text);
}

static void test_edges_errors(void **state)
{
    const struct {
        const char *text;
        int n;
        gsfw_error code;
        const char *fragment;
    } cases[] = {
        {"0 1\n1 2\na b\n", 10, GSFW_ERR_FORMAT, "edges.txt:3: expected 'u v' or 'u v cost', got 'a b'"},
        {"0 1\n\n# c\n2 x # comment\n", 10, GSFW_ERR_FORMAT, "edges.txt:4: expected 'u v' or 'u v cost', got '2 x'"},
        {"0\n", 10, GSFW_ERR_FORMAT, "edges.txt:1: expected 'u v' or 'u v cost', got '0'"},
        {"0 1 2 3\n", 10, GSFW_ERR_FORMAT, "edges.txt:1: expected 'u v' or 'u v cost', got '0 1 2 3'"},
        /* CR-only line ends: after a comment they would hide the rest of the file */
        {"# graph\r0 1\r1 2\r", 10, GSFW_ERR_FORMAT, "edges.txt:1: line has a carriage return without a newline"},
        {"0 1\r\n1 2\r3 4\n", 10, GSFW_ERR_FORMAT, "edges.txt:2: line has a carriage return"},
        {"1.5 2\n", 10, GSFW_ERR_FORMAT, "edges.txt:1: expected"},
        {"0x1 2\n", 10, GSFW_ERR_FORMAT, "edges.txt:1: expected"},
        {"0,1\n", 10, GSFW_ERR_FORMAT, "edges.txt:1: expected"},
        {"0 1\n1 2 3.0\n", 10, GSFW_ERR_FORMAT, "edges.txt:2: has 3 fields but line 1 has 2"},
        {"0 1 1\n# c\n1 2\n", 10, GSFW_ERR_FORMAT, "edges.txt:3: has 2 fields but line 1 has 3"},
        {"0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n3 12\n", 10, GSFW_ERR_GRAPH,
         "edges.txt:7: node id 12 is out of range (graph has 10 nodes)"},
        {"0 10\n", 10, GSFW_ERR_GRAPH, "edges.txt:1: node id 10 is out of range"},
        {"0 1\n-1 2\n", 10, GSFW_ERR_GRAPH, "edges.txt:2: node id -1 is negative"},
        {"0 99999999999999999999\n", -1, GSFW_ERR_GRAPH, "edges.txt:1: node id 99999999999999999999 is too large"},
        {"0 2147483647\n", -1, GSFW_ERR_GRAPH, "edges.txt:1: node id 2147483647 is too large"},
        {"0 99999999999999999999\n", 10, GSFW_ERR_GRAPH, "edges.txt:1: node id 99999999999999999999 is out of range"},
        {"0 1 nan\n", 10, GSFW_ERR_GRAPH, "edges.txt:1: cost nan is not finite"},
        {"0 1 1\n0 1 inf\n", 10, GSFW_ERR_GRAPH, "edges.txt:2: cost inf is not finite"},
        {"0 1 1e999\n", 10, GSFW_ERR_GRAPH, "edges.txt:1: cost 1e999 is not finite"},
        {"0 1 -0.5\n", 10, GSFW_ERR_GRAPH, "edges.txt:1: cost -0.5 is negative"},
        {"0 1 abc\n", 10, GSFW_ERR_FORMAT, "edges.txt:1: cost 'abc' is not a number"},
        {"0 1 2.5x\n", 10, GSFW_ERR_FORMAT, "edges.txt:1: cost '2.5x' is not a number"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        edges_result r = read_edges_text(*state, "edges.txt", cases[k].text, cases[k].n);
        expect_error(r.rc, &r.err, cases[k].code, cases[k].fragment, NULL);
        assert_int_equal(r.m, 0);
        assert_null(r.u);
        assert_null(r.v);
        assert_null(r.cost);
    }

    /* a NUL byte */
    char p[PATH_CAP];
    join(p, *state, "nul.txt");
    write_bytes(p, "0 1\n1\0 2\n", 9);
    int m, *u, *v;
    double *c;
    gsfw_err err;
    expect_error(gsfw_edges_read(p, 5, &m, &u, &v, &c, &err), &err, GSFW_ERR_FORMAT,
                 "nul.txt:2:", "NUL", NULL);

    /* missing file */
    join(p, *state, "absent.txt");
    expect_error(gsfw_edges_read(p, 5, &m, &u, &v, &c, &err), &err, GSFW_ERR_IO, "absent.txt",
                 strerror(ENOENT), NULL);
}

/* -------------------------------------------------------------------- PNG */

static void test_png_roundtrip(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "img.png");
    const int h = 7, w = 13;
    double img[7 * 13];
    const double ranges[][2] = {{0, 1}, {-1, 3}, {1e-3, 2e-3}};
    for (size_t k = 0; k < 3; k++) {
        double lo = ranges[k][0], hi = ranges[k][1];
        for (int i = 0; i < h * w; i++) img[i] = lo + (hi - lo) * fmod(0.61803398875 * i, 1.0);
        img[0] = lo;
        img[1] = hi;
        gsfw_err err;
        assert_int_equal(gsfw_png_write_gray(p, img, h, w, lo, hi, &err), GSFW_OK);
        double *x;
        int hh, ww;
        assert_int_equal(gsfw_png_read_gray(p, &x, &hh, &ww, &err), GSFW_OK);
        assert_int_equal(hh, h);
        assert_int_equal(ww, w);
        for (int i = 0; i < h * w; i++) {
            double want = (img[i] - lo) / (hi - lo);
            if (fabs(x[i] - want) > 0.5 / 255 + 1e-12)
                fail_msg("range %zu pixel %d: %g vs %g", k, i, x[i], want);
        }
        assert_true(x[0] == 0 && x[1] == 1);
        gsfw_free(x);
    }
    assert_int_equal(entries_in(*state), 1);
}

static void test_png_write_clamps(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "clamp.png");
    const double img[6] = {-5, -INFINITY, 0.5, 2, INFINITY, 1.0 / 255 * 0.49};
    gsfw_err err;
    assert_int_equal(gsfw_png_write_gray(p, img, 2, 3, 0, 1, &err), GSFW_OK);
    double *x;
    int h, w;
    assert_int_equal(gsfw_png_read_gray(p, &x, &h, &w, &err), GSFW_OK);
    const double want[6] = {0, 0, 128 / 255.0, 1, 1, 0};
    for (int i = 0; i < 6; i++) assert_true(fabs(x[i] - want[i]) < 1e-12);
    gsfw_free(x);

    /* lo > hi inverts the mapping */
    assert_int_equal(gsfw_png_write_gray(p, img, 2, 3, 1, 0, &err), GSFW_OK);
    assert_int_equal(gsfw_png_read_gray(p, &x, &h, &w, &err), GSFW_OK);
    assert_true(x[0] == 1 && x[3] == 0);
    gsfw_free(x);
}

static void test_png_write_errors(void **state)
{
    char p[PATH_CAP], nodir[PATH_CAP], target[PATH_CAP];
    join(p, *state, "e.png");
    join(nodir, *state, "absent");
    join(target, nodir, "e.png");
    double img[4] = {0, 0.25, 0.5, 1};
    gsfw_err err;
    expect_error(gsfw_png_write_gray(p, img, 2, 2, 1, 1, &err), &err, GSFW_ERR_INVALID_ARG, NULL);
    expect_error(gsfw_png_write_gray(p, img, 2, 2, NAN, 1, &err), &err, GSFW_ERR_NONFINITE, NULL);
    expect_error(gsfw_png_write_gray(p, img, 2, 2, 0, INFINITY, &err), &err, GSFW_ERR_NONFINITE,
                 NULL);
    expect_error(gsfw_png_write_gray(p, img, 2, 2, -DBL_MAX, DBL_MAX, &err), &err,
                 GSFW_ERR_INVALID_ARG, NULL);
    expect_error(gsfw_png_write_gray(p, img, 0, 2, 0, 1, &err), &err, GSFW_ERR_INVALID_ARG, NULL);
    img[3] = NAN;
    expect_error(gsfw_png_write_gray(p, img, 2, 2, 0, 1, &err), &err, GSFW_ERR_NONFINITE,
                 "row 1, column 1", NULL);
    img[3] = 1;
    assert_int_equal(entries_in(*state), 0);
    expect_error(gsfw_png_write_gray(target, img, 2, 2, 0, 1, &err), &err, GSFW_ERR_IO, target,
                 strerror(ENOENT), NULL);
    assert_false(exists(nodir));
    assert_int_equal(entries_in(*state), 0);
}

/* A PNG of any colour type written with libpng directly; rows packed as PNG stores them. */
static void write_raw_png(const char *path, int w, int h, int color, int depth, int interlace,
                          const unsigned char *data, size_t rowbytes, const png_color *palette,
                          int npal, const unsigned char *trans, int ntrans)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    assert_non_null(info);
    png_bytep *rows = malloc((size_t)h * sizeof *rows);
    for (int y = 0; y < h; y++) rows[y] = (png_bytep)(data + (size_t)y * rowbytes);
    if (setjmp(png_jmpbuf(png))) fail_msg("libpng failed writing a test image");
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, color, interlace,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (palette) png_set_PLTE(png, info, palette, npal);
    if (trans) png_set_tRNS(png, info, trans, ntrans, NULL);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    fclose(fp);
}

static double *read_png_ok(const char *path, int h, int w)
{
    double *x;
    int hh, ww;
    gsfw_err err;
    gsfw_error rc = gsfw_png_read_gray(path, &x, &hh, &ww, &err);
    if (rc) fail_msg("%s", err.message);
    assert_int_equal(hh, h);
    assert_int_equal(ww, w);
    return x;
}

static void test_png_colour_types(void **state)
{
    char p[PATH_CAP];
    join(p, *state, "c.png");
    double *x;

    /* 16-bit gray: full precision kept */
    const unsigned char g16[6] = {0x00, 0x00, 0x80, 0x00, 0xff, 0xff};
    write_raw_png(p, 3, 1, PNG_COLOR_TYPE_GRAY, 16, PNG_INTERLACE_NONE, g16, 6, NULL, 0, NULL, 0);
    x = read_png_ok(p, 1, 3);
    assert_true(x[0] == 0 && x[1] == 32768 / 65535.0 && x[2] == 1);
    gsfw_free(x);

    /* 1-bit gray expanded to 0 / 1 */
    const unsigned char g1[2] = {0xa0, 0x40}; /* row 0: 1 0 1; row 1: 0 1 0 */
    write_raw_png(p, 3, 2, PNG_COLOR_TYPE_GRAY, 1, PNG_INTERLACE_NONE, g1, 1, NULL, 0, NULL, 0);
    x = read_png_ok(p, 2, 3);
    const double want1[6] = {1, 0, 1, 0, 1, 0};
    assert_memory_equal(x, want1, sizeof want1);
    gsfw_free(x);

    /* RGB: gray pixels map exactly, colours to luma (green > red > blue) */
    const unsigned char rgb[15] = {51, 51, 51, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255};
    write_raw_png(p, 5, 1, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, rgb, 15, NULL, 0, NULL, 0);
    x = read_png_ok(p, 1, 5);
    assert_true(fabs(x[0] - 0.2) < 1e-12 && x[4] == 1);
    assert_true(x[2] > x[1] && x[1] > x[3] && x[3] > 0);
    assert_true(fabs(x[1] + x[2] + x[3] - 1) < 3.0 / 255);
    gsfw_free(x);

    /* RGBA and gray + alpha: alpha ignored */
    const unsigned char rgba[8] = {102, 102, 102, 0, 255, 255, 255, 128};
    write_raw_png(p, 2, 1, PNG_COLOR_TYPE_RGB_ALPHA, 8, PNG_INTERLACE_NONE, rgba, 8, NULL, 0,
                  NULL, 0);
    x = read_png_ok(p, 1, 2);
    assert_true(fabs(x[0] - 0.4) < 1e-12 && x[1] == 1);
    gsfw_free(x);
    const unsigned char ga16[8] = {0xff, 0xff, 0, 0, 0x40, 0x00, 0xff, 0xff};
    write_raw_png(p, 2, 1, PNG_COLOR_TYPE_GRAY_ALPHA, 16, PNG_INTERLACE_NONE, ga16, 8, NULL, 0,
                  NULL, 0);
    x = read_png_ok(p, 1, 2);
    assert_true(x[0] == 1 && x[1] == 0x4000 / 65535.0);
    gsfw_free(x);

    /* palette (with transparency) */
    const png_color pal[3] = {{0, 0, 0}, {255, 255, 255}, {153, 153, 153}};
    const unsigned char trans[3] = {255, 0, 128};
    const unsigned char idx[3] = {2, 1, 0};
    write_raw_png(p, 3, 1, PNG_COLOR_TYPE_PALETTE, 8, PNG_INTERLACE_NONE, idx, 3, pal, 3, trans,
                  3);
    x = read_png_ok(p, 1, 3);
    assert_true(fabs(x[0] - 0.6) < 1e-12 && x[1] == 1 && x[2] == 0);
    gsfw_free(x);

    /* interlaced (Adam7) 8-bit gray: every pixel in place */
    enum { IW = 11, IH = 9 };
    unsigned char il[IW * IH];
    for (int i = 0; i < IW * IH; i++) il[i] = (unsigned char)(i * 37 % 256);
    write_raw_png(p, IW, IH, PNG_COLOR_TYPE_GRAY, 8, PNG_INTERLACE_ADAM7, il, IW, NULL, 0, NULL,
                  0);
    x = read_png_ok(p, IH, IW);
    for (int i = 0; i < IW * IH; i++) assert_true(x[i] == il[i] / 255.0);
    gsfw_free(x);
}

static void test_png_bundled(void **state)
{
    (void)state;
    double *x = read_png_ok(GSFW_SOURCE_DIR "/data/angio.png", 100, 100);
    double *ref;
    int ndim, sh[2];
    read_back(GSFW_SOURCE_DIR "/data/angio.npy", &ref, &ndim, sh);
    /* The PNG is an 8-bit rendering of the .npy: same support, values within 2/255. */
    int nnz = 0;
    for (int i = 0; i < 100 * 100; i++) {
        nnz += x[i] != 0;
        assert_int_equal(x[i] != 0, ref[i] != 0);
        assert_true(fabs(x[i] - ref[i]) <= 2.0 / 255);
    }
    assert_int_equal(nnz, 622);
    gsfw_free(x);
    gsfw_free(ref);
}

static void test_png_read_errors(void **state)
{
    char p[PATH_CAP], q[PATH_CAP];
    join(p, *state, "x.png");
    join(q, *state, "cut.png");
    double *x;
    int h, w;
    gsfw_err err;

    expect_error(gsfw_png_read_gray(p, &x, &h, &w, &err), &err, GSFW_ERR_IO, "x.png",
                 strerror(ENOENT), NULL);
    write_bytes(p, "", 0);
    expect_error(gsfw_png_read_gray(p, &x, &h, &w, &err), &err, GSFW_ERR_FORMAT,
                 "x.png' is not a PNG file", NULL);
    write_text(p, "GIF89a this is not a png at all");
    expect_error(gsfw_png_read_gray(p, &x, &h, &w, &err), &err, GSFW_ERR_FORMAT,
                 "x.png' is not a PNG file", NULL);

    /* every truncation of a valid file fails cleanly (no leak, no crash) */
    double img[64];
    for (int i = 0; i < 64; i++) img[i] = i / 63.0;
    assert_int_equal(gsfw_png_write_gray(p, img, 8, 8, 0, 1, &err), GSFW_OK);
    size_t len;
    unsigned char *b = slurp(p, &len);
    for (size_t cut = 0; cut + 12 < len; cut++) { /* the last 12 bytes are IEND */
        write_bytes(q, b, cut);
        x = (double *)&x;
        gsfw_error rc = gsfw_png_read_gray(q, &x, &h, &w, &err);
        if (rc != GSFW_ERR_FORMAT) fail_msg("prefix %zu: rc %d %s", cut, (int)rc, err.message);
        assert_non_null(strstr(err.message, "cut.png"));
        assert_null(x);
    }
    /* a corrupted byte in the image data: CRC error */
    b[len - 20] ^= 0x55;
    write_bytes(q, b, len);
    expect_error(gsfw_png_read_gray(q, &x, &h, &w, &err), &err, GSFW_ERR_FORMAT, "cut.png", NULL);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup_dir, teardown_dir)
        T(test_npy_roundtrip_1d),
        T(test_npy_roundtrip_2d),
        T(test_npy_empty_shapes),
        T(test_npy_fortran_order),
        T(test_npy_versions_2_and_3),
        T(test_npy_header_variants),
        T(test_npy_malformed_headers),
        T(test_npy_malformed_files),
        T(test_npy_truncation_and_mutation_sweep),
        T(test_npy_bundled_data),
        T(test_npy_pipe),
        T(test_npy_write_errors),
        T(test_atomic_commit_and_abort),
        T(test_atomic_failures_leave_nothing),
        T(test_atomic_permissions),
        T(test_rename_group),
        T(test_atomic_special_destinations),
        T(test_atomic_commit_group),
        T(test_edges_basic),
        T(test_edges_layout),
        T(test_edges_long_lines),
        T(test_edges_errors),
        T(test_png_roundtrip),
        T(test_png_write_clamps),
        T(test_png_write_errors),
        T(test_png_colour_types),
        T(test_png_bundled),
        T(test_png_read_errors),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
