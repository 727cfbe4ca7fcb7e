/* Heuristic DMO for the g-subgraph model M(G, s, g) (the paper's App. E, Alg. 2, done
 * with a priority queue as algorithms.md §3.4 recommends):
 *   1. seeds = the g largest |z_i| (linear-time selection);
 *   2. grow best-neighbour-first: a max-heap of frontier nodes keyed by z_i^2; pop the
 *      best, add it to S, push its unvisited neighbours; stop at s nodes or when the
 *      frontier is empty (the seeds' components are exhausted: S may then be smaller).
 *
 * Feasibility: each added node is adjacent to a node already in S, so S stays a union of
 * at most g connected pieces (pieces may merge, which only lowers the count), |S| <= s.
 *
 * Guarantee delta = sqrt(g/s) >= sqrt(1/ceil(s/g)) comes from the seeds alone: with
 * a = sum of the seeds' z^2 and m = their smallest z^2 <= a/g, any S' in M has
 * ||z_S'||^2 <= a + (s-g) m <= (s/g) a. Growth only adds non-negative mass.
 *
 * Cost O(d + m log d) per call, no allocation (heap, flags and selection scratch are
 * sized to the graph at construction). Ties are broken towards smaller node ids both in
 * the seeds and in the heap, so the answer is a function of z only. */
#include "oracles/dmo_internal.h"
#include "util/select.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { NODE_UNSEEN = 0, NODE_FRONTIER = 1, NODE_IN_S = 2 };

typedef struct {
    const gsfw_graph *graph;
    int s;
    int g;
    int *work;            /* n ints: selection scratch */
    int *heap;            /* n ints: binary max-heap of frontier node ids */
    unsigned char *state; /* n flags: NODE_* */
    char model[96];
} subgraph_ctx;

/* Heap order: larger |z| first, then smaller id (the same order as the seed selection). */
static void heap_push(int *heap, int *len, const double *z, int node)
{
    int i = (*len)++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!gsfw_abs_before(z, node, heap[parent])) break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = node;
}

static int heap_pop(int *heap, int *len, const double *z)
{
    int top = heap[0];
    int last = heap[--(*len)];
    int n = *len, i = 0;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && gsfw_abs_before(z, heap[child + 1], heap[child])) child++;
        if (!gsfw_abs_before(z, heap[child], last)) break;
        heap[i] = heap[child];
        i = child;
    }
    if (n > 0) heap[i] = last;
    return top;
}

/* Put node into S and its unseen neighbours on the frontier. */
static void add_node(subgraph_ctx *c, const double *z, int node, int *support, int *size,
                     int *heap_len)
{
    const gsfw_graph *G = c->graph;
    c->state[node] = NODE_IN_S;
    support[(*size)++] = node;
    for (int k = G->adj_ptr[node]; k < G->adj_ptr[node + 1]; k++) {
        int nb = G->adj_node[k];
        if (c->state[nb] == NODE_UNSEEN) {
            c->state[nb] = NODE_FRONTIER;
            heap_push(c->heap, heap_len, z, nb);
        }
    }
}

static int subgraph_select(void *vctx, const double *z, int *support, int *size,
                           gsfw_dmo_stats *stats)
{
    (void)stats;
    subgraph_ctx *c = vctx;
    int n = c->graph->n;
    if (!gsfw_all_finite(z, (size_t)n)) return GSFW_DMO_BAD_INPUT;
    memset(c->state, NODE_UNSEEN, (size_t)n);

    /* Mark all seeds first so that a seed adjacent to another is not pushed as frontier. */
    gsfw_select_top_abs(z, n, c->g, c->work, c->work);
    for (int i = 0; i < c->g; i++) c->state[c->work[i]] = NODE_IN_S;
    int heap_len = 0;
    *size = 0;
    for (int i = 0; i < c->g; i++) add_node(c, z, c->work[i], support, size, &heap_len);

    while (*size < c->s && heap_len > 0) {
        int best = heap_pop(c->heap, &heap_len, z);
        add_node(c, z, best, support, size, &heap_len);
    }
    return 0;
}

static void subgraph_destroy(gsfw_dmo *dmo)
{
    if (!dmo) return;
    subgraph_ctx *c = dmo->ctx;
    if (c) {
        free(c->work);
        free(c->heap);
        free(c->state);
    }
    gsfw_dmo_release(dmo);
}

static int subgraph_contains(void *ctx, const int *support, int size)
{
    subgraph_ctx *c = ctx;
    return gsfw_dmo_contains_graph(c->graph, c->s, c->g, support, size);
}

gsfw_error gsfw_dmo_subgraph(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                             gsfw_err *err)
{
    static const char who[] = "subgraph DMO";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: output pointer is NULL", who);
    *out = NULL;
    gsfw_error rc = gsfw_dmo_check_graph(who, g, err);
    if (!rc) rc = gsfw_dmo_check_sparsity(who, s, g->n, "number of nodes", err);
    if (!rc) rc = gsfw_dmo_check_components(who, g_components, s, err);
    if (rc) return rc;
    gsfw_dmo *dmo;
    rc = gsfw_dmo_new(g->n, s, sqrt((double)g_components / (double)s), "subgraph", NULL,
                      sizeof(subgraph_ctx), subgraph_select, subgraph_destroy, &dmo, err);
    if (rc) return rc;
    subgraph_ctx *c = dmo->ctx;
    dmo->contains = subgraph_contains;
    dmo->model_size = s;
    c->graph = g;
    c->s = s;
    c->g = g_components;
    snprintf(c->model, sizeof c->model, "M(G, s=%d, g=%d): <= s nodes in <= g connected pieces",
             s, g_components);
    dmo->model = c->model;
    c->work = gsfw_malloc_array((size_t)g->n, sizeof(int));
    c->heap = gsfw_malloc_array((size_t)g->n, sizeof(int));
    c->state = gsfw_malloc_array((size_t)g->n, 1);
    if (!c->work || !c->heap || !c->state) {
        subgraph_destroy(dmo);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for %d nodes", who, g->n);
    }
    *out = dmo;
    return GSFW_OK;
}

static gsfw_error subgraph_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    return gsfw_dmo_subgraph(spec->graph, spec->s, spec->g, out, err);
}

const gsfw_entry gsfw_entry_model_subgraph = {
    GSFW_KIND_MODEL, "subgraph",
    "M(G, s, g): top-g seeds grown best-neighbour-first (delta = sqrt(g/s))", "s g",
    GSFW_NEEDS_GRAPH, 0, &(const gsfw_model_def){.build = subgraph_build}, NULL};
