/* The helpers of the head / tail projection that its versions share: one PCSF run, the
 * stored solution, order statistics, sums of the prizes and the warm start's reset. They
 * sit below everything else in src/oracles/headtail/: headtail.c, lambda_search.c,
 * theory.c and size_repair.c call them, and they call none of those, so the files' call
 * graph has no cycle. */
#include "oracles/headtail/headtail_util.h"
#include "util/select.h"

#include <math.h>
#include <string.h>

gsfw_error gsfw_ht_pcsf_call(gsfw_headtail *ht, const double *prizes, const double *costs,
                             gsfw_err *err)
{
    ht->calls++;
    return gsfw_pcsf_run(ht->ws, ht->n, ht->m, ht->g->edge_u, ht->g->edge_v, prizes, costs, -1,
                         ht->st.g, ht->st.pruning, ht->nodes, &ht->nn, ht->edges, &ht->ne, err);
}

void gsfw_ht_keep_current(gsfw_headtail *ht)
{
    memcpy(ht->keep_nodes, ht->nodes, (size_t)ht->nn * sizeof(int));
    memcpy(ht->keep_edges, ht->edges, (size_t)ht->ne * sizeof(int));
    ht->keep_nn = ht->nn;
    ht->keep_ne = ht->ne;
}

void gsfw_ht_restore_kept(gsfw_headtail *ht)
{
    memcpy(ht->nodes, ht->keep_nodes, (size_t)ht->keep_nn * sizeof(int));
    memcpy(ht->edges, ht->keep_edges, (size_t)ht->keep_ne * sizeof(int));
    ht->nn = ht->keep_nn;
    ht->ne = ht->keep_ne;
}

/* The k-th largest prize by selection (O(n), no allocation). */
double gsfw_ht_kth_largest(gsfw_headtail *ht, int k)
{
    if (k < 1) k = 1;
    if (k > ht->n) k = ht->n;
    return gsfw_select_kth_abs(ht->prize, ht->n, k, ht->value_work);
}

double gsfw_ht_sum_prizes(const gsfw_headtail *ht, const int *nodes, int nn)
{
    double s = 0.0;
    for (int i = 0; i < nn; i++) s += ht->prize[nodes[i]];
    return s;
}

void gsfw_ht_forget_lambda(gsfw_headtail *ht)
{
    ht->have_prev = 0;
    ht->prev_missed = 0;
    ht->jump_located = 0;
    memset(&ht->memory, 0, sizeof ht->memory);
}
