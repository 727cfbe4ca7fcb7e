/* The DMO object's life cycle and the argument checks shared by the oracle constructors,
 * kept in one place so that every oracle reports the same messages for the same mistake. */
#include "oracles/dmo_internal.h"

#include <math.h>

void gsfw_dmo_free(gsfw_dmo *dmo)
{
    /* A DMO without destroy belongs to its creator (e.g. a user struct on the stack). */
    if (dmo && dmo->destroy) dmo->destroy(dmo);
}

gsfw_error gsfw_dmo_new(int d, int max_support, double delta, const char *name,
                        const char *model, size_t ctx_size,
                        int (*select)(void *, const double *, int *, int *, gsfw_dmo_stats *),
                        void (*destroy)(gsfw_dmo *), gsfw_dmo **out, gsfw_err *err)
{
    gsfw_dmo *dmo = calloc(1, sizeof *dmo);
    void *ctx = calloc(1, ctx_size ? ctx_size : 1);
    if (!dmo || !ctx) {
        free(dmo);
        free(ctx);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory", name);
    }
    dmo->d = d;
    dmo->max_support = max_support;
    dmo->delta = delta;
    dmo->name = name;
    dmo->model = model;
    dmo->ctx = ctx;
    dmo->select = select;
    dmo->destroy = destroy;
    *out = dmo;
    return GSFW_OK;
}

void gsfw_dmo_release(gsfw_dmo *dmo)
{
    if (!dmo) return;
    free(dmo->ctx);
    free(dmo);
}

double gsfw_dmo_sum_sq(const double *z, const int *S, int k)
{
    double sum = 0.0;
    for (int i = 0; i < k; i++) sum += z[S[i]] * z[S[i]];
    return sum;
}

gsfw_error gsfw_dmo_check_sparsity(const char *who, int s, int d, const char *d_name,
                                   gsfw_err *err)
{
    if (d < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the %s must be >= 1 (got %d)", who,
                         d_name, d);
    if (s < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "%s: s = %d, the support size must be >= 1", who, s);
    if (s > d)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: s = %d exceeds the %s %d", who, s,
                         d_name, d);
    return GSFW_OK;
}

gsfw_error gsfw_dmo_check_components(const char *who, int g, int s, gsfw_err *err)
{
    if (g < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "%s: g = %d, the number of components must be >= 1", who, g);
    if (g > s)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "%s: g = %d exceeds s = %d (each component needs a node)", who, g, s);
    return GSFW_OK;
}

gsfw_error gsfw_dmo_check_graph(const char *who, const gsfw_graph *g, gsfw_err *err)
{
    if (!g) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the graph is NULL", who);
    if (g->n < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the graph has no nodes", who);
    return GSFW_OK;
}

int gsfw_dmo_contains_size(int s, int size)
{
    return size >= 0 && size <= s;
}

int gsfw_dmo_contains_graph(const gsfw_graph *g, int s, int g_components, const int *support,
                            int size)
{
    if (size < 0 || size > s) return 0;
    if (size == 0) return 1;
    unsigned char *mask = calloc((size_t)g->n, 1);
    int *work = gsfw_malloc_array(2 * (size_t)g->n, sizeof(int));
    int pieces = -1;
    if (mask && work) {
        for (int k = 0; k < size; k++)
            if (support[k] >= 0 && support[k] < g->n) mask[support[k]] = 1;
        pieces = gsfw_graph_induced_components(g, mask, work);
    }
    free(mask);
    free(work);
    if (pieces < 0) return -1;
    return pieces <= g_components;
}

gsfw_error gsfw_dmo_check_delta(const char *who, double delta, gsfw_err *err)
{
    if (!(delta > 0.0 && delta <= 1.0)) /* written so that NaN fails */
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: delta = %g must be in (0, 1]", who,
                         delta);
    return GSFW_OK;
}
