/* The size-capped tree knapsack shared by the tree DMOs (not public API).
 *
 * For every node v, F_v[j] (j = 1..min(size_v, s)) is the largest sum of w = z^2 over a
 * subtree of exactly j nodes that contains v and lies in v's subtree (closed under
 * "parent of" up to v). A node starts from its own weight and merges its children one
 * at a time, in increasing id order; every table is cut at s entries, which makes the
 * whole pass O(n s). The split chosen for each (child, budget) is kept so that any F_v[j]
 * can be turned back into its node set without recomputation. */
#ifndef GSFW_TREE_DP_H
#define GSFW_TREE_DP_H

#include "graph/tree_internal.h"

typedef struct {
    const gsfw_tree *tree;
    int s;
    double *w;       /* n: z_i^2 */
    double *F;       /* value tables, F_v[j] at F[foff[v] + j - 1] */
    size_t *foff;    /* n */
    int *split;      /* nodes given to child c at budget j of the merge that added c (j
                        counts the parent's merged part, c included), at split[soff[c] + j - 1] */
    size_t *soff;    /* n (unused for roots) */
    int *scap;       /* n: length of c's split table, min(nodes merged up to c, s) */
    double *buf[2];  /* s + 1 doubles each: the merge's ping-pong tables */
    int *stack;      /* 2n ints: (node, budget) pairs of the reconstruction */
    unsigned char *mark; /* n flags for the contains checks (all zero between calls) */
} tree_dp;

/* Allocate every table for sparsity s (1 <= s <= n checked by the caller). */
gsfw_error tree_dp_init(tree_dp *dp, const gsfw_tree *tree, int s, const char *who,
                        gsfw_err *err);
void tree_dp_free(tree_dp *dp);
/* Weights from z and every F_v. Returns GSFW_DMO_BAD_INPUT when z has NaN/Inf or a
 * square that overflows; squares whose sum overflows are scaled by 2^-64 first. */
int tree_dp_fill(tree_dp *dp, const double *z);
/* min(size_v, s): the last entry of F_v. */
int tree_dp_cap(const tree_dp *dp, int v);
/* F_v[j]. */
double tree_dp_value(const tree_dp *dp, int v, int j);
/* Append the j nodes behind F_v[j] to out (starting at out[*count]). */
void tree_dp_trace(tree_dp *dp, int v, int j, int *out, int *count);
/* Checks the common part of contains(): size <= s, ids in range and distinct; on
 * success leaves the ids marked in dp->mark (the caller clears them with
 * tree_dp_unmark), returns 1; returns 0 (nothing marked) otherwise. */
int tree_dp_mark(tree_dp *dp, const int *support, int size);
void tree_dp_unmark(tree_dp *dp, const int *support, int size);

/* The forest oracle with the given messages' name (who) and oracle name: shared by
 * gsfw_dmo_tree_forest and gsfw_dmo_tree_rooted (g = 1), which differ in name only. */
gsfw_error gsfw_dmo_tree_forest_named(const gsfw_tree *tree, int s, int g, const char *who,
                                      const char *name, gsfw_dmo **out, gsfw_err *err);

#endif
