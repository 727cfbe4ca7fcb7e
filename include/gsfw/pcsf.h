/* The prize-collecting Steiner forest (PCSF) and the head / tail projections
 * built on it. Included by gsfw.h. */
#ifndef GSFW_PCSF_H
#define GSFW_PCSF_H

#include "gsfw/core.h"
#include "gsfw/dmo.h"
#include "gsfw/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GSFW_PRUNING_NONE = 0,
    GSFW_PRUNING_SIMPLE,
    GSFW_PRUNING_GW,
    GSFW_PRUNING_STRONG
} gsfw_pruning;

/* Parse "none" | "simple" | "gw" | "strong"; returns -1 when unknown. */
GSFW_API int gsfw_pruning_parse(const char *name);

/* Reusable PCSF workspace (Goemans-Williamson growth + pruning, compatible with
 * pcst_fast). Memory grows to the largest instance seen and is reused across calls. */
typedef struct gsfw_pcsf gsfw_pcsf;

GSFW_API gsfw_error gsfw_pcsf_create(gsfw_pcsf **out, gsfw_err *err);
GSFW_API void gsfw_pcsf_free(gsfw_pcsf *ws);

/* Solve one PCSF instance. root = -1 for unrooted (target_clusters active clusters kept;
 * with 0 every cluster ends inactive, so a pruning returns nothing, as pcst_fast's does,
 * and GSFW_PRUNING_NONE the whole forest); root >= 0 requires target_clusters == 0.
 * costs may be NULL (unit costs); prizes and costs must be finite and >= 0. out_nodes:
 * n ints, out_edges: m ints (edge indices into the input list). Outputs are in the order
 * the pruning visits them. */
GSFW_API gsfw_error gsfw_pcsf_run(gsfw_pcsf *ws, int n, int m, const int *edge_u, const int *edge_v,
                         const double *prizes, const double *costs, int root,
                         int target_clusters, gsfw_pruning pruning, int *out_nodes,
                         int *n_out_nodes, int *out_edges, int *n_out_edges, gsfw_err *err);

/* Merge tolerance of the growth phase: an edge whose uncovered remainder r is below
 * eps * cost (or exactly 0) is tight. The default, GSFW_PCSF_DEFAULT_TOLERANCE = 1e-6, is
 * the tolerance of pcst_fast as released (PyPI, fraenkel-lab); 1e-10 gives the outputs of
 * the original cluster_approx sources. eps must be finite and in [0, 1). The setting stays
 * with the workspace for every later run. */
#define GSFW_PCSF_DEFAULT_TOLERANCE 1e-6
GSFW_API gsfw_error gsfw_pcsf_set_tolerance(gsfw_pcsf *ws, double eps, gsfw_err *err);

/* ------------------------------------------------- Head / tail projections */

/* Head and tail projections over M(G, s, g) (and weighted graph models) built on the PCSF
 * (docs/pcsf.md). Prizes are pi_i = z_i^2, edge costs the graph's costs (unit if NULL).
 *  - GSFW_PROJ_PRACTICAL: the lambda-search of the paper's experiments: PCSF with costs
 *    lambda * c, lambda searched until the number of output nodes lies in
 *    [s_low, s_high]; "window missed" is reported when k(lambda) jumps over the window,
 *    the run budget ends the search, or the search stops at a near miss (near_miss).
 *    The support then comes from the size repair (repair_size = 1, default): the closest
 *    forests on either side are grown best-neighbour-first or pruned leaf by leaf into
 *    the window and the one of larger energy is kept, so the output has between s_low and
 *    s_high nodes in at most g components whenever the graph has such a set.
 *    warm_start = 0: the reference search (first guess 2 x the s_high-th largest prize,
 *    doubling, then bisection until the interval collapses), cold on every call.
 *    warm_start = 1 (default): a safeguarded secant search on log k against log lambda,
 *    started from the previous call's lambda relative to the s_high-th largest prize, so
 *    an iterative solver usually needs one to three PCSF calls per projection; after a
 *    projection of z = 0 the next call starts its lambda search afresh, from the
 *    reference's guess (the measured slope and the cheap first mode's state stay).
 *  - GSFW_PROJ_THEORY: Hegde, Indyk & Schmidt (2015): HEAD by prize scaling + prune
 *    (support in M(G, 2s + g, g), ||z_S|| >= sqrt(1/14) max over M(G, s, g)), TAIL by
 *    cost scaling, with costs c(e) = w(e) + B/s and cost budget C = 2B. */
typedef enum { GSFW_PROJ_HEAD = 0, GSFW_PROJ_TAIL = 1 } gsfw_proj_kind;
typedef enum { GSFW_PROJ_PRACTICAL = 0, GSFW_PROJ_THEORY = 1 } gsfw_proj_method;

typedef struct {
    gsfw_proj_kind kind;
    gsfw_proj_method method;
    int s;                /* sparsity s >= 1 */
    int g;                /* number of components g >= 1 */
    int s_low, s_high;    /* practical: window on the output size (default [s, floor(1.05 s)]);
                             1 <= s_low <= s_high, s_low <= n (the graph's nodes); an
                             s_high above n (the default's for s near n) is taken as n */
    int max_calls;        /* PCSF calls per projection (default 50) */
    gsfw_pruning pruning; /* default GSFW_PRUNING_GW */
    int warm_start;       /* practical: 1 = gsfw's warm-started search (default), 0 = the
                             reference's cold search */
    double budget;        /* theory: B; <= 0 means s - g (unit edge weights) */
    double delta;         /* theory head: bisection tolerance factor (default 1/169) */
    double nu;            /* theory tail: nu > 2 (default 2.5) */
    double err_tol;       /* theory: lower clamp of the smallest positive prize (1e-6) */
    int repair_size;      /* practical: 1 (default) = when the lambda-search misses the
                             window, grow or prune the closest forests into it (see
                             gsfw_proj_info.size_repaired); 0 = return the search's answer */
    int first_calls;      /* practical: PCSF runs per projection until the DMO's refine hook
                             is called (then max_calls); 0 (default): max_calls throughout.
                             With 1, a projection is one run at the predicted lambda and,
                             when it misses the window, the size repair */
    double near_miss;     /* practical, warm, repair_size = 1: after the first call, a run
                             whose size k lies within this fraction of the window,
                             s_low (1 - near_miss) <= k <= s_high (1 + near_miss), ends the
                             search and is repaired to s_low nodes, and the first lambda
                             of a call is predicted from the last two calls (accelerated
                             Frank-Wolfe's gradients alternate between two regimes). A PCSF
                             run costs more than the repair at every graph size.
                             0 (default): automatic, 0.2 for head projections, else off;
                             < 0: off; must be below 1 */
} gsfw_proj_settings;

/* Defaults for a head or tail projection with sparsity s and g components. */
GSFW_API void gsfw_proj_settings_default(gsfw_proj_settings *settings, gsfw_proj_kind kind, int s, int g);

/* What one projection did. */
typedef struct {
    int pcsf_calls;       /* PCSF runs of this call */
    int window_missed;    /* practical: 1 if the lambda-search alone found no lambda whose
                             forest has a size in [s_low, s_high] (k(lambda) jumped over it,
                             the run budget ended the search, it stopped at a near miss,
                             or, with repair_size = 1, no set of that size exists: the
                             search is then skipped, pcsf_calls = 0) */
    double lambda;        /* the final scale (costs for practical / tail, prizes for head) */
    int size;             /* number of support nodes */
    double cost;          /* cost of the returned forest (graph costs) */
    double energy;        /* sum of z_i^2 over the support */
    int size_repaired;    /* practical: 1 if the window was missed and the support is the
                             repair's (grown or pruned forest), not a PCSF forest */
    int target_met;       /* practical: 1 if size lies in [s_low, s_high]. With repair_size
                             = 1 it is 0 only when no set of s_low nodes in g components
                             exists (the g largest components of G are too small); the
                             support is then the g components of largest energy, whole:
                             the exact maximum over sets in g components.
                             Theory: always 1 (no size window) */
} gsfw_proj_info;

typedef struct gsfw_headtail gsfw_headtail;

/* The graph must outlive the object. Allocates every buffer (n + m sized) up front. */
GSFW_API gsfw_error gsfw_headtail_create(const gsfw_graph *graph, const gsfw_proj_settings *settings,
                                gsfw_headtail **out, gsfw_err *err);
GSFW_API void gsfw_headtail_free(gsfw_headtail *ht);
/* Forget the warm-start state. */
GSFW_API void gsfw_headtail_reset(gsfw_headtail *ht);
/* Project z (n entries, finite): support receives the node ids (caller buffer of n
 * ints, ascending), *size their number. info may be NULL. */
GSFW_API gsfw_error gsfw_headtail_project(gsfw_headtail *ht, const double *z, int *support, int *size,
                                 gsfw_proj_info *info, gsfw_err *err);
/* The warning a practical projection deserves when it returned size < s nodes (g
 * components asked), written into buf (cap bytes): "the head projection returned 1 node,
 * below s = 10: the graph has no set of 10 nodes in 1 component (its largest component
 * has 2 nodes)", the part after the colon when the g largest components of the graph
 * hold fewer than s nodes (the only case where the size repair falls short). what:
 * the model's name ("head", "tail", "subgraph"). Returns 1 when it wrote a warning; 0
 * when size >= s or graph is NULL (buf then empty), or when buf is NULL or cap 0. */
GSFW_API int gsfw_proj_short_support_text(const gsfw_graph *graph, const char *what, int size,
                                          int s, int g, char *buf, size_t cap);

/* The counters of the head and tail DMOs (gsfw_dmo_stats.count, gsfw_info_count):
 * "pcsf_calls", the PCSF runs of a call, and "window_missed", 1 when its lambda-search
 * missed the size window (see gsfw_proj_info). */
enum { GSFW_COUNT_PCSF_CALLS = 0, GSFW_COUNT_WINDOW_MISSED = 1 };

/* Head projection as a DMO for M(G, s, g): practical lambda-search with window
 * [s, floor(1.05 s)], warm-started across calls, GW pruning. delta is reported as
 * sqrt(1/14), the guarantee of the theory head for the model M(G, 2s + g, g) (the
 * model string says so; the practical search itself has no proven delta).
 * max_support = n. The graph must outlive the oracle. */
GSFW_API gsfw_error gsfw_dmo_head(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                         gsfw_err *err);
/* Tail projection through the DMO interface (select returns the support; delta = 0):
 * practical lambda-search with window [s, floor(1.05 s)], for Graph-IHT / Graph-CoSaMP. */
GSFW_API gsfw_error gsfw_dmo_tail(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                         gsfw_err *err);
/* Either projection with explicit settings (method, window, budget, ...). */
GSFW_API gsfw_error gsfw_dmo_headtail(const gsfw_graph *g, const gsfw_proj_settings *settings,
                             gsfw_dmo **out, gsfw_err *err);
/* Bytes a head or tail projection (and its PCSF workspace) allocates on a graph of
 * this size: what to check before building one on a large graph. */
GSFW_API double gsfw_headtail_memory(double nodes, double edges);

#ifdef __cplusplus
}
#endif

#endif /* GSFW_PCSF_H */
