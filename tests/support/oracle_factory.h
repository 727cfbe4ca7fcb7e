/* Oracles by name for the tests that run every kind of solve (test_threads, test_no_alloc). */
#ifndef GSFW_TEST_ORACLE_FACTORY_H
#define GSFW_TEST_ORACLE_FACTORY_H

#include "gsfw.h"

/* The oracle `model` (head, tail, subgraph, topk, topk-approx, l1, as the CLI names
 * them) for sparsity s and one component, over grid's nodes; topk-approx targets
 * delta 0.7 and l1 delta 0.5, with fixed seeds, so repeated runs are identical. NULL
 * when the name is unknown or the constructor fails. */
gsfw_dmo *test_oracle(const char *model, const gsfw_graph *grid, int s);

/* A forwarding oracle (like counted_wrap in experiments/megapixel_pursuit.c) that counts
 * the selects and PCSF runs of `inner` (borrowed: it must outlive the wrapper, which
 * owns nothing) and, when refine_on_call > 0, calls inner->refine once, right before its
 * refine_on_call-th select (reset forwards, zeroes the counts and re-arms this). */
typedef struct {
    const gsfw_dmo *inner;
    int refine_on_call;             /* 0: never */
    int refine_rc;                  /* 0 once inner was refined (by that call, or by the
                                       solver through the wrapper's refine hook); else
                                       what the forced refine returned (-1: not called) */
    long calls, pcsf;               /* selects and their PCSF runs since the last reset */
    long calls_refined, pcsf_refined; /* the same, from the refine on */
} test_counted_dmo;

/* The wrapper of inner counting into *c (c must outlive it). */
gsfw_dmo test_counted_wrap(const gsfw_dmo *inner, test_counted_dmo *c, int refine_on_call);

#endif
