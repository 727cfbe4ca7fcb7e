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
 * Callbacks return 0 on success. An operator keeps scratch space in its context, so one
 * operator must not be used by two threads at the same time (build one per thread; the
 * implicit and transform operators are cheap to build). Inputs and outputs never alias. */
#ifndef GSFW_OPERATOR_H
#define GSFW_OPERATOR_H

#include <stddef.h>
#include <stdint.h>

#include "gsfw/export.h"

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
} gsfw_operator;

#ifdef __cplusplus
}
#endif

#endif
