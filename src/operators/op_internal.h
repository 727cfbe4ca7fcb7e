/* Helpers shared by the operator constructors (not part of the public API). */
#ifndef GSFW_OP_INTERNAL_H
#define GSFW_OP_INTERNAL_H

#include "core/internal.h"
#include "util/rng.h"
#include "util/worker.h"

#include <stdint.h>

/* A new operator table with the given shape and name, every hook NULL (destroy: free). */
gsfw_operator *gsfw_op_new(int n, int d, const char *name, void *ctx);

/* apply_sparse through a dense apply: y += alpha * A u with u scattered into xd (d doubles,
 * all zero on entry and left zero on return) and A u computed into yn (n doubles). */
int gsfw_op_apply_sparse_via_apply(int (*apply)(void *, const double *, double *), void *ctx,
                                   int n, double *xd, double *yn, int nnz, const int *idx,
                                   const double *val, double alpha, double *y);
/* adjoint_sparse through the full adjoint into xd (d doubles of scratch), then gathered. */
int gsfw_op_adjoint_sparse_via_adjoint(int (*adjoint)(void *, const double *, double *),
                                       void *ctx, double *xd, const double *r, int nnz,
                                       const int *idx, double *out);

/* n distinct indices of 0..d-1 chosen by seed (partial Fisher-Yates with gsfw_rng), sorted
 * ascending, into rows (n ints). 1 <= n <= d. Returns 0, or -1 when out of memory. */
int gsfw_op_choose_rows(int d, int n, uint64_t seed, int *rows);

/* Checks shared by the subsampled transforms: 1 <= n <= d. */
gsfw_error gsfw_op_check_rows(const char *what, int d, int n, gsfw_err *err);
/* Checks shared by the image operators: height, width >= 1 and height * width in int. */
gsfw_error gsfw_op_check_image(const char *what, int height, int width, gsfw_err *err);

/* Thread counts of the operators that share their products with a worker thread: 1..64
 * (the "threads" parameter's range). Below GSFW_OP_THREADS_MIN_D unknowns a product is
 * too short for a second thread to pay: the operators then run on one thread whatever
 * threads says (the results are the same). */
#define GSFW_OP_MAX_THREADS 64
#define GSFW_OP_THREADS_MIN_D 16384
gsfw_error gsfw_op_check_threads(const char *what, int threads, gsfw_err *err);
/* The worker of an operator with d unknowns into *out: NULL with one thread or below
 * GSFW_OP_THREADS_MIN_D; GSFW_ERR_NOMEM when the thread cannot be started. */
gsfw_error gsfw_op_worker(const char *what, int threads, int d, gsfw_worker **out,
                          gsfw_err *err);

/* Internal constructors used by gsfw_sensing_operator: the transform rows times scale
 * (norm2 = scale^2; threads >= 2: a worker thread shares each transform), and a dense
 * column-major double matrix whose ownership passes to the operator (freed with it, also
 * on failure). */
gsfw_error gsfw_op_dct2_scaled(int height, int width, int n, uint64_t seed, double scale,
                               int threads, gsfw_operator **out, gsfw_err *err);
/* A U for A an operator of gsfw_op_dct2_scaled (or the public dct2 constructors) of a
 * height x width image whose sides are multiples of block, U the block upsampling of
 * gsfw_operator_upsample(height, width, block): the same rows computed from the DCT of
 * the coarse image (block^2 times fewer pixels per transform, no upsampling pass).
 * *out = NULL (and GSFW_OK) when A is another operator, transforms an image of another
 * shape, or the sides are not multiples of block: compose them then. */
gsfw_error gsfw_op_dct2_block_constant(const gsfw_operator *A, int height, int width,
                                       int block, gsfw_operator **out, gsfw_err *err);
gsfw_error gsfw_op_hadamard_scaled(int d, int n, uint64_t seed, double scale, int threads,
                                   gsfw_operator **out, gsfw_err *err);
/* A U for A an operator of gsfw_op_hadamard_scaled (or the public hadamard constructors)
 * measuring a height x width image flattened row by row, U the upsampling by block (a
 * power of two dividing both sides): the same rows from the transform of the coarse
 * image. *out = NULL (and GSFW_OK) when that does not apply: compose them then. */
gsfw_error gsfw_op_hadamard_block_constant(const gsfw_operator *A, int height, int width,
                                           int block, gsfw_operator **out, gsfw_err *err);
/* gsfw_sensing_operator("gaussian", ...) that also returns, in *rng_after, the generator
 * state after the n d draws: gsfw recover draws its measurement noise from that same
 * stream, so continuing from it keeps earlier results bit-identical. */
gsfw_error gsfw_op_sensing_gaussian(int n, int d, uint64_t seed, int float32, gsfw_rng *rng_after,
                                    gsfw_operator **out, gsfw_err *err);
/* The sizes checked for a sensing kind (image, n >= 1, float32 only where it applies). */
gsfw_error gsfw_sensing_check(const gsfw_entry *e, const gsfw_sensing_spec *s, gsfw_err *err);
/* y = A x + sigma e with the kind's operator (its measure hook, or apply and then the
 * noise of gsfw_sensing_noise); y is zeroed first. */
gsfw_error gsfw_sensing_measure_entry(const gsfw_entry *e, const gsfw_sensing_spec *s,
                                      const double *x, double sigma, double *y,
                                      double *noise_sq, gsfw_operator **out, gsfw_err *err);
/* The measurement noise of the sensing kinds without a stream of their own: e ~ N(0,
 * I_n) from gsfw_rng seeded with seed ^ 0x9e3779b97f4a7c15; rows row0..row0+rows-1 of
 * sigma e are added to y (rows entries), and ||sigma e||^2 over all n is returned (so
 * that a process holding a block of rows draws the same noise). */
double gsfw_sensing_noise(uint64_t seed, double sigma, int n, int row0, int rows, double *y);
/* sqrt(d/n) (1 when n > d): the scale that gives the rows of an orthonormal transform the
 * column norms of the N(0, 1/n) matrices. */
double gsfw_sensing_scale(int n, int d);
gsfw_error gsfw_op_dense_adopt(int n, int d, double *A_col_major, gsfw_operator **out,
                               gsfw_err *err);
/* The same with what gsfw_objective_least_squares has always used: a norm2 hook (power
 * iteration to a 1e-10 relative change, times 1 + 1e-6; n + 2d doubles of scratch) and
 * the residual r = A x - y in one gemv (beta = -1), or column by column for a point with
 * few nonzeros (gsfw_op_dense_residual). */
gsfw_error gsfw_op_dense_adopt_measured(int n, int d, double *A_col_major, gsfw_operator **out,
                                        gsfw_err *err);
/* Bytes gsfw_operator_csr allocates for an n x d matrix with nnz entries (its CSR and
 * CSC copies and the bucketing's scratch), for an estimate before reading a file. */
double gsfw_operator_csr_memory(double n, double d, double nnz);

/* r = A x - y when op is a measured dense operator (returns 1 then, else 0): one gemv,
 * or, when at most a quarter of x is nonzero, one axpy per nonzero's column (a polished
 * answer or an early Frank-Wolfe iterate costs O(n nnz), not O(n d)). */
int gsfw_op_dense_residual(const gsfw_operator *op, const double *x, const double *y, double *r);
/* The column-major storage (n x d, lda = n) of a measured dense operator, else NULL. */
const double *gsfw_op_dense_data(const gsfw_operator *op);
/* out (n x d column-major) = A in the given layout (a blocked transpose for row-major). */
void gsfw_op_dense_copy_col_major(int n, int d, const double *A, gsfw_layout layout,
                                  double *out);
/* inner * D with D the random signs of gsfw_operator_random_signs(inner->d, seed):
 * takes ownership of inner (freed with the result, also on failure). */
gsfw_error gsfw_op_signs_before(gsfw_operator *inner, uint64_t seed, const char *name,
                                gsfw_operator **out, gsfw_err *err);

#endif
