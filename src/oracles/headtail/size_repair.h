/* Size repair for the practical head / tail projections (not public API).
 *
 * The lambda-search (lambda_search.c) can find no lambda whose PCSF forest has between s_low
 * and s_high nodes: the node count k(lambda) is a step function that may jump over the
 * window. The repair turns the closest forests on either side into sets of the right
 * size with at most g connected components of the graph:
 *  - grow: add the best node (largest prize, ties by smallest id) adjacent to the set, or
 *    any node while the set has fewer than g components, until the target size;
 *  - prune: remove the forest leaf of smallest prize (ties by smallest id) until the
 *    target size; a tree stays a tree, so the component count never rises.
 * Every buffer is allocated by gsfw_size_repair_create; the functions below allocate
 * nothing. */
#ifndef GSFW_HEADTAIL_SIZE_REPAIR_H
#define GSFW_HEADTAIL_SIZE_REPAIR_H

#include "core/internal.h"

typedef struct gsfw_size_repair gsfw_size_repair;

/* Workspace for a graph with n nodes and m edges (the graph must outlive it). Uses the
 * graph's CSR adjacency, or builds its own from the edge arrays when it has none. */
gsfw_error gsfw_size_repair_create(const gsfw_graph *g, gsfw_size_repair **out,
                                   gsfw_err *err);
void gsfw_size_repair_free(gsfw_size_repair *r);

/* The largest number of nodes a set with at most gc connected components can have: the
 * sizes of the gc largest components of the graph, added up. */
long gsfw_size_repair_reachable(const gsfw_size_repair *r, int gc);
/* The number of connected components of the graph. */
int gsfw_size_repair_components(const gsfw_size_repair *r);

/* Grow the set nodes[0..nn) (at most gc components) to at most target nodes. out (n
 * ints, may alias nodes) receives the set; returns its size (below target only when no
 * node can join without exceeding gc components). */
int gsfw_size_repair_grow(gsfw_size_repair *r, const double *prize, const int *nodes, int nn,
                          int target, int gc, int *out);

/* Grow from one seed per component among the gc largest components of the graph (the
 * seed: the node of largest prize, ties by smallest id): reaches
 * min(target, gsfw_size_repair_reachable(gc)) nodes. */
int gsfw_size_repair_grow_seeded(gsfw_size_repair *r, const double *prize, int target, int gc,
                                 int *out);

/* The best set when no set of the window's size exists: the gc components of largest
 * prize sum (ties by smallest label), whole. Every set with at most gc components lies
 * in at most gc components, and prizes are >= 0, so this is the exact maximum over such
 * sets. Returns its size (<= gsfw_size_repair_reachable(gc)). */
int gsfw_size_repair_best_components(gsfw_size_repair *r, const double *prize, int gc,
                                     int *out);

/* Prune the forest (nodes[0..nn), edges[0..ne) of the graph) down to target nodes by
 * removing leaves of smallest prize. out (n ints) must not alias nodes. Returns the new
 * size (= target when nn > target, else nn). */
int gsfw_size_repair_prune(gsfw_size_repair *r, const double *prize, const int *nodes, int nn,
                           const int *edges, int ne, int target, int *out);

/* A spanning forest of the subgraph induced by nodes[0..nn): edge ids into edges (at
 * most nn - 1), the graph's edges taken in CSR order. Returns their number. */
int gsfw_size_repair_spanning_forest(gsfw_size_repair *r, const int *nodes, int nn,
                                     int *edges);

#endif
