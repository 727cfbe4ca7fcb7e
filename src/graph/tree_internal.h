/* The gsfw_tree layout shared by src/graph/tree.c and the tree DMOs (not public API). */
#ifndef GSFW_TREE_INTERNAL_H
#define GSFW_TREE_INTERNAL_H

#include "core/internal.h"

struct gsfw_tree {
    int n;
    int num_roots;
    int *parent;      /* n: -1 for a root */
    int *child_ptr;   /* n+1: the children of v are child[child_ptr[v] .. child_ptr[v+1]-1] */
    int *child;       /* n-num_roots ids, increasing within each node */
    int *roots;       /* num_roots ids, increasing */
    int *order;       /* n ids, parents before children (breadth-first from the roots) */
    int *size;        /* n: number of nodes in the subtree of v (v included) */
};

#endif
