/* The prunings of the PCSF (docs/pcsf.md): none, simple, GW and strong, on the merge
 * edges L1 of the growth phase and its good nodes, with pcst_fast's visiting orders. */
#include "oracles/pcsf/pcsf_ws.h"

#include <string.h>

static inline int l1_edge(const gsfw_pcsf *ws, int k) { return ws->l1_part[k] >> 1; }

/* Mark good nodes (docs/pcsf.md 2.7). Parents always have larger ids than children, so
 * one pass over the clusters in decreasing id order finds every top-level ancestor. */
static void mark_good(gsfw_pcsf *ws, int n, int root)
{
    int *top = ws->top;
    pc_cluster *cl = ws->cl;
    for (int x = ws->n_clusters - 1; x >= 0; x--) top[x] = cl[x].parent < 0 ? x : top[cl[x].parent];
    long good = 0;
    for (int v = 0; v < n; v++) {
        const pc_cluster *t = &cl[top[v]];
        int is_good = root >= 0 ? t->u.t.has_root : t->u.t.active;
        ws->nflag[v] = (unsigned char)(is_good ? NF_GOOD : 0);
        good += is_good;
    }
    ws->stats.good_nodes = good;
}

/* Adjacency of the L2 forest, neighbours in L2 order (both endpoints get every edge). */
static void build_l2_adjacency(gsfw_pcsf *ws, int n, const int *eu, const int *ev, int n_l2)
{
    int *ptr = ws->adj_ptr;
    memset(ptr, 0, ((size_t)n + 1) * sizeof(int));
    for (int k = 0; k < n_l2; k++) {
        int e = l1_edge(ws, ws->l2[k]);
        ptr[eu[e] + 1]++;
        ptr[ev[e] + 1]++;
    }
    for (int i = 0; i < n; i++) ptr[i + 1] += ptr[i];
    int *fill = ws->queue; /* scratch */
    memcpy(fill, ptr, (size_t)n * sizeof(int));
    for (int k = 0; k < n_l2; k++) {
        int e = l1_edge(ws, ws->l2[k]);
        int a = eu[e], b = ev[e];
        ws->adj_node[fill[a]] = b;
        ws->adj_edge[fill[a]++] = e;
        ws->adj_node[fill[b]] = a;
        ws->adj_edge[fill[b]++] = e;
    }
}

/* Delete start and everything reachable in L2 without stepping onto avoid (BFS). */
static void delete_subtree(gsfw_pcsf *ws, int start, int avoid)
{
    int *queue = ws->queue;
    unsigned char *f = ws->nflag;
    int head = 0, tail = 0;
    f[start] |= NF_DELETED;
    queue[tail++] = start;
    while (head < tail) {
        int v = queue[head++];
        for (int k = ws->adj_ptr[v]; k < ws->adj_ptr[v + 1]; k++) {
            int w = ws->adj_node[k];
            if (w == avoid || (f[w] & NF_DELETED)) continue;
            f[w] |= NF_DELETED;
            queue[tail++] = w;
        }
    }
}

static void mark_needed(pc_cluster *cl, int x)
{
    while (!cl[x].u.t.needed) {
        cl[x].u.t.needed = 1;
        if (cl[x].parent < 0) return;
        x = cl[x].parent;
    }
}

static void gw_prune(gsfw_pcsf *ws, const int *eu, const int *ev, int n_l2, int *out_edges,
                     int *n_out_edges)
{
    pc_cluster *cl = ws->cl;
    unsigned char *f = ws->nflag;
    int ne = 0;
    for (int x = 0; x < ws->n_clusters; x++) cl[x].u.t.needed = 0;
    for (int k = n_l2 - 1; k >= 0; k--) {
        int pos = ws->l2[k];
        int p = ws->l1_part[pos];
        int e = p >> 1, u = eu[e], v = ev[e];
        if ((f[u] & NF_DELETED) && (f[v] & NF_DELETED)) continue;
        int rec = ws->l1_rec[pos];
        if (rec < 0) {
            mark_needed(cl, u);
            mark_needed(cl, v);
            out_edges[ne++] = e;
        } else {
            int act = (p & 1) ? v : u;
            int inact = (p & 1) ? u : v;
            if (cl[rec].u.t.needed) {
                out_edges[ne++] = e;
                mark_needed(cl, inact);
                mark_needed(cl, act);
            } else {
                delete_subtree(ws, inact, act);
            }
        }
    }
    *n_out_edges = ne;
}

/* Post-order DFS from s over L2 computing pay(v) = prize + sum of positive child nets;
 * children with net <= 0 are deleted when del. Iterative: stack entries 2v (enter) and
 * 2v+1 (leave). Returns pay(s). */
static double prune_from(gsfw_pcsf *ws, const double *prizes, const double *cost, int s,
                         int del)
{
    int *stack = ws->stack, *par = ws->par;
    double *parc = ws->parc, *pay = ws->payoff;
    int sp = 0;
    par[s] = -1;
    parc[s] = 0.0;
    stack[sp++] = 2 * s;
    while (sp > 0) {
        int top = stack[--sp];
        int v = top >> 1;
        if (!(top & 1)) {
            stack[sp++] = 2 * v + 1;
            for (int k = ws->adj_ptr[v]; k < ws->adj_ptr[v + 1]; k++) {
                int w = ws->adj_node[k];
                if (w == par[v]) continue;
                par[w] = v;
                parc[w] = edge_cost(cost, ws->adj_edge[k]);
                stack[sp++] = 2 * w;
            }
        } else {
            pay[v] = prizes[v];
            for (int k = ws->adj_ptr[v]; k < ws->adj_ptr[v + 1]; k++) {
                int w = ws->adj_node[k];
                if (w == par[v]) continue;
                double net = pay[w] - edge_cost(cost, ws->adj_edge[k]);
                if (net <= 0.0) {
                    if (del) delete_subtree(ws, w, v);
                } else {
                    pay[v] += net;
                }
            }
        }
    }
    return pay[s];
}

/* Re-rooting DP: the node whose whole-tree value is largest (first strict maximum in
 * the DFS order from the component's first node). */
static int best_root(gsfw_pcsf *ws, const double *prizes, const double *cost, int s0)
{
    double best_val = prune_from(ws, prizes, cost, s0, 0);
    int best = s0;
    int *stack = ws->stack, *par = ws->par;
    double *parc = ws->parc, *pay = ws->payoff;
    int sp = 0;
    for (int k = ws->adj_ptr[s0]; k < ws->adj_ptr[s0 + 1]; k++) stack[sp++] = ws->adj_node[k];
    while (sp > 0) {
        int w = stack[--sp];
        int v = par[w];
        double c = parc[w];
        double up = pay[v];
        double net = pay[w] - c;
        if (net > 0.0) up -= net;
        if (up > c) pay[w] += up - c;
        if (pay[w] > best_val) {
            best = w;
            best_val = pay[w];
        }
        for (int k = ws->adj_ptr[w]; k < ws->adj_ptr[w + 1]; k++) {
            int x = ws->adj_node[k];
            if (x != v) stack[sp++] = x;
        }
    }
    return best;
}

static void strong_prune(gsfw_pcsf *ws, int n, const int *eu, const double *prizes,
                         const double *cost, int root, int n_l2)
{
    int *label = ws->comp_label, *nodes = ws->comp_nodes, *start = ws->comp_start;
    for (int v = 0; v < n; v++) label[v] = -1;
    int ncomp = 0, nn = 0, root_comp = -1;
    for (int k = 0; k < n_l2; k++) {
        int s = eu[l1_edge(ws, ws->l2[k])];
        if (label[s] >= 0) continue;
        start[ncomp] = nn;
        int head = nn;
        label[s] = ncomp;
        nodes[nn++] = s;
        while (head < nn) {
            int v = nodes[head++];
            if (v == root) root_comp = ncomp;
            for (int j = ws->adj_ptr[v]; j < ws->adj_ptr[v + 1]; j++) {
                int w = ws->adj_node[j];
                if (label[w] >= 0) continue;
                label[w] = ncomp;
                nodes[nn++] = w;
            }
        }
        ncomp++;
    }
    start[ncomp] = nn;
    for (int k = 0; k < ncomp; k++) {
        int s = k == root_comp ? root : best_root(ws, prizes, cost, nodes[start[k]]);
        prune_from(ws, prizes, cost, s, 1);
    }
}

void gsfw_pcsf_prune(gsfw_pcsf *ws, int n, const int *eu, const int *ev, const double *prizes,
                     const double *cost, int root, gsfw_pruning pruning, int *out_nodes,
                     int *n_out_nodes, int *out_edges, int *n_out_edges)
{
    unsigned char *f = ws->nflag;
    mark_good(ws, n, root);
    int nn = 0, ne = 0;
    if (pruning == GSFW_PRUNING_NONE) {
        for (int k = 0; k < ws->n_l1; k++) {
            int e = l1_edge(ws, k);
            out_edges[ne++] = e;
            if (!(f[eu[e]] & NF_LISTED)) {
                f[eu[e]] |= NF_LISTED;
                out_nodes[nn++] = eu[e];
            }
            if (!(f[ev[e]] & NF_LISTED)) {
                f[ev[e]] |= NF_LISTED;
                out_nodes[nn++] = ev[e];
            }
        }
        for (int v = 0; v < n; v++)
            if ((f[v] & (NF_GOOD | NF_LISTED)) == NF_GOOD) out_nodes[nn++] = v;
        *n_out_nodes = nn;
        *n_out_edges = ne;
        return;
    }
    int n_l2 = 0;
    for (int k = 0; k < ws->n_l1; k++) {
        int e = l1_edge(ws, k);
        if ((f[eu[e]] & NF_GOOD) && (f[ev[e]] & NF_GOOD)) ws->l2[n_l2++] = k;
    }
    if (pruning == GSFW_PRUNING_SIMPLE) {
        for (int k = 0; k < n_l2; k++) out_edges[ne++] = l1_edge(ws, ws->l2[k]);
    } else {
        build_l2_adjacency(ws, n, eu, ev, n_l2);
        if (pruning == GSFW_PRUNING_GW) {
            gw_prune(ws, eu, ev, n_l2, out_edges, &ne);
        } else {
            strong_prune(ws, n, eu, prizes, cost, root, n_l2);
            for (int k = 0; k < n_l2; k++) {
                int e = l1_edge(ws, ws->l2[k]);
                if (!(f[eu[e]] & NF_DELETED) && !(f[ev[e]] & NF_DELETED)) out_edges[ne++] = e;
            }
        }
    }
    for (int v = 0; v < n; v++)
        if ((f[v] & (NF_GOOD | NF_DELETED)) == NF_GOOD) out_nodes[nn++] = v;
    *n_out_nodes = nn;
    *n_out_edges = ne;
}
