/* Undirected graphs: constructors, components. Included by gsfw.h. */
#ifndef GSFW_GRAPH_H
#define GSFW_GRAPH_H

#include "gsfw/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Undirected graph in CSR form. Edge e joins edge_u[e] and edge_v[e] (input order is
 * kept: PCSF outputs refer to it). adj_ptr has n+1 entries; the neighbours of node i are
 * adj_node[adj_ptr[i] .. adj_ptr[i+1]-1], reached through edges adj_edge[...].
 * cost is NULL for unit costs. Build with the constructors, free with gsfw_graph_free. */
typedef struct {
    int n;
    int m;
    int *edge_u;
    int *edge_v;
    double *cost;       /* m entries or NULL (all costs 1) */
    int *adj_ptr;
    int *adj_node;
    int *adj_edge;
} gsfw_graph;

/* Validates ids (0 <= id < n) and costs (finite, >= 0). cost may be NULL. */
GSFW_API gsfw_error gsfw_graph_from_edges(int n, int m, const int *u, const int *v,
                                 const double *cost, gsfw_graph **out, gsfw_err *err);
/* H x W 4-neighbour grid, node r*W + c, unit costs. Edge order: nodes in row-major order,
 * each emits (i, i+1) if not in the last column, then (i, i+W) if not in the last row. */
GSFW_API gsfw_error gsfw_graph_grid(int height, int width, gsfw_graph **out, gsfw_err *err);
GSFW_API void gsfw_graph_free(gsfw_graph *g);
/* Connected components: label[i] in 0..count-1 (labels in order of smallest node). */
GSFW_API gsfw_error gsfw_graph_components(const gsfw_graph *g, int *label, int *count, gsfw_err *err);
/* Number of connected components of the subgraph induced by the nodes with
 * mask[i] != 0 (nodes outside the mask are ignored; mask NULL selects every node).
 * work: 2n ints of scratch; on return work[i] is the component label of node i (-1
 * outside the mask). Returns -1 for a NULL graph or work array, or a graph that was not
 * built by the constructors above (no adjacency arrays). */
GSFW_API int gsfw_graph_induced_components(const gsfw_graph *g, const unsigned char *mask, int *work);

#ifdef __cplusplus
}
#endif

#endif /* GSFW_GRAPH_H */
