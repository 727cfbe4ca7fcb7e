/* Dual maximisation oracles (DMOs): the gsfw_dmo interface, the built-in oracles
 * and oracles by model name. Included by gsfw.h. */
#ifndef GSFW_DMO_H
#define GSFW_DMO_H

#include <stdint.h>

#include "gsfw/core.h"
#include "gsfw/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an oracle counts per call beyond what the solvers count themselves, in counters
 * it names (gsfw_dmo.counters): the head and tail projections count their PCSF runs and
 * the calls whose size window was missed (include/gsfw/pcsf.h). select writes count[k],
 * the counter named counters[k], for its call (the solvers pass zeroed stats, and sum
 * the counts into gsfw_info by name: gsfw_info_count). */
#define GSFW_DMO_COUNTERS 4
typedef struct {
    long count[GSFW_DMO_COUNTERS];
} gsfw_dmo_stats;

/* A (delta-approximate) dual maximisation oracle: given z, select S in the model with
 * ||z_S|| >= delta * max_{S' in M} ||z_S'||. select writes at most max_support distinct
 * node ids into support (caller buffer of max_support ints, 1 <= max_support <= d) and
 * their number into *size.
 * stats may be NULL. Returns 0 on success. delta is the proven guarantee (0 = none);
 * model describes the support model it is proven for. */
typedef struct gsfw_dmo {
    int d;
    int max_support;
    double delta;
    const char *name;
    const char *model;
    void *ctx;
    int (*select)(void *ctx, const double *z, int *support, int *size, gsfw_dmo_stats *stats);
    void (*destroy)(struct gsfw_dmo *self);
    /* optional: return the oracle to its state right after construction (warm-started
     * searches, seeded random generators), so that a second solve repeats the first bit
     * for bit; gsfw_solve calls it before the first iteration. 0 on success. */
    int (*reset)(void *ctx);
    /* optional: 1 if support (size distinct ids) is a set of the model, 0 if not (used to
     * check a starting point x0). */
    int (*contains)(void *ctx, const int *support, int size);
    /* the largest number of nodes of a set of the model that delta refers to (s for the
     * s-sparse and M(G, s, g) models), 0 if unknown: with it the solvers certify
     * f(x) - f* <= <grad f(x), x> + C ||top_model_size(grad f(x))|| for any oracle */
    int model_size;
    /* the names of the oracle's counters count[0..] (NULL: none; see gsfw_dmo_stats) */
    const char *counters[GSFW_DMO_COUNTERS];
    /* optional: switch to the oracle's more accurate mode for the following calls (an
     * oracle that starts with cheap answers); 0 if it did, nonzero if it has no finer
     * mode. reset returns it to its first mode. The graph subspace pursuit calls it when
     * a level stops making progress. */
    int (*refine)(void *ctx);
} gsfw_dmo;

/* The count of the oracle's counter `name` in stats (0 when it has no such counter). */
GSFW_API long gsfw_dmo_count(const gsfw_dmo *dmo, const gsfw_dmo_stats *stats,
                             const char *name);

/* Frees an oracle through its destroy hook; an oracle without one belongs to its creator
 * (a user struct, possibly on the stack) and is left alone. NULL is a no-op. */
GSFW_API void gsfw_dmo_free(gsfw_dmo *dmo);

/* Exact top-s: the s largest |z_i| (linear-time selection). delta = 1. */
GSFW_API gsfw_error gsfw_dmo_topk(int d, int s, gsfw_dmo **out, gsfw_err *err);
/* The delta-approximate top-s oracle of the paper's App. C (Alg. 3), deterministic
 * given seed: starts from the s smallest |z_i| and swaps in top-s entries (in a seeded
 * random order, never removing an inserted one) until ||z_S|| >= delta ||top_s(z)||. */
GSFW_API gsfw_error gsfw_dmo_topk_approx(int d, int s, double delta, uint64_t seed, gsfw_dmo **out,
                                gsfw_err *err);
/* l1 ball (s = 1). delta = 1 picks argmax |z_i|; delta < 1 scans a seeded random
 * permutation and returns the first i with |z_i| >= delta * max |z| (the reference code's
 * test without its missing factor C). */
GSFW_API gsfw_error gsfw_dmo_l1(int d, double delta, uint64_t seed, gsfw_dmo **out, gsfw_err *err);
/* Top-g seeds + best-neighbour-first growth for M(G, s, g): feasible (<= s nodes in
 * <= g connected pieces), delta = sqrt(g/s) >= sqrt(1/ceil(s/g)). The graph must outlive
 * the oracle. */
GSFW_API gsfw_error gsfw_dmo_subgraph(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                             gsfw_err *err);
/* Exact oracle over M(G, s, g) by enumeration; for tests on tiny graphs (refuses when
 * the enumeration would exceed about 1e8 subsets). */
GSFW_API gsfw_error gsfw_dmo_brute_force(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                                gsfw_err *err);

/* ---- oracles by model name (one table for the C API, the CLI and Python) */

struct gsfw_tree;

/* What a model name needs. Fields a model does not use are ignored, except that a model
 * which fixes s or g (l1: s = 1; tree-connected: g = 1) refuses another positive value
 * (s or g <= 0 takes the fixed one). */
typedef struct {
    const char *model;        /* a model's name: `gsfw help models` lists them ("topk",
                                 "subgraph", "head", "tree", ...) */
    int d;                    /* vector length: for graph and tree models their node count
                                 (0 takes it; another value is GSFW_ERR_DIMENSION) */
    int s;                    /* sparsity */
    int g;                    /* components (graph models; default 1 when <= 0) */
    const gsfw_graph *graph;  /* graph models */
    const struct gsfw_tree *tree; /* tree models */
    double delta;             /* topk-approx, l1: target delta in (0, 1] (<= 0: 1; NaN is
                                 refused) */
    uint64_t seed;            /* randomised oracles */
    const struct gsfw_model_def *def; /* a model of one's own (gsfw/registry.h): used
                                         instead of the name when set (default NULL) */
    double near_miss;         /* head: the warm lambda search's near-miss band
                                 (gsfw_proj_settings.near_miss: 0 automatic, < 0 off) */
} gsfw_model_spec;

/* 1 if the model needs a graph, 2 if it needs a tree, 0 if neither, -1 if unknown. */
GSFW_API int gsfw_model_needs_graph(const char *model);
/* Comma-separated list of the model names, for messages (the registry's). */
GSFW_API const char *gsfw_model_names(void);
/* The oracle of a model (the graph / tree must outlive it). */
GSFW_API gsfw_error gsfw_dmo_from_model(const gsfw_model_spec *spec, gsfw_dmo **out,
                                        gsfw_err *err);

#ifdef __cplusplus
}
#endif

#endif /* GSFW_DMO_H */
