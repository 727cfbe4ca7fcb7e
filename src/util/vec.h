/* Vector kernels with one summation order on every machine.
 *
 * OpenBLAS's level-1 routines sum in an order that depends on the CPU kernel it picked
 * and on its thread count (above a few thousand entries it splits a dot product over
 * all cores), so the same solve gave different last bits on different machines, and
 * its threads spun on the other core while the solver ran. These loops fix the order
 * in C: eight interleaved partial sums, combined pairwise in a fixed tree. A compiler
 * may vectorise them but not reorder them (no -ffast-math; CMakeLists.txt compiles
 * vec.c with -ffp-contract=off, so no product is fused into an FMA either), so the
 * results are the same bits for every CPU and thread count. They are memory-bound at
 * the sizes where it matters; dense matrix products stay OpenBLAS's. */
#ifndef GSFW_VEC_H
#define GSFW_VEC_H

/* sum_i x_i y_i over i < n (0 for n <= 0). */
double gsfw_vec_dot(int n, const double *x, const double *y);

/* ||x||_2 without overflow or underflow in the intermediate sum: the plain sum of
 * squares when it lies in a safe range, else a sum scaled by max |x_i|. NaN if any entry
 * is NaN, +inf if any is infinite. */
double gsfw_vec_nrm2(int n, const double *x);
/* ||x_S||_2 over the ids idx[0..size-1], in that order, as gsfw_vec_nrm2 guards it (the
 * plain sum, so the same bits, whenever that cannot overflow or underflow). */
double gsfw_vec_nrm2_on(int size, const int *idx, const double *x);

/* y += a x. */
void gsfw_vec_axpy(int n, double a, const double *x, double *y);

/* y += a[0] x0 + a[1] x1 + a[2] x2 + a[3] x3, added in that order entry by entry: the
 * bits of four gsfw_vec_axpy calls in one pass over y (y must not overlap the x's). */
void gsfw_vec_axpy4(int n, const double a[4], const double *x0, const double *x1,
                    const double *x2, const double *x3, double *y);

/* x *= a. */
void gsfw_vec_scal(int n, double a, double *x);

#endif
