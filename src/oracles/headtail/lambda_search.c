/* The practical projection: the lambda-search for a PCSF forest whose size lies in the
 * window [s_low, s_high] (warm-started across calls, or the reference's cold search),
 * with the size repair (size_repair.c) when k(lambda) jumps over the window. */
#include "oracles/headtail/headtail_util.h"
#include "util/select.h"

#include <math.h>
#include <string.h>

/* Mean of the k largest prizes in O(n) (selection, no sort): the scale against which the
 * warm start remembers lambda (an average is steadier from call to call than a single
 * order statistic). */
static double top_mean_prize(gsfw_headtail *ht, int k)
{
    if (k < 1) k = 1;
    if (k > ht->n) k = ht->n;
    return gsfw_select_top_abs_sum(ht->prize, ht->n, k, 0, ht->value_work) / k;
}

/* The PCSF runs this projection may make: first_calls until the DMO refines it. */
static int call_budget(const gsfw_headtail *ht)
{
    return ht->st.first_calls > 0 && !ht->refined ? ht->st.first_calls : ht->st.max_calls;
}

/* PCSF with costs lam * c; *k receives the number of output nodes. */
static gsfw_error run_scaled_costs(gsfw_headtail *ht, double lam, int *k, gsfw_err *err)
{
    for (int e = 0; e < ht->m; e++) ht->scost[e] = lam * ht->cost[e];
    gsfw_error rc = gsfw_ht_pcsf_call(ht, ht->prize, ht->scost, err);
    if (!rc) gsfw_ht_track_closest(ht);
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

/* Near-miss mode: the predictor of the next centred log(lambda / ref) that has erred least
 * lately, "the last" or "the one before" (accelerated Frank-Wolfe alternates between two
 * regimes of the gradient, and then the one before wins). */
static double predict_log_rho(const gsfw_lambda_memory *mem)
{
    const int before = mem->count >= 2 && mem->scored >= 2 && mem->error[1] < mem->error[0];
    return mem->log_rho[before];
}

/* Score both predictors against this call's centred log(lambda / ref), the lambda
 * estimated to give the window's centre from the last run (lam, k) and the slope of
 * log k against log lambda, then remember it. */
static void remember_centred(gsfw_headtail *ht, double lam, int k, double ref, double k_mid)
{
    gsfw_lambda_memory *mem = &ht->memory;
    if (!(lam > 0) || !(ref > 0) || k < 1) return;
    const double r = log(lam / ref) + (log(k_mid) - log((double)k)) / ht->slope_prev;
    for (int p = 0; p < 2 && p < mem->count; p++) {
        const double e = fabs(mem->log_rho[p] - r);
        mem->error[p] = mem->scored > p ? 0.5 * (mem->error[p] + e) : e;
    }
    if (mem->count > 0) mem->scored++;
    mem->log_rho[1] = mem->log_rho[0];
    mem->log_rho[0] = r;
    if (mem->count < 2) mem->count++;
}

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
    const int lo_k = ht->st.s_low, hi_k = ht->st.s_high, budget = call_budget(ht);
    const double rtol = ht->have_prev ? 1e-2 : 1e-3;
    const double k_mid = sqrt((double)lo_k * (double)hi_k);
    const double ref = top_mean_prize(ht, hi_k);
    double lam_lo = 0.0, lam_hi = 0.0, lam_prev_pt = 0.0, flat = 1.0;
    int k_prev_pt = -1, have_hi = 0;
    int k_at_lo = 0, k_at_hi = 0, moved = 0, moved_before = 0; /* bracket ends, sides */
    /* first call: the reference's guess, twice the s_high-th largest prize. When fewer
     * than s_high prizes are nonzero (a tail projection's vector lives on about s_high
     * coordinates) that prize is near zero, lambda too, and the PCSF keeps every prized
     * node; the first mode's single run is left to the size repair then, but a refined
     * search starts from at least a quarter of the mean of the s_high largest prizes, in
     * k(lambda)'s range, instead of stepping up from near zero by factors of 8. */
    const double near = ht->near_miss;
    const int after_jump = ht->jump_located;
    ht->jump_located = 0;
    double lam = ht->have_prev && ht->rho_prev > 0 ? ht->rho_prev * ref
                                                   : 2.0 * gsfw_ht_kth_largest(ht, hi_k);
    /* after a located jump of k(lambda) over the window the last lambda sits at the jump,
     * a better start than a prediction from centred lambdas (which lie inside the jump) */
    if (near > 0 && ht->memory.count > 0 && !after_jump) {
        /* within the search's step clamp of the last */
        const double predicted = exp(predict_log_rho(&ht->memory)) * ref;
        lam = ht->have_prev && ht->rho_prev > 0
                  ? fmin(fmax(predicted, lam / 8.0), 8.0 * lam)
                  : predicted;
    }
    if (!ht->have_prev && ht->refined) lam = fmax(lam, 0.25 * ref);
    if (!(lam > 0)) lam = ref;
    ht->ref_now = ref;
    *hit = 0;
    for (;;) {
        RUN(lam);
        if (k_prev_pt > 0 && *k > 0 && *k != k_prev_pt && lam != lam_prev_pt) {
            const double slope = (log((double)*k) - log((double)k_prev_pt)) /
                                 (log(lam) - log(lam_prev_pt));
            if (slope < 0) ht->slope_prev = fmin(fmax(slope, -8.0), -0.5);
        }
        if (IN_WINDOW(*k)) {
            *hit = 1;
            *lam_out = lam;
            if (near > 0) remember_centred(ht, lam, *k, ref, k_mid);
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
            gsfw_ht_keep_current(ht);
        }
        /* close enough when warm: the size repair finishes the job (a first call, or a
         * single projection, keeps the full search) */
        if (near > 0 && ht->memory.count > 0 && kk >= (1.0 - near) * lo_k &&
            kk <= (1.0 + near) * hi_k) {
            ht->near_missed = 1;
            break;
        }
        if (ht->calls >= budget) break;
        const int bracketed = have_hi && lam_lo > 0;
        if (bracketed && lam_hi - lam_lo <= rtol * lam_hi) {
            ht->jump_located = 1;
            break;
        }
        /* next point: inside a bracket, regula falsi on log k against log lambda between
         * its ends, with a geometric bisection whenever the same end moved twice in a row
         * (the Illinois remedy: k(lambda) jumps, so the secant alone can creep along one
         * end); before a bracket, the secant through the last two points, else the
         * power-law guess k ~ lambda^-1.4 or, in a refined search (after a first mode),
         * k ~ lambda^slope with the slope the last search measured: there consecutive
         * projections meet k(lambda) where it is steep (slopes of -3 near the window on
         * coarse pursuit levels), and the fixed power law overshoots; Frank-Wolfe's head
         * projections gained nothing from it (angio, ratio 2.5) */
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
            next = lam * pow((double)(kk > 0 ? kk : 1) / k_mid,
                             -1.0 / (ht->refined ? ht->slope_prev : GSFW_HT_SLOPE));
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
    if (near > 0) remember_centred(ht, lam, *k, ref, k_mid);
    if (!have_hi) { /* still too many nodes at the last lambda: the reference's answer */
        lam_hi = lam;
        gsfw_ht_keep_current(ht);
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
    const int lo_k = ht->st.s_low, hi_k = ht->st.s_high, budget = call_budget(ht);
    const double rtol = 1e-12; /* relative width at which the lambda interval has collapsed */
    double lam_hi = 2.0 * gsfw_ht_kth_largest(ht, hi_k);
    if (lam_hi == 0.0) lam_hi = 2.0 * gsfw_ht_kth_largest(ht, lo_k);
    if (lam_hi == 0.0) lam_hi = 2.0 * gsfw_ht_kth_largest(ht, 1);
    double lam_lo = 0.0;
    lam_hi /= 2.0;
    do {
        lam_hi *= 2.0;
        RUN(lam_hi);
    } while (*k > hi_k && ht->calls < budget);
    gsfw_ht_keep_current(ht);
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
            gsfw_ht_keep_current(ht);
        }
    }
    *lam_hi_out = lam_hi;
    return GSFW_OK;
}

gsfw_error gsfw_ht_practical(gsfw_headtail *ht, gsfw_proj_info *info, gsfw_err *err)
{
    int kv = 0, *k = &kv, hit = 0;
    double lam = 0.0, lam_hi = 0.0;
    ht->below_nn = ht->above_nn = -1;
    ht->near_missed = 0;
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
        if (!hit) gsfw_ht_keep_current(ht);
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
        gsfw_ht_restore_kept(ht);
        /* a jump of k(lambda) or the run budget, not a near miss */
        ht->prev_missed = !ht->near_missed;
        info->window_missed = 1;
        if (ht->repair) {
            gsfw_ht_repair_into_window(ht);
            info->size_repaired = 1;
        }
        lam = lam_hi;
    }
    info->lambda = lam;
    ht->lambda_prev = lam;
    ht->have_prev = lam > 0 && ht->ref_now > 0;
    ht->rho_prev = ht->ref_now > 0 ? lam / ht->ref_now : 0.0;
    ht->ref_now = 0.0;
    /* z = 0 breaks the sequence the remembered lambdas describe (it has no lambda, and its
     * missed window is no jump of k(lambda)): the next call starts afresh */
    if (max_prize == 0.0) gsfw_ht_forget_lambda(ht);
    return GSFW_OK;
}
#undef RUN
#undef IN_WINDOW
