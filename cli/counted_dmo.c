/* The counting oracle wrapper (counted_dmo.h). */
#include "counted_dmo.h"

#include <string.h>

static void counted_zero(gsfw_counted_dmo *c)
{
    c->refine_rc = -1;
    c->calls = c->pcsf = c->calls_refined = c->pcsf_refined = 0;
}

static int counted_select(void *ctx, const double *z, int *support, int *size,
                          gsfw_dmo_stats *stats)
{
    gsfw_counted_dmo *c = ctx;
    if (c->refine_on_call > 0 && c->calls + 1 == c->refine_on_call)
        c->refine_rc = c->inner->refine ? c->inner->refine(c->inner->ctx) : 1;
    gsfw_dmo_stats own;
    memset(&own, 0, sizeof own);
    const int rc = c->inner->select(c->inner->ctx, z, support, size, &own);
    const long runs = gsfw_dmo_count(c->inner, &own, "pcsf_calls");
    c->calls++;
    c->pcsf += runs;
    if (c->refine_rc == 0) {
        c->calls_refined++;
        c->pcsf_refined += runs;
    }
    if (stats)
        for (int k = 0; k < GSFW_DMO_COUNTERS; k++) stats->count[k] += own.count[k];
    return rc;
}

static int counted_reset(void *ctx)
{
    gsfw_counted_dmo *c = ctx;
    counted_zero(c);
    return c->inner->reset ? c->inner->reset(c->inner->ctx) : 0;
}

static int counted_refine(void *ctx)
{
    gsfw_counted_dmo *c = ctx;
    const int rc = c->inner->refine(c->inner->ctx);
    if (rc == 0) c->refine_rc = 0;
    return rc;
}

static int counted_contains(void *ctx, const int *support, int size)
{
    const gsfw_counted_dmo *c = ctx;
    return c->inner->contains(c->inner->ctx, support, size);
}

gsfw_dmo gsfw_counted_wrap(const gsfw_dmo *inner, gsfw_counted_dmo *c, int refine_on_call)
{
    gsfw_dmo w = *inner;
    c->inner = inner;
    c->refine_on_call = refine_on_call;
    counted_zero(c);
    w.ctx = c;
    w.select = counted_select;
    w.destroy = NULL;
    w.reset = counted_reset;
    w.refine = inner->refine ? counted_refine : NULL;
    w.contains = inner->contains ? counted_contains : NULL;
    return w;
}
