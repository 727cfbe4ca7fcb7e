/* The PCSF workspace, shared by the files of the PCSF module (internal): pcsf.c (API,
 * memory, validation), pcsf_grow.c (the Goemans-Williamson growth phase) and
 * pcsf_prune.c (the four prunings). */
#ifndef GSFW_PCSF_WS_H
#define GSFW_PCSF_WS_H

#include "core/internal.h"
#include "oracles/pcsf/pcsf_heap.h"
#include "oracles/pcsf/pcsf_internal.h"
#include "oracles/pcsf/pcsf_queue.h"

#include <stdint.h>

/* The graph node that owns edge part p (part 2e belongs to edge_u[e], 2e+1 to
 * edge_v[e]), and whether p is dropped (its edge merged or lies inside one cluster): both
 * in the heap node's owner field, whose sign bit is the flag, so that an event reads them
 * from the cache line that delete_min reads (the parts of an edge share that line). */
#define PART_DROPPED ((unsigned)1 << 31)
static inline int part_owner(const gsfw_ph_node *nd, int p)
{
    return (int)((unsigned)nd[p].owner & ~PART_DROPPED);
}
static inline int part_dropped(const gsfw_ph_node *nd, int p) { return nd[p].owner < 0; }
static inline void drop_part(gsfw_ph_node *nd, int p)
{
    nd[p].owner = (int)((unsigned)nd[p].owner | PART_DROPPED);
}

static inline double edge_cost(const double *cost, int e) { return cost ? cost[e] : 1.0; }

/* Node flags (per graph node, pruning). */
#define NF_GOOD 1
#define NF_DELETED 2
#define NF_LISTED 4

/* Cluster fields used by every event (32 bytes, two per cache line). skip_sum is only
 * used by clusters that have a parent, and heap, active and has_root only by top-level
 * clusters (a cluster gets its parent at its last use of them), so they share 8 bytes:
 * the event loop then needs one cluster record per cluster instead of two. GW pruning
 * reuses the union for its "needed" mark once the growth is over (skip_sum is dead then,
 * and the marking of good nodes has read active and has_root). */
typedef struct {
    double start;     /* time the cluster became active */
    double end;       /* time it stopped being active (moat = end - start); while the
                       * cluster is active: its scheduled deactivation time */
    union {
        double skip_sum; /* (parent >= 0) coverage from here up to (excluding) skip */
        struct {
            int heap;    /* (top level) its heap of edge parts or -1 */
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
    gsfw_ph_node *nd;       /* 2 cap_m: the heap node of edge part p is nd[p]; its owner
                             * is the graph node of the part (2e: edge_u[e], 2e+1:
                             * edge_v[e]), read from the line delete_min has just read */
    gsfw_ph ph;             /* children chunks and delete_min scratch of the heaps */
    double *target;         /* 2 cap_m: target coverage of each part */
    pc_cluster *cl;         /* 2 cap_n */
    pc_info *ci;            /* cap_n: of the merged clusters (cluster n + i: ci[i]) */
    gsfw_evq q;             /* ids < 2 cap_n: next event of each active cluster */
    int *trail;             /* 2 cap_n: the clusters a coverage walk passed, */
    double *trail_acc;      /* 2 cap_n: and the coverage below each */
    int *l1_part;           /* cap_n: part whose event merged */
    int *l1_rec;            /* cap_n: inactive cluster of an active-inactive merge, or -1 */
    int n_l1;
    int n_clusters;
    /* pruning: nflag is owned; the other arrays are views into the heap nodes (dead once
     * the growth is over) when they are large enough, else into prune_own (see
     * carve_pruning in pcsf.c) */
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

/* The growth phase (pcsf_grow.c): fills the merge tree, L1 and the stats. */
gsfw_error gsfw_pcsf_grow(gsfw_pcsf *ws, int n, int m, const int *eu, const int *ev,
                          const double *prizes, const double *costs, int root, int target,
                          gsfw_err *err);

/* Good nodes and the pruning (pcsf_prune.c); outputs as gsfw_pcsf_run's. */
void gsfw_pcsf_prune(gsfw_pcsf *ws, int n, const int *eu, const int *ev, const double *prizes,
                     const double *cost, int root, gsfw_pruning pruning, int *out_nodes,
                     int *n_out_nodes, int *out_edges, int *n_out_edges);

#endif
