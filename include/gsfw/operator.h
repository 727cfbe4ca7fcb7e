/* Linear operators A : R^d -> R^n under the objectives (dense, sparse, fast transforms,
 * generated matrices). An operator is a small table of function pointers over a private
 * context, like gsfw_objective and gsfw_dmo: a new kind is one file with one constructor.
 *
 * Contract of every operator (checked by tests/test_operators.c for the built-in ones):
 *  - apply:          y = A x              (x: d entries, y: n entries, overwritten)
 *  - adjoint:        x = A^T r            (r: n entries, x: d entries, overwritten)
 *  - apply_sparse:   y += alpha * A u     where u is the sparse vector with u[idx[k]] = val[k]
 *                    (k < nnz, distinct ids); costs O(n nnz) for explicit matrices
 *  - adjoint_sparse: out[k] = (A^T r)[idx[k]] for k < nnz (the adjoint restricted to a
 *                    support; O(n nnz) for explicit matrices)
 *  - norm2 (optional, may be NULL): an upper estimate of ||A||_2^2 (1 for orthonormal rows)
 *  - cheap_columns:  1 when the columns are stored dense, so that a copy of k of them
 *                    (n k numbers, formed through apply_sparse) is worth making: the
 *                    squared loss then solves a support's least squares on such a copy
 *                    (gsfw_objective's minimize_on). The dense and float32 operators set
 *                    it; sparse, generated and transform operators do not (a dense copy
 *                    of sparse columns, or of generated ones, costs more time or memory
 *                    than it saves). Leave 0 when unsure: it only affects speed.
 * Callbacks return 0 on success. An operator keeps scratch space in its context, so one
 * operator must not be used by two threads at the same time (build one per thread; the
 * implicit and transform operators are cheap to build). Inputs and outputs never alias.
 *
 * Included by gsfw.h. Building and using operators: docs/operators.md. */
#ifndef GSFW_OPERATOR_H
#define GSFW_OPERATOR_H

#include <stddef.h>
#include <stdint.h>

#include "gsfw/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gsfw_operator {
    int n;               /* rows (measurements) */
    int d;               /* columns (unknowns) */
    const char *name;    /* "dense", "dense-f32", "csr", "dct", "dct2", "hadamard",
                            "implicit-gaussian", "compose", ... */
    void *ctx;
    int (*apply)(void *ctx, const double *x, double *y);
    int (*adjoint)(void *ctx, const double *r, double *x);
    int (*apply_sparse)(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                        double *y);
    int (*adjoint_sparse)(void *ctx, const double *r, int nnz, const int *idx, double *out);
    int (*norm2)(void *ctx, double *norm2);
    void (*destroy)(struct gsfw_operator *self);
    int cheap_columns;   /* see above */
} gsfw_operator;

/* ---- constructors (src/operators/). Each returns a new operator in *out, freed with
 * gsfw_operator_free; arguments are validated first (a message names the bad value), all
 * scratch is allocated here, so the products never allocate. */

/* Storage flags of the dense constructors. */
enum {
    GSFW_OP_COPY = 0,   /* keep a private copy (column-major); the caller's array may go */
    GSFW_OP_BORROW = 1  /* use the caller's array in place, in its layout: no copy; the
                           caller keeps it alive and unchanged while the operator lives */
};

/* Frees an operator through its destroy hook (free() when it has none). NULL is a no-op. */
GSFW_API void gsfw_operator_free(gsfw_operator *op);

/* A B (A: n x m, B: m x d; A->d must equal B->n). Borrows both: they must outlive the
 * product and not be used elsewhere at the same time. For x = Psi theta (Psi a
 * synthesis operator such as a wavelet), sensing A Psi acts on the coefficients theta.
 * norm2 is the product of theirs when both have one. */
GSFW_API gsfw_error gsfw_operator_compose(const gsfw_operator *A, const gsfw_operator *B,
                                          gsfw_operator **out, gsfw_err *err);

/* Dense n x d matrix. Products are BLAS gemv (apply, adjoint) and column axpy / dot
 * (apply_sparse, adjoint_sparse: O(n nnz)). Rejects NaN/Inf, naming the entry. */
GSFW_API gsfw_error gsfw_operator_dense(int n, int d, const double *A, gsfw_layout layout,
                                        int flags, gsfw_operator **out, gsfw_err *err);
/* Dense float32 storage (half the memory and memory traffic). Products convert the
 * vector to float, run sgemv (float accumulation), and convert back: a product differs
 * from the double one by 1e-7 to 1e-6 relative (6e-7 measured at d = 10000; the float
 * sums grow it with d); the sparse products accumulate in double. _to_f32 converts a
 * double matrix (rounding to nearest; a value beyond the float range is refused, naming
 * the entry). */
GSFW_API gsfw_error gsfw_operator_dense_f32(int n, int d, const float *A, gsfw_layout layout,
                                            int flags, gsfw_operator **out, gsfw_err *err);
GSFW_API gsfw_error gsfw_operator_dense_to_f32(int n, int d, const double *A, gsfw_layout layout,
                                               gsfw_operator **out, gsfw_err *err);

/* Sparse n x d matrix from nnz 0-based triplets (rows[k], cols[k], vals[k]); duplicates
 * are summed. Keeps CSR (apply) and CSC (adjoint and the sparse products, by column):
 * memory 2 (12 nnz) bytes + O(n + d); each product costs O(nnz) (sparse ones O(sum of
 * the chosen columns' entries)). */
GSFW_API gsfw_error gsfw_operator_csr(int n, int d, long nnz, const int *rows, const int *cols,
                                      const double *vals, gsfw_operator **out, gsfw_err *err);

/* n rows of the orthonormal DCT-II of length d (1 <= n <= d), chosen by seed without
 * replacement and sorted ascending: A = P F, A^T = F^T P^T (a DCT-III). FFTW plans are
 * made here (FFTW_ESTIMATE: deterministic). O(d log d) per product, memory O(d). norm2 = 1. */
GSFW_API gsfw_error gsfw_operator_dct(int d, int n, uint64_t seed, gsfw_operator **out,
                                      gsfw_err *err);
/* The same for the 2-D orthonormal DCT-II of a row-major height x width image (row
 * k1 * width + k2 of the d = height * width rows is frequency (k1, k2)). */
GSFW_API gsfw_error gsfw_operator_dct2(int height, int width, int n, uint64_t seed,
                                       gsfw_operator **out, gsfw_err *err);
/* n rows of the orthonormal Walsh-Hadamard matrix H / sqrt(d) (natural order), d a power
 * of two, rows chosen by seed as for the DCT. O(d log d) per product. norm2 = 1. */
GSFW_API gsfw_error gsfw_operator_hadamard(int d, int n, uint64_t seed, gsfw_operator **out,
                                           gsfw_err *err);
/* The same two with a thread count: threads >= 2 gives the operator a worker thread that
 * computes half of every transform (the 2-D DCT's row and column passes, the butterfly's
 * halves) from d = 16384 on; every product is bit-identical to the one-thread product.
 * The operator still serves one caller at a time. */
GSFW_API gsfw_error gsfw_operator_dct2_threads(int height, int width, int n, uint64_t seed,
                                               int threads, gsfw_operator **out,
                                               gsfw_err *err);
GSFW_API gsfw_error gsfw_operator_hadamard_threads(int d, int n, uint64_t seed, int threads,
                                                   gsfw_operator **out, gsfw_err *err);
/* Rows row0 .. row0 + rows - 1 of an n_total x d matrix with entries sd * N(0, 1), each
 * a function of (seed, i, j) alone (Philox4x32-10 counter generator + Box-Muller), never
 * stored: memory O(rows + d). Any split of the rows into blocks (e.g. one per MPI rank)
 * gives the same entries. apply and adjoint generate rows * d entries per call; the
 * sparse products only the rows * nnz they need. */
GSFW_API gsfw_error gsfw_operator_implicit_gaussian(int n_total, int d, uint64_t seed, double sd,
                                                    int row0, int rows, gsfw_operator **out,
                                                    gsfw_err *err);
/* The same with a thread count: threads >= 2 gives the operator a worker thread for half
 * of each apply (rows) and adjoint (columns) from d = 16384 on; the products are
 * bit-identical for every thread count. */
GSFW_API gsfw_error gsfw_operator_implicit_gaussian_threads(int n_total, int d, uint64_t seed,
                                                            double sd, int row0, int rows,
                                                            int threads, gsfw_operator **out,
                                                            gsfw_err *err);

/* The n x (height * width) sensing matrix of compressive-sensing recovery:
 *  "gaussian":          explicit, i.i.d. N(0, 1/n), drawn column by column from gsfw_rng
 *                       seeded with seed (float32 != 0: stored as float32);
 *  "implicit-gaussian": the same distribution, generated on demand (not stored);
 *  "dct":               n random rows of the 2-D orthonormal DCT, scaled by sqrt(d / n) so
 *                       that columns have unit expected squared norm like the Gaussian ones;
 *  "hadamard":          n random rows of the orthonormal Walsh-Hadamard matrix of size
 *                       d = height * width (a power of two), scaled by sqrt(d / n);
 *  "dct-signs", "hadamard-signs": the same rows after random signs, A = P F D with D of
 *                       gsfw_operator_random_signs(d, seed) (incoherent with wavelets);
 *  "rademacher":        explicit, i.i.d. +-1/sqrt(n) (fair signs), drawn column by column
 *                       from gsfw_rng seeded with seed (float32 != 0: stored as float32).
 * float32 applies to the explicit kinds ("gaussian", "rademacher") only. */
GSFW_API gsfw_error gsfw_sensing_operator(const char *kind, int n, int height, int width,
                                          uint64_t seed, int float32, gsfw_operator **out,
                                          gsfw_err *err);

/* ---- more operators below ---- */

/* ---- the orthonormal 2-D wavelet basis (GSL) */

/* The orthonormal 2-D wavelet basis Psi of side x side images (n = d = side^2, side a
 * power of two in 2..32768) through GSL's non-standard transform
 * gsl_wavelet2d_nstransform with periodic boundaries: apply is the synthesis
 * x = Psi theta (the inverse transform of the coefficients theta), adjoint the analysis
 * theta = Psi^T x (the forward transform); both cost O(side^2) and allocate nothing
 * (the GSL workspace and a scratch image are allocated here). Coefficient r*side + c is
 * where GSL puts it, the layout gsfw_tree_quadtree describes. family: "haar" (GSL's
 * gsl_wavelet_haar, k = 2) or "db4" (gsl_wavelet_daubechies with k = 4 coefficients:
 * Daubechies' D4, 2 vanishing moments, called db2 by some libraries). norm2 reports 1.
 * The sparse hooks run the full transform on the scratch image (O(side^2), not
 * O(nnz)). For sensing in the wavelet domain compose it: gsfw_operator_compose(A, Psi). */
GSFW_API gsfw_error gsfw_operator_wavelet2d(int side, const char *family, gsfw_operator **out,
                                            gsfw_err *err);

/* ---- random signs (src/operators/random_signs.c) */

/* The d x d diagonal D = diag(+1 or -1), signs drawn from seed (each with probability
 * 1/2). D is orthonormal and symmetric (apply = adjoint, norm2 = 1): composed before a
 * subsampled transform, A = P F D ("scrambled" DCT or Hadamard rows: sensing kinds
 * "dct-signs" and "hadamard-signs" of gsfw_sensing_operator), it spreads every pixel-
 * or wavelet-domain atom over all frequencies while keeping the rows orthonormal.
 * O(d) per product (O(nnz) for the sparse ones), memory d bytes. */
GSFW_API gsfw_error gsfw_operator_random_signs(int d, uint64_t seed, gsfw_operator **out,
                                               gsfw_err *err);

/* ---- centring (src/operators/centered.c) */

/* A = B - 1 mu^T (mu: d numbers, copied; B borrowed: it must outlive A and not be used
 * elsewhere at the same time): B with mu_j removed from column j, without forming it.
 * With mu the column means of B, least squares over A fits an unpenalised intercept
 * (profiled out) and a sparse B stays sparse. Products cost B's plus O(n + d); norm2 is
 * (sqrt(B's) + sqrt(n) ||mu||)^2 when B has one. */
GSFW_API gsfw_error gsfw_operator_centered(const gsfw_operator *B, const double *mu,
                                           gsfw_operator **out, gsfw_err *err);

/* ---- block upsampling (src/operators/upsample.c) */

/* U: a coarse image of ceil(height / block) x ceil(width / block) pixels (row-major) to a
 * height x width image, each coarse pixel repeated over its block x block block (cut at
 * the last row and column): n = height * width, d = the coarse pixel count. The adjoint
 * sums each block; norm2 = block^2 (U^T U is diagonal with the block sizes). A U, with A
 * a sensing operator (gsfw_operator_compose), measures block-constant images: the coarse
 * levels of gsfw_pyramid_image. O(n) per product, O(nnz block^2) for the sparse ones;
 * no scratch. */
GSFW_API gsfw_error gsfw_operator_upsample(int height, int width, int block,
                                           gsfw_operator **out, gsfw_err *err);

#ifdef __cplusplus
}
#endif

#endif
