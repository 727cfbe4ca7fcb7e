/* The theory head and tail projections of Hegde, Indyk & Schmidt (2015): the head by prize
 * scaling and PRUNE_FOREST, the tail by cost scaling (docs/pcsf.md section 4). */
#include "oracles/headtail/headtail_util.h"

#include <math.h>
#include <string.h>

static double sum_costs(const int *edges, int ne, const double *c)
{
    double s = 0.0;
    for (int i = 0; i < ne; i++) s += c[edges[i]];
    return s;
}

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

gsfw_error gsfw_ht_theory(gsfw_headtail *ht, gsfw_proj_info *info, gsfw_err *err)
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
        double thr = gsfw_ht_kth_largest(ht, ht->st.g);
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
        gsfw_error rc = gsfw_ht_pcsf_call(ht, ht->sprize, c, err);
        if (rc) return rc;
        if (sum_costs(ht->edges, ht->ne, c) <= 2.0 * C) {
            info->lambda = lam_hi;
            return GSFW_OK;
        }
        double lam_lo = 1.0 / (4.0 * Pi), tol = ht->st.delta * C / (2.0 * Pi);
        while (lam_hi - lam_lo > tol && ht->calls < budget) {
            double lam = 0.5 * (lam_lo + lam_hi);
            for (int i = 0; i < n; i++) ht->sprize[i] = lam * ht->prize[i];
            if ((rc = gsfw_ht_pcsf_call(ht, ht->sprize, c, err))) return rc;
            if (sum_costs(ht->edges, ht->ne, c) > 2.0 * C)
                lam_hi = lam;
            else
                lam_lo = lam;
        }
        for (int i = 0; i < n; i++) ht->sprize[i] = lam_lo * ht->prize[i];
        if ((rc = gsfw_ht_pcsf_call(ht, ht->sprize, c, err))) return rc;
        gsfw_ht_keep_current(ht); /* F_lo */
        double p_lo = gsfw_ht_sum_prizes(ht, ht->keep_nodes, ht->keep_nn);
        for (int i = 0; i < n; i++) ht->sprize[i] = lam_hi * ht->prize[i];
        if ((rc = gsfw_ht_pcsf_call(ht, ht->sprize, c, err))) return rc;
        prune_forest(ht, C, c); /* F_hi pruned */
        double p_hi = gsfw_ht_sum_prizes(ht, ht->nodes, ht->nn);
        if (p_lo >= p_hi) {
            gsfw_ht_restore_kept(ht);
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
    gsfw_error rc = gsfw_ht_pcsf_call(ht, ht->prize, ht->scost, err);
    if (rc) return rc;
    double cf = sum_costs(ht->edges, ht->ne, c);
    if (cf <= 2.0 * C && gsfw_ht_sum_prizes(ht, ht->nodes, ht->nn) >= Pi) {
        info->lambda = lam;
        return GSFW_OK;
    }
    double lam_small = 0.0, lam_big = 3.0 * Pi;
    double tol = pi_min * fmin(0.5, 1.0 / nu) / C;
    while (lam_big - lam_small > tol && ht->calls < budget) {
        lam = 0.5 * (lam_small + lam_big);
        for (int e = 0; e < ht->m; e++) ht->scost[e] = lam * c[e];
        if ((rc = gsfw_ht_pcsf_call(ht, ht->prize, ht->scost, err))) return rc;
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
    if ((rc = gsfw_ht_pcsf_call(ht, ht->prize, ht->scost, err))) return rc;
    info->lambda = lam_big;
    return GSFW_OK;
}
