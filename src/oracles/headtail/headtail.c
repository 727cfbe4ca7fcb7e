/* The head / tail projection object: settings, checks, buffers and the projection's entry
 * point, which dispatches to the practical (lambda_search.c) and theory (theory.c)
 * versions. The helpers those share sit below them in headtail_util.c, so that they call
 * nothing in this file. */
#include "oracles/headtail/headtail_util.h"
#include "util/select.h"

#include <math.h>
#include <string.h>

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
    st->near_miss = 0.0;
}

void gsfw_headtail_free(gsfw_headtail *ht)
{
    if (!ht) return;
    if (!ht->ws_borrowed) gsfw_pcsf_free(ht->ws);
    free(ht->prize);
    free(ht->sprize);
    free(ht->cost);
    free(ht->scost);
    free(ht->nodes);
    free(ht->edges);
    free(ht->keep_nodes);
    free(ht->keep_edges);
    free(ht->value_work);
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
        gsfw_ht_forget_lambda(ht);
        ht->refined = 0;
        ht->slope_prev = GSFW_HT_SLOPE;
    }
}

int gsfw_ht_refine(gsfw_headtail *ht)
{
    if (ht->st.first_calls <= 0 || ht->refined) return 1;
    ht->refined = 1;
    /* a lambda that single runs left where it was tells the search nothing */
    gsfw_ht_forget_lambda(ht);
    return 0;
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
    /* s_high above n is the default's floor(1.05 s) for s near n and is clamped in
     * gsfw_headtail_create; a window that starts above n no forest can reach */
    if (st->method == GSFW_PROJ_PRACTICAL && st->s_low > g->n)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: window [%d, %d] lies above the "
                         "graph's %d nodes (s_low must be <= n)", who, st->s_low, st->s_high,
                         g->n);
    if (st->first_calls < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: first_calls = %d must be >= 0", who,
                         st->first_calls);
    if (isnan(st->near_miss) || st->near_miss >= 1.0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: near_miss = %g must be below 1 "
                         "(0: automatic, < 0: off)", who, st->near_miss);
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
    if (ht->st.s_high > graph->n) ht->st.s_high = graph->n; /* no output has more nodes */
    ht->n = graph->n;
    ht->m = graph->m;
    ht->slope_prev = GSFW_HT_SLOPE;
    /* a near miss needs the size repair to reach the window */
    ht->near_miss = !settings->repair_size || settings->near_miss < 0 ? 0.0
                    : settings->near_miss > 0 ? settings->near_miss
                    : settings->kind == GSFW_PROJ_HEAD ? GSFW_HT_NEAR_MISS
                                                       : 0.0;
    ht->prize = gsfw_malloc_array(n, sizeof(double));
    ht->sprize = gsfw_malloc_array(n, sizeof(double));
    ht->cost = gsfw_malloc_array(m, sizeof(double));
    ht->scost = gsfw_malloc_array(m, sizeof(double));
    ht->nodes = gsfw_malloc_array(n, sizeof(int));
    ht->edges = gsfw_malloc_array(m, sizeof(int));
    ht->keep_nodes = gsfw_malloc_array(n, sizeof(int));
    ht->keep_edges = gsfw_malloc_array(m, sizeof(int));
    ht->value_work = gsfw_malloc_array(n, sizeof(double));
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
        !ht->keep_nodes || !ht->keep_edges || !ht->value_work || !ht->adj_ptr ||
        !ht->adj_node ||
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
    gsfw_error rc = ht->st.method == GSFW_PROJ_PRACTICAL ? gsfw_ht_practical(ht, info, err)
                                                         : gsfw_ht_theory(ht, info, err);
    info->pcsf_calls = ht->calls;
    if (rc) return rc;
    memcpy(support, ht->nodes, (size_t)ht->nn * sizeof(int));
    gsfw_sort_ints(support, ht->nn);
    *size = ht->nn;
    info->size = ht->nn;
    info->energy = gsfw_ht_sum_prizes(ht, support, ht->nn);
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
