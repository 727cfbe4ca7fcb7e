/* Building and using linear operators (docs/operators.md).
 *
 * A 64 x 64 image is measured by n = 800 random rows of the 2-D DCT (scaled as
 * gsfw_sensing_operator does) and by a sparse matrix read from a Matrix Market file;
 * the operator contract (<A x, r> = <x, A^T r>, the sparse products) is checked on the
 * way, and the sensing operator is composed with a second transform.
 *
 * Build after `make install`:
 *   cc operators.c $(pkg-config --cflags --libs gsfw) -lm -o operators
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gsfw.h"

enum { H = 64, W = 64, D = H * W, N = 800 };

static int fail(const char *what, const gsfw_err *err)
{
    fprintf(stderr, "%s: %s\n", what, err->message);
    return 1;
}

int main(void)
{
    gsfw_err err;

    /* ---- a subsampled 2-D DCT: A = sqrt(d/n) P F, columns of unit expected norm */
    gsfw_operator *A = NULL;
    if (gsfw_sensing_operator("dct", N, H, W, 7, 0, &A, &err)) return fail("dct", &err);
    static double x[D], z[D], y[N], r[N];
    for (int i = 0; i < H; i++) /* a bright square on a dark background */
        for (int j = 0; j < W; j++) x[i * W + j] = (i >= 20 && i < 40 && j >= 10 && j < 30);
    for (int k = 0; k < N; k++) r[k] = cos(0.1 * k);
    A->apply(A->ctx, x, y);     /* y = A x   (n values) */
    A->adjoint(A->ctx, r, z);   /* z = A^T r (d values) */
    double ax_r = 0, x_atr = 0, norm2 = 0;
    for (int k = 0; k < N; k++) ax_r += y[k] * r[k];
    for (int j = 0; j < D; j++) x_atr += x[j] * z[j];
    A->norm2(A->ctx, &norm2);
    printf("%s operator %d x %d: <Ax, r> = %.12f, <x, A^T r> = %.12f, ||A||^2 = %.4f\n",
           A->name, A->n, A->d, ax_r, x_atr, norm2);

    /* sparse products: y += 0.5 A u for u with three nonzeros, and (A^T r) on a support */
    int idx[3] = {5, 700, 4000};
    double val[3] = {1.0, -2.0, 0.5}, part[3];
    A->apply_sparse(A->ctx, 3, idx, val, 0.5, y);
    A->adjoint_sparse(A->ctx, r, 3, idx, part);
    printf("(A^T r) on {5, 700, 4000}: %.6f %.6f %.6f (full adjoint: %.6f %.6f %.6f)\n",
           part[0], part[1], part[2], z[5], z[700], z[4000]);

    /* ---- a sparse matrix from a Matrix Market file */
    char path[] = "/tmp/gsfw-example-XXXXXX";
    int fd = mkstemp(path);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp) return 1;
    fprintf(fp, "%%%%MatrixMarket matrix coordinate real general\n"
                "%% 3 x 4, four entries (1-based)\n"
                "3 4 4\n1 1 2.0\n2 3 -1.0\n3 4 0.5\n1 4 1.0\n");
    fclose(fp);
    int n, d, *rows, *cols;
    long nnz;
    double *vals;
    gsfw_error e = gsfw_mtx_read(path, &n, &d, &nnz, &rows, &cols, &vals, &err);
    remove(path);
    if (e) return fail("mtx", &err);
    gsfw_operator *S = NULL;
    e = gsfw_operator_csr(n, d, nnz, rows, cols, vals, &S, &err);
    gsfw_free(rows);
    gsfw_free(cols);
    gsfw_free(vals);
    if (e) return fail("csr", &err);
    double v[4] = {1, 1, 1, 1}, Sv[3];
    S->apply(S->ctx, v, Sv);
    printf("csr %d x %d (%ld entries): S [1 1 1 1]^T = [%g %g %g]\n", n, d, nnz, Sv[0], Sv[1],
           Sv[2]);

    /* ---- composition: sensing an image given by Hadamard coefficients, A H^T */
    gsfw_operator *Psi = NULL, *APsi = NULL;
    if (gsfw_operator_hadamard(D, D, 1, &Psi, &err) ||
        gsfw_operator_compose(A, Psi, &APsi, &err))
        return fail("compose", &err);
    printf("compose: %d x %d, ||A Psi||^2 <= %.4f\n", APsi->n, APsi->d,
           (APsi->norm2(APsi->ctx, &norm2), norm2));

    gsfw_operator_free(APsi); /* the product first: it borrows A and Psi */
    gsfw_operator_free(Psi);
    gsfw_operator_free(S);
    gsfw_operator_free(A);
    return fabs(ax_r - x_atr) <= 1e-9 * fabs(ax_r) ? 0 : 1;
}
