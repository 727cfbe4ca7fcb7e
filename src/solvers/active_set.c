/* The active set (see active_set.h). */
#include "solvers/active_set.h"

#include <string.h>

gsfw_error gsfw_active_set_init(gsfw_active_set *as, int capacity, long arena_cap,
                                gsfw_err *err)
{
    memset(as, 0, sizeof *as);
    if (arena_cap < 16) arena_cap = 16;
    as->capacity = capacity;
    as->arena_cap = arena_cap;
    as->start = gsfw_malloc_array((size_t)capacity, sizeof(long));
    as->size = gsfw_malloc_array((size_t)capacity, sizeof(int));
    as->weight = gsfw_malloc_array((size_t)capacity, sizeof(double));
    as->ids = gsfw_malloc_array((size_t)arena_cap, sizeof(int));
    as->vals = gsfw_malloc_array((size_t)arena_cap, sizeof(double));
    if (!as->start || !as->size || !as->weight || !as->ids || !as->vals) {
        gsfw_active_set_free(as);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "solve: out of memory for an active set of %d "
                         "atoms", capacity);
    }
    return GSFW_OK;
}

void gsfw_active_set_free(gsfw_active_set *as)
{
    free(as->start);
    free(as->size);
    free(as->weight);
    free(as->ids);
    free(as->vals);
    memset(as, 0, sizeof *as);
}

void gsfw_active_set_clear(gsfw_active_set *as)
{
    as->count = 0;
    as->used = 0;
    as->live = 0;
}

/* Move the live atoms to the front of the arena, in their order of position. */
static void compact(gsfw_active_set *as)
{
    /* atoms are appended in arena order but drops permute indices: order by start */
    for (int a = 1; a < as->count; a++) { /* insertion sort on start: count is small */
        long s = as->start[a];
        int z = as->size[a];
        double w = as->weight[a];
        int b = a;
        while (b > 0 && as->start[b - 1] > s) {
            as->start[b] = as->start[b - 1];
            as->size[b] = as->size[b - 1];
            as->weight[b] = as->weight[b - 1];
            b--;
        }
        as->start[b] = s;
        as->size[b] = z;
        as->weight[b] = w;
    }
    long pos = 0;
    for (int a = 0; a < as->count; a++) {
        if (as->start[a] != pos) {
            memmove(as->ids + pos, as->ids + as->start[a], (size_t)as->size[a] * sizeof(int));
            memmove(as->vals + pos, as->vals + as->start[a],
                    (size_t)as->size[a] * sizeof(double));
            as->start[a] = pos;
        }
        pos += as->size[a];
    }
    as->used = pos;
}

static int reserve(gsfw_active_set *as, long extra)
{
    if (as->used + extra <= as->arena_cap) return 0;
    if (as->live + extra <= as->arena_cap / 2 + 1) {
        compact(as);
        if (as->used + extra <= as->arena_cap) return 0;
    }
    compact(as);
    long cap = as->arena_cap;
    while (cap < as->used + extra) cap *= 2;
    int *ids = realloc(as->ids, (size_t)cap * sizeof(int));
    if (!ids) return -1;
    as->ids = ids;
    double *vals = realloc(as->vals, (size_t)cap * sizeof(double));
    if (!vals) return -1;
    as->vals = vals;
    as->arena_cap = cap;
    return 0;
}

int gsfw_active_set_add(gsfw_active_set *as, const int *ids, const double *vals, int size,
                        double w)
{
    if (as->count == as->capacity) return -1;
    if (reserve(as, size)) return -1;
    int a = as->count++;
    as->start[a] = as->used;
    as->size[a] = size;
    as->weight[a] = w;
    memcpy(as->ids + as->used, ids, (size_t)size * sizeof(int));
    memcpy(as->vals + as->used, vals, (size_t)size * sizeof(double));
    as->used += size;
    as->live += size;
    return a;
}

int gsfw_active_set_add_dense(gsfw_active_set *as, const double *x, int d, double w)
{
    if (as->count == as->capacity) return -1;
    long nnz = 0;
    for (int i = 0; i < d; i++) nnz += x[i] != 0.0;
    if (reserve(as, nnz)) return -1;
    int a = as->count++;
    as->start[a] = as->used;
    as->weight[a] = w;
    int k = 0;
    for (int i = 0; i < d; i++) {
        if (x[i] == 0.0) continue;
        as->ids[as->used + k] = i;
        as->vals[as->used + k] = x[i];
        k++;
    }
    as->size[a] = k;
    as->used += k;
    as->live += k;
    return a;
}

void gsfw_active_set_drop(gsfw_active_set *as, int i)
{
    as->live -= as->size[i];
    int last = --as->count;
    if (i != last) {
        as->start[i] = as->start[last];
        as->size[i] = as->size[last];
        as->weight[i] = as->weight[last];
    }
    if (as->count == 0) as->used = 0;
}

double gsfw_active_set_dot(const gsfw_active_set *as, int i, const double *g)
{
    const int *id = as->ids + as->start[i];
    const double *v = as->vals + as->start[i];
    double s = 0.0;
    for (int k = 0; k < as->size[i]; k++) s += g[id[k]] * v[k];
    return s;
}

double gsfw_active_set_norm2(const gsfw_active_set *as, int i)
{
    const double *v = as->vals + as->start[i];
    double s = 0.0;
    for (int k = 0; k < as->size[i]; k++) s += v[k] * v[k];
    return s;
}

void gsfw_active_set_compose(const gsfw_active_set *as, double *x, int d)
{
    memset(x, 0, (size_t)d * sizeof(double));
    for (int a = 0; a < as->count; a++) {
        const int *id = as->ids + as->start[a];
        const double *v = as->vals + as->start[a];
        for (int k = 0; k < as->size[a]; k++) x[id[k]] += as->weight[a] * v[k];
    }
}

void gsfw_active_set_renormalize(gsfw_active_set *as)
{
    double s = 0.0;
    for (int a = 0; a < as->count; a++) s += as->weight[a];
    if (s > 0)
        for (int a = 0; a < as->count; a++) as->weight[a] /= s;
}
