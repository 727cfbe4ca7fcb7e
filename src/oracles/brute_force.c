/* Exact DMO for M(G, s, g) by enumeration, the reference the approximate oracles are
 * tested against (algorithms.md §3.7 (a)). Tiny graphs only.
 *
 * M(G, s, g) is the family of node sets with |S| <= s whose induced subgraph has at most
 * g connected components. Feasibility is not monotone (a subset of a connected set can be
 * disconnected, a superset of a feasible set can be infeasible), so every subset of size
 * 1..s is a candidate, not only those of size exactly s.
 *
 * Enumeration: depth-first over increasing ids (each subset once, in lexicographic
 * order), carrying the weight sum_{i in S} z_i^2. The component count (a DFS restricted
 * to S, O(|S| + edges at S)) is only computed for a set that would beat the best so far,
 * and a branch is cut when even (s - |S|) copies of the largest remaining weight cannot
 * beat it. The first set reaching the optimal value wins, so the answer is deterministic.
 * Refused when sum_{k<=s} C(n, k) exceeds 1e8 subsets. */
#include "oracles/dmo_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define BRUTE_FORCE_LIMIT 1e8

typedef struct {
    const gsfw_graph *graph;
    int n, s, g;
    double *w;            /* n: z_i^2 */
    double *suffix_max;   /* n+1: max_{j >= i} w_j (0 past the end) */
    int *cur;             /* s: the current subset */
    int *best;            /* s: the best feasible subset so far */
    int best_k;
    double best_sum;
    double slack;         /* relative margin keeping the pruning bound safe from rounding */
    unsigned char *in_set;/* n flags: member of cur */
    unsigned char *seen;  /* n flags: reached by the component DFS (reset after each use) */
    int *stack;           /* n ints */
    char model[96];
} brute_ctx;

/* Number of connected components of G[cur[0..k)], or g+1 as soon as it exceeds g. */
static int count_components(brute_ctx *c, int k)
{
    const gsfw_graph *G = c->graph;
    int count = 0;
    for (int a = 0; a < k && count <= c->g; a++) {
        int root = c->cur[a];
        if (c->seen[root]) continue;
        count++;
        int top = 0;
        c->stack[top++] = root;
        c->seen[root] = 1;
        while (top > 0) {
            int x = c->stack[--top];
            for (int e = G->adj_ptr[x]; e < G->adj_ptr[x + 1]; e++) {
                int y = G->adj_node[e];
                if (c->in_set[y] && !c->seen[y]) {
                    c->seen[y] = 1;
                    c->stack[top++] = y;
                }
            }
        }
    }
    for (int a = 0; a < k; a++) c->seen[c->cur[a]] = 0;
    return count;
}

static void enumerate(brute_ctx *c, int start, int depth, double sum)
{
    if (depth > 0 && sum > c->best_sum && count_components(c, depth) <= c->g) {
        c->best_sum = sum;
        c->best_k = depth;
        memcpy(c->best, c->cur, (size_t)depth * sizeof(int));
    }
    if (depth == c->s || start >= c->n) return;
    double bound = sum + (double)(c->s - depth) * c->suffix_max[start];
    if (bound * c->slack < c->best_sum) return;
    for (int i = start; i < c->n; i++) {
        c->cur[depth] = i;
        c->in_set[i] = 1;
        enumerate(c, i + 1, depth + 1, sum + c->w[i]);
        c->in_set[i] = 0;
    }
}

static int brute_select(void *vctx, const double *z, int *support, int *size,
                        gsfw_dmo_stats *stats)
{
    (void)stats;
    brute_ctx *c = vctx;
    int n = c->n;
    if (!gsfw_all_finite(z, (size_t)n)) return GSFW_DMO_BAD_INPUT;
    for (int i = 0; i < n; i++) {
        c->w[i] = z[i] * z[i];
        if (!isfinite(c->w[i])) return GSFW_DMO_BAD_INPUT; /* the sums would all tie at inf */
    }
    c->suffix_max[n] = 0.0;
    for (int i = n - 1; i >= 0; i--)
        c->suffix_max[i] = c->w[i] > c->suffix_max[i + 1] ? c->w[i] : c->suffix_max[i + 1];
    c->best_sum = -1.0; /* any non-empty set beats it: singletons are always feasible */
    c->best_k = 0;
    enumerate(c, 0, 0, 0.0);
    memcpy(support, c->best, (size_t)c->best_k * sizeof(int));
    *size = c->best_k;
    return 0;
}

static void brute_destroy(gsfw_dmo *dmo)
{
    if (!dmo) return;
    brute_ctx *c = dmo->ctx;
    if (c) {
        free(c->w);
        free(c->suffix_max);
        free(c->cur);
        free(c->best);
        free(c->in_set);
        free(c->seen);
        free(c->stack);
    }
    gsfw_dmo_release(dmo);
}

static int brute_contains(void *ctx, const int *support, int size)
{
    brute_ctx *c = ctx;
    return gsfw_dmo_contains_graph(c->graph, c->s, c->g, support, size);
}

gsfw_error gsfw_dmo_brute_force(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                                gsfw_err *err)
{
    static const char who[] = "brute-force DMO";
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: output pointer is NULL", who);
    *out = NULL;
    gsfw_error rc = gsfw_dmo_check_graph(who, g, err);
    if (!rc) rc = gsfw_dmo_check_sparsity(who, s, g->n, "number of nodes", err);
    if (!rc) rc = gsfw_dmo_check_components(who, g_components, s, err);
    if (rc) return rc;
    int n = g->n;
    double binom = 1.0, total = 1.0; /* sum_{k <= s} C(n, k), in floating point */
    for (int k = 1; k <= s && total <= BRUTE_FORCE_LIMIT; k++) {
        binom = binom * (double)(n - k + 1) / (double)k;
        total += binom;
    }
    if (total > BRUTE_FORCE_LIMIT)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "%s: n = %d, s = %d means more than %.0e subsets to enumerate; "
                         "use it on tiny graphs only", who, n, s, BRUTE_FORCE_LIMIT);
    gsfw_dmo *dmo;
    rc = gsfw_dmo_new(n, s, 1.0, "brute-force", NULL, sizeof(brute_ctx), brute_select,
                      brute_destroy, &dmo, err);
    if (rc) return rc;
    brute_ctx *c = dmo->ctx;
    dmo->contains = brute_contains;
    dmo->model_size = s;
    c->graph = g;
    c->n = n;
    c->s = s;
    c->g = g_components;
    /* Sums of at most s+1 non-negative terms: the computed bound can fall short of a
     * computed set weight by a few (s+1) ulps at most. */
    c->slack = 1.0 + 4.0 * DBL_EPSILON * (double)(s + 2);
    snprintf(c->model, sizeof c->model, "M(G, s=%d, g=%d): <= s nodes in <= g connected pieces",
             s, g_components);
    dmo->model = c->model;
    c->w = gsfw_malloc_array((size_t)n, sizeof(double));
    c->suffix_max = gsfw_malloc_array((size_t)n + 1, sizeof(double));
    c->cur = gsfw_malloc_array((size_t)s, sizeof(int));
    c->best = gsfw_malloc_array((size_t)s, sizeof(int));
    c->in_set = gsfw_calloc_array((size_t)n, 1);
    c->seen = gsfw_calloc_array((size_t)n, 1);
    c->stack = gsfw_malloc_array((size_t)n, sizeof(int));
    if (!c->w || !c->suffix_max || !c->cur || !c->best || !c->in_set || !c->seen ||
        !c->stack) {
        brute_destroy(dmo);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for %d nodes", who, n);
    }
    *out = dmo;
    return GSFW_OK;
}
