/* Prize-collecting Steiner forest: the API, the workspace's memory and the validation of
 * the input. The Goemans-Williamson growth phase is in pcsf_grow.c (pairing heaps with
 * lazy offsets: pcsf_heap.c; the event queue: pcsf_queue.c), the prunings in
 * pcsf_prune.c. Compatible with pcst_fast, ties included (docs/pcsf.md).
 *
 * Memory: one workspace holds every array; arrays grow to the largest instance seen and
 * are reused, so a run on an instance no larger than an earlier one allocates nothing.
 * The heaps' arena starts at ARENA_PER_PART records per edge part and grows during a run
 * only when an input needs more (the workspace keeps the larger arena). */
#include "oracles/pcsf/pcsf_ws.h"
#include "oracles/pcsf/pcsf_mem.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

int gsfw_pruning_parse(const char *name)
{
    if (!name) return -1;
    if (!strcasecmp(name, "none")) return GSFW_PRUNING_NONE;
    if (!strcasecmp(name, "simple")) return GSFW_PRUNING_SIMPLE;
    if (!strcasecmp(name, "gw")) return GSFW_PRUNING_GW;
    if (!strcasecmp(name, "strong")) return GSFW_PRUNING_STRONG;
    return -1;
}

#define big_alloc gsfw_pcsf_big_alloc

/* Initial size of the heaps' chunk arena, in slots per edge: the benchmark grids peak
 * at 6.6 (docs/benchmarks.md); other inputs may grow it (once per workspace size). */
#define PH_SLOTS_PER_EDGE 7

gsfw_error gsfw_pcsf_create(gsfw_pcsf **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pcsf: output pointer is NULL");
    *out = calloc(1, sizeof **out);
    if (!*out) return gsfw_fail(err, GSFW_ERR_NOMEM, "pcsf: out of memory");
    (*out)->eps = GSFW_PCSF_DEFAULT_TOLERANCE;
    gsfw_err_clear(err);
    return GSFW_OK;
}

gsfw_error gsfw_pcsf_set_tolerance(gsfw_pcsf *ws, double eps, gsfw_err *err)
{
    if (!ws) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pcsf: workspace is NULL");
    if (!(eps >= 0.0 && eps < 1.0))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "pcsf: merge tolerance %g is outside [0, 1)", eps);
    ws->eps = eps;
    gsfw_err_clear(err);
    return GSFW_OK;
}

static void free_node_arrays(gsfw_pcsf *ws)
{
    free(ws->trail);
    free(ws->trail_acc);
    ws->trail = NULL;
    ws->trail_acc = NULL;
    free(ws->cl);
    free(ws->ci);
    gsfw_evq_free(&ws->q);
    free(ws->l1_part);
    free(ws->l1_rec);
    free(ws->nflag);
    ws->cl = NULL;
    ws->ci = NULL;
    ws->l1_part = ws->l1_rec = NULL;
    ws->nflag = NULL;
    ws->cap_n = 0;
}

static void free_edge_arrays(gsfw_pcsf *ws)
{
    free(ws->nd);
    ws->nd = NULL;
    free(ws->target);
    ws->target = NULL;
    ws->cap_m = 0;
}

void gsfw_pcsf_free(gsfw_pcsf *ws)
{
    if (!ws) return;
    free_node_arrays(ws);
    free_edge_arrays(ws);
    free(ws->prune_own);
    gsfw_ph_free(&ws->ph);
    free(ws);
}

size_t gsfw_pcsf_bytes(const gsfw_pcsf *ws)
{
    size_t n = (size_t)ws->cap_n, m = (size_t)ws->cap_m;
    return 2 * m * (sizeof(gsfw_ph_node) + sizeof(double)) + gsfw_ph_bytes(&ws->ph) +
           ws->prune_own_bytes + gsfw_evq_bytes(&ws->q) +
           2 * n * (sizeof(pc_cluster) + sizeof(int) + sizeof(double)) +
           n * (sizeof(pc_info) + 2 * sizeof(int) + 1);
}

void gsfw_pcsf_get_stats(const gsfw_pcsf *ws, gsfw_pcsf_stats *stats) { *stats = ws->stats; }

/* Bytes of the pruning scratch for n nodes (doubles first, so every array is aligned). */
static size_t pruning_bytes(size_t n)
{
    return 2 * n * sizeof(double) + (15 * n + 2) * sizeof(int);
}

static size_t nodes_bytes(const gsfw_pcsf *ws)
{
    return 2 * (size_t)ws->cap_m * sizeof(gsfw_ph_node);
}

static int own_pruning_block(gsfw_pcsf *ws, size_t need)
{
    free(ws->prune_own);
    ws->prune_own = malloc(need);
    ws->prune_own_bytes = ws->prune_own ? need : 0;
    return ws->prune_own ? 0 : -1;
}

/* Point the pruning arrays into memory that is free after the growth phase: the heap
 * nodes (64 bytes per edge against 76 bytes per node: enough when m >= 1.2 n, as on grids)
 * or, for sparser inputs, a workspace-owned block allocated by reserve() (so that running
 * out of memory is reported before any work). */
static void carve_pruning(gsfw_pcsf *ws, int n)
{
    size_t N = (size_t)n, need = pruning_bytes(N);
    char *base = nodes_bytes(ws) >= need ? (char *)ws->nd : ws->prune_own;
    ws->parc = (double *)(void *)base;
    ws->payoff = ws->parc + N;
    int *ip = (int *)(void *)(ws->payoff + N);
    ws->l2 = ip;
    ip += N;
    ws->adj_ptr = ip;
    ip += N + 1;
    ws->adj_node = ip;
    ip += 2 * N;
    ws->adj_edge = ip;
    ip += 2 * N;
    ws->par = ip;
    ip += N;
    ws->stack = ip;
    ip += 2 * N;
    ws->queue = ip;
    ip += N;
    ws->comp_label = ip;
    ip += N;
    ws->comp_nodes = ip;
    ip += N;
    ws->comp_start = ip;
    ip += N + 1;
    ws->top = ip;
}

/* Make room for n nodes and m edges (contents are not preserved). */
static gsfw_error reserve(gsfw_pcsf *ws, int n, int m, gsfw_err *err)
{
    const int fresh_m = m > ws->cap_m, fresh_n = n > ws->cap_n;
    if (fresh_m) {
        free_edge_arrays(ws);
        ws->nd = big_alloc(2 * (size_t)m, sizeof(gsfw_ph_node));
        ws->target = big_alloc(2 * (size_t)m, sizeof(double));
        /* a root has fewer than 2m children; the arena starts at PH_SLOTS_PER_EDGE
         * slots per edge and grows if an input needs more */
        if (!ws->nd || !ws->target ||
            gsfw_ph_reserve(&ws->ph, 2 * (size_t)m, PH_SLOTS_PER_EDGE * (size_t)m)) {
            free_edge_arrays(ws);
            return gsfw_fail(err, GSFW_ERR_NOMEM, "pcsf: out of memory for %d edges", m);
        }
        ws->cap_m = m;
    }
    if (fresh_n) {
        free_node_arrays(ws);
        size_t N = (size_t)n;
        ws->cl = big_alloc(2 * N, sizeof(pc_cluster));
        ws->ci = big_alloc(N, sizeof(pc_info));
        /* plain pages, touched as deep as the coverage walks go (and, before them, as
         * far as the first deactivations' sort needs) */
        ws->trail = gsfw_malloc_array(2 * N, sizeof(int));
        ws->trail_acc = gsfw_malloc_array(2 * N, sizeof(double));
        ws->l1_part = gsfw_malloc_array(N, sizeof(int));
        ws->l1_rec = gsfw_malloc_array(N, sizeof(int));
        ws->nflag = gsfw_malloc_array(N, 1);
        int bad = !ws->cl || !ws->ci || !ws->trail || !ws->trail_acc || !ws->l1_part ||
                  !ws->l1_rec || !ws->nflag ||
                  n > (1 << 30) || gsfw_evq_reserve(&ws->q, 2 * n);
        if (bad) {
            free_node_arrays(ws);
            return gsfw_fail(err, GSFW_ERR_NOMEM, "pcsf: out of memory for %d nodes", n);
        }
        ws->cap_n = n;
    }
    /* the pruning's arrays, when the heaps' arena cannot hold them after the growth */
    size_t need = pruning_bytes((size_t)n);
    if ((nodes_bytes(ws) < need && ws->prune_own_bytes < need &&
         own_pruning_block(ws, need)))
        return gsfw_fail(err, GSFW_ERR_NOMEM, "pcsf: out of memory for %d nodes", n);
    /* Map the fresh arrays the run writes, one system call each, instead of page faults
     * spread over the run, whose cost on this VM varies with the kernel's supply of huge
     * pages: the median does not move, the slow runs go (docs/benchmarks.md). */
    if (fresh_m) {
        gsfw_pcsf_populate(ws->nd, 2 * (size_t)m * sizeof(gsfw_ph_node));
        gsfw_pcsf_populate(ws->target, 2 * (size_t)m * sizeof(double));
    }
    if (fresh_n) {
        size_t N = (size_t)n;
        gsfw_pcsf_populate(ws->cl, 2 * N * sizeof(pc_cluster));
        gsfw_pcsf_populate(ws->ci, N * sizeof(pc_info));
        gsfw_pcsf_populate(ws->l1_part, N * sizeof(int));
        gsfw_pcsf_populate(ws->l1_rec, N * sizeof(int));
    }
    return GSFW_OK;
}

/* ------------------------------------------------------------- API */

static gsfw_error validate(int n, int m, const int *eu, const int *ev, const double *prizes,
                           const double *costs, int root, int target, gsfw_pruning pruning,
                           gsfw_err *err)
{
    if (n < 0) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pcsf: node count %d is negative", n);
    if (m < 0) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pcsf: edge count %d is negative", m);
    if (n > (1 << 29) || m > (1 << 29))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "pcsf: instance too large (%d nodes, %d edges; limit 2^29)", n, m);
    if (m > 0 && (!eu || !ev))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pcsf: edge arrays are NULL");
    if (n > 0 && !prizes) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pcsf: prizes are NULL");
    if ((int)pruning < GSFW_PRUNING_NONE || (int)pruning > GSFW_PRUNING_STRONG)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "pcsf: unknown pruning %d (none, simple, gw or strong)", (int)pruning);
    if (root < -1 || root >= n)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "pcsf: root %d is out of range (-1 for unrooted, or 0..%d)", root,
                         n - 1);
    if (target < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "pcsf: target number of clusters %d is negative", target);
    if (root >= 0 && target != 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "pcsf: a rooted run (root %d) needs target clusters = 0, got %d", root,
                         target);
    for (int i = 0; i < n; i++) {
        if (!isfinite(prizes[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE,
                             "pcsf: prize of node %d is %g; prizes must be finite", i, prizes[i]);
        if (prizes[i] < 0)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                             "pcsf: prize of node %d is %g; prizes must be >= 0", i, prizes[i]);
    }
    for (int e = 0; e < m; e++) {
        if (eu[e] < 0 || eu[e] >= n || ev[e] < 0 || ev[e] >= n)
            return gsfw_fail(err, GSFW_ERR_GRAPH,
                             "pcsf: edge %d (%d, %d) has a node id outside 0..%d", e, eu[e],
                             ev[e], n - 1);
        if (costs) {
            if (!isfinite(costs[e]))
                return gsfw_fail(err, GSFW_ERR_NONFINITE,
                                 "pcsf: cost of edge %d (%d, %d) is %g; costs must be finite",
                                 e, eu[e], ev[e], costs[e]);
            if (costs[e] < 0)
                return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                                 "pcsf: cost of edge %d (%d, %d) is %g; costs must be >= 0", e,
                                 eu[e], ev[e], costs[e]);
        }
    }
    return GSFW_OK;
}

gsfw_error gsfw_pcsf_run(gsfw_pcsf *ws, int n, int m, const int *edge_u, const int *edge_v,
                         const double *prizes, const double *costs, int root,
                         int target_clusters, gsfw_pruning pruning, int *out_nodes,
                         int *n_out_nodes, int *out_edges, int *n_out_edges, gsfw_err *err)
{
    if (!ws) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pcsf: workspace is NULL");
    if (!n_out_nodes || !n_out_edges || (n > 0 && !out_nodes) || (m > 0 && !out_edges))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pcsf: output %s is NULL",
                         !n_out_nodes ? "n_out_nodes" : !n_out_edges ? "n_out_edges"
                         : n > 0 && !out_nodes ? "out_nodes" : "out_edges");
    *n_out_nodes = 0;
    *n_out_edges = 0;
    gsfw_error rc = validate(n, m, edge_u, edge_v, prizes, costs, root, target_clusters,
                             pruning, err);
    if (rc) return rc;
    memset(&ws->stats, 0, sizeof ws->stats);
    if (n == 0) {
        gsfw_err_clear(err);
        return GSFW_OK;
    }
    rc = reserve(ws, n, m, err);
    if (rc) return rc;
    rc = gsfw_pcsf_grow(ws, n, m, edge_u, edge_v, prizes, costs, root, target_clusters, err);
    if (rc) return rc;
    carve_pruning(ws, n);
    gsfw_pcsf_prune(ws, n, edge_u, edge_v, prizes, costs, root, pruning, out_nodes,
                    n_out_nodes, out_edges, n_out_edges);
    gsfw_err_clear(err);
    return GSFW_OK;
}
