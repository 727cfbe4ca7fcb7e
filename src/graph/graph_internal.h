/* The graph behind the opaque gsfw_graph (include/gsfw/graph.h), for the library's own
 * code. Only the constructors of src/graph/graph.c fill it, so every field is valid:
 * ids in 0..n-1, costs finite and >= 0, the CSR adjacency present. */
#ifndef GSFW_GRAPH_INTERNAL_H
#define GSFW_GRAPH_INTERNAL_H

#include "gsfw/graph.h"

/* Edge e joins edge_u[e] and edge_v[e] (input order). adj_ptr has n+1 entries; the
 * neighbours of node i are adj_node[adj_ptr[i] .. adj_ptr[i+1]-1], reached through the
 * edges adj_edge[...], in input-edge order. cost is NULL for unit costs. */
struct gsfw_graph {
    int n;
    int m;
    int *edge_u;
    int *edge_v;
    double *cost;
    int *adj_ptr;
    int *adj_node;
    int *adj_edge;
};

#endif
