/* Reference operators for the objective tests: plain loops over a dense row-major matrix
 * and over a CSR copy of it, written independently of src/operators (a test oracle). */
#ifndef GSFW_TEST_REF_OPERATOR_H
#define GSFW_TEST_REF_OPERATOR_H

#include "gsfw.h"

/* Copy of the n x d row-major matrix A (NULL on allocation failure); no norm2 hook, so
 * the objectives estimate ||A|| themselves. Free with ref_operator_free. */
gsfw_operator *ref_dense_operator(int n, int d, const double *A);
/* CSR copy of the nonzero entries of the n x d row-major A; no norm2 hook. */
gsfw_operator *ref_csr_operator(int n, int d, const double *A);
void ref_operator_free(gsfw_operator *op);

#endif
