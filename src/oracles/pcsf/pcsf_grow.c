/* The Goemans-Williamson growth phase of the PCSF, event by event as pcst_fast runs it
 * (docs/pcsf.md): every decision (which event is next, how ties resolve, the arithmetic
 * of every time and coverage) is the reference's, so that the forests agree exactly. */
#include "oracles/pcsf/pcsf_ws.h"
#include "util/sort_keys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    gsfw_pcsf *ws;
    const int *eu, *ev;
    const double *cost;
    const double *prizes;
    int n;      /* clusters 0..n-1 are the nodes; merged cluster x has ws->ci[x - n] */
    double now;
    int ncl;    /* clusters so far */
    int count;  /* active clusters */
    /* The last event, when it was a growth event that re-scheduled its part at the time
     * it was processed (stuck_part, else -1), and that time: see edge_event. */
    int stuck_part;
    double stuck_time;
    int first_deactivations; /* ws->trail[0..): clusters that deactivate before any edge
                              * event (first_deactivations orders them) */
} run_ctx;

/* Coverage of edge part p (COVER in docs/pcsf.md): *total, *done, returns the top-level
 * cluster. Compresses the path exactly like the reference (shortcut sums are differences
 * of running sums), so that floating-point values match bit for bit. */
static inline int cover(run_ctx *c, int p, double *total, double *done)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    int x = part_owner(ws->nd, p);
    double acc = 0.0;
    int len = 0;
    while (cl[x].parent >= 0) {
        ws->trail[len] = x; /* a path has fewer clusters than the 2n ids */
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

/* One queue entry per active cluster: its next event, an edge event when the key at the
 * root of its heap is strictly earlier than its deactivation (cl[id].end), else the
 * deactivation. Ordered by (time, kind, id) with deactivations first on equal times,
 * this picks exactly what two queues ordered by (key, id) pick with the reference's rule
 * "edge event only when strictly earlier than the next deactivation".
 *
 * The time of that edge event, or INFINITY when the deactivation comes first (an edge
 * event's time is below the finite cl[id].end, so it is finite). */
static inline double edge_event_time(const gsfw_pcsf *ws, int id)
{
    const int h = ws->cl[id].u.t.heap;
    return h >= 0 && ws->nd[h].value < ws->cl[id].end ? ws->nd[h].value : INFINITY;
}

/* Cluster id's queue entry, by the rule above. */
static inline void refresh_queue(gsfw_pcsf *ws, int id)
{
    const double te = edge_event_time(ws, id);
    if (te < INFINITY)
        gsfw_evq_set(&ws->q, id, te, 1);
    else
        gsfw_evq_set(&ws->q, id, ws->cl[id].end, 0);
}

/* Every node a cluster of its own (active unless it is the root; an active cluster's
 * end is its deactivation time), and both parts of every edge, in edge order, in their
 * endpoint's heap with the time at which that endpoint's moat reaches its share of the
 * edge. */
static void grow_init(run_ctx *c, int n, int m, const double *prizes, int root)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    gsfw_ph *H = &ws->ph;
    double *T = ws->target;
    const int *eu = c->eu, *ev = c->ev;
    int count = 0;
    for (int i = 0; i < n; i++) {
        pc_cluster *x = &cl[i];
        x->start = x->end = 0.0;
        x->parent = x->skip = -1;
        x->u.t.heap = -1;
        x->u.t.active = (unsigned char)(i != root);
        x->u.t.has_root = (unsigned char)(i == root);
        if (x->u.t.active) {
            x->end = prizes[i]; /* deactivation time while active */
            count++;
        }
    }
    c->count = count;
    for (int e = 0; e < m && !H->failed; e++) {
        const int a = eu[e], b = ev[e];
        const double ce = edge_cost(c->cost, e);
        double ta, tb;
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
        T[2 * e] = ta;
        T[2 * e + 1] = tb;
        ws->nd[2 * e].owner = a;
        ws->nd[2 * e + 1].owner = b;
        cl[a].u.t.heap = gsfw_ph_insert(H, cl[a].u.t.heap, 2 * e, ta);
        cl[b].u.t.heap = gsfw_ph_insert(H, cl[b].u.t.heap, 2 * e + 1, tb);
    }
    /* The second level of the queue takes the time of the first edge event of the first
     * node that has one: with one cost on every edge, most events happen then. */
    double later = 0.0;
    for (int i = 0; i < n; i++)
        if (cl[i].u.t.active && cl[i].u.t.heap >= 0) {
            later = ws->nd[cl[i].u.t.heap].value;
            break;
        }
    gsfw_evq_clear(&ws->q, 0.0, later);
    /* The deactivations due no later than the first edge event come first, in (time,
     * id) order, and change no other cluster's event: they skip the queue (see
     * first_deactivations; on head projections of a gradient most nodes have a prize
     * below half the edge cost, and deactivate this way). */
    double first_edge = INFINITY;
    for (int i = 0; i < n; i++)
        if (cl[i].u.t.active) first_edge = fmin(first_edge, edge_event_time(ws, i));
    int *id = ws->trail; /* the coverage walks' scratch is free until the first edge event */
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!cl[i].u.t.active) continue;
        if (edge_event_time(ws, i) < INFINITY || cl[i].end > first_edge)
            refresh_queue(ws, i);
        else
            id[k++] = i;
    }
    c->first_deactivations = k;
}

/* The first deactivations (grow_init): all of them when enough clusters stay active,
 * and then their order changes nothing; else in (time, id) order until the target is
 * reached (a stable sort of the times' bits, +0.0 added so that -0.0 sorts as 0). */
static void first_deactivations(run_ctx *c, int target)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    int *id = ws->trail, k = c->first_deactivations;
    if (c->count - k < target && c->count > target) {
        uint64_t *key = (uint64_t *)(void *)ws->trail_acc, *key_tmp = key + c->n;
        for (int j = 0; j < k; j++) {
            const double t = cl[id[j]].end + 0.0;
            uint64_t bits;
            memcpy(&bits, &t, sizeof bits);
            key[j] = bits; /* stored as an integer: the memory's type until the walks */
        }
        gsfw_sort_keys(k, key, id, key_tmp, ws->trail + c->n);
    }
    for (int j = 0; j < k && c->count > target; j++) {
        pc_cluster *x = &cl[id[j]];
        ws->stats.deactivations++;
        c->now = fmax(c->now, x->end);
        x->u.t.active = 0;
        c->count--;
    }
}

/* Prize sum and inner moats of cluster x (a node's are its prize and 0). */
static inline double cluster_prize(const run_ctx *c, int x)
{
    return x < c->n ? c->prizes[x] : c->ws->ci[x - c->n].prize;
}
static inline double cluster_inner(const run_ctx *c, int x)
{
    return x < c->n ? 0.0 : c->ws->ci[x - c->n].inner;
}

/* Clusters A (active, whose edge part p is due) and B (holding the other part q) merge
 * into a new cluster at time ts: A and B stop, an inactive B's heap catches up with the
 * time it sat still, and the new cluster grows unless it holds the root. */
static void merge_clusters(run_ctx *c, int A, int B, int p, int q, double ts)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    pc_info *ci = ws->ci;
    gsfw_ph *H = &ws->ph;
    const int N = c->ncl++;
    ws->stats.merges++;
    ws->l1_part[ws->n_l1] = p;
    ws->l1_rec[ws->n_l1] = -1;
    drop_part(ws->nd, q);
    pc_cluster *ca = &cl[A], *cb = &cl[B], *cn = &cl[N];
    pc_info *in = &ci[N - c->n];
    in->prize = cluster_prize(c, A) + cluster_prize(c, B);
    in->inner = cluster_inner(c, A) + cluster_inner(c, B);
    cn->u.t.has_root = (unsigned char)(ca->u.t.has_root || cb->u.t.has_root);
    cn->u.t.active = (unsigned char)!cn->u.t.has_root;
    cn->parent = cn->skip = -1;
    ca->u.t.active = 0;
    ca->end = ts;
    gsfw_evq_remove(&ws->q, A);
    c->count--;
    if (cb->u.t.active) {
        cb->u.t.active = 0;
        cb->end = ts;
        gsfw_evq_remove(&ws->q, B);
        c->count--;
    } else if (!cb->u.t.has_root) {
        ws->stats.active_inactive++;
        gsfw_ph_add_all(H, cb->u.t.heap, ts - cb->end);
        ws->l1_rec[ws->n_l1] = B;
    }
    ws->n_l1++;
    const int ha = ca->u.t.heap, hb = cb->u.t.heap;
    ca->parent = N;
    cb->parent = N;
    cn->u.t.heap = gsfw_ph_link(H, ha, hb);
    in->inner += ca->end - ca->start;
    in->inner += cb->end - cb->start;
    if (cn->u.t.active) {
        cn->start = ts;
        cn->end = ts + in->prize - in->inner; /* deactivation time */
        refresh_queue(ws, N);
        c->count++;
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
    double *T = ws->target;
    if (cl[B].u.t.active) {
        const double meet = now + r / 2.0;
        T[p] = cp + r / 2.0;
        cl[A].u.t.heap = gsfw_ph_insert(H, cl[A].u.t.heap, p, meet);
        refresh_queue(ws, A);
        const double old = cl[B].start + T[q] - dq;
        cl[B].u.t.heap = gsfw_ph_decrease_key(H, cl[B].u.t.heap, q, old, meet);
        refresh_queue(ws, B);
        T[q] = cq + r / 2.0;
    } else {
        const double t = now + r;
        T[p] = ce - dq;
        cl[A].u.t.heap = gsfw_ph_insert(H, cl[A].u.t.heap, p, t);
        refresh_queue(ws, A);
        if (!cl[B].u.t.has_root) {
            /* root clusters never grow again: their heaps are never read */
            const double old = cl[B].end + T[q] - dq;
            cl[B].u.t.heap = gsfw_ph_decrease_key(H, cl[B].u.t.heap, q, old, cl[B].end);
        }
        T[q] = dq;
    }
}

/* The edge event of part p, due at time te at the root of active cluster A's heap: a
 * dropped part or an edge inside one cluster is discarded, a tight edge merges its
 * clusters, any other is re-scheduled. */
static gsfw_error edge_event(run_ctx *c, int A, int p, double te, long guard, gsfw_err *err)
{
    gsfw_pcsf *ws = c->ws;
    pc_cluster *cl = ws->cl;
    gsfw_pcsf_stats *st = &ws->stats;
    st->edge_events++;
    const double now = c->now = te;
    const int q = p ^ 1, e = p >> 1;
    const gsfw_ph_node *nd = ws->nd;
    const int is_dropped = part_dropped(nd, p);
#if defined(__GNUC__)
    if (!is_dropped) {
        /* what the event reads after delete_min, which waits for memory: the edge's
         * targets, and the second clusters of both coverage walks (their first clusters
         * were requested when p became the root: see below) */
        __builtin_prefetch(&ws->target[p]);
        if (c->cost) __builtin_prefetch(&c->cost[e]);
        const int sp = cl[part_owner(nd, p)].skip, sq = cl[part_owner(nd, q)].skip;
        if (sp >= 0) __builtin_prefetch(&cl[sp]);
        if (sq >= 0) __builtin_prefetch(&cl[sq]);
    }
#endif
    const int h = cl[A].u.t.heap = gsfw_ph_delete_min(&ws->ph, cl[A].u.t.heap);
#if defined(__GNUC__)
    if (h >= 0) {
        /* the new root is likely the next event's part: its chunk, and the first
         * clusters of its coverage walks (its node's line, which holds both owners, was
         * read by the pairing) */
        gsfw_ph_prefetch(&ws->ph, h);
        if (!part_dropped(nd, h)) {
            __builtin_prefetch(&cl[part_owner(nd, h)]);
            __builtin_prefetch(&cl[part_owner(nd, h ^ 1)]);
        }
    }
#endif
    const int stuck_part = c->stuck_part;
    c->stuck_part = -1;
    if (is_dropped) {
        st->dropped_events++;
        refresh_queue(ws, A);
        return GSFW_OK;
    }
    const double ce = edge_cost(c->cost, e);
    double cp, dp, cq, dq;
    cover(c, p, &cp, &dp); /* == A */
    const int B = cover(c, q, &cq, &dq);
    const double r = ce - cp - cq;
    if (A == B) {
        st->dropped_events++;
        drop_part(ws->nd, q);
        refresh_queue(ws, A);
        return GSFW_OK;
    }
    if (r < ws->eps * ce || r == 0.0) {
        merge_clusters(c, A, B, p, q, now + r);
        return GSFW_OK;
    }
    /* A growth event that re-schedules p at the current time (r is below the resolution
     * of now) leaves every quantity the next event reads unchanged. If the next event
     * pops p again, it is this one once more, and so is every later event: pcst_fast
     * loops forever (docs/pcsf.md, "Livelock"). Only there gsfw departs from it and
     * merges the two clusters. */
    if (cl[B].u.t.active ? now + r / 2.0 == now : now + r == now) {
        if (stuck_part == p && c->stuck_time == now) {
            st->livelocks++;
            merge_clusters(c, A, B, p, q, now + r);
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

gsfw_error gsfw_pcsf_grow(gsfw_pcsf *ws, int n, int m, const int *eu, const int *ev,
                          const double *prizes, const double *costs, int root, int target,
                          gsfw_err *err)
{
    pc_cluster *cl = ws->cl;
    gsfw_ph *H = &ws->ph;
    gsfw_pcsf_stats *st = &ws->stats;
    run_ctx c = {ws, eu, ev, costs, prizes, n, 0.0, n, 0, -1, 0.0, 0};
    H->nd = ws->nd;
    gsfw_ph_reset(H);
    const long visits0 = H->visits;
    grow_init(&c, n, m, prizes, root);
    ws->n_l1 = 0;
    if (!H->failed) first_deactivations(&c, target);
    /* Safety net behind the livelock rule: a run needs about 2-3 edge events per edge;
     * this bound is never reached unless the numerics break down. */
    const long guard = 64L * ((long)m + n) + 4096;
    while (c.count > target && !H->failed) {
        double te;
        int A, kind;
        if (!gsfw_evq_min(&ws->q, &te, &kind, &A)) break; /* cannot happen (finite prizes) */
        if (kind) {
            gsfw_error rc = edge_event(&c, A, cl[A].u.t.heap, te, guard, err);
            if (rc) return rc;
        } else { /* A deactivates */
            st->deactivations++;
            c.stuck_part = -1;
            c.now = te;
            gsfw_evq_remove(&ws->q, A);
            cl[A].u.t.active = 0;
            cl[A].end = te;
            c.count--;
        }
    }
    if (H->failed == GSFW_PH_TOO_LARGE)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "pcsf: instance too large for the pairing heaps (more than 2^31 "
                         "chunk slots, or more than 2^28 children of one heap node)");
    if (H->failed)
        return gsfw_fail(err, GSFW_ERR_NOMEM, "pcsf: out of memory (pairing heap chunks)");
    ws->n_clusters = c.ncl;
    st->clusters = c.ncl;
    st->heap_visits = H->visits - visits0;
    st->heap_slots = (long)H->slot_top;
    return GSFW_OK;
}
