/* Prize-collecting Steiner forest: Goemans-Williamson growth phase (event driven, with
 * pairing heaps with lazy offsets and one (time, kind, id) cluster queue) followed by one
 * of four prunings. Compatible with pcst_fast (cluster_approx), ties included; see
 * docs/pcsf.md for the rules that decide ties and for the differences (livelock guard,
 * validation).
 *
 * Memory: one workspace holds every array; arrays grow to the largest instance seen and
 * are reused. Heap node i is edge part i (part 2e belongs to edge_u[e], 2e+1 to
 * edge_v[e]), so no heap node is ever allocated during a run; the heaps' children
 * chunks come from an arena sized for grids (7 slots per edge) that a run grows only
 * when its input needs more (the workspace keeps the larger arena). */
#include "core/internal.h"
#include "oracles/pcsf/pcsf_heap.h"
#include "oracles/pcsf/pcsf_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

/* "Dropped" flags of the edge parts: one bit per part (512 KB for 4M parts, so the
 * bitmap stays in cache, unlike a field of the heap node). */
static inline int part_dropped(const uint64_t *bits, int p)
{
    return (int)((bits[p >> 6] >> (p & 63)) & 1u);
}
static inline void drop_part(uint64_t *bits, int p) { bits[p >> 6] |= (uint64_t)1 << (p & 63); }

/* Node flags (per graph node, pruning). */
#define NF_GOOD 1
#define NF_DELETED 2
#define NF_LISTED 4

/* Per-edge data of the growth phase (the cost is read from the input, which is NULL
 * for unit costs; the endpoint of part p is nd[p].owner, in the cache line that
 * delete_min has just read). */
typedef struct {
    double target[2]; /* target coverage of the parts 2e and 2e+1 */
} pc_edge;

/* Cluster fields used by every event (32 bytes, two per cache line). skip_sum is only
 * used by clusters that have a parent, and heap, active and has_root only by top-level
 * clusters (a cluster gets its parent at its last use of them), so they share 8 bytes:
 * the event loop then needs one cluster record per cluster instead of two. GW pruning
 * reuses the union for its "needed" mark once the growth is over (skip_sum is dead then,
 * and mark_good has read active and has_root). */
typedef struct {
    double start;     /* time the cluster became active */
    double end;       /* time it stopped being active (moat = end - start); while the
                       * cluster is active: its scheduled deactivation time */
    union {
        double skip_sum; /* (parent >= 0) coverage from here up to (excluding) skip */
        struct {
            int heap;    /* (top level) root of the edge-part heap or -1 */
            unsigned char active, has_root, needed;
        } t;
    } u;
    int parent;       /* merge-tree parent or -1 */
    int skip;         /* path-compression shortcut or -1 */
} pc_cluster;

/* The cluster fields used by merges only (16 bytes). */
typedef struct {
    double prize;     /* prize sum */
    double inner;     /* sum of the moats of strict descendants */
} pc_info;

struct gsfw_pcsf {
    int cap_n, cap_m;
    double eps;             /* merge tolerance relative to the edge cost */
    /* growth */
    gsfw_ph_node *nd;       /* 2 cap_m: the heap node of edge part p is nd[p] */
    pc_edge *edge;          /* cap_m: targets of the edge parts */
    uint64_t *dropped;      /* 2 cap_m bits */
    gsfw_ph ph;             /* children chunks and delete_min scratch of the heaps */
    pc_cluster *cl;         /* 2 cap_n */
    pc_info *ci;            /* 2 cap_n */
    gsfw_pq q;              /* ids < 2 cap_n: next event of each active cluster */
    int *trail;             /* 2 cap_n */
    double *trail_acc;      /* 2 cap_n */
    int *l1_part;           /* cap_n: part whose event merged */
    int *l1_rec;            /* cap_n: inactive cluster of an active-inactive merge, or -1 */
    int n_l1;
    int n_clusters;
    /* pruning: nflag is owned; the other arrays are views into the growth phase's heap
     * nodes (dead once the growth is over) when those are large enough, else into
     * prune_own (see carve_pruning) */
    unsigned char *nflag;   /* cap_n */
    void *prune_own;        /* prune_own_bytes */
    size_t prune_own_bytes;
    int *l2;                /* cap_n: L1 positions whose endpoints are both good */
    int *adj_ptr;           /* cap_n + 1 */
    int *adj_node;          /* 2 cap_n */
    int *adj_edge;          /* 2 cap_n */
    int *par;               /* cap_n */
    double *parc;           /* cap_n */
    double *payoff;         /* cap_n */
    int *stack;             /* 2 cap_n */
    int *queue;             /* cap_n */
    int *comp_label;        /* cap_n */
    int *comp_nodes;        /* cap_n */
    int *comp_start;        /* cap_n + 1 */
    int *top;               /* 2 cap_n: top-level ancestor of each cluster */
    gsfw_pcsf_stats stats;
};

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
 * at 6.6 (docs/pcsf.md); other inputs may grow it (once per workspace size). */
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
    free(ws->cl);
    free(ws->ci);
    gsfw_pq_free(&ws->q);
    free(ws->trail);
    free(ws->trail_acc);
    free(ws->l1_part);
    free(ws->l1_rec);
    free(ws->nflag);
    ws->cl = NULL;
    ws->ci = NULL;
    ws->trail = NULL;
    ws->trail_acc = NULL;
    ws->l1_part = ws->l1_rec = NULL;
    ws->nflag = NULL;
    ws->cap_n = 0;
}

static void free_edge_arrays(gsfw_pcsf *ws)
{
    free(ws->nd);
    free(ws->edge);
    free(ws->dropped);
    ws->nd = NULL;
    ws->edge = NULL;
    ws->dropped = NULL;
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
    return m * (2 * sizeof(gsfw_ph_node) + sizeof(pc_edge)) + (m / 32 + 1) * sizeof(uint64_t) +
           gsfw_ph_bytes(&ws->ph) + ws->prune_own_bytes +
           2 * n * (sizeof(pc_cluster) + sizeof(pc_info) + sizeof(gsfw_pq_entry) + sizeof(int) +
                    sizeof(int) + sizeof(double)) +
           n * (2 * sizeof(int) + 1);
}

void gsfw_pcsf_get_stats(const gsfw_pcsf *ws, gsfw_pcsf_stats *stats) { *stats = ws->stats; }

/* Bytes of the pruning scratch for n nodes (doubles first, so every array is aligned). */
static size_t pruning_bytes(size_t n)
{
    return 2 * n * sizeof(double) + (15 * n + 2) * sizeof(int);
}

/* Point the pruning arrays into memory that is free after the growth phase: the heap
 * nodes (64 bytes per edge against 76 bytes per node: enough when m >= 1.2 n, as on
 * grids) or, for sparser inputs, a workspace-owned block. Called before the growth (so
 * that running out of memory is reported before any work); the arrays are written only
 * after it. Returns 0 or -1 (no memory). */
static int carve_pruning(gsfw_pcsf *ws, int n)
{
    size_t N = (size_t)n, need = pruning_bytes(N);
    char *base;
    if ((size_t)ws->cap_m * 2 * sizeof(gsfw_ph_node) >= need) {
        base = (char *)ws->nd;
    } else {
        if (ws->prune_own_bytes < need) {
            free(ws->prune_own);
            ws->prune_own = malloc(need);
            ws->prune_own_bytes = ws->prune_own ? need : 0;
            if (!ws->prune_own) return -1;
        }
        base = ws->prune_own;
    }
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
    return 0;
}

/* Make room for n nodes and m edges (contents are not preserved). */
static gsfw_error reserve(gsfw_pcsf *ws, int n, int m, gsfw_err *err)
{
    const int fresh_m = m > ws->cap_m, fresh_n = n > ws->cap_n;
    if (fresh_m) {
        free_edge_arrays(ws);
        ws->nd = big_alloc(2 * (size_t)m, sizeof(gsfw_ph_node));
        ws->edge = big_alloc((size_t)m, sizeof(pc_edge));
        ws->dropped = gsfw_malloc_array((size_t)m / 32 + 1, sizeof(uint64_t));
        /* a root has fewer than 2m children; the arena starts at PH_SLOTS_PER_EDGE
         * slots per edge and grows if an input needs more */
        if (!ws->nd || !ws->edge || !ws->dropped ||
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
        ws->ci = big_alloc(2 * N, sizeof(pc_info));
        ws->trail = gsfw_malloc_array(2 * N, sizeof(int));
        ws->trail_acc = gsfw_malloc_array(2 * N, sizeof(double));
        ws->l1_part = gsfw_malloc_array(N, sizeof(int));
        ws->l1_rec = gsfw_malloc_array(N, sizeof(int));
        ws->nflag = gsfw_malloc_array(N, 1);
        int bad = !ws->cl || !ws->ci || !ws->trail || !ws->trail_acc || !ws->l1_part || !ws->l1_rec ||
                  !ws->nflag ||
                  n > (1 << 30) || gsfw_pq_reserve(&ws->q, 2 * n);
        if (bad) {
            free_node_arrays(ws);
            return gsfw_fail(err, GSFW_ERR_NOMEM, "pcsf: out of memory for %d nodes", n);
        }
        ws->cap_n = n;
    }
    if (carve_pruning(ws, n))
        return gsfw_fail(err, GSFW_ERR_NOMEM, "pcsf: out of memory for %d nodes", n);
    /* Map the fresh arrays the run writes, one system call each (0.05 s at 1000x1000)
     * instead of page faults spread over the run, whose cost on this VM varies with the
     * kernel's supply of huge pages (0.2-0.8 s of system time at 1000x1000): the median
     * does not move, the slow runs go (docs/pcsf.md). */
    if (fresh_m) {
        gsfw_pcsf_populate(ws->nd, 2 * (size_t)m * sizeof(gsfw_ph_node));
        gsfw_pcsf_populate(ws->edge, (size_t)m * sizeof(pc_edge));
    }
    if (fresh_n) {
        size_t N = (size_t)n;
        gsfw_pcsf_populate(ws->cl, 2 * N * sizeof(pc_cluster));
        gsfw_pcsf_populate(ws->ci, 2 * N * sizeof(pc_info));
        gsfw_pcsf_populate(ws->q.mem, (N + 3) * sizeof(gsfw_pq_entry));
        gsfw_pcsf_populate(ws->l1_part, N * sizeof(int));
        gsfw_pcsf_populate(ws->l1_rec, N * sizeof(int));
    }
    return GSFW_OK;
}

/* ------------------------------------------------------------- growth */

typedef struct {
    gsfw_pcsf *ws;
    const int *eu, *ev;
    const double *cost;
    double now;
    /* The last event, when it was a growth event that rescheduled its part at the time
     * it was processed (stuck_part, else -1), and that time: see edge_event. */
    int stuck_part;
    double stuck_time;
} run_ctx;

static inline double edge_cost(const double *cost, int e) { return cost ? cost[e] : 1.0; }

/* Coverage of edge part p (COVER in docs/pcsf.md): *total, *done, returns the top-level
 * cluster. Compresses the path exactly like the reference (shortcut sums are differences
 * of running sums), so that floating-point values match bit for bit. */
static inline int cover(run_ctx *c, int p, double *total, double *done)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    int x = ws->nd[p].owner;
    double acc = 0.0;
    int len = 0;
    while (cl[x].parent >= 0) {
        ws->trail[len] = x;
        ws->trail_acc[len] = acc;
        len++;
        if (cl[x].skip >= 0) {
            acc += cl[x].u.skip_sum;
            x = cl[x].skip;
        } else {
            acc += cl[x].end - cl[x].start;
            x = cl[x].parent;
        }
    }
    for (int i = 0; i < len; i++) {
        pc_cluster *y = &cl[ws->trail[i]];
        y->skip = x;
        y->u.skip_sum = acc - ws->trail_acc[i];
    }
    if (cl[x].u.t.active) {
        *done = acc;
        *total = acc + (c->now - cl[x].start);
    } else {
        *total = acc + (cl[x].end - cl[x].start);
        *done = *total;
    }
    return x;
}

/* One queue entry per active cluster: its next event, an edge event (aux = the part at
 * the root of its heap) when that is strictly earlier than its deactivation
 * (cl[id].end), else the deactivation (aux = -1). Ordered by (time, kind, id) with
 * deactivations first on equal times, this picks exactly what two queues ordered by
 * (key, id) would pick with the rule "edge event only when strictly earlier than the
 * next deactivation". */
static inline void refresh_queue(gsfw_pcsf *ws, int id)
{
    int h = ws->cl[id].u.t.heap;
    double td = ws->cl[id].end;
    if (h >= 0 && ws->nd[h].value < td)
        gsfw_pq_set_aux(&ws->q, id, ws->nd[h].value, h);
    else
        gsfw_pq_set_aux(&ws->q, id, td, -1);
}

/* Every node a cluster of its own (active unless it is the root; an active cluster's
 * end is its deactivation time), and both parts of every edge in their endpoint's heap
 * with the time at which that endpoint's moat reaches its share of the edge. Returns the
 * number of active clusters. */
static int grow_init(run_ctx *c, int n, int m, const double *prizes, int root)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    pc_info *ci = ws->ci;
    gsfw_ph_node *nd = ws->nd;
    gsfw_ph *H = &ws->ph;
    pc_edge *E = ws->edge;
    const int *eu = c->eu, *ev = c->ev;
    int count = 0;
    for (int i = 0; i < n; i++) {
        pc_cluster *x = &cl[i];
        pc_info *xi = &ci[i];
        x->start = x->end = 0.0;
        x->parent = x->skip = -1;
        x->u.t.heap = -1;
        x->u.t.active = (unsigned char)(i != root);
        x->u.t.has_root = (unsigned char)(i == root);
        xi->prize = prizes[i];
        xi->inner = 0.0;
        if (x->u.t.active) {
            x->end = prizes[i]; /* deactivation time while active */
            count++;
        }
    }
    if (m > 0) memset(ws->dropped, 0, ((size_t)m / 32 + 1) * sizeof(uint64_t));
    for (int e = 0; e < m; e++) {
        int a = eu[e], b = ev[e];
        double ce = edge_cost(c->cost, e), ta, tb;
        if (cl[a].u.t.active && cl[b].u.t.active) {
            ta = tb = ce / 2.0;
        } else if (cl[a].u.t.active) {
            ta = ce;
            tb = 0.0;
        } else if (cl[b].u.t.active) {
            ta = 0.0;
            tb = ce;
        } else {
            ta = tb = 0.0;
        }
        E[e].target[0] = ta;
        E[e].target[1] = tb;
        nd[2 * e].owner = a;
        nd[2 * e + 1].owner = b;
        cl[a].u.t.heap = gsfw_ph_insert(H, cl[a].u.t.heap, 2 * e, ta);
        cl[b].u.t.heap = gsfw_ph_insert(H, cl[b].u.t.heap, 2 * e + 1, tb);
        if (H->failed) break;
    }
    for (int i = 0; i < n; i++)
        if (cl[i].u.t.active) refresh_queue(ws, i);
    return count;
}

/* Clusters A (active, whose edge part p is due) and B (holding the other part q) merge
 * into a new cluster at time ts: A and B stop, an inactive B's heap catches up with the
 * time it sat still, and the new cluster grows unless it holds the root. */
static void merge_clusters(run_ctx *c, int A, int B, int p, int q, double ts, int *ncl,
                           int *count)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    pc_info *ci = ws->ci;
    gsfw_ph *H = &ws->ph;
    int N = (*ncl)++;
    ws->stats.merges++;
    ws->l1_part[ws->n_l1] = p;
    ws->l1_rec[ws->n_l1] = -1;
    drop_part(ws->dropped, q);
    pc_cluster *ca = &cl[A], *cb = &cl[B], *cn = &cl[N];
    pc_info *ia = &ci[A], *ib = &ci[B], *in = &ci[N];
    in->prize = ia->prize + ib->prize;
    in->inner = ia->inner + ib->inner;
    cn->u.t.has_root = (unsigned char)(ca->u.t.has_root || cb->u.t.has_root);
    cn->u.t.active = (unsigned char)!cn->u.t.has_root;
    cn->parent = cn->skip = -1;
    ca->u.t.active = 0;
    ca->end = ts;
    gsfw_pq_remove(&ws->q, A);
    (*count)--;
    if (cb->u.t.active) {
        cb->u.t.active = 0;
        cb->end = ts;
        gsfw_pq_remove(&ws->q, B);
        (*count)--;
    } else if (!cb->u.t.has_root) {
        ws->stats.active_inactive++;
        gsfw_ph_add_all(H, cb->u.t.heap, ts - cb->end);
        ws->l1_rec[ws->n_l1] = B;
    }
    ws->n_l1++;
    ca->parent = N;
    cb->parent = N;
    cn->u.t.heap = gsfw_ph_link(H, ca->u.t.heap, cb->u.t.heap);
    in->inner += ca->end - ca->start;
    in->inner += cb->end - cb->start;
    if (cn->u.t.active) {
        cn->start = ts;
        cn->end = ts + in->prize - in->inner; /* deactivation time */
        refresh_queue(ws, N);
        (*count)++;
    } else {
        cn->start = cn->end = 0.0; /* root cluster: moat 0 */
    }
}

/* Edge e (parts p in A, q in B) is not yet tight, r of its cost left uncovered at time
 * now: both parts get the time at which it will be, given whether B grows too. */
static void reschedule_edge(run_ctx *c, int A, int B, int p, int q, double now, double r,
                            double ce, double cp, double cq, double dq)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    gsfw_ph *H = &ws->ph;
    pc_edge *ed = &ws->edge[p >> 1];
    if (cl[B].u.t.active) {
        double meet = now + r / 2.0;
        ed->target[p & 1] = cp + r / 2.0;
        cl[A].u.t.heap = gsfw_ph_insert(H, cl[A].u.t.heap, p, meet);
        refresh_queue(ws, A);
        double old = cl[B].start + ed->target[q & 1] - dq;
        cl[B].u.t.heap = gsfw_ph_decrease_key(H, cl[B].u.t.heap, q, old, meet);
        refresh_queue(ws, B);
        ed->target[q & 1] = cq + r / 2.0;
    } else {
        double t = now + r;
        ed->target[p & 1] = ce - dq;
        cl[A].u.t.heap = gsfw_ph_insert(H, cl[A].u.t.heap, p, t);
        refresh_queue(ws, A);
        if (!cl[B].u.t.has_root) {
            /* root clusters never grow again: their heaps are never read */
            double old = cl[B].end + ed->target[q & 1] - dq;
            cl[B].u.t.heap = gsfw_ph_decrease_key(H, cl[B].u.t.heap, q, old, cl[B].end);
        }
        ed->target[q & 1] = dq;
    }
}

/* The edge event of part p, due at time te in the heap of active cluster A: a dropped
 * part or an edge inside one cluster is discarded, a tight edge merges its clusters,
 * any other is rescheduled. */
static gsfw_error edge_event(run_ctx *c, int A, int p, double te, int *ncl, int *count,
                             long guard, gsfw_err *err)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    gsfw_pcsf_stats *st = &ws->stats;
    st->edge_events++;
    double now = c->now = te;
    const int is_dropped = part_dropped(ws->dropped, p);
#if defined(__GNUC__)
    if (!is_dropped) {
        /* the edge record and the first clusters of both coverage walks are needed right
         * after delete_min, which spends its time waiting for memory: fetch them
         * meanwhile (the endpoints are in the cache line of nd[p], which delete_min reads
         * first) */
        __builtin_prefetch(&ws->edge[p >> 1]);
        if (c->cost) __builtin_prefetch(&c->cost[p >> 1]);
        __builtin_prefetch(&cl[ws->nd[p].owner]);
        __builtin_prefetch(&cl[ws->nd[p ^ 1].owner]);
        __builtin_prefetch(&cl[A]);
    }
#endif
    cl[A].u.t.heap = gsfw_ph_delete_min(&ws->ph, p);
    const int stuck_part = c->stuck_part;
    c->stuck_part = -1;
    if (is_dropped) {
        st->dropped_events++;
        refresh_queue(ws, A);
        return GSFW_OK;
    }
    int q = p ^ 1, e = p >> 1;
    double ce = edge_cost(c->cost, e);
    double cp, dp, cq, dq;
    cover(c, p, &cp, &dp); /* == A */
    int B = cover(c, q, &cq, &dq);
    double r = ce - cp - cq;
    if (A == B) {
        st->dropped_events++;
        drop_part(ws->dropped, q);
        refresh_queue(ws, A);
        return GSFW_OK;
    }
    if (r < ws->eps * ce || r == 0.0) {
        merge_clusters(c, A, B, p, q, now + r, ncl, count);
        return GSFW_OK;
    }
    /* A growth event that reschedules p at the current time (r is below the resolution
     * of now) leaves every quantity the next event reads unchanged. If the next event
     * pops p again, it is this one once more, and so is every later event: pcst_fast
     * loops forever (docs/pcsf.md, "Livelock"). Only there gsfw departs from it and
     * merges the two clusters. */
    if (cl[B].u.t.active ? now + r / 2.0 == now : now + r == now) {
        if (stuck_part == p && c->stuck_time == now) {
            st->livelocks++;
            merge_clusters(c, A, B, p, q, now + r, ncl, count);
            return GSFW_OK;
        }
        c->stuck_part = p;
        c->stuck_time = now;
    }
    st->growth_events++;
    if (st->growth_events > guard)
        return gsfw_fail(err, GSFW_ERR_INTERNAL, "pcsf: the growth phase stopped making "
                         "progress after %ld events (numerical breakdown)",
                         st->growth_events);
    reschedule_edge(c, A, B, p, q, now, r, ce, cp, cq, dq);
    return GSFW_OK;
}

static gsfw_error grow(run_ctx *c, int n, int m, const double *prizes, int root, int target,
                       gsfw_err *err)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    gsfw_ph *H = &ws->ph;
    gsfw_pcsf_stats *st = &ws->stats;

    gsfw_pq_clear(&ws->q, 0);
    H->nd = ws->nd;
    gsfw_ph_reset(H);
    const long visits0 = H->visits;
    int count = grow_init(c, n, m, prizes, root);
    int ncl = n;
    ws->n_l1 = 0;
    /* Safety net on top of the progress-aware merge rule: a run needs about 2-3 edge
     * events per edge; this bound is never reached unless the numerics break down. */
    long guard = 64L * ((long)m + n) + 4096;
    c->now = 0.0;
    while (count > target) {
        if (H->failed) break;
        if (ws->q.size == 0) break; /* cannot happen with finite prizes */
        const int A = ws->q.heap[0].id;
        const double te = ws->q.heap[0].key;
        const int p = ws->q.heap[0].aux; /* == the heap root of A for an edge event */
        if (p >= 0) {
            gsfw_error rc = edge_event(c, A, p, te, &ncl, &count, guard, err);
            if (rc) return rc;
        } else { /* A deactivates */
            st->deactivations++;
            c->stuck_part = -1;
            c->now = te;
            gsfw_pq_remove(&ws->q, A);
            cl[A].u.t.active = 0;
            cl[A].end = te;
            count--;
        }
    }
    if (H->failed == GSFW_PH_TOO_LARGE)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "pcsf: instance too large for the pairing heaps (more than 2^31 "
                         "chunk slots, or more than 2^28 children of one heap node)");
    if (H->failed)
        return gsfw_fail(err, GSFW_ERR_NOMEM, "pcsf: out of memory (pairing heap chunks)");
    ws->n_clusters = ncl;
    st->clusters = ncl;
    st->heap_visits = H->visits - visits0;
    return GSFW_OK;
}

/* ------------------------------------------------------------- pruning */

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

static void prune(gsfw_pcsf *ws, int n, const int *eu, const int *ev, const double *prizes,
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
    run_ctx c = {ws, edge_u, edge_v, costs, 0.0, -1, 0.0};
    rc = grow(&c, n, m, prizes, root, target_clusters, err);
    if (rc) return rc;
    prune(ws, n, edge_u, edge_v, prizes, costs, root, pruning, out_nodes, n_out_nodes,
          out_edges, n_out_edges);
    gsfw_err_clear(err);
    return GSFW_OK;
}
