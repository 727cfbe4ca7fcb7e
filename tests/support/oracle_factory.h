/* Oracles by name for the tests that run every kind of solve (test_threads, test_no_alloc). */
#ifndef GSFW_TEST_ORACLE_FACTORY_H
#define GSFW_TEST_ORACLE_FACTORY_H

#include "gsfw.h"

/* The oracle `model` (head, tail, subgraph, topk, topk-approx, l1, as the CLI names
 * them) for sparsity s and one component, over grid's nodes; topk-approx targets
 * delta 0.7 and l1 delta 0.5, with fixed seeds, so repeated runs are identical. NULL
 * when the name is unknown or the constructor fails. */
gsfw_dmo *test_oracle(const char *model, const gsfw_graph *grid, int s);

#endif
