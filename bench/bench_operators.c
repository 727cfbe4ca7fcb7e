/* Cost of the products of each linear operator, measured side by side in one run:
 * apply + adjoint (what a full gradient costs), apply_sparse and adjoint_sparse with 622
 * nonzeros (a Frank-Wolfe step's update), at the angio experiment's size (n = 1555,
 * d = 10000; Hadamard at d = 16384, the next power of two) and, for the fast transforms,
 * at a megapixel size (1024 x 1024, n = 150000). Also float32 against double storage of
 * the dense matrix, and the implicit Gaussian's generation rate (entries per second).
 * Times are medians over the repeats.
 *   usage: bench_operators [repeats]    (OPENBLAS_NUM_THREADS=1 for one core) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "gsfw.h"
#include "util/rng.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

typedef struct {
    double full;   /* apply + adjoint, seconds */
    double sparse; /* apply_sparse + adjoint_sparse with nnz entries, seconds */
} timing;

static timing time_operator(const gsfw_operator *op, int nnz, int repeats)
{
    int n = op->n, d = op->d;
    double *x = malloc((size_t)d * sizeof(double)), *z = malloc((size_t)d * sizeof(double));
    double *y = malloc((size_t)n * sizeof(double)), *r = malloc((size_t)n * sizeof(double));
    int *idx = malloc((size_t)nnz * sizeof(int));
    double *val = malloc((size_t)nnz * sizeof(double)), *out = malloc((size_t)nnz * sizeof(double));
    double *tf = malloc((size_t)repeats * sizeof(double)), *ts = malloc((size_t)repeats * sizeof(double));
    timing t = {NAN, NAN};
    if (!x || !z || !y || !r || !idx || !val || !out || !tf || !ts) goto done;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 3);
    for (int j = 0; j < d; j++) x[j] = gsfw_rng_normal(&rng);
    for (int i = 0; i < n; i++) r[i] = gsfw_rng_normal(&rng);
    for (int k = 0; k < nnz; k++) {
        idx[k] = (int)(((long long)k * d) / nnz); /* spread, distinct */
        val[k] = gsfw_rng_normal(&rng);
    }
    for (int rep = 0; rep < repeats; rep++) {
        double t0 = gsfw_now();
        op->apply(op->ctx, x, y);
        op->adjoint(op->ctx, r, z);
        double t1 = gsfw_now();
        op->apply_sparse(op->ctx, nnz, idx, val, 0.5, y);
        op->adjoint_sparse(op->ctx, r, nnz, idx, out);
        double t2 = gsfw_now();
        tf[rep] = t1 - t0;
        ts[rep] = t2 - t1;
        x[rep % d] += 1e-12 * (z[rep % d] + out[0]); /* keep the results live */
    }
    t.full = median(tf, repeats);
    t.sparse = median(ts, repeats);
done:
    free(x);
    free(z);
    free(y);
    free(r);
    free(idx);
    free(val);
    free(out);
    free(tf);
    free(ts);
    return t;
}

static void report(const char *label, const gsfw_operator *op, timing t)
{
    printf("%-34s %7d x %-8d %12.3f %14.3f\n", label, op->n, op->d, 1e3 * t.full, 1e3 * t.sparse);
}

static int check(gsfw_error e, const gsfw_err *err)
{
    if (e) fprintf(stderr, "bench_operators: %s\n", err->message);
    return e != GSFW_OK;
}

int main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 5;
    if (repeats < 1) {
        fprintf(stderr, "usage: bench_operators [repeats >= 1]\n");
        return 2;
    }
    const int n = 1555, d = 10000, nnz = 622;
    gsfw_err err;
    gsfw_operator *op = NULL;

    printf("operator                           %7s   %-8s %12s %14s\n", "n", "d",
           "apply+adj ms", "sparse(622) ms");

    /* ---- angio size: explicit matrices */
    double *A = malloc((size_t)n * d * sizeof(double));
    if (!A) return 1;
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 1);
    for (size_t k = 0; k < (size_t)n * d; k++) A[k] = gsfw_rng_normal(&rng) / sqrt((double)n);

    gsfw_operator *dense = NULL, *f32 = NULL;
    if (check(gsfw_operator_dense(n, d, A, GSFW_COL_MAJOR, GSFW_OP_COPY, &dense, &err), &err) ||
        check(gsfw_operator_dense_to_f32(n, d, A, GSFW_COL_MAJOR, &f32, &err), &err))
        return 1;
    /* float32 against double, interleaved so that both see the same machine state */
    double *td = malloc((size_t)repeats * sizeof(double)), *tf = malloc((size_t)repeats * sizeof(double));
    double *tds = malloc((size_t)repeats * sizeof(double)), *tfs = malloc((size_t)repeats * sizeof(double));
    for (int rep = 0; rep < repeats; rep++) {
        timing a = time_operator(dense, nnz, 1), b = time_operator(f32, nnz, 1);
        td[rep] = a.full;
        tds[rep] = a.sparse;
        tf[rep] = b.full;
        tfs[rep] = b.sparse;
    }
    timing tdense = {median(td, repeats), median(tds, repeats)};
    timing tf32 = {median(tf, repeats), median(tfs, repeats)};
    report("dense (double, column-major copy)", dense, tdense);
    report("dense-f32", f32, tf32);
    /* accuracy of float32 storage: relative difference of the products from double */
    double err_apply = 0, err_adjoint = 0;
    {
        double *x = malloc((size_t)d * sizeof(double)), *zd = malloc((size_t)d * sizeof(double));
        double *zf = malloc((size_t)d * sizeof(double)), *yd = malloc((size_t)n * sizeof(double));
        double *yf = malloc((size_t)n * sizeof(double));
        if (!x || !zd || !zf || !yd || !yf) return 1;
        for (int j = 0; j < d; j++) x[j] = gsfw_rng_normal(&rng);
        dense->apply(dense->ctx, x, yd);
        f32->apply(f32->ctx, x, yf);
        dense->adjoint(dense->ctx, yd, zd);
        f32->adjoint(f32->ctx, yd, zf);
        double num = 0, den = 0;
        for (int i = 0; i < n; i++) {
            num += (yf[i] - yd[i]) * (yf[i] - yd[i]);
            den += yd[i] * yd[i];
        }
        err_apply = sqrt(num / den);
        num = den = 0;
        for (int j = 0; j < d; j++) {
            num += (zf[j] - zd[j]) * (zf[j] - zd[j]);
            den += zd[j] * zd[j];
        }
        err_adjoint = sqrt(num / den);
        free(x);
        free(zd);
        free(zf);
        free(yd);
        free(yf);
    }
    gsfw_operator_free(f32);

    gsfw_operator *borrowed = NULL;
    if (check(gsfw_operator_dense(n, d, A, GSFW_ROW_MAJOR, GSFW_OP_BORROW, &borrowed, &err), &err))
        return 1;
    report("dense (borrowed, row-major)", borrowed, time_operator(borrowed, nnz, repeats));
    gsfw_operator_free(borrowed);

    /* CSR with the dense matrix's entries at density 1% (155.5 per column) */
    {
        long m = (long)n * d / 100, k = 0;
        int *ri = malloc((size_t)m * sizeof(int)), *ci = malloc((size_t)m * sizeof(int));
        double *v = malloc((size_t)m * sizeof(double));
        if (!ri || !ci || !v) return 1;
        for (; k < m; k++) {
            ri[k] = (int)gsfw_rng_below(&rng, (uint64_t)n);
            ci[k] = (int)gsfw_rng_below(&rng, (uint64_t)d);
            v[k] = gsfw_rng_normal(&rng);
        }
        if (check(gsfw_operator_csr(n, d, m, ri, ci, v, &op, &err), &err)) return 1;
        report("csr (1% dense)", op, time_operator(op, nnz, repeats));
        gsfw_operator_free(op);
        free(ri);
        free(ci);
        free(v);
    }
    free(A);

    /* ---- angio size: implicit and fast operators */
    if (check(gsfw_operator_implicit_gaussian(n, d, 1, 1.0 / sqrt((double)n), 0, n, &op, &err), &err))
        return 1;
    timing tig = time_operator(op, nnz, repeats < 3 ? repeats : 3);
    report("implicit-gaussian", op, tig);
    double rate = 2.0 * n * (double)d / tig.full;
    gsfw_operator_free(op);

    if (check(gsfw_operator_dct(d, n, 1, &op, &err), &err)) return 1;
    report("dct (1-D)", op, time_operator(op, nnz, repeats));
    gsfw_operator_free(op);
    if (check(gsfw_operator_dct2(100, 100, n, 1, &op, &err), &err)) return 1;
    report("dct2 (100 x 100)", op, time_operator(op, nnz, repeats));
    gsfw_operator_free(op);
    if (check(gsfw_operator_hadamard(16384, n, 1, &op, &err), &err)) return 1;
    report("hadamard (d = 2^14)", op, time_operator(op, nnz, repeats));
    gsfw_operator_free(op);

    /* ---- megapixel: 1024 x 1024, n = 150000 */
    const int mp = 1024 * 1024, nmp = 150000;
    if (check(gsfw_operator_dct2(1024, 1024, nmp, 1, &op, &err), &err)) return 1;
    report("dct2 (1024 x 1024)", op, time_operator(op, nnz, repeats));
    gsfw_operator_free(op);
    if (check(gsfw_operator_hadamard(mp, nmp, 1, &op, &err), &err)) return 1;
    report("hadamard (d = 2^20)", op, time_operator(op, nnz, repeats));
    gsfw_operator_free(op);
    /* a block of 16 rows of the megapixel implicit Gaussian (the whole would take hours) */
    if (check(gsfw_operator_implicit_gaussian(nmp, mp, 1, 1.0 / sqrt((double)nmp), 0, 16, &op, &err),
              &err))
        return 1;
    timing tmp = time_operator(op, nnz, repeats < 3 ? repeats : 3);
    report("implicit-gaussian (16 rows of MP)", op, tmp);
    gsfw_operator_free(op);

    printf("\nfloat32 / double, apply + adjoint:   %.2f\n", tf32.full / tdense.full);
    printf("float32 / double, sparse products:   %.2f\n", tf32.sparse / tdense.sparse);
    printf("float32 relative error, apply:       %.1e (adjoint %.1e)\n", err_apply, err_adjoint);
    printf("implicit Gaussian generation rate:   %.1f M entries/s (apply + adjoint, angio size)\n",
           1e-6 * rate);
    printf("implicit / dense, apply + adjoint:   %.1f\n", tig.full / tdense.full);
    free(td);
    free(tf);
    free(tds);
    free(tfs);
    gsfw_operator_free(dense);
    return 0;
}
