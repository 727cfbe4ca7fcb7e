/* Trees and forests, the wavelet quadtree, and the exact tree-sparse DMOs.
 *
 * A tree-sparse model keeps supports that are subtrees: wavelet coefficients of natural
 * images are large along root-to-leaf paths of the quadtree (a large coefficient has a
 * large parent), so a support closed under "parent of" describes them with fewer
 * degrees of freedom than an arbitrary s-sparse set. On a tree the DMO is solved
 * exactly (delta = 1) by dynamic programming.
 *
 * Complexity of the DMOs below (n nodes, sparsity s): the constructor allocates every
 * table; select() allocates nothing and costs O(n s) time (each node merges its
 * children's tables, every table cut at min(subtree size, s) entries: the classic
 * size-capped tree knapsack). The value tables hold sum_v min(size_v, s) doubles and the
 * reconstruction keeps one split per child and budget, sum over non-root nodes c of
 * min(1 + sizes of c's parent and its children up to c, s) ints: O(n log s) for the
 * balanced wavelet quadtree (4 children per node), O(n s) for a path or a star.
 * The forest model with g < (number of roots) adds a merge over the roots that tracks
 * the number of trees used: O(R g s) time and entries for R roots.
 *
 * Ties are broken deterministically: children (and roots) are merged in increasing id
 * order and a later child only receives nodes when that strictly increases the sum, so
 * among equal optima the earlier (smaller-id) branches get the nodes; the connected
 * model takes the most nodes, then the smallest-id top node, among equal optima; the
 * forest model prefers fewer trees. Weights are z_i^2 >= 0, so the selection has min(s, available) nodes
 * (available = the nodes of the tree(s) the selection may use).
 *
 * Head and tail projections: the Euclidean projection of b onto the union of the
 * model's subspaces keeps b on the support maximising ||b_S||, so the same exact oracle
 * object serves as the tail projection of the model-based baselines (IHT, CoSaMP) and
 * as their head projection (built with sparsity 2s for CoSaMP-style merges). */
#ifndef GSFW_TREE_H
#define GSFW_TREE_H

#include "gsfw/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gsfw_tree gsfw_tree;
struct gsfw_dmo; /* gsfw_dmo of gsfw.h */

/* A rooted forest on nodes 0..n-1: parent[i] = -1 for a root, else 0..n-1 (copied).
 * Fails with GSFW_ERR_INVALID_ARG for n < 1 or a NULL array, GSFW_ERR_GRAPH for a parent
 * out of range ("node 7 has parent 12, outside 0..9"), a node that is its own parent or
 * a cycle (the message names a node on it). Free with gsfw_tree_free. */
GSFW_API gsfw_error gsfw_tree_from_parents(int n, const int *parent, gsfw_tree **out,
                                    gsfw_err *err);

/* The tree of the coefficients of a 2-D orthonormal wavelet transform of a side x side
 * image in the layout of GSL's gsl_wavelet2d_nstransform (non-standard form), node
 * r * side + c for the coefficient in row r, column c. The scaling coefficient (0,0) is
 * the root; the detail coefficient (r, c) != (0,0) has parent (r/2, c/2) (integer
 * division): the three coarsest details (0,1), (1,0), (1,1) hang from the root, and a
 * detail at level l, position (i, j) of its orientation band has its four children at
 * (2i, 2j), (2i, 2j+1), (2i+1, 2j), (2i+1, 2j+1) of the same band at level l + 1.
 * height must equal width and be a power of two (1..32768); other sizes are refused
 * with GSFW_ERR_INVALID_ARG. */
GSFW_API gsfw_error gsfw_tree_quadtree(int height, int width, gsfw_tree **out,
                                gsfw_err *err);

GSFW_API void gsfw_tree_free(gsfw_tree *tree);
/* Number of nodes (0 for NULL). */
GSFW_API int gsfw_tree_num_nodes(const gsfw_tree *tree);
/* The parent array (n entries, -1 for roots), owned by the tree. */
GSFW_API const int *gsfw_tree_parents(const gsfw_tree *tree);
/* Number of roots (trees of the forest). */
GSFW_API int gsfw_tree_num_roots(const gsfw_tree *tree);

/* Exact DMOs (delta = 1, model_size = s, max_support = s; contains and reset hooks set).
 * The tree must outlive the oracle. 1 <= s <= n, 1 <= g <= s.
 *  - rooted:    at most s nodes forming one rooted subtree (it contains a root of the
 *               forest and, with each node, its parent);
 *  - forest:    at most g rooted subtrees (each containing a root), at most s nodes in
 *               all (g = 1 is the rooted model);
 *  - connected: a connected subtree of the unrooted forest, at most s nodes. */
GSFW_API gsfw_error gsfw_dmo_tree_rooted(const gsfw_tree *tree, int s,
                                         struct gsfw_dmo **out, gsfw_err *err);
GSFW_API gsfw_error gsfw_dmo_tree_forest(const gsfw_tree *tree, int s, int g,
                                         struct gsfw_dmo **out, gsfw_err *err);
GSFW_API gsfw_error gsfw_dmo_tree_connected(const gsfw_tree *tree, int s,
                                            struct gsfw_dmo **out, gsfw_err *err);

#ifdef __cplusplus
}
#endif

#endif
