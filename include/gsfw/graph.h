/* Undirected graphs: constructors, components. Included by gsfw.h. */
#ifndef GSFW_GRAPH_H
#define GSFW_GRAPH_H

#include "gsfw/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An undirected graph with n nodes 0..n-1 and m edges; edge e joins two nodes and has a
 * cost (1 unless the graph was built with costs). The edge order of the input is kept:
 * PCSF outputs refer to it. Opaque: built by the constructors below (which validate
 * it once), read through the accessors, freed with gsfw_graph_free; immutable, so it
 * may be shared by oracles and threads. */
typedef struct gsfw_graph gsfw_graph;

/* Validates ids (0 <= id < n) and costs (finite, >= 0). cost may be NULL. */
GSFW_API gsfw_error gsfw_graph_from_edges(int n, int m, const int *u, const int *v,
                                 const double *cost, gsfw_graph **out, gsfw_err *err);
/* H x W 4-neighbour grid, node r*W + c, unit costs. Edge order: nodes in row-major order,
 * each emits (i, i+1) if not in the last column, then (i, i+W) if not in the last row. */
GSFW_API gsfw_error gsfw_graph_grid(int height, int width, gsfw_graph **out, gsfw_err *err);
GSFW_API void gsfw_graph_free(gsfw_graph *g);
/* Node and edge counts (0 for a NULL graph). */
GSFW_API int gsfw_graph_nodes(const gsfw_graph *g);
GSFW_API int gsfw_graph_edge_count(const gsfw_graph *g);
/* The edge list in input order: edge e joins (*u)[e] and (*v)[e] at cost (*cost)[e];
 * *cost is NULL for unit costs. Views into the graph, valid while it lives; any of the
 * three pointers may be NULL. */
GSFW_API void gsfw_graph_edges(const gsfw_graph *g, const int **u, const int **v,
                               const double **cost);
/* Connected components: label[i] in 0..count-1 (labels in order of smallest node). */
GSFW_API gsfw_error gsfw_graph_components(const gsfw_graph *g, int *label, int *count, gsfw_err *err);
/* Number of connected components of the subgraph induced by the nodes with
 * mask[i] != 0 (nodes outside the mask are ignored; mask NULL selects every node).
 * work: 2n ints of scratch; on return work[i] is the component label of node i (-1
 * outside the mask). Returns -1 for a NULL graph or work array. */
GSFW_API int gsfw_graph_induced_components(const gsfw_graph *g, const unsigned char *mask, int *work);

#ifdef __cplusplus
}
#endif

#endif /* GSFW_GRAPH_H */
