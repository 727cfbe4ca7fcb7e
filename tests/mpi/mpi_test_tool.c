/* Helper of tests/mpi_test.sh: writes test problems and compares results (no MPI).
 *
 *   mpi_test_tool gen N D SEED A.npy y.npy A.mtx [fortran|labels]
 *       A: N x D Gaussian (C order, or Fortran order), x* with 3 nonzeros, y = A x*
 *       (labels: y_i = +1 when (A x*)_i > 0.3, else -1);
 *       A.mtx holds the same matrix (every entry, 17 digits)
 *   mpi_test_tool gen-big N D SEED A.npy y.npy
 *       A: N x D, entries N(0, 1/N) from the counter generator, streamed row by row (for
 *       files larger than memory); y = A x* with x* as above
 *   mpi_test_tool cmp-npy a.npy b.npy TOL     max |a - b| <= TOL max |b|
 *   mpi_test_tool cmp-trace a.csv b.csv TOL   same rows; column f agrees to TOL relative
 * Exit 0 when the comparison holds (or the files were written), 1 otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsfw.h"
#include "util/counter_rng.h"
#include "util/rng.h"

static int gen(int n, int d, uint64_t seed, const char *a_path, const char *y_path,
               const char *mtx_path, int fortran, int labels)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    double *A = malloc((size_t)n * d * sizeof(double)), *y = calloc((size_t)n, sizeof(double));
    double *x = calloc((size_t)d, sizeof(double));
    if (!A || !y || !x) return 1;
    for (long k = 0; k < (long)n * d; k++) A[k] = gsfw_rng_normal(&rng);
    for (int k = 0; k < 3 && k < d; k++) x[(k * 7 + 1) % d] = 1.0 + k;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++) y[i] += A[(long)i * d + j] * x[j];
    for (int i = 0; labels && i < n; i++) y[i] = y[i] > 0.3 ? 1.0 : -1.0;
    gsfw_err err;
    int shape[2] = {n, d}, yshape[2] = {n, 1};
    int rc = gsfw_npy_write(a_path, A, 2, shape, &err) ||
             gsfw_npy_write(y_path, y, 1, yshape, &err);
    if (!rc && fortran) {
        /* rewrite A's header and data in Fortran order (the header keeps its length) */
        FILE *fp = fopen(a_path, "r+b");
        char head[256];
        size_t got = fp ? fread(head, 1, sizeof head, fp) : 0;
        char *fo = NULL;
        for (size_t k = 0; k + 22 <= got && !fo; k++)
            if (!memcmp(head + k, "'fortran_order': False", 22)) fo = head + k;
        long hlen = got >= 10 ? 10 + (head[8] | head[9] << 8) : 0;
        if (!fo || !hlen) return 1;
        memcpy(fo, "'fortran_order': True, ", 23);
        fseek(fp, 0, SEEK_SET);
        fwrite(head, 1, (size_t)hlen, fp);
        for (int j = 0; j < d; j++)
            for (int i = 0; i < n; i++) fwrite(&A[(long)i * d + j], sizeof(double), 1, fp);
        fclose(fp);
    }
    FILE *fp = rc ? NULL : fopen(mtx_path, "w");
    if (fp) {
        fprintf(fp, "%%%%MatrixMarket matrix coordinate real general\n%d %d %ld\n", n, d,
                (long)n * d);
        for (int j = 0; j < d; j++)
            for (int i = 0; i < n; i++)
                fprintf(fp, "%d %d %.17g\n", i + 1, j + 1, A[(long)i * d + j]);
        rc = fclose(fp) != 0;
    } else {
        rc = 1;
    }
    if (rc) fprintf(stderr, "gen: %s\n", err.message);
    free(A);
    free(y);
    free(x);
    return rc;
}

/* a version 1.0 .npy header for float64, C order */
static void npy_header(FILE *fp, long n, long d, int ndim)
{
    char dict[128];
    int len = ndim == 2 ? snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, "
                                   "'shape': (%ld, %ld), }", n, d)
                        : snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, "
                                   "'shape': (%ld,), }", n);
    int total = 10 + len + 1, pad = (64 - total % 64) % 64;
    int hlen = len + pad + 1;
    fwrite("\x93NUMPY\x01\x00", 1, 8, fp);
    fputc(hlen & 0xff, fp);
    fputc(hlen >> 8, fp);
    fwrite(dict, 1, (size_t)len, fp);
    for (int k = 0; k < pad; k++) fputc(' ', fp);
    fputc('\n', fp);
}

static int gen_big(long n, int d, uint64_t seed, const char *a_path, const char *y_path)
{
    double *row = malloc((size_t)d * sizeof(double)), *y = malloc((size_t)n * sizeof(double));
    FILE *fa = fopen(a_path, "wb"), *fy = fopen(y_path, "wb");
    if (!row || !y || !fa || !fy) return 1;
    npy_header(fa, n, d, 2);
    const double sd = 1.0 / sqrt((double)n);
    for (long i = 0; i < n; i++) {
        gsfw_counter_normal_row(seed, (int)i, d, row);
        y[i] = 0.0;
        for (int j = 0; j < d; j++) {
            row[j] *= sd;
            if (j < 3 * 7 && (j - 1) % 7 == 0) y[i] += row[j] * (1.0 + (j - 1) / 7);
        }
        if (fwrite(row, sizeof(double), (size_t)d, fa) != (size_t)d) return 1;
    }
    npy_header(fy, n, 1, 1);
    int rc = fwrite(y, sizeof(double), (size_t)n, fy) != (size_t)n;
    rc |= fclose(fa) != 0;
    rc |= fclose(fy) != 0;
    free(row);
    free(y);
    return rc;
}

static int cmp_npy(const char *a_path, const char *b_path, double tol)
{
    double *a = NULL, *b = NULL;
    int na, sa[2], nb, sb[2];
    gsfw_err err;
    if (gsfw_npy_read(a_path, &a, &na, sa, &err) || gsfw_npy_read(b_path, &b, &nb, sb, &err)) {
        fprintf(stderr, "cmp-npy: %s\n", err.message);
        return 1;
    }
    int rc = 0;
    if ((long)sa[0] * sa[1] != (long)sb[0] * sb[1]) {
        fprintf(stderr, "cmp-npy: sizes differ\n");
        rc = 1;
    } else {
        double diff = 0.0, scale = 0.0;
        for (long k = 0; k < (long)sa[0] * sa[1]; k++) {
            diff = fmax(diff, fabs(a[k] - b[k]));
            scale = fmax(scale, fabs(b[k]));
        }
        rc = !(diff <= tol * scale);
        printf("cmp-npy %s %s: max diff %.3g, relative %.3g\n", a_path, b_path, diff,
               scale > 0 ? diff / scale : diff);
    }
    gsfw_free(a);
    gsfw_free(b);
    return rc;
}

/* the f column (third) of every data row */
static int read_f(const char *path, double *f, int cap)
{
    FILE *fp = fopen(path, "r");
    if (!fp) return -1;
    char line[4096];
    int k = 0;
    if (!fgets(line, sizeof line, fp)) k = -1; /* header */
    while (k >= 0 && k < cap && fgets(line, sizeof line, fp)) {
        char *p = strchr(line, ',');
        p = p ? strchr(p + 1, ',') : NULL;
        if (!p) break;
        f[k++] = strtod(p + 1, NULL);
    }
    fclose(fp);
    return k;
}

static int cmp_trace(const char *a_path, const char *b_path, double tol)
{
    enum { CAP = 100000 };
    double *fa = malloc(CAP * sizeof(double)), *fb = malloc(CAP * sizeof(double));
    int la = fa ? read_f(a_path, fa, CAP) : -1, lb = fb ? read_f(b_path, fb, CAP) : -1;
    int rc = 0;
    if (la < 1 || la != lb) {
        fprintf(stderr, "cmp-trace: %s has %d rows, %s %d\n", a_path, la, b_path, lb);
        rc = 1;
    } else {
        double worst = 0.0;
        for (int k = 0; k < la; k++)
            worst = fmax(worst, fabs(fa[k] - fb[k]) / fmax(fabs(fb[k]), 1e-300));
        rc = !(worst <= tol);
        printf("cmp-trace %s %s: %d rows, largest relative difference of f %.3g\n", a_path,
               b_path, la, worst);
    }
    free(fa);
    free(fb);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 8 && !strcmp(argv[1], "gen"))
        return gen(atoi(argv[2]), atoi(argv[3]), (uint64_t)atoll(argv[4]), argv[5], argv[6],
                   argv[7], argc > 8 && !strcmp(argv[8], "fortran"),
                   argc > 8 && !strcmp(argv[8], "labels"));
    if (argc == 7 && !strcmp(argv[1], "gen-big"))
        return gen_big(atol(argv[2]), atoi(argv[3]), (uint64_t)atoll(argv[4]), argv[5], argv[6]);
    if (argc == 5 && !strcmp(argv[1], "cmp-npy")) return cmp_npy(argv[2], argv[3], atof(argv[4]));
    if (argc == 5 && !strcmp(argv[1], "cmp-trace"))
        return cmp_trace(argv[2], argv[3], atof(argv[4]));
    fprintf(stderr, "usage: see the comment at the top of tests/mpi/mpi_test_tool.c\n");
    return 2;
}
