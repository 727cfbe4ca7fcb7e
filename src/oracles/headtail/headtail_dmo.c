/* The head and tail projections as DMOs: gsfw_dmo_head, gsfw_dmo_tail and
 * gsfw_dmo_headtail, with the certified practical head. */
#include "oracles/dmo_internal.h"
#include "oracles/headtail/headtail_internal.h"
#include "util/select.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    gsfw_headtail *ht;
    /* certified practical head: the theory head and selection scratch (NULL otherwise) */
    gsfw_headtail *theory;
    double *top_work;  /* n doubles: selection scratch */
    int *alt;          /* n ints: the theory head's support */
    const gsfw_graph *graph;
    unsigned char *mask; /* n: contains() scratch, all zero between calls */
    int *work;         /* 2n: contains() scratch */
    int s, g;
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
    const double top = gsfw_select_top_abs_sum(z, n, c->s, 1, c->top_work);
    if (energy * 14.0 >= top && *size <= 2 * c->s + c->g) return 0;
    gsfw_proj_info info;
    gsfw_err err;
    int alt_size = 0;
    gsfw_error rc = gsfw_headtail_project(c->theory, z, c->alt, &alt_size, &info, &err);
    if (stats) stats->count[GSFW_COUNT_PCSF_CALLS] += info.pcsf_calls;
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
        stats->count[GSFW_COUNT_PCSF_CALLS] = info.pcsf_calls;
        stats->count[GSFW_COUNT_WINDOW_MISSED] = info.window_missed;
    }
    if (rc == GSFW_ERR_NONFINITE) return GSFW_DMO_BAD_INPUT;
    if (rc) return (int)rc;
    if (c->theory) return certify_head(c, z, support, size, info.energy, stats);
    return 0;
}

/* first_calls no longer applies (dmo.h: refine); nonzero when it never did */
static int ht_refine(void *ctx)
{
    ht_dmo_ctx *c = ctx;
    return gsfw_ht_refine(c->ht);
}

/* Forget the warm start, so that a second solve repeats the first bit for bit. */
static int ht_reset(void *ctx)
{
    ht_dmo_ctx *c = ctx;
    gsfw_headtail_reset(c->ht);
    gsfw_headtail_reset(c->theory);
    return 0;
}

/* At most s_high distinct nodes (the projection's window, s_high clamped to n) in at most
 * g connected components of the graph: the sets the practical projection returns. */
static int ht_contains(void *ctx, const int *support, int size)
{
    ht_dmo_ctx *c = ctx;
    if (size < 0 || size > c->ht->st.s_high || (size > 0 && !support)) return 0;
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
    free(c->top_work);
    free(c->alt);
    free(c->mask);
    free(c->work);
    gsfw_dmo_release(self);
}

void gsfw_dmo_headtail_share(gsfw_dmo *owner, gsfw_dmo *borrower)
{
    gsfw_headtail *a = ((ht_dmo_ctx *)owner->ctx)->ht, *b = ((ht_dmo_ctx *)borrower->ctx)->ht;
    if (a == b || b->ws == a->ws) return;
    if (!b->ws_borrowed) gsfw_pcsf_free(b->ws);
    b->ws = a->ws;
    b->ws_borrowed = 1;
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
    dmo->reset = ht_reset;
    dmo->refine = ht_refine;
    dmo->contains = ht_contains;
    dmo->model_size = settings->s;
    dmo->counters[GSFW_COUNT_PCSF_CALLS] = "pcsf_calls";
    dmo->counters[GSFW_COUNT_WINDOW_MISSED] = "window_missed";
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
        c->top_work = gsfw_malloc_array((size_t)g->n, sizeof(double));
        c->alt = gsfw_malloc_array((size_t)g->n, sizeof(int));
        if (!c->top_work || !c->alt) rc = gsfw_fail(err, GSFW_ERR_NOMEM, "head: out of memory");
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

/* Rounded up from the allocations of the projection (headtail.c, size_repair.c) and of
 * the PCSF workspace (src/oracles/pcsf/):
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
    gsfw_proj_settings st;
    gsfw_proj_settings_default(&st, GSFW_PROJ_HEAD, spec->s, spec->g);
    st.near_miss = spec->near_miss;
    return gsfw_dmo_headtail(spec->graph, &st, out, err);
}

static gsfw_error tail_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    return gsfw_dmo_tail(spec->graph, spec->s, spec->g, out, err);
}

static const gsfw_model_def tail_def = {.build = tail_build, .memory = headtail_memory,
                                        .squares = 1};

const gsfw_entry gsfw_entry_model_head = {
    GSFW_KIND_MODEL, "head",
    "PCSF head projection over M(G, s, g) (lambda-search for [s, 1.05 s] nodes)",
    "s g near_miss",
    GSFW_NEEDS_GRAPH, GSFW_ENTRY_DEFAULT,
    &(const gsfw_model_def){.build = head_build, .memory = headtail_memory, .squares = 1,
                            .tail = &tail_def},
    NULL};
const gsfw_entry gsfw_entry_model_tail = {
    GSFW_KIND_MODEL, "tail", "PCSF tail projection over M(G, s, g) (no delta)", "s g",
    GSFW_NEEDS_GRAPH, 0, &tail_def, NULL};
