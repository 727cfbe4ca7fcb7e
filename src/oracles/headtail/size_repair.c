/* Size repair of the practical head / tail projections: grow or prune a forest into the
 * size window (size_repair.h), and the projection's use of it (the closest forests the
 * lambda-search saw, the best candidate). Greedy and deterministic: ties in the prize go
 * to the smallest node id. */
#include "oracles/headtail/headtail_util.h"

#include <string.h>

struct gsfw_size_repair {
    int n;
    const int *edge_u, *edge_v;
    const int *adj_ptr, *adj_node, *adj_edge; /* the graph's CSR, or own_* */
    int *own_ptr, *own_node, *own_edge;
    int *label;          /* n: component of each node */
    int *comp_rank;      /* per component: rank by size (descending, ties by label) */
    long *reach;         /* ncomp + 1: nodes in the k largest components */
    int ncomp;
    unsigned char *member; /* n */
    int *uf;             /* n: union-find parents of members */
    int *heap, *pos;     /* n each: indexed binary heap (pos -1: not in the heap) */
    int heap_n;
    int heap_max;        /* 1: largest prize on top; 0: smallest */
    const double *prize; /* the prizes of the current call */
    int *deg;            /* n: degree in the forest being pruned */
    int *fptr, *fnode;   /* n + 1, 2n: adjacency of that forest */
    int *all;            /* n: binary heap of every node, largest prize on top (grow) */
    double *comp_sum;    /* ncomp: prize sum per component */
};

void gsfw_size_repair_free(gsfw_size_repair *r)
{
    if (!r) return;
    free(r->own_ptr);
    free(r->own_node);
    free(r->own_edge);
    free(r->label);
    free(r->comp_rank);
    free(r->reach);
    free(r->member);
    free(r->uf);
    free(r->heap);
    free(r->pos);
    free(r->deg);
    free(r->fptr);
    free(r->fnode);
    free(r->all);
    free(r->comp_sum);
    free(r);
}

static int cmp_comp_size(const void *a, const void *b)
{
    const int *x = a, *y = b; /* {size, label} pairs */
    if (x[0] != y[0]) return x[0] > y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* CSR from the edge arrays, for a graph filled by hand without one. */
static int build_own_csr(gsfw_size_repair *r, const gsfw_graph *g)
{
    size_t n = (size_t)g->n, m = (size_t)g->m;
    r->own_ptr = gsfw_calloc_array(n + 1, sizeof(int));
    r->own_node = gsfw_malloc_array(2 * m + 1, sizeof(int));
    r->own_edge = gsfw_malloc_array(2 * m + 1, sizeof(int));
    if (!r->own_ptr || !r->own_node || !r->own_edge) return 0;
    for (int e = 0; e < g->m; e++) {
        r->own_ptr[g->edge_u[e] + 1]++;
        r->own_ptr[g->edge_v[e] + 1]++;
    }
    for (int i = 0; i < g->n; i++) r->own_ptr[i + 1] += r->own_ptr[i];
    int *fill = r->uf; /* scratch: n ints, allocated before */
    memcpy(fill, r->own_ptr, n * sizeof(int));
    for (int e = 0; e < g->m; e++) {
        int a = g->edge_u[e], b = g->edge_v[e];
        r->own_node[fill[a]] = b;
        r->own_edge[fill[a]++] = e;
        r->own_node[fill[b]] = a;
        r->own_edge[fill[b]++] = e;
    }
    r->adj_ptr = r->own_ptr;
    r->adj_node = r->own_node;
    r->adj_edge = r->own_edge;
    return 1;
}

/* Component labels, and the components ranked by size. */
static int rank_components(gsfw_size_repair *r)
{
    int n = r->n, *stack = r->heap;
    for (int i = 0; i < n; i++) r->label[i] = -1;
    int c = 0;
    for (int s = 0; s < n; s++) {
        if (r->label[s] >= 0) continue;
        int top = 0;
        stack[top++] = s;
        r->label[s] = c;
        while (top > 0) {
            int x = stack[--top];
            for (int k = r->adj_ptr[x]; k < r->adj_ptr[x + 1]; k++) {
                int y = r->adj_node[k];
                if (r->label[y] < 0) {
                    r->label[y] = c;
                    stack[top++] = y;
                }
            }
        }
        c++;
    }
    r->ncomp = c;
    int *pairs = gsfw_calloc_array(2 * (size_t)c, sizeof(int));
    r->comp_rank = gsfw_malloc_array((size_t)c, sizeof(int));
    r->comp_sum = gsfw_malloc_array((size_t)c, sizeof(double));
    r->reach = gsfw_malloc_array((size_t)c + 1, sizeof(long));
    if (!pairs || !r->comp_rank || !r->reach || !r->comp_sum) {
        free(pairs);
        return 0;
    }
    for (int k = 0; k < c; k++) pairs[2 * k + 1] = k;
    for (int i = 0; i < n; i++) pairs[2 * r->label[i]]++;
    qsort(pairs, (size_t)c, 2 * sizeof(int), cmp_comp_size);
    r->reach[0] = 0;
    for (int k = 0; k < c; k++) {
        r->comp_rank[pairs[2 * k + 1]] = k;
        r->reach[k + 1] = r->reach[k] + pairs[2 * k];
    }
    free(pairs);
    return 1;
}

gsfw_error gsfw_size_repair_create(const gsfw_graph *g, gsfw_size_repair **out, gsfw_err *err)
{
    *out = NULL;
    gsfw_size_repair *r = calloc(1, sizeof *r);
    if (!r) return gsfw_fail(err, GSFW_ERR_NOMEM, "projection: out of memory");
    size_t n = (size_t)g->n;
    r->n = g->n;
    r->edge_u = g->edge_u;
    r->edge_v = g->edge_v;
    r->label = gsfw_malloc_array(n, sizeof(int));
    r->member = gsfw_calloc_array(n, 1);
    r->uf = gsfw_malloc_array(n, sizeof(int));
    r->heap = gsfw_malloc_array(n, sizeof(int));
    r->pos = gsfw_malloc_array(n, sizeof(int));
    r->deg = gsfw_malloc_array(n, sizeof(int));
    r->fptr = gsfw_malloc_array(n + 1, sizeof(int));
    r->fnode = gsfw_malloc_array(2 * n, sizeof(int));
    r->all = gsfw_malloc_array(n, sizeof(int));
    int ok = r->label && r->member && r->uf && r->heap && r->pos && r->deg && r->fptr &&
             r->fnode && r->all;
    if (ok && g->adj_ptr && (g->m == 0 || (g->adj_node && g->adj_edge))) {
        r->adj_ptr = g->adj_ptr;
        r->adj_node = g->adj_node;
        r->adj_edge = g->adj_edge;
    } else if (ok) {
        ok = build_own_csr(r, g);
    }
    if (ok) ok = rank_components(r);
    if (!ok) {
        gsfw_size_repair_free(r);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "projection: out of memory for the size repair "
                         "(%d nodes, %d edges)", g->n, g->m);
    }
    *out = r;
    return GSFW_OK;
}

long gsfw_size_repair_reachable(const gsfw_size_repair *r, int gc)
{
    return r->reach[gc < r->ncomp ? gc : r->ncomp];
}

int gsfw_size_repair_components(const gsfw_size_repair *r)
{
    return r->ncomp;
}

/* ------------------------------------------------------------ indexed heap */

/* a comes before b: larger (or, for the min-heap, smaller) prize, then smaller id */
static int heap_before(const gsfw_size_repair *r, int a, int b)
{
    double pa = r->prize[a], pb = r->prize[b];
    if (pa != pb) return r->heap_max ? pa > pb : pa < pb;
    return a < b;
}

static void heap_place(gsfw_size_repair *r, int i, int v)
{
    r->heap[i] = v;
    r->pos[v] = i;
}

static void heap_up(gsfw_size_repair *r, int i)
{
    int v = r->heap[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!heap_before(r, v, r->heap[p])) break;
        heap_place(r, i, r->heap[p]);
        i = p;
    }
    heap_place(r, i, v);
}

static void heap_down(gsfw_size_repair *r, int i)
{
    int v = r->heap[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= r->heap_n) break;
        if (c + 1 < r->heap_n && heap_before(r, r->heap[c + 1], r->heap[c])) c++;
        if (!heap_before(r, r->heap[c], v)) break;
        heap_place(r, i, r->heap[c]);
        i = c;
    }
    heap_place(r, i, v);
}

static void heap_push(gsfw_size_repair *r, int v)
{
    r->heap[r->heap_n] = v;
    r->pos[v] = r->heap_n++;
    heap_up(r, r->heap_n - 1);
}

static void heap_remove(gsfw_size_repair *r, int v)
{
    int i = r->pos[v];
    r->pos[v] = -1;
    int last = r->heap[--r->heap_n];
    if (i == r->heap_n) return;
    heap_place(r, i, last);
    heap_up(r, i);
    heap_down(r, r->pos[last]);
}

static void heap_reset(gsfw_size_repair *r, const double *prize, int heap_max)
{
    for (int i = 0; i < r->n; i++) r->pos[i] = -1;
    r->heap_n = 0;
    r->heap_max = heap_max;
    r->prize = prize;
}

/* -------------------------------------------------------------- union-find */

static int uf_find(int *uf, int v)
{
    while (uf[v] != v) {
        uf[v] = uf[uf[v]];
        v = uf[v];
    }
    return v;
}

/* ------------------------------------------------------------------- grow */

/* v joins the set: merges with member neighbours; non-members next to it become
 * candidates. Returns the change in the number of components (1 - merges). */
static int join(gsfw_size_repair *r, int v)
{
    int delta = 1;
    r->member[v] = 1;
    r->uf[v] = v;
    if (r->pos[v] >= 0) heap_remove(r, v);
    for (int k = r->adj_ptr[v]; k < r->adj_ptr[v + 1]; k++) {
        int w = r->adj_node[k];
        if (r->member[w]) {
            int a = uf_find(r->uf, v), b = uf_find(r->uf, w);
            if (a != b) {
                r->uf[b] = a;
                delta--;
            }
        } else if (r->pos[w] < 0) {
            heap_push(r, w);
        }
    }
    return delta;
}

/* Largest prize first, ties by smallest id. */
static int larger(const double *prize, int a, int b)
{
    return prize[a] != prize[b] ? prize[a] > prize[b] : a < b;
}

static void all_sift_down(int *h, int len, int i, const double *prize)
{
    int v = h[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= len) break;
        if (c + 1 < len && larger(prize, h[c + 1], h[c])) c++;
        if (!larger(prize, h[c], v)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

int gsfw_size_repair_grow(gsfw_size_repair *r, const double *prize, const int *nodes, int nn,
                          int target, int gc, int *out)
{
    if (out != nodes) memcpy(out, nodes, (size_t)nn * sizeof(int));
    if (nn >= target) return nn;
    memset(r->member, 0, (size_t)r->n);
    heap_reset(r, prize, 1);
    int comps = 0, size = 0, all_n = -1; /* the heap of all nodes is built when needed */
    for (int i = 0; i < nn; i++) {
        comps += join(r, out[i]);
        size++;
    }
    while (size < target) {
        int best = -1;
        if (comps < gc) {
            /* a new component may start anywhere: the best node outside the set (members
             * are dropped from the heap's top as they surface) */
            if (all_n < 0) {
                all_n = r->n;
                for (int i = 0; i < all_n; i++) r->all[i] = i;
                for (int i = all_n / 2 - 1; i >= 0; i--) all_sift_down(r->all, all_n, i, prize);
            }
            while (all_n > 0 && r->member[r->all[0]]) {
                r->all[0] = r->all[--all_n];
                if (all_n > 0) all_sift_down(r->all, all_n, 0, prize);
            }
            if (all_n > 0) best = r->all[0];
        } else if (r->heap_n > 0) {
            best = r->heap[0];
        }
        if (best < 0) break;
        comps += join(r, best);
        out[size++] = best;
    }
    for (int i = 0; i < size; i++) r->member[out[i]] = 0;
    return size;
}

int gsfw_size_repair_grow_seeded(gsfw_size_repair *r, const double *prize, int target, int gc,
                                 int *out)
{
    int seeds = gc < r->ncomp ? gc : r->ncomp;
    if (seeds > target) seeds = target;
    int *best = r->deg; /* scratch: best node per ranked component */
    for (int k = 0; k < seeds; k++) best[k] = -1;
    for (int v = 0; v < r->n; v++) {
        int k = r->comp_rank[r->label[v]];
        if (k < seeds && (best[k] < 0 || prize[v] > prize[best[k]])) best[k] = v;
    }
    for (int k = 0; k < seeds; k++) out[k] = best[k];
    return gsfw_size_repair_grow(r, prize, out, seeds, target, gc, out);
}

int gsfw_size_repair_best_components(gsfw_size_repair *r, const double *prize, int gc,
                                     int *out)
{
    const int nc = r->ncomp;
    for (int c = 0; c < nc; c++) r->comp_sum[c] = 0.0;
    for (int v = 0; v < r->n; v++) r->comp_sum[r->label[v]] += prize[v];
    /* the gc largest sums: a heap of the component ids, popped gc times */
    int *h = r->all, len = nc;
    unsigned char *chosen = r->member;
    for (int c = 0; c < nc; c++) h[c] = c;
    for (int i = len / 2 - 1; i >= 0; i--) all_sift_down(h, len, i, r->comp_sum);
    for (int k = 0; k < gc && len > 0; k++) {
        chosen[h[0]] = 1; /* component flags, in the member array (cleared below) */
        h[0] = h[--len];
        if (len > 0) all_sift_down(h, len, 0, r->comp_sum);
    }
    int size = 0;
    for (int v = 0; v < r->n; v++)
        if (chosen[r->label[v]]) out[size++] = v;
    memset(chosen, 0, (size_t)nc);
    return size;
}

/* ------------------------------------------------------------------ prune */

int gsfw_size_repair_prune(gsfw_size_repair *r, const double *prize, const int *nodes, int nn,
                           const int *edges, int ne, int target, int *out)
{
    memcpy(out, nodes, (size_t)nn * sizeof(int));
    if (nn <= target) return nn;
    const int n = r->n;
    for (int i = 0; i < nn; i++) r->member[nodes[i]] = 1;
    /* adjacency of the forest; a forest has at most n - 1 edges, extra ones are ignored */
    memset(r->fptr, 0, ((size_t)n + 1) * sizeof(int));
    int used = 0;
    for (int i = 0; i < ne && used < n - 1; i++) {
        int a = r->edge_u[edges[i]], b = r->edge_v[edges[i]];
        if (!r->member[a] || !r->member[b]) continue;
        r->fptr[a + 1]++;
        r->fptr[b + 1]++;
        used++;
    }
    for (int i = 0; i < n; i++) r->fptr[i + 1] += r->fptr[i];
    int *fill = r->uf;
    memcpy(fill, r->fptr, (size_t)n * sizeof(int));
    used = 0;
    for (int i = 0; i < ne && used < n - 1; i++) {
        int a = r->edge_u[edges[i]], b = r->edge_v[edges[i]];
        if (!r->member[a] || !r->member[b]) continue;
        r->fnode[fill[a]++] = b;
        r->fnode[fill[b]++] = a;
        used++;
    }
    heap_reset(r, prize, 0);
    for (int i = 0; i < nn; i++) {
        int v = nodes[i];
        r->deg[v] = r->fptr[v + 1] - r->fptr[v];
        if (r->deg[v] <= 1) heap_push(r, v);
    }
    int size = nn;
    while (size > target && r->heap_n > 0) {
        int v = r->heap[0];
        heap_remove(r, v);
        r->member[v] = 0;
        size--;
        for (int k = r->fptr[v]; k < r->fptr[v + 1]; k++) {
            int w = r->fnode[k];
            if (!r->member[w]) continue;
            if (--r->deg[w] <= 1 && r->pos[w] < 0) heap_push(r, w);
        }
    }
    int k = 0;
    for (int i = 0; i < nn; i++) {
        if (r->member[nodes[i]]) out[k++] = nodes[i];
        r->member[nodes[i]] = 0;
    }
    return k;
}

int gsfw_size_repair_spanning_forest(gsfw_size_repair *r, const int *nodes, int nn, int *edges)
{
    for (int i = 0; i < nn; i++) {
        r->member[nodes[i]] = 1;
        r->uf[nodes[i]] = nodes[i];
    }
    int k = 0;
    for (int i = 0; i < nn; i++) {
        int v = nodes[i];
        for (int a = r->adj_ptr[v]; a < r->adj_ptr[v + 1]; a++) {
            int w = r->adj_node[a];
            if (!r->member[w] || w <= v) continue; /* each edge from its smaller end */
            int x = uf_find(r->uf, v), y = uf_find(r->uf, w);
            if (x == y) continue;
            r->uf[y] = x;
            edges[k++] = r->adj_edge[a];
        }
    }
    for (int i = 0; i < nn; i++) r->member[nodes[i]] = 0;
    return k;
}

/* ------------------------------------- the practical projection's repair */

/* Remember the current forest when it is the closest to the window on its side so far
 * (the size repair starts from these). */
void gsfw_ht_track_closest(gsfw_headtail *ht)
{
    if (!ht->repair) return;
    int k = ht->nn, ne = ht->ne < ht->n ? ht->ne : ht->n; /* a forest: ne < n */
    if (k < ht->st.s_low && k > ht->below_nn) {
        memcpy(ht->below_nodes, ht->nodes, (size_t)k * sizeof(int));
        ht->below_nn = k;
    } else if (k > ht->st.s_high && (ht->above_nn < 0 || k < ht->above_nn)) {
        memcpy(ht->above_nodes, ht->nodes, (size_t)k * sizeof(int));
        memcpy(ht->above_edges, ht->edges, (size_t)ne * sizeof(int));
        ht->above_nn = k;
        ht->above_ne = ne;
    }
}

/* The lambda-search missed its window: grow the closest smaller forest, prune the closest
 * larger one, and grow from the best node of each of the g largest components of G, all
 * towards s_high nodes (prizes are >= 0, so a larger set never has less energy), or
 * towards s_low after a near miss (the search stopped short of lambdas whose forests it
 * did not see: the model's size keeps out nodes they would have left out). The
 * candidate in the window with the largest energy wins (ties: the earlier candidate);
 * when none is in the window (the graph has no such set), the one of largest energy.
 * The result replaces ht->nodes, with a spanning forest of it as ht->edges. */
void gsfw_ht_repair_into_window(gsfw_headtail *ht)
{
    const int lo = ht->st.s_low, hi = ht->st.s_high, gc = ht->st.g;
    const int to = ht->near_missed ? lo : hi;
    int best_nn = -1, best_in = 0;
    double best_e = 0.0;
    for (int c = 0; c < 3; c++) {
        int k;
        if (c == 0 && ht->below_nn >= 0)
            k = gsfw_size_repair_grow(ht->repair, ht->prize, ht->below_nodes, ht->below_nn, to,
                                      gc, ht->cand);
        else if (c == 1 && ht->above_nn >= 0)
            k = gsfw_size_repair_prune(ht->repair, ht->prize, ht->above_nodes, ht->above_nn,
                                       ht->above_edges, ht->above_ne, to, ht->cand);
        else if (c == 2)
            k = gsfw_size_repair_grow_seeded(ht->repair, ht->prize, to, gc, ht->cand);
        else
            continue;
        if (k > hi) continue; /* a pruned "forest" with a cycle: not reached */
        int in = k >= lo;
        double e = gsfw_ht_sum_prizes(ht, ht->cand, k);
        if (best_nn < 0 || in > best_in || (in == best_in && e > best_e)) {
            memcpy(ht->out, ht->cand, (size_t)k * sizeof(int));
            best_nn = k;
            best_in = in;
            best_e = e;
        }
    }
    if (best_nn < 0) return; /* not reached: the seeded growth always gives a candidate */
    memcpy(ht->nodes, ht->out, (size_t)best_nn * sizeof(int));
    ht->nn = best_nn;
    ht->ne = gsfw_size_repair_spanning_forest(ht->repair, ht->nodes, ht->nn, ht->edges);
}
