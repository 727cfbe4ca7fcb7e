/* The shared helpers of the head / tail projection (headtail_util.c; not public API).
 * headtail.c, lambda_search.c, theory.c and size_repair.c call them; they call nothing in
 * those files. */
#ifndef GSFW_HEADTAIL_UTIL_H
#define GSFW_HEADTAIL_UTIL_H

#include "oracles/headtail/headtail_internal.h"

/* One PCSF run on the graph with these prizes and costs into ht->nodes / ht->edges
 * (counted in ht->calls). */
gsfw_error gsfw_ht_pcsf_call(gsfw_headtail *ht, const double *prizes, const double *costs,
                             gsfw_err *err);
/* Store the current forest in keep_*, and bring it back. */
void gsfw_ht_keep_current(gsfw_headtail *ht);
void gsfw_ht_restore_kept(gsfw_headtail *ht);
/* k-th largest prize (1-based, clamped to 1..n), by selection: O(n), no allocation. */
double gsfw_ht_kth_largest(gsfw_headtail *ht, int k);
/* The next search starts from the reference's guess, not from the lambdas of past calls
 * (the warm start, the near-miss memory, a missed window's jump); the slope of k(lambda)
 * the searches measured stays. */
void gsfw_ht_forget_lambda(gsfw_headtail *ht);
/* sum of the prizes of nodes[0..nn), in list order */
double gsfw_ht_sum_prizes(const gsfw_headtail *ht, const int *nodes, int nn);

#endif
