/* Graph construction (edge list, grid), validation and connected components. */
#include "core/internal.h"

#include <limits.h>
#include <math.h>
#include <string.h>

int gsfw_graph_nodes(const gsfw_graph *g)
{
    return g ? g->n : 0;
}

int gsfw_graph_edge_count(const gsfw_graph *g)
{
    return g ? g->m : 0;
}

void gsfw_graph_edges(const gsfw_graph *g, const int **u, const int **v, const double **cost)
{
    if (u) *u = g ? g->edge_u : NULL;
    if (v) *v = g ? g->edge_v : NULL;
    if (cost) *cost = g ? g->cost : NULL;
}

void gsfw_graph_free(gsfw_graph *g)
{
    if (!g) return;
    free(g->edge_u);
    free(g->edge_v);
    free(g->cost);
    free(g->adj_ptr);
    free(g->adj_node);
    free(g->adj_edge);
    free(g);
}

/* Build the CSR adjacency from the edge arrays already stored in g. Neighbours of a
 * node appear in input-edge order. */
static gsfw_error build_csr(gsfw_graph *g, gsfw_err *err)
{
    int n = g->n, m = g->m;
    g->adj_ptr = gsfw_calloc_array((size_t)n + 1, sizeof(int));
    g->adj_node = gsfw_malloc_array(2 * (size_t)m, sizeof(int));
    g->adj_edge = gsfw_malloc_array(2 * (size_t)m, sizeof(int));
    int *fill = gsfw_malloc_array((size_t)n + 1, sizeof(int));
    if (!g->adj_ptr || !g->adj_node || !g->adj_edge || !fill) {
        free(fill);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory building a graph with %d nodes "
                         "and %d edges", n, m);
    }
    for (int e = 0; e < m; e++) {
        g->adj_ptr[g->edge_u[e] + 1]++;
        if (g->edge_v[e] != g->edge_u[e]) g->adj_ptr[g->edge_v[e] + 1]++;
    }
    for (int i = 0; i < n; i++) g->adj_ptr[i + 1] += g->adj_ptr[i];
    memcpy(fill, g->adj_ptr, ((size_t)n + 1) * sizeof(int));
    for (int e = 0; e < m; e++) {
        int a = g->edge_u[e], b = g->edge_v[e];
        g->adj_node[fill[a]] = b;
        g->adj_edge[fill[a]++] = e;
        if (a != b) {
            g->adj_node[fill[b]] = a;
            g->adj_edge[fill[b]++] = e;
        }
    }
    free(fill);
    return GSFW_OK;
}

gsfw_error gsfw_graph_from_edges(int n, int m, const int *u, const int *v, const double *cost,
                                 gsfw_graph **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "graph: output pointer is NULL");
    *out = NULL;
    if (n < 0 || m < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "graph: negative size (n = %d, m = %d)", n, m);
    /* the adjacency lists hold both ends of every edge, counted in int */
    if (m > (INT_MAX - 1) / 2)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "graph: %d edges is more than the %d a graph can hold", m,
                         (INT_MAX - 1) / 2);
    if (m > 0 && (!u || !v))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "graph: edge array %s is NULL (m = %d)",
                         !u ? "u" : "v", m);
    /* the PCSF adds costs up (cluster moats, tree costs): a graph whose total cost
     * overflows would turn into inf halfway through a projection */
    double total_cost = 0.0;
    for (int e = 0; e < m; e++) {
        if (u[e] < 0 || u[e] >= n || v[e] < 0 || v[e] >= n)
            return gsfw_fail(err, GSFW_ERR_GRAPH,
                             "edge %d (%d, %d) has a node id outside 0..%d", e, u[e], v[e], n - 1);
        if (cost && (!isfinite(cost[e]) || cost[e] < 0))
            return gsfw_fail(err, GSFW_ERR_GRAPH,
                             "edge %d (%d, %d) has cost %g; costs must be finite and >= 0", e,
                             u[e], v[e], cost[e]);
        if (cost && !isfinite(total_cost += cost[e]))
            return gsfw_fail(err, GSFW_ERR_GRAPH,
                             "edge %d (%d, %d) has cost %.6g, which makes the sum of the "
                             "graph's edge costs overflow; the sum must be finite (rescale the "
                             "costs)", e, u[e], v[e], cost[e]);
    }
    gsfw_graph *g = calloc(1, sizeof *g);
    if (!g) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory");
    g->n = n;
    g->m = m;
    g->edge_u = gsfw_malloc_array((size_t)m, sizeof(int));
    g->edge_v = gsfw_malloc_array((size_t)m, sizeof(int));
    if (cost) g->cost = gsfw_malloc_array((size_t)m, sizeof(double));
    if (!g->edge_u || !g->edge_v || (cost && !g->cost)) {
        gsfw_graph_free(g);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for %d edges", m);
    }
    if (m > 0) {
        memcpy(g->edge_u, u, (size_t)m * sizeof(int));
        memcpy(g->edge_v, v, (size_t)m * sizeof(int));
        if (cost) memcpy(g->cost, cost, (size_t)m * sizeof(double));
    }
    gsfw_error rc = build_csr(g, err);
    if (rc) {
        gsfw_graph_free(g);
        return rc;
    }
    *out = g;
    return GSFW_OK;
}

gsfw_error gsfw_graph_grid(int height, int width, gsfw_graph **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "graph: output pointer is NULL");
    *out = NULL;
    if (height < 1 || width < 1 || (long long)height * width > 200000000LL)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "grid %d x %d: sizes must be >= 1 and the "
                         "node count at most 2e8", height, width);
    int n = height * width;
    long long mm = (long long)height * (width - 1) + (long long)(height - 1) * width;
    int m = (int)mm;
    int *u = gsfw_malloc_array((size_t)m, sizeof(int));
    int *v = gsfw_malloc_array((size_t)m, sizeof(int));
    if (!u || !v) {
        free(u);
        free(v);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a %d x %d grid", height, width);
    }
    int e = 0;
    for (int r = 0; r < height; r++) {
        for (int c = 0; c < width; c++) {
            int i = r * width + c;
            if (c + 1 < width) { u[e] = i; v[e] = i + 1; e++; }
            if (r + 1 < height) { u[e] = i; v[e] = i + width; e++; }
        }
    }
    gsfw_error rc = gsfw_graph_from_edges(n, m, u, v, NULL, out, err);
    free(u);
    free(v);
    return rc;
}

/* Iterative DFS labelling of the nodes selected by mask (all nodes when mask is NULL);
 * stack holds n ints. Returns the number of components; label[i] = -1 outside mask. */
static int label_components(const gsfw_graph *g, const unsigned char *mask, int *label,
                            int *stack)
{
    int count = 0;
    for (int i = 0; i < g->n; i++) label[i] = -1;
    for (int s = 0; s < g->n; s++) {
        if (label[s] >= 0 || (mask && !mask[s])) continue;
        int top = 0;
        stack[top++] = s;
        label[s] = count;
        while (top > 0) {
            int x = stack[--top];
            for (int k = g->adj_ptr[x]; k < g->adj_ptr[x + 1]; k++) {
                int y = g->adj_node[k];
                if (label[y] < 0 && (!mask || mask[y])) {
                    label[y] = count;
                    stack[top++] = y;
                }
            }
        }
        count++;
    }
    return count;
}

gsfw_error gsfw_graph_components(const gsfw_graph *g, int *label, int *count, gsfw_err *err)
{
    if (!g || !label || !count)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "graph components: %s is NULL",
                         !g ? "the graph" : !label ? "label" : "count");
    int *stack = gsfw_malloc_array((size_t)g->n, sizeof(int));
    if (!stack) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory");
    *count = label_components(g, NULL, label, stack);
    free(stack);
    return GSFW_OK;
}

int gsfw_graph_induced_components(const gsfw_graph *g, const unsigned char *mask, int *work)
{
    /* No error channel: -1, which no count can be, answers a NULL graph or work array.
     * (mask NULL selects every node.) */
    if (!g || !work) return -1;
    return label_components(g, mask, work, work + g->n);
}
