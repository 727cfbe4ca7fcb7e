/* The size-capped tree knapsack behind the tree DMOs (see tree_dp.h). */
#include "oracles/tree_dp.h"

#include <math.h>
#include <string.h>

#include "oracles/dmo_internal.h"

static int min_int(int a, int b) { return a < b ? a : b; }

int tree_dp_cap(const tree_dp *dp, int v) { return min_int(dp->tree->size[v], dp->s); }

double tree_dp_value(const tree_dp *dp, int v, int j) { return dp->F[dp->foff[v] + (size_t)j - 1]; }

void tree_dp_free(tree_dp *dp)
{
    free(dp->w);
    free(dp->F);
    free(dp->foff);
    free(dp->split);
    free(dp->soff);
    free(dp->scap);
    free(dp->buf[0]);
    free(dp->buf[1]);
    free(dp->stack);
    free(dp->mark);
    memset(dp, 0, sizeof *dp);
}

gsfw_error tree_dp_init(tree_dp *dp, const gsfw_tree *tree, int s, const char *who,
                        gsfw_err *err)
{
    memset(dp, 0, sizeof *dp);
    dp->tree = tree;
    dp->s = s;
    int n = tree->n;
    dp->foff = gsfw_malloc_array((size_t)n, sizeof(size_t));
    dp->soff = gsfw_calloc_array((size_t)n, sizeof(size_t));
    dp->scap = gsfw_calloc_array((size_t)n, sizeof(int));
    if (!dp->foff || !dp->soff || !dp->scap) goto nomem;
    size_t ftotal = 0, stotal = 0;
    for (int v = 0; v < n; v++) {
        dp->foff[v] = ftotal;
        ftotal += (size_t)min_int(tree->size[v], s);
        int merged = 1;
        for (int k = tree->child_ptr[v]; k < tree->child_ptr[v + 1]; k++) {
            int c = tree->child[k];
            merged += tree->size[c];
            dp->scap[c] = min_int(merged, s);
            dp->soff[c] = stotal;
            stotal += (size_t)dp->scap[c];
        }
    }
    dp->w = gsfw_malloc_array((size_t)n, sizeof(double));
    dp->F = gsfw_malloc_array(ftotal, sizeof(double));
    dp->split = gsfw_malloc_array(stotal + 1, sizeof(int));
    dp->buf[0] = gsfw_malloc_array((size_t)s + 1, sizeof(double));
    dp->buf[1] = gsfw_malloc_array((size_t)s + 1, sizeof(double));
    dp->stack = gsfw_malloc_array(2 * (size_t)n, sizeof(int));
    dp->mark = gsfw_calloc_array((size_t)n, 1);
    if (!dp->w || !dp->F || !dp->split || !dp->buf[0] || !dp->buf[1] || !dp->stack || !dp->mark)
        goto nomem;
    return GSFW_OK;
nomem:
    tree_dp_free(dp);
    return gsfw_fail(err, GSFW_ERR_NOMEM, "%s: out of memory for the tables of %d nodes, s = %d",
                     who, n, s);
}

/* max over a in [a_lo, a_hi] of G[j - a] + Fc[a], against the a = 0 candidate `best`;
 * *best_a receives the smallest a reaching the maximum (0 for the a = 0 candidate). Four
 * chains over a = a_lo + 4m + r each keep their first maximum, so the comparisons of one
 * chain do not wait for the others (the loop is latency-bound otherwise); combining them
 * by (larger value, then smaller a) gives exactly the first maximum of a single scan. */
static double best_split(const double *G, const double *Fc, int j, int a_lo, int a_hi,
                         double best, int *best_a)
{
    double m0 = -INFINITY, m1 = -INFINITY, m2 = -INFINITY, m3 = -INFINITY;
    int a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int a = a_lo;
    for (; a + 3 <= a_hi; a += 4) {
        const double c0 = G[j - a] + Fc[a], c1 = G[j - a - 1] + Fc[a + 1],
                     c2 = G[j - a - 2] + Fc[a + 2], c3 = G[j - a - 3] + Fc[a + 3];
        if (c0 > m0) { m0 = c0; a0 = a; }
        if (c1 > m1) { m1 = c1; a1 = a + 1; }
        if (c2 > m2) { m2 = c2; a2 = a + 2; }
        if (c3 > m3) { m3 = c3; a3 = a + 3; }
    }
    for (; a <= a_hi; a++) { /* the tail joins chain 0 with larger a: still ascending */
        const double c0 = G[j - a] + Fc[a];
        if (c0 > m0) { m0 = c0; a0 = a; }
    }
    const double m[4] = {m0, m1, m2, m3};
    const int am[4] = {a0, a1, a2, a3};
    int ba = 0;
    for (int r = 0; r < 4; r++) {
        if (am[r] == 0) continue; /* empty chain */
        if (m[r] > best || (m[r] == best && am[r] < ba)) {
            best = m[r];
            ba = am[r];
        }
    }
    *best_a = ba;
    return best;
}

/* G (len entries, G[j] for j = 1..len at G[j]) merged with child c's table into H; for
 * each budget the smallest share of c among equal sums is kept, so that earlier
 * children win ties. Returns the new length. */
static int merge_child(tree_dp *dp, const double *G, int len, int c, double *H)
{
    const double *Fc = dp->F + dp->foff[c] - 1; /* Fc[a], a = 1..cap */
    int cc = tree_dp_cap(dp, c);
    int newlen = dp->scap[c];
    int *split = dp->split + dp->soff[c] - 1;
    for (int j = 1; j <= newlen; j++) {
        /* a = 0 (c not used) when the budget fits the part merged so far */
        double best = j <= len ? G[j] : -INFINITY;
        int best_a = 0;
        H[j] = best_split(G, Fc, j, j > len ? j - len : 1, min_int(cc, j - 1), best, &best_a);
        split[j] = best_a;
    }
    return newlen;
}

int tree_dp_fill(tree_dp *dp, const double *z)
{
    const gsfw_tree *t = dp->tree;
    int n = t->n;
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        double w = z[i] * z[i];
        if (!isfinite(w)) return GSFW_DMO_BAD_INPUT;
        dp->w[i] = w;
        total += w;
    }
    /* squares below DBL_MAX may still sum past it (Inf ties every large table): scale
     * them by a power of two, which keeps every comparison (only weights below 2^-958,
     * which no sum of this size can feel, lose bits) */
    if (!isfinite(total))
        for (int i = 0; i < n; i++) dp->w[i] = ldexp(dp->w[i], -64);
    for (int k = n - 1; k >= 0; k--) { /* children before parents */
        int v = t->order[k];
        double *G = dp->buf[0], *H = dp->buf[1];
        G[1] = dp->w[v];
        int len = 1;
        for (int e = t->child_ptr[v]; e < t->child_ptr[v + 1]; e++) {
            len = merge_child(dp, G, len, t->child[e], H);
            double *tmp = G;
            G = H;
            H = tmp;
        }
        memcpy(dp->F + dp->foff[v], G + 1, (size_t)len * sizeof(double));
    }
    return 0;
}

void tree_dp_trace(tree_dp *dp, int v, int j, int *out, int *count)
{
    const gsfw_tree *t = dp->tree;
    int top = 0;
    dp->stack[top++] = v;
    dp->stack[top++] = j;
    while (top > 0) {
        int budget = dp->stack[--top];
        int u = dp->stack[--top];
        out[(*count)++] = u;
        /* undo the merges last child first: each split was taken at the budget that
         * child's merge produced */
        for (int e = t->child_ptr[u + 1] - 1; e >= t->child_ptr[u]; e--) {
            int c = t->child[e];
            int a = dp->split[dp->soff[c] + (size_t)budget - 1];
            if (a > 0) {
                dp->stack[top++] = c;
                dp->stack[top++] = a;
                budget -= a;
            }
        }
    }
}

int tree_dp_mark(tree_dp *dp, const int *support, int size)
{
    int n = dp->tree->n;
    if (size < 0 || size > dp->s || (size > 0 && !support)) return 0;
    for (int k = 0; k < size; k++) {
        int v = support[k];
        if (v < 0 || v >= n || dp->mark[v]) {
            tree_dp_unmark(dp, support, k);
            return 0;
        }
        dp->mark[v] = 1;
    }
    return 1;
}

void tree_dp_unmark(tree_dp *dp, const int *support, int size)
{
    for (int k = 0; k < size; k++) dp->mark[support[k]] = 0;
}
