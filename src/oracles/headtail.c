/* Head and tail projections over M(G, s, g) built on the PCSF (docs/pcsf.md section 4):
 * the practical lambda-search of the paper's experiments (with a warm start across
 * calls) and the theory versions of Hegde, Indyk & Schmidt (2015), and their DMO
 * wrappers. Every buffer is allocated by the constructor; a projection allocates
 * nothing (the PCSF workspace reaches its size on the first call). */
#include "core/internal.h"
#include "oracles/dmo_internal.h"
#include "oracles/headtail_repair.h"
#include "oracles/pcsf/pcsf_internal.h"
#include "util/select.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct gsfw_headtail {
    const gsfw_graph *g;
    gsfw_proj_settings st;
    gsfw_pcsf *ws;
    int n, m;
    double *prize;     /* n: z_i^2 */
    double *sprize;    /* n: scaled prizes (theory head) */
    double *cost;      /* m: base costs (theory: w + B/s) */
    double *scost;     /* m: scaled costs */
    int *nodes, *edges;        /* PCSF output of the last call */
    int nn, ne;
    int *keep_nodes, *keep_edges; /* a stored solution (lambda_hi / F_lo) */
    int keep_nn, keep_ne;
    double *sorted;    /* n: scratch for order statistics */
    /* forest pruning scratch */
    int *adj_ptr;      /* n + 1 */
    int *adj_node, *adj_edge; /* 2n */
    int *label;        /* n */
    int *order;        /* n */
    int *tree_start;   /* n + 1 */
    double *tree_prize, *tree_cost; /* n */
    int *tree_rank;    /* n */
    int *tour_node, *tour_edge; /* 2n */
    int *stack, *stack_pos;     /* n */
    unsigned char *mark;        /* n */
    int *out;          /* n: pruned output (theory), best repair candidate (practical) */
    int calls;
    double lambda_prev;     /* lambda of the previous result */
    double rho_prev;        /* lambda_prev / the mean of the s_high largest prizes then */
    int *sel;               /* n: selection scratch */
    int have_prev;
    int prev_missed;        /* the previous result missed its window (a jump in k) */
    double ref_now;         /* the current call's reference prize (0: none) */
    /* size repair (practical, repair_size = 1): the forests closest to the window seen by
     * this call's search, below (most nodes < s_low) and above (fewest nodes > s_high) */
    gsfw_size_repair *repair;
    int *below_nodes, *above_nodes, *above_edges; /* growth needs no edges */
    int below_nn, above_nn, above_ne; /* -1: none seen */
    int *cand;              /* n: a repair candidate */
};

void gsfw_proj_settings_default(gsfw_proj_settings *st, gsfw_proj_kind kind, int s, int g)
{
    if (!st) return; /* nothing to fill: a no-op rather than a crash */
    memset(st, 0, sizeof *st);
    st->kind = kind;
    st->method = GSFW_PROJ_PRACTICAL;
    st->s = s;
    st->g = g;
    st->s_low = s;
    st->s_high = (int)floor(1.05 * s);
    st->max_calls = 50;
    st->pruning = GSFW_PRUNING_GW;
    st->warm_start = 1;
    st->budget = 0.0;
    st->delta = 1.0 / 169.0;
    st->nu = 2.5;
    st->err_tol = 1e-6;
    st->repair_size = 1;
}

void gsfw_headtail_free(gsfw_headtail *ht)
{
    if (!ht) return;
    gsfw_pcsf_free(ht->ws);
    free(ht->prize);
    free(ht->sprize);
    free(ht->cost);
    free(ht->scost);
    free(ht->nodes);
    free(ht->edges);
    free(ht->keep_nodes);
    free(ht->keep_edges);
    free(ht->sorted);
    free(ht->sel);
    free(ht->adj_ptr);
    free(ht->adj_node);
    free(ht->adj_edge);
    free(ht->label);
    free(ht->order);
    free(ht->tree_start);
    free(ht->tree_prize);
    free(ht->tree_cost);
    free(ht->tree_rank);
    free(ht->tour_node);
    free(ht->tour_edge);
    free(ht->stack);
    free(ht->stack_pos);
    free(ht->mark);
    free(ht->out);
    gsfw_size_repair_free(ht->repair);
    free(ht->below_nodes);
    free(ht->above_nodes);
    free(ht->above_edges);
    free(ht->cand);
    free(ht);
}

void gsfw_headtail_reset(gsfw_headtail *ht)
{
    if (ht) {
        ht->have_prev = 0;
        ht->prev_missed = 0;
    }
}

static gsfw_error check_settings(const gsfw_graph *g, const gsfw_proj_settings *st,
                                 gsfw_err *err)
{
    const char *who = st->kind == GSFW_PROJ_HEAD ? "head projection" : "tail projection";
    if (!g) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the graph is NULL", who);
    if (g->n < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the graph has no nodes", who);
    /* The PCSF reads the edge arrays: a graph filled by hand must have them. */
    if (g->m < 0 || (g->m > 0 && (!g->edge_u || !g->edge_v)))
        return gsfw_fail(err, GSFW_ERR_GRAPH, "%s: the graph (m = %d) has no edge arrays "
                         "(build it with gsfw_graph_*)", who, g->m);
    if (st->s < 1 || st->s > g->n)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: s = %d must be in 1..%d (nodes)", who,
                         st->s, g->n);
    if (st->g < 1 || st->g > st->s)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: g = %d must be in 1..s = %d", who,
                         st->g, st->s);
    if (st->kind != GSFW_PROJ_HEAD && st->kind != GSFW_PROJ_TAIL)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: unknown kind %d", who, (int)st->kind);
    if (st->method != GSFW_PROJ_PRACTICAL && st->method != GSFW_PROJ_THEORY)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: unknown method %d", who,
                         (int)st->method);
    if (st->method == GSFW_PROJ_PRACTICAL && (st->s_low < 1 || st->s_high < st->s_low))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "%s: window [%d, %d] must satisfy 1 <= s_low <= s_high", who,
                         st->s_low, st->s_high);
    if (st->max_calls < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: max_calls = %d must be >= 1", who,
                         st->max_calls);
    if ((int)st->pruning < GSFW_PRUNING_NONE || (int)st->pruning > GSFW_PRUNING_STRONG)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: unknown pruning %d", who,
                         (int)st->pruning);
    if (st->method == GSFW_PROJ_THEORY) {
        if (!isfinite(st->budget) || !(st->delta > 0 && st->delta <= 1) ||
            !(st->nu > 2 && isfinite(st->nu)) || !(st->err_tol > 0 && isfinite(st->err_tol)))
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                             "%s: theory settings need a finite budget, 0 < delta <= 1, "
                             "nu > 2 and err_tol > 0 (got budget = %g, delta = %g, nu = %g, "
                             "err_tol = %g)", who, st->budget, st->delta, st->nu, st->err_tol);
    }
    return GSFW_OK;
}

gsfw_error gsfw_headtail_create(const gsfw_graph *graph, const gsfw_proj_settings *settings,
                                gsfw_headtail **out, gsfw_err *err)
{
    if (!out || !settings)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "projection: %s is NULL",
                         !out ? "the output pointer" : "settings");
    *out = NULL;
    gsfw_error rc = check_settings(graph, settings, err);
    if (rc) return rc;
    gsfw_headtail *ht = calloc(1, sizeof *ht);
    if (!ht) return gsfw_fail(err, GSFW_ERR_NOMEM, "projection: out of memory");
    size_t n = (size_t)graph->n, m = (size_t)graph->m;
    ht->g = graph;
    ht->st = *settings;
    ht->n = graph->n;
    ht->m = graph->m;
    ht->prize = gsfw_malloc_array(n, sizeof(double));
    ht->sprize = gsfw_malloc_array(n, sizeof(double));
    ht->cost = gsfw_malloc_array(m, sizeof(double));
    ht->scost = gsfw_malloc_array(m, sizeof(double));
    ht->nodes = gsfw_malloc_array(n, sizeof(int));
    ht->edges = gsfw_malloc_array(m, sizeof(int));
    ht->keep_nodes = gsfw_malloc_array(n, sizeof(int));
    ht->keep_edges = gsfw_malloc_array(m, sizeof(int));
    ht->sorted = gsfw_malloc_array(n, sizeof(double));
    ht->sel = gsfw_malloc_array(n, sizeof(int));
    ht->adj_ptr = gsfw_malloc_array(n + 1, sizeof(int));
    ht->adj_node = gsfw_malloc_array(2 * n, sizeof(int));
    ht->adj_edge = gsfw_malloc_array(2 * n, sizeof(int));
    ht->label = gsfw_malloc_array(n, sizeof(int));
    ht->order = gsfw_malloc_array(n, sizeof(int));
    ht->tree_start = gsfw_malloc_array(n + 1, sizeof(int));
    ht->tree_prize = gsfw_malloc_array(n, sizeof(double));
    ht->tree_cost = gsfw_malloc_array(n, sizeof(double));
    ht->tree_rank = gsfw_malloc_array(n, sizeof(int));
    ht->tour_node = gsfw_malloc_array(2 * n, sizeof(int));
    ht->tour_edge = gsfw_malloc_array(2 * n, sizeof(int));
    ht->stack = gsfw_malloc_array(n, sizeof(int));
    ht->stack_pos = gsfw_malloc_array(n, sizeof(int));
    ht->mark = gsfw_calloc_array(n, 1);
    ht->out = gsfw_malloc_array(n, sizeof(int));
    if (!ht->prize || !ht->sprize || !ht->cost || !ht->scost || !ht->nodes || !ht->edges ||
        !ht->keep_nodes || !ht->keep_edges || !ht->sorted || !ht->sel || !ht->adj_ptr || !ht->adj_node ||
        !ht->adj_edge || !ht->label || !ht->order || !ht->tree_start || !ht->tree_prize ||
        !ht->tree_cost || !ht->tree_rank || !ht->tour_node || !ht->tour_edge || !ht->stack ||
        !ht->stack_pos || !ht->mark || !ht->out) {
        gsfw_headtail_free(ht);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "projection: out of memory for %d nodes", graph->n);
    }
    rc = gsfw_pcsf_create(&ht->ws, err);
    if (!rc && settings->method == GSFW_PROJ_PRACTICAL && settings->repair_size) {
        ht->below_nodes = gsfw_malloc_array(n, sizeof(int));
        ht->above_nodes = gsfw_malloc_array(n, sizeof(int));
        ht->above_edges = gsfw_malloc_array(n, sizeof(int)); /* a forest: < n edges */
        ht->cand = gsfw_malloc_array(n, sizeof(int));
        if (!ht->below_nodes || !ht->above_nodes || !ht->above_edges || !ht->cand)
            rc = gsfw_fail(err, GSFW_ERR_NOMEM, "projection: out of memory for %d nodes",
                           graph->n);
        else
            rc = gsfw_size_repair_create(graph, &ht->repair, err);
    }
    if (rc) {
        gsfw_headtail_free(ht);
        return rc;
    }
    /* base costs; the theory versions add B/s to every edge weight */
    double B = settings->budget > 0 ? settings->budget : (double)(settings->s - settings->g);
    if (settings->method == GSFW_PROJ_THEORY) ht->st.budget = B;
    for (int e = 0; e < graph->m; e++) {
        double w = graph->cost ? graph->cost[e] : 1.0;
        ht->cost[e] = settings->method == GSFW_PROJ_THEORY ? w + B / settings->s : w;
    }
    *out = ht;
    gsfw_err_clear(err);
    return GSFW_OK;
}

/* ------------------------------------------------------------ helpers */

static gsfw_error pcsf_call(gsfw_headtail *ht, const double *prizes, const double *costs,
                            gsfw_err *err)
{
    ht->calls++;
    return gsfw_pcsf_run(ht->ws, ht->n, ht->m, ht->g->edge_u, ht->g->edge_v, prizes, costs, -1,
                         ht->st.g, ht->st.pruning, ht->nodes, &ht->nn, ht->edges, &ht->ne, err);
}

static void keep_current(gsfw_headtail *ht)
{
    memcpy(ht->keep_nodes, ht->nodes, (size_t)ht->nn * sizeof(int));
    memcpy(ht->keep_edges, ht->edges, (size_t)ht->ne * sizeof(int));
    ht->keep_nn = ht->nn;
    ht->keep_ne = ht->ne;
}

static void restore_kept(gsfw_headtail *ht)
{
    memcpy(ht->nodes, ht->keep_nodes, (size_t)ht->keep_nn * sizeof(int));
    memcpy(ht->edges, ht->keep_edges, (size_t)ht->keep_ne * sizeof(int));
    ht->nn = ht->keep_nn;
    ht->ne = ht->keep_ne;
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* k-th largest prize (1-based, clamped to 1..n); ht->sorted holds the descending order
 * after the first call with sorted_ready. */
static double kth_largest(gsfw_headtail *ht, int k, int *sorted_ready)
{
    if (!*sorted_ready) {
        memcpy(ht->sorted, ht->prize, (size_t)ht->n * sizeof(double));
        qsort(ht->sorted, (size_t)ht->n, sizeof(double), cmp_desc);
        *sorted_ready = 1;
    }
    if (k < 1) k = 1;
    if (k > ht->n) k = ht->n;
    return ht->sorted[k - 1];
}

static double sum_costs(const int *edges, int ne, const double *c)
{
    double s = 0.0;
    for (int i = 0; i < ne; i++) s += c[edges[i]];
    return s;
}

static double sum_prizes(const gsfw_headtail *ht, const int *nodes, int nn)
{
    double s = 0.0;
    for (int i = 0; i < nn; i++) s += ht->prize[nodes[i]];
    return s;
}

/* Mean of the k largest prizes in O(n) (selection, no sort): the scale against which the
 * warm start remembers lambda (an average is steadier from call to call than a single
 * order statistic). */
static double top_mean_prize(gsfw_headtail *ht, int k)
{
    if (k < 1) k = 1;
    if (k > ht->n) k = ht->n;
    for (int i = 0; i < ht->n; i++) ht->sel[i] = i;
    gsfw_select_partition_abs(ht->prize, ht->sel, ht->n, k);
    double sum = 0.0;
    for (int i = 0; i < k; i++) sum += ht->prize[ht->sel[i]];
    return sum / k;
}

/* ------------------------------------------------- practical lambda search */

/* Remember the current forest when it is the closest to the window on its side so far
 * (the size repair starts from these). */
static void track_closest(gsfw_headtail *ht)
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
 * towards s_high nodes (prizes are >= 0, so a larger set never has less energy). The
 * candidate in the window with the largest energy wins (ties: the earlier candidate);
 * when none is in the window (the graph has no such set), the one of largest energy.
 * The result replaces ht->nodes, with a spanning forest of it as ht->edges. */
static void repair_into_window(gsfw_headtail *ht)
{
    const int lo = ht->st.s_low, hi = ht->st.s_high, gc = ht->st.g;
    int best_nn = -1, best_in = 0;
    double best_e = 0.0;
    for (int c = 0; c < 3; c++) {
        int k;
        if (c == 0 && ht->below_nn >= 0)
            k = gsfw_size_repair_grow(ht->repair, ht->prize, ht->below_nodes, ht->below_nn, hi,
                                      gc, ht->cand);
        else if (c == 1 && ht->above_nn >= 0)
            k = gsfw_size_repair_prune(ht->repair, ht->prize, ht->above_nodes, ht->above_nn,
                                       ht->above_edges, ht->above_ne, hi, ht->cand);
        else if (c == 2)
            k = gsfw_size_repair_grow_seeded(ht->repair, ht->prize, hi, gc, ht->cand);
        else
            continue;
        if (k > hi) continue; /* a pruned "forest" with a cycle: not reached */
        int in = k >= lo;
        double e = sum_prizes(ht, ht->cand, k);
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

/* PCSF with costs lam * c; *k receives the number of output nodes. */
static gsfw_error run_scaled_costs(gsfw_headtail *ht, double lam, int *k, gsfw_err *err)
{
    for (int e = 0; e < ht->m; e++) ht->scost[e] = lam * ht->cost[e];
    gsfw_error rc = pcsf_call(ht, ht->prize, ht->scost, err);
    if (!rc) track_closest(ht);
    *k = ht->nn;
    return rc;
}

/* The PCSF at lambda into ht's current solution; its size into *k. */
#define RUN(L)                                                                                 \
    do {                                                                                       \
        gsfw_error run_rc_ = run_scaled_costs(ht, (L), k, err);                               \
        if (run_rc_) return run_rc_;                                                           \
    } while (0)
#define IN_WINDOW(K) ((K) >= ht->st.s_low && (K) <= ht->st.s_high)

/* gsfw's search. Prizes change scale between calls (gradients shrink, AccFW step points
 * grow), so lambda is remembered relative to the mean of the s_high largest prizes: the
 * first guess is rho_prev times the current mean (on the first call, the reference's
 * guess). Then a safeguarded secant search on log k(lambda) against log lambda aimed at
 * the window's centre. k(lambda) is a decreasing step function, roughly a power law
 * (k ~ lambda^-1.4 on grids), so the secant usually lands in the window in one or two
 * more calls; steps are clamped to a factor of 8, a flat stretch (same k twice) doubles
 * the step, and a secant point outside the current bracket is replaced by the bracket's
 * geometric midpoint. A window that k(lambda) jumps over is reported once the jump is
 * located to 1e-3 (relative), or to 1e-2 when warm: k(lambda) of gradient-like vectors
 * jumps by hundreds of nodes within 1e-3, so locating it further in every iteration buys
 * nothing. *hit: 1 with lambda *lam in the window, else 0 with *lam_hi the smallest
 * lambda tried that gave too few nodes (kept as the current solution). */
static gsfw_error warm_search(gsfw_headtail *ht, int *k, double *lam_out, double *lam_hi_out,
                              int *hit, gsfw_err *err)
{
    const int lo_k = ht->st.s_low, hi_k = ht->st.s_high, budget = ht->st.max_calls;
    const double rtol = ht->have_prev ? 1e-2 : 1e-3;
    const double k_mid = sqrt((double)lo_k * (double)hi_k);
    const double ref = top_mean_prize(ht, hi_k);
    int sorted_ready = 0;
    double lam_lo = 0.0, lam_hi = 0.0, lam_prev_pt = 0.0, flat = 1.0;
    int k_prev_pt = -1, have_hi = 0;
    int k_at_lo = 0, k_at_hi = 0, moved = 0, moved_before = 0; /* bracket ends, sides */
    /* first call: the reference's guess, twice the s_high-th largest prize */
    double lam = ht->have_prev && ht->rho_prev > 0 ? ht->rho_prev * ref
                                                   : 2.0 * kth_largest(ht, hi_k, &sorted_ready);
    if (!(lam > 0)) lam = ref;
    ht->ref_now = ref;
    *hit = 0;
    for (;;) {
        RUN(lam);
        if (IN_WINDOW(*k)) {
            *hit = 1;
            *lam_out = lam;
            return GSFW_OK;
        }
        const int kk = *k;
        moved_before = moved;
        if (kk > hi_k) {
            lam_lo = lam;
            k_at_lo = kk;
            moved = 1;
        } else {
            lam_hi = lam;
            k_at_hi = kk;
            have_hi = 1;
            moved = -1;
            keep_current(ht);
        }
        if (ht->calls >= budget) break;
        const int bracketed = have_hi && lam_lo > 0;
        if (bracketed && lam_hi - lam_lo <= rtol * lam_hi) break;
        /* next point: inside a bracket, regula falsi on log k against log lambda between
         * its ends, with a geometric bisection whenever the same end moved twice in a row
         * (the Illinois remedy: k(lambda) jumps, so the secant alone can creep along one
         * end); before a bracket, the secant through the last two points, else the
         * power-law guess k ~ lambda^-1.4 */
        double next;
        if (bracketed) {
            if (moved == moved_before || k_at_lo <= k_at_hi || k_at_hi < 1) {
                next = sqrt(lam_lo * lam_hi);
            } else {
                double slope = (log((double)k_at_hi) - log((double)k_at_lo)) /
                               (log(lam_hi) - log(lam_lo));
                next = lam_lo * exp((log(k_mid) - log((double)k_at_lo)) / slope);
            }
        } else if (k_prev_pt > 0 && kk != k_prev_pt && lam != lam_prev_pt) {
            double slope = (log((double)kk) - log((double)k_prev_pt)) /
                           (log(lam) - log(lam_prev_pt));
            next = slope < 0 ? lam * exp((log(k_mid) - log((double)(kk > 0 ? kk : 1))) / slope)
                             : lam * (kk > hi_k ? 2.0 : 0.5);
            flat = 1.0;
        } else if (k_prev_pt == kk) {
            flat *= 2.0; /* no change in k: widen the step */
            next = kk > hi_k ? lam * (1.0 + 0.05 * flat) : lam / (1.0 + 0.05 * flat);
        } else if (ht->prev_missed) {
            /* the previous call sat on a jump of k(lambda) just above lambda_prev: the jump
             * has most likely barely moved */
            next = kk > hi_k ? lam * (1.0 + rtol) : lam / (1.0 + rtol);
        } else {
            next = lam * pow((double)(kk > 0 ? kk : 1) / k_mid, 1.0 / 1.4);
        }
        if (next > 8.0 * lam) next = 8.0 * lam;
        if (next < lam / 8.0) next = lam / 8.0;
        if (kk > hi_k && next <= lam) next = lam * 1.01;
        if (kk < lo_k && next >= lam) next = lam / 1.01;
        if (bracketed && (next <= lam_lo || next >= lam_hi))
            next = sqrt(lam_lo * lam_hi);
        else if (have_hi && next >= lam_hi)
            next = 0.5 * (lam_lo + lam_hi);
        lam_prev_pt = lam;
        k_prev_pt = kk;
        lam = next;
    }
    if (!have_hi) { /* still too many nodes at the last lambda: the reference's answer */
        lam_hi = lam;
        keep_current(ht);
    }
    *lam_hi_out = lam_hi;
    return GSFW_OK;
}

/* The reference's search: doubling from a fixed first guess (twice the s_high-th largest
 * prize, falling back to the s_low-th and to the largest) until k(lambda) <= s_high, then
 * bisection down to a relative width of 1e-12. Results as warm_search. */
static gsfw_error cold_search(gsfw_headtail *ht, int *k, double *lam_out, double *lam_hi_out,
                              int *hit, gsfw_err *err)
{
    const int lo_k = ht->st.s_low, hi_k = ht->st.s_high, budget = ht->st.max_calls;
    const double rtol = 1e-12; /* relative width at which the lambda interval has collapsed */
    int sorted_ready = 0;
    double lam_hi = 2.0 * kth_largest(ht, hi_k, &sorted_ready);
    if (lam_hi == 0.0) lam_hi = 2.0 * kth_largest(ht, lo_k, &sorted_ready);
    if (lam_hi == 0.0) lam_hi = 2.0 * kth_largest(ht, 1, &sorted_ready);
    double lam_lo = 0.0;
    lam_hi /= 2.0;
    do {
        lam_hi *= 2.0;
        RUN(lam_hi);
    } while (*k > hi_k && ht->calls < budget);
    keep_current(ht);
    *hit = IN_WINDOW(*k);
    *lam_out = *lam_hi_out = lam_hi;
    if (*hit || *k > hi_k) return GSFW_OK;
    /* bisection: k(lam_lo) > s_high (or lam_lo = 0), k(lam_hi) < s_low */
    while (ht->calls < budget) {
        if (lam_hi - lam_lo <= rtol * lam_hi) break; /* the interval collapsed */
        double lam = 0.5 * (lam_lo + lam_hi);
        RUN(lam);
        if (IN_WINDOW(*k)) {
            *hit = 1;
            *lam_out = lam;
            return GSFW_OK;
        }
        if (*k > hi_k) {
            lam_lo = lam;
        } else {
            lam_hi = lam;
            keep_current(ht);
        }
    }
    *lam_hi_out = lam_hi;
    return GSFW_OK;
}

static gsfw_error practical(gsfw_headtail *ht, gsfw_proj_info *info, gsfw_err *err)
{
    int kv = 0, *k = &kv, hit = 0;
    double lam = 0.0, lam_hi = 0.0;
    ht->below_nn = ht->above_nn = -1;
    if (ht->repair && gsfw_size_repair_reachable(ht->repair, ht->st.g) < ht->st.s_low) {
        /* No forest of g trees has s_low nodes, so no lambda hits the window; the best
         * set of the model is known exactly (whole components): skip the search. */
        ht->nn = gsfw_size_repair_best_components(ht->repair, ht->prize, ht->st.g, ht->nodes);
        ht->ne = gsfw_size_repair_spanning_forest(ht->repair, ht->nodes, ht->nn, ht->edges);
        info->window_missed = 1;
        info->size_repaired = 1;
        info->lambda = 0.0;
        return GSFW_OK;
    }
    double max_prize = 0.0;
    for (int i = 0; i < ht->n; i++) max_prize = fmax(max_prize, ht->prize[i]);
    gsfw_error rc = GSFW_OK;
    if (max_prize == 0.0) { /* z = 0: every lambda gives the same answer */
        RUN(0.0);
        hit = IN_WINDOW(kv);
        if (!hit) keep_current(ht);
    } else if (ht->st.warm_start) {
        rc = warm_search(ht, k, &lam, &lam_hi, &hit, err);
    } else {
        rc = cold_search(ht, k, &lam, &lam_hi, &hit, err);
    }
    if (rc) return rc;
    if (hit) {
        ht->prev_missed = 0;
        info->window_missed = 0;
    } else {
        restore_kept(ht);
        ht->prev_missed = 1;
        info->window_missed = 1;
        if (ht->repair) {
            repair_into_window(ht);
            info->size_repaired = 1;
        }
        lam = lam_hi;
    }
    info->lambda = lam;
    ht->lambda_prev = lam;
    ht->have_prev = lam > 0 && ht->ref_now > 0;
    ht->rho_prev = ht->ref_now > 0 ? lam / ht->ref_now : 0.0;
    ht->ref_now = 0.0;
    return GSFW_OK;
}
#undef RUN
#undef IN_WINDOW

/* ------------------------------------------------------ theory versions */

/* Components of the forest (ht->nodes, ht->edges): fills tree_start / order (nodes of
 * tree t are order[tree_start[t] .. tree_start[t+1]-1], BFS order), tree_prize,
 * tree_cost, label; adjacency in adj_*. Returns the number of trees. */
static int forest_trees(gsfw_headtail *ht, const double *c)
{
    int n = ht->n;
    const int *eu = ht->g->edge_u, *ev = ht->g->edge_v;
    memset(ht->adj_ptr, 0, ((size_t)n + 1) * sizeof(int));
    for (int i = 0; i < ht->ne; i++) {
        int e = ht->edges[i];
        ht->adj_ptr[eu[e] + 1]++;
        ht->adj_ptr[ev[e] + 1]++;
    }
    for (int i = 0; i < n; i++) ht->adj_ptr[i + 1] += ht->adj_ptr[i];
    int *fill = ht->stack;
    memcpy(fill, ht->adj_ptr, (size_t)n * sizeof(int));
    for (int i = 0; i < ht->ne; i++) {
        int e = ht->edges[i], a = eu[e], b = ev[e];
        ht->adj_node[fill[a]] = b;
        ht->adj_edge[fill[a]++] = e;
        ht->adj_node[fill[b]] = a;
        ht->adj_edge[fill[b]++] = e;
    }
    for (int i = 0; i < ht->nn; i++) ht->label[ht->nodes[i]] = -1;
    int t = 0, cnt = 0;
    for (int i = 0; i < ht->nn; i++) {
        int s = ht->nodes[i];
        if (ht->label[s] >= 0) continue;
        ht->tree_start[t] = cnt;
        ht->tree_prize[t] = 0.0;
        ht->tree_cost[t] = 0.0;
        int head = cnt;
        ht->label[s] = t;
        ht->order[cnt++] = s;
        while (head < cnt) {
            int v = ht->order[head++];
            ht->tree_prize[t] += ht->prize[v];
            for (int k = ht->adj_ptr[v]; k < ht->adj_ptr[v + 1]; k++) {
                int w = ht->adj_node[k];
                if (w < v) ht->tree_cost[t] += c[ht->adj_edge[k]]; /* each edge once */
                if (ht->label[w] >= 0) continue;
                ht->label[w] = t;
                ht->order[cnt++] = w;
            }
        }
        t++;
    }
    ht->tree_start[t] = cnt;
    return t;
}

/* PRUNE_TREE (linear): a connected part of tree t with cost <= Cp and prize >= Cp*phi/6
 * (or the heaviest node). Appends its nodes to ht->out at *no; returns its cost. */
static double prune_tree(gsfw_headtail *ht, int t, double Cp, const double *c, int *no)
{
    const int *nodes = ht->order + ht->tree_start[t];
    int sz = ht->tree_start[t + 1] - ht->tree_start[t];
    double phi = ht->tree_cost[t] > 0 ? ht->tree_prize[t] / ht->tree_cost[t] : INFINITY;
    double thr = Cp * phi / 6.0;
    int heavy = nodes[0];
    for (int i = 1; i < sz; i++)
        if (ht->prize[nodes[i]] > ht->prize[heavy]) heavy = nodes[i];
    if (sz < 2 || ht->prize[heavy] >= thr || !(Cp > 0)) {
        ht->out[(*no)++] = heavy;
        return 0.0;
    }
    /* Euler tour by iterative DFS: tour_node[k] visited at step k, tour_edge[k] the tree
     * edge walked to reach it (-1 for the start). */
    int L = 0, sp = 0;
    int root = nodes[0];
    ht->stack[sp] = root;
    ht->stack_pos[sp] = ht->adj_ptr[root];
    sp++;
    ht->tour_node[L] = root;
    ht->tour_edge[L++] = -1;
    for (int i = 0; i < sz; i++) ht->mark[nodes[i]] = 0;
    ht->mark[root] = 1;
    while (sp > 0) {
        int v = ht->stack[sp - 1];
        int *k = &ht->stack_pos[sp - 1];
        int moved = 0;
        while (*k < ht->adj_ptr[v + 1]) {
            int w = ht->adj_node[*k], e = ht->adj_edge[*k];
            (*k)++;
            if (ht->mark[w]) continue;
            ht->mark[w] = 1;
            ht->tour_node[L] = w;
            ht->tour_edge[L++] = e;
            ht->stack[sp] = w;
            ht->stack_pos[sp] = ht->adj_ptr[w];
            sp++;
            moved = 1;
            break;
        }
        if (!moved) {
            int e_up = ht->tour_edge[0];
            sp--;
            if (sp > 0) {
                /* walk back to the parent along the edge that reached v */
                for (int kk = ht->adj_ptr[v]; kk < ht->adj_ptr[v + 1]; kk++)
                    if (ht->adj_node[kk] == ht->stack[sp - 1]) {
                        e_up = ht->adj_edge[kk];
                        break;
                    }
                ht->tour_node[L] = ht->stack[sp - 1];
                ht->tour_edge[L++] = e_up;
            }
        }
    }
    /* scan windows of consecutive tour positions; a node's prize counts at its first
     * visit; restart with an empty window when the cost exceeds Cp */
    for (int i = 0; i < sz; i++) ht->mark[nodes[i]] = 0;
    double wc = 0, wp = 0, best_p = -1;
    int i0 = 0, best_i = -1, best_j = -1, found = 0, fi = 0, fj = 0;
    for (int j = 0; j < L; j++) {
        int v = ht->tour_node[j];
        if (j > i0) wc += c[ht->tour_edge[j]];
        if (!ht->mark[v]) {
            ht->mark[v] = 1;
            wp += ht->prize[v];
        }
        if (wc > Cp) {
            i0 = j + 1;
            wc = 0;
            wp = 0;
            continue;
        }
        if (wp > best_p) {
            best_p = wp;
            best_i = i0;
            best_j = j;
        }
        if (wp >= thr) {
            found = 1;
            fi = i0;
            fj = j;
            break;
        }
    }
    if (!found) { /* not reached by the analysis; keep the best window seen */
        fi = best_i;
        fj = best_j;
        if (fi < 0 || best_p < ht->prize[heavy]) {
            ht->out[(*no)++] = heavy;
            return 0.0;
        }
    }
    for (int i = 0; i < sz; i++) ht->mark[nodes[i]] = 0;
    double cost = 0.0;
    for (int j = fi; j <= fj; j++) {
        int v = ht->tour_node[j];
        if (!ht->mark[v]) {
            ht->mark[v] = 1;
            ht->out[(*no)++] = v;
            if (j > fi) cost += c[ht->tour_edge[j]]; /* first visit: a new tree edge */
        }
    }
    for (int i = 0; i < sz; i++) ht->mark[nodes[i]] = 0;
    return cost;
}

/* PRUNE_FOREST of the current forest to cost budget C: result in ht->nodes (edges are
 * dropped: only the node set is used). Returns its cost. */
static double prune_forest(gsfw_headtail *ht, double C, const double *c)
{
    int T = forest_trees(ht, c);
    for (int t = 0; t < T; t++) ht->tree_rank[t] = t;
    /* order by density desc (edgeless trees first), stable by tree index */
    for (int a = 1; a < T; a++) { /* insertion sort on ranks: T <= g is small */
        int x = ht->tree_rank[a], b = a;
        double dx = ht->tree_cost[x] > 0 ? ht->tree_prize[x] / ht->tree_cost[x] : INFINITY;
        while (b > 0) {
            int y = ht->tree_rank[b - 1];
            double dy = ht->tree_cost[y] > 0 ? ht->tree_prize[y] / ht->tree_cost[y] : INFINITY;
            if (!(dx > dy)) break;
            ht->tree_rank[b] = y;
            b--;
        }
        ht->tree_rank[b] = x;
    }
    double remaining = C, total = 0.0;
    int no = 0;
    for (int r = 0; r < T; r++) {
        int t = ht->tree_rank[r];
        if (ht->tree_cost[t] <= remaining) {
            for (int i = ht->tree_start[t]; i < ht->tree_start[t + 1]; i++)
                ht->out[no++] = ht->order[i];
            remaining -= ht->tree_cost[t];
            total += ht->tree_cost[t];
        } else if (remaining > 0) {
            total += prune_tree(ht, t, remaining, c, &no);
            remaining = 0;
        } else {
            prune_tree(ht, t, 0.0, c, &no); /* the heaviest node */
        }
    }
    memcpy(ht->nodes, ht->out, (size_t)no * sizeof(int));
    ht->nn = no;
    ht->ne = 0;
    return total;
}

static gsfw_error theory(gsfw_headtail *ht, gsfw_proj_info *info, gsfw_err *err)
{
    const int n = ht->n, budget = ht->st.max_calls;
    const double B = ht->st.budget, C = 2.0 * B;
    double Pi = 0.0, pi_min = INFINITY;
    for (int i = 0; i < n; i++) {
        Pi += ht->prize[i];
        if (ht->prize[i] > 0 && ht->prize[i] < pi_min) pi_min = ht->prize[i];
    }
    if (!(C > 0) || Pi == 0.0) {
        /* no edge fits (s = g) or z = 0: the g largest prizes are exact */
        int sorted_ready = 0;
        double thr = kth_largest(ht, ht->st.g, &sorted_ready);
        int no = 0;
        for (int i = 0; i < n && no < ht->st.g; i++)
            if (ht->prize[i] > thr) ht->nodes[no++] = i;
        for (int i = 0; i < n && no < ht->st.g; i++)
            if (ht->prize[i] == thr) ht->nodes[no++] = i;
        ht->nn = no;
        ht->ne = 0;
        info->lambda = 0;
        return GSFW_OK;
    }
    if (pi_min < ht->st.err_tol) pi_min = ht->st.err_tol;
    const double *c = ht->cost;
    if (ht->st.kind == GSFW_PROJ_HEAD) {
        double lam_hi = 2.0 * C / pi_min;
        for (int i = 0; i < n; i++) ht->sprize[i] = lam_hi * ht->prize[i];
        gsfw_error rc = pcsf_call(ht, ht->sprize, c, err);
        if (rc) return rc;
        if (sum_costs(ht->edges, ht->ne, c) <= 2.0 * C) {
            info->lambda = lam_hi;
            return GSFW_OK;
        }
        double lam_lo = 1.0 / (4.0 * Pi), tol = ht->st.delta * C / (2.0 * Pi);
        while (lam_hi - lam_lo > tol && ht->calls < budget) {
            double lam = 0.5 * (lam_lo + lam_hi);
            for (int i = 0; i < n; i++) ht->sprize[i] = lam * ht->prize[i];
            if ((rc = pcsf_call(ht, ht->sprize, c, err))) return rc;
            if (sum_costs(ht->edges, ht->ne, c) > 2.0 * C)
                lam_hi = lam;
            else
                lam_lo = lam;
        }
        for (int i = 0; i < n; i++) ht->sprize[i] = lam_lo * ht->prize[i];
        if ((rc = pcsf_call(ht, ht->sprize, c, err))) return rc;
        keep_current(ht); /* F_lo */
        double p_lo = sum_prizes(ht, ht->keep_nodes, ht->keep_nn);
        for (int i = 0; i < n; i++) ht->sprize[i] = lam_hi * ht->prize[i];
        if ((rc = pcsf_call(ht, ht->sprize, c, err))) return rc;
        prune_forest(ht, C, c); /* F_hi pruned */
        double p_hi = sum_prizes(ht, ht->nodes, ht->nn);
        if (p_lo >= p_hi) {
            restore_kept(ht);
            info->lambda = lam_lo;
        } else {
            info->lambda = lam_hi;
        }
        return GSFW_OK;
    }
    /* TAIL: cost scaling */
    const double nu = ht->st.nu;
    double lam = pi_min / (2.0 * C);
    for (int e = 0; e < ht->m; e++) ht->scost[e] = lam * c[e];
    gsfw_error rc = pcsf_call(ht, ht->prize, ht->scost, err);
    if (rc) return rc;
    double cf = sum_costs(ht->edges, ht->ne, c);
    if (cf <= 2.0 * C && sum_prizes(ht, ht->nodes, ht->nn) >= Pi) {
        info->lambda = lam;
        return GSFW_OK;
    }
    double lam_small = 0.0, lam_big = 3.0 * Pi;
    double tol = pi_min * fmin(0.5, 1.0 / nu) / C;
    while (lam_big - lam_small > tol && ht->calls < budget) {
        lam = 0.5 * (lam_small + lam_big);
        for (int e = 0; e < ht->m; e++) ht->scost[e] = lam * c[e];
        if ((rc = pcsf_call(ht, ht->prize, ht->scost, err))) return rc;
        cf = sum_costs(ht->edges, ht->ne, c);
        if (cf >= 2.0 * C && cf <= nu * C) {
            info->lambda = lam;
            return GSFW_OK;
        }
        if (cf >= nu * C)
            lam_small = lam;
        else
            lam_big = lam;
    }
    for (int e = 0; e < ht->m; e++) ht->scost[e] = lam_big * c[e];
    if ((rc = pcsf_call(ht, ht->prize, ht->scost, err))) return rc;
    info->lambda = lam_big;
    return GSFW_OK;
}

gsfw_error gsfw_headtail_project(gsfw_headtail *ht, const double *z, int *support, int *size,
                                 gsfw_proj_info *info, gsfw_err *err)
{
    if (!ht || !z || !support || !size)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "projection: %s is NULL",
                         !ht ? "the projection object" : !z ? "z" : !support ? "support" : "size");
    gsfw_proj_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    for (int i = 0; i < ht->n; i++) {
        if (!isfinite(z[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "projection: z[%d] = %g is not finite", i,
                             z[i]);
        ht->prize[i] = z[i] * z[i];
        if (!isfinite(ht->prize[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "projection: z[%d] = %g squares to "
                             "infinity (|z| must be below 1e154)", i, z[i]);
    }
    ht->calls = 0;
    gsfw_error rc = ht->st.method == GSFW_PROJ_PRACTICAL ? practical(ht, info, err)
                                                         : theory(ht, info, err);
    info->pcsf_calls = ht->calls;
    if (rc) return rc;
    memcpy(support, ht->nodes, (size_t)ht->nn * sizeof(int));
    qsort(support, (size_t)ht->nn, sizeof(int), cmp_int);
    *size = ht->nn;
    info->size = ht->nn;
    info->energy = sum_prizes(ht, support, ht->nn);
    /* cost of the forest in the graph's own costs (pruned theory heads: of a spanning
     * forest of the kept nodes is not tracked; the PCSF forest otherwise) */
    double cst = 0.0;
    for (int i = 0; i < ht->ne; i++) {
        int e = ht->edges[i];
        cst += ht->g->cost ? ht->g->cost[e] : 1.0;
    }
    info->cost = cst;
    info->target_met = ht->st.method == GSFW_PROJ_THEORY ||
                       (ht->nn >= ht->st.s_low && ht->nn <= ht->st.s_high);
    gsfw_err_clear(err);
    return GSFW_OK;
}

/* ------------------------------------------------------------------ DMOs */

typedef struct {
    gsfw_headtail *ht;
    /* certified practical head: the theory head and selection scratch (NULL otherwise) */
    gsfw_headtail *theory;
    int *top;          /* n ints */
    int *alt;          /* n ints: the theory head's support */
    const gsfw_graph *graph;
    unsigned char *mask; /* n: contains() scratch, all zero between calls */
    int *work;         /* 2n: contains() scratch */
    int s, g, s_high;
    char model[320];
} ht_dmo_ctx;

/* The practical head has no proven delta. Its answer S is kept when it certifies itself:
 * ||z_S||^2 >= ||top_s(z)||^2 / 14 >= max_{S' in M(G,s,g)} ||z_S'||^2 / 14 and
 * |S| <= 2s + g. Otherwise the theory head (delta = sqrt(1/14) over M(G, s, g), output in
 * M(G, 2s+g, g)) is run as well and the larger of the two answers returned, so the oracle
 * always meets the delta it reports. */
static int certify_head(ht_dmo_ctx *c, const double *z, int *support, int *size,
                        double energy, gsfw_dmo_stats *stats)
{
    int n = c->ht->n;
    gsfw_select_top_abs(z, n, c->s, c->top, c->top);
    double top = 0.0;
    for (int k = 0; k < c->s; k++) top += z[c->top[k]] * z[c->top[k]];
    if (energy * 14.0 >= top && *size <= 2 * c->s + c->g) return 0;
    gsfw_proj_info info;
    gsfw_err err;
    int alt_size = 0;
    gsfw_error rc = gsfw_headtail_project(c->theory, z, c->alt, &alt_size, &info, &err);
    if (stats) stats->pcsf_calls += info.pcsf_calls;
    if (rc) return (int)rc;
    if (info.energy > energy || *size > 2 * c->s + c->g) {
        memcpy(support, c->alt, (size_t)alt_size * sizeof(int));
        *size = alt_size;
    }
    return 0;
}

static int ht_select(void *ctx, const double *z, int *support, int *size, gsfw_dmo_stats *stats)
{
    ht_dmo_ctx *c = ctx;
    gsfw_proj_info info;
    gsfw_err err;
    gsfw_error rc = gsfw_headtail_project(c->ht, z, support, size, &info, &err);
    if (stats) {
        stats->pcsf_calls = info.pcsf_calls;
        stats->window_missed = info.window_missed;
    }
    if (rc == GSFW_ERR_NONFINITE) return GSFW_DMO_BAD_INPUT;
    if (rc) return (int)rc;
    if (c->theory) return certify_head(c, z, support, size, info.energy, stats);
    return 0;
}

/* Forget the warm start, so that a second solve repeats the first bit for bit. */
static int ht_reset(void *ctx)
{
    ht_dmo_ctx *c = ctx;
    gsfw_headtail_reset(c->ht);
    gsfw_headtail_reset(c->theory);
    return 0;
}

/* At most s_high distinct nodes in at most g connected components of the graph: the sets
 * the practical projection returns. */
static int ht_contains(void *ctx, const int *support, int size)
{
    ht_dmo_ctx *c = ctx;
    if (size < 0 || size > c->s_high || (size > 0 && !support)) return 0;
    int k = 0, ok = 1;
    for (; k < size && ok; k++) {
        int v = support[k];
        ok = v >= 0 && v < c->graph->n && !c->mask[v];
        if (ok) c->mask[v] = 1;
    }
    if (ok) {
        int comps = gsfw_graph_induced_components(c->graph, c->mask, c->work);
        ok = comps >= 0 && comps <= c->g;
    }
    /* unmark the first k ids (an invalid one was not marked; a repeated one was, once) */
    for (int i = 0; i < k; i++) {
        int v = support[i];
        if (v >= 0 && v < c->graph->n) c->mask[v] = 0;
    }
    return ok;
}

static void ht_destroy(gsfw_dmo *self)
{
    ht_dmo_ctx *c = self->ctx;
    gsfw_headtail_free(c->ht);
    gsfw_headtail_free(c->theory);
    free(c->top);
    free(c->alt);
    free(c->mask);
    free(c->work);
    gsfw_dmo_release(self);
}

gsfw_error gsfw_dmo_headtail(const gsfw_graph *g, const gsfw_proj_settings *settings,
                             gsfw_dmo **out, gsfw_err *err)
{
    if (!out || !settings)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "head/tail DMO: %s is NULL",
                         !out ? "the output pointer" : "settings");
    *out = NULL;
    const char *who = settings->kind == GSFW_PROJ_HEAD ? "head" : "tail";
    gsfw_error rc = gsfw_dmo_check_graph(who, g, err);
    if (rc) return rc;
    if ((rc = gsfw_dmo_check_sparsity(who, settings->s, g->n, "number of nodes", err))) return rc;
    if ((rc = gsfw_dmo_check_components(who, settings->g, settings->s, err))) return rc;
    gsfw_headtail *ht = NULL;
    if ((rc = gsfw_headtail_create(g, settings, &ht, err))) return rc;
    double delta = settings->kind == GSFW_PROJ_HEAD ? sqrt(1.0 / 14.0) : 0.0;
    gsfw_dmo *dmo = NULL;
    rc = gsfw_dmo_new(g->n, g->n, delta, who, NULL, sizeof(ht_dmo_ctx), ht_select, ht_destroy,
                      &dmo, err);
    if (rc) {
        gsfw_headtail_free(ht);
        return rc;
    }
    ht_dmo_ctx *c = dmo->ctx;
    c->ht = ht;
    c->graph = g;
    c->s = settings->s;
    c->g = settings->g;
    c->s_high = settings->s_high;
    dmo->reset = ht_reset;
    dmo->contains = ht_contains;
    dmo->model_size = settings->s;
    c->mask = gsfw_calloc_array((size_t)g->n, 1);
    c->work = gsfw_malloc_array(2 * (size_t)g->n, sizeof(int));
    if (!c->mask || !c->work) {
        ht_destroy(dmo);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for %d nodes", who, g->n);
    }
    if (settings->kind == GSFW_PROJ_HEAD && settings->method == GSFW_PROJ_PRACTICAL) {
        gsfw_proj_settings th;
        gsfw_proj_settings_default(&th, GSFW_PROJ_HEAD, settings->s, settings->g);
        th.method = GSFW_PROJ_THEORY;
        th.pruning = settings->pruning;
        c->top = gsfw_malloc_array((size_t)g->n, sizeof(int));
        c->alt = gsfw_malloc_array((size_t)g->n, sizeof(int));
        if (!c->top || !c->alt) rc = gsfw_fail(err, GSFW_ERR_NOMEM, "head: out of memory");
        if (!rc) rc = gsfw_headtail_create(g, &th, &c->theory, err);
        if (rc) {
            ht_destroy(dmo);
            return rc;
        }
    }
    if (settings->kind == GSFW_PROJ_HEAD)
        snprintf(c->model, sizeof c->model,
                 "M(G, s, g) with s = %d, g = %d, answers in M(G, 2s+g, g): delta = sqrt(1/14) "
                 "(Hegde et al. 2015)%s", settings->s, settings->g,
                 settings->method == GSFW_PROJ_PRACTICAL
                     ? "; the practical lambda-search's answer is kept when it certifies "
                       "||z_S||^2 >= ||top_s(z)||^2/14, else the theory head is also run"
                     : "");
    else
        snprintf(c->model, sizeof c->model,
                 "tail projection onto M(G, s, g) with s = %d, g = %d (no delta)", settings->s,
                 settings->g);
    dmo->model = c->model;
    *out = dmo;
    gsfw_err_clear(err);
    return GSFW_OK;
}

gsfw_error gsfw_dmo_head(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                         gsfw_err *err)
{
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, s, g_components);
    return gsfw_dmo_headtail(g, &st, out, err);
}

gsfw_error gsfw_dmo_tail(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                         gsfw_err *err)
{
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_TAIL, s, g_components);
    return gsfw_dmo_headtail(g, &st, out, err);
}

/* Rounded up from the allocations above and of the PCSF workspace (src/oracles/pcsf/):
 * about 20 arrays of n ints or doubles in the projection, the clusters, their heap
 * entries and the pruning scratch per node; two pairing-heap nodes, the edge record, its
 * heap slots and the projection's cost copies per edge. */
double gsfw_headtail_memory(double nodes, double edges)
{
    return 512.0 * nodes + 224.0 * edges + 65536.0;
}

static double headtail_memory(const gsfw_model_spec *spec, const gsfw_sizes *sizes)
{
    (void)spec;
    return gsfw_headtail_memory(sizes->nodes, sizes->edges);
}

static gsfw_error head_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    return gsfw_dmo_head(spec->graph, spec->s, spec->g, out, err);
}

static gsfw_error tail_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    return gsfw_dmo_tail(spec->graph, spec->s, spec->g, out, err);
}

static const gsfw_model_def tail_def = {.build = tail_build, .memory = headtail_memory,
                                        .squares = 1};

const gsfw_entry gsfw_entry_model_head = {
    GSFW_KIND_MODEL, "head",
    "PCSF head projection over M(G, s, g) (lambda-search for [s, 1.05 s] nodes)", "s g",
    GSFW_NEEDS_GRAPH, GSFW_ENTRY_DEFAULT,
    &(const gsfw_model_def){.build = head_build, .memory = headtail_memory, .squares = 1,
                            .tail = &tail_def},
    NULL};
const gsfw_entry gsfw_entry_model_tail = {
    GSFW_KIND_MODEL, "tail", "PCSF tail projection over M(G, s, g) (no delta)", "s g",
    GSFW_NEEDS_GRAPH, 0, &tail_def, NULL};
