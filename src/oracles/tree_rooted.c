/* Exact DMO for the rooted tree-sparse model: one subtree of at most s nodes that
 * contains a root and, with each node, its parent. It is the forest model with g = 1
 * (tree_forest.c): on a single tree the root's table answers directly; on a forest the
 * merge over the roots picks the best single root (the smallest id on ties). */
#include "oracles/dmo_internal.h"
#include "oracles/tree_dp.h"

gsfw_error gsfw_dmo_tree_rooted(const gsfw_tree *tree, int s, gsfw_dmo **out, gsfw_err *err)
{
    return gsfw_dmo_tree_forest_named(tree, s, 1, "tree-rooted DMO", "tree-rooted", out, err);
}
