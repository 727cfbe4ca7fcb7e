/* Active-set Frank-Wolfe variants over the DMO's atoms v = -C g_S/||g_S|| (scaled by
 * 1/delta for Option II):
 *
 *   AFW  (away steps, Lacoste-Julien & Jaggi 2015): the FW step v - x when its gap
 *        <g, x - v> is at least the away gap <g, a - x> of the worst active atom a, else
 *        the away step x - a with gamma_max = w_a / (1 - w_a);
 *   PFW  (pairwise): the step v - a, gamma_max = w_a;
 *   BPCG (blended pairwise, Tsuji, Tanaka & Pokutta 2022): the local pairwise step
 *        w - a between the best and the worst active atoms when its gap <g, a - w> is at
 *        least half the FW gap, else the FW step; with settings.lazy the DMO is called
 *        only when the local gap falls below half the last FW gap seen.
 *
 * A step to gamma_max drops the atom a (a drop step). The starting point x_0 (0 or
 * settings.x0, both in D) is the first "atom": away steps may remove it like any other.
 * The iterate is kept dense and equal to sum_i w_i atom_i: the weights are renormalised
 * and x recomposed from the atoms every RECOMPOSE iterations. When the active set is full
 * its atoms are folded into one atom equal to the iterate (x stays in D).
 *
 * Guarantees: with an exact DMO these are the classic methods (linear rates on polytopes;
 * D is not a polytope, so only the FW steps' O(1/t) argument carries over). With a
 * delta-DMO, every FW step is at least as good as the open-loop step for a monotone rule
 * (short, adaptive, line), so the paper's Option II rate holds on the FW steps; away,
 * pairwise and local steps only decrease f. docs/algorithms.md tabulates which
 * combinations are proven and which are heuristics. */
#include "solvers/active_set.h"
#include "solvers/fw_family.h"
#include "util/vec.h"

#include <math.h>
#include <string.h>

#define RECOMPOSE 64
#define BPCG_K 2.0

typedef enum { STEP_FW, STEP_AWAY, STEP_PAIR } step_kind;

/* The invariants gsfw_solve_checked asks for (scratch: d doubles). */
static gsfw_error check_invariants(gsfw_run *run, const gsfw_active_set *as, const double *x,
                                   double C, double *scratch)
{
    double sum = 0.0;
    for (int a = 0; a < as->count; a++) {
        if (!(as->weight[a] >= -1e-15))
            return gsfw_fail(run->err, GSFW_ERR_INTERNAL, "active set: weight %d is %g", a,
                             as->weight[a]);
        sum += as->weight[a];
    }
    if (fabs(sum - 1.0) > 1e-12)
        return gsfw_fail(run->err, GSFW_ERR_INTERNAL, "active set: the weights sum to %.17g",
                         sum);
    gsfw_active_set_compose(as, scratch, run->d);
    for (int i = 0; i < run->d; i++)
        if (fabs(scratch[i] - x[i]) > 1e-12 * C)
            return gsfw_fail(run->err, GSFW_ERR_INTERNAL, "active set: x[%d] = %.17g but the "
                             "atoms give %.17g", i, x[i], scratch[i]);
    return GSFW_OK;
}

/* The loop's arrays, allocated once. */
typedef struct {
    gsfw_active_set as;
    double *grad;
    int *support;        /* the FW atom's ids (size of them) ... */
    double *atom;        /* ... and values */
    int size;
    double *dense;       /* d zeros: merging two atoms */
    int *u_idx;          /* the sparse part u of a direction */
    double *u_val;
    unsigned char *in_u; /* d zeros */
    double *dense_check; /* d, when the invariants are checked */
} asfw_work;

static void work_free(asfw_work *w)
{
    gsfw_active_set_free(&w->as);
    free(w->grad);
    free(w->support);
    free(w->atom);
    free(w->dense);
    free(w->u_idx);
    free(w->u_val);
    free(w->in_u);
    free(w->dense_check);
}

/* The arrays, and the active set holding x_0 as its one atom. */
static gsfw_error work_init(asfw_work *w, gsfw_run *run, const gsfw_settings *set,
                            const double *x)
{
    const int d = run->d, ms = run->dmo->max_support;
    memset(w, 0, sizeof *w);
    long nnz0 = 0;
    for (int i = 0; i < d; i++) nnz0 += x[i] != 0.0;
    /* room for a full active set of the oracle's largest atoms, so that the arena does not
     * grow inside the loop, unless that is unreasonable (then it grows geometrically) */
    long arena = (long)set->max_active * ms;
    if (arena > (1L << 22)) arena = 16L * ms > (1L << 22) ? 16L * ms : (1L << 22);
    gsfw_error rc = gsfw_active_set_init(&w->as, set->max_active, nnz0 + arena, run->err);
    if (rc) return rc;
    w->grad = gsfw_malloc_array((size_t)d, sizeof(double));
    w->support = gsfw_malloc_array((size_t)ms, sizeof(int));
    w->atom = gsfw_malloc_array((size_t)ms, sizeof(double));
    w->dense = calloc((size_t)d, sizeof(double));
    w->u_idx = gsfw_malloc_array((size_t)d, sizeof(int));
    w->u_val = gsfw_malloc_array((size_t)d, sizeof(double));
    w->in_u = calloc((size_t)d, 1);
    if (run->check_invariants) w->dense_check = gsfw_malloc_array((size_t)d, sizeof(double));
    if (!w->grad || !w->support || !w->atom || !w->dense || !w->u_idx || !w->u_val ||
        !w->in_u || (run->check_invariants && !w->dense_check))
        return gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for a problem of dimension %d",
                         d);
    if (gsfw_active_set_add_dense(&w->as, x, d, 1.0) < 0)
        return gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for the active set");
    return GSFW_OK;
}

/* One step: its kind, the atoms it moves weight between, and the direction
 * d = cx x + u with its slope <g, d>, ||d||^2 and largest feasible gamma. */
typedef struct {
    step_kind kind;
    int away;        /* the active atom losing weight (AWAY, PAIR) */
    int pair_from;   /* PAIR: the active atom receiving weight (-1: the new FW atom) */
    double cx, slope, d2, gamma_max;
    int nnz;
    const int *uid;
    const double *uval;
} asfw_step;

/* The away direction d = x - a (u = -a), gamma_max = w_a / (1 - w_a). */
static void away_direction(asfw_work *w, const double *x, double gx, double g_away, double xx,
                           asfw_step *st)
{
    const gsfw_active_set *as = &w->as;
    const int a = st->away;
    const int *aid = as->ids + as->start[a];
    const double *aval = as->vals + as->start[a];
    double xa = 0.0;
    st->cx = 1.0;
    st->nnz = as->size[a];
    for (int k = 0; k < st->nnz; k++) {
        w->u_idx[k] = aid[k];
        w->u_val[k] = -aval[k];
        xa += x[aid[k]] * aval[k];
    }
    st->uid = w->u_idx;
    st->uval = w->u_val;
    st->slope = gx - g_away;
    st->d2 = xx - 2.0 * xa + gsfw_active_set_norm2(as, a);
    st->gamma_max = as->weight[a] / (1.0 - as->weight[a]);
}

/* The pairwise direction d = p - a with p the new FW atom (PFW) or the local FW atom
 * (BPCG), gamma_max = w_a; dense and in_u are left zero. */
static void pair_direction(asfw_work *w, asfw_step *st)
{
    const gsfw_active_set *as = &w->as;
    const int from = st->pair_from, a = st->away;
    const int *pid = from < 0 ? w->support : as->ids + as->start[from];
    const double *pval = from < 0 ? w->atom : as->vals + as->start[from];
    const int psize = from < 0 ? w->size : as->size[from];
    const int *aid = as->ids + as->start[a];
    const double *aval = as->vals + as->start[a];
    int nnz = 0;
    for (int k = 0; k < psize; k++) {
        int i = pid[k];
        if (!w->in_u[i]) {
            w->in_u[i] = 1;
            w->u_idx[nnz++] = i;
        }
        w->dense[i] += pval[k];
    }
    for (int k = 0; k < as->size[a]; k++) {
        int i = aid[k];
        if (!w->in_u[i]) {
            w->in_u[i] = 1;
            w->u_idx[nnz++] = i;
        }
        w->dense[i] -= aval[k];
    }
    double d2 = 0.0, slope = 0.0;
    for (int k = 0; k < nnz; k++) {
        int i = w->u_idx[k];
        w->u_val[k] = w->dense[i];
        w->dense[i] = 0.0;
        w->in_u[i] = 0;
        d2 += w->u_val[k] * w->u_val[k];
        slope += w->grad[i] * w->u_val[k];
    }
    st->cx = 0.0;
    st->nnz = nnz;
    st->uid = w->u_idx;
    st->uval = w->u_val;
    st->d2 = d2;
    st->slope = slope;
    st->gamma_max = as->weight[a];
}

/* The weights follow a step of length gamma > 0; an atom whose weight reaches 0 is
 * dropped. When the active set is full the atoms are folded into one equal to x. */
static gsfw_error update_weights(gsfw_run *run, asfw_work *w, const asfw_step *st,
                                 double gamma, const double *x)
{
    gsfw_active_set *as = &w->as;
    int add_fw = 0;
    if (st->kind == STEP_FW) {
        if (gamma >= 1.0) {
            gsfw_active_set_clear(as);
        } else {
            for (int a = 0; a < as->count; a++) as->weight[a] *= 1.0 - gamma;
        }
        add_fw = 1;
    } else {
        if (st->kind == STEP_AWAY)
            for (int a = 0; a < as->count; a++) as->weight[a] *= 1.0 + gamma;
        else if (st->pair_from >= 0)
            as->weight[st->pair_from] += gamma;
        else
            add_fw = 1;
        as->weight[st->away] -= gamma;
        if (gamma >= st->gamma_max) {
            gsfw_active_set_drop(as, st->away);
            run->info->drop_steps++;
        }
    }
    if (add_fw && gsfw_active_set_add(as, w->support, w->atom, w->size, gamma) < 0) {
        gsfw_active_set_clear(as);
        if (gsfw_active_set_add_dense(as, x, run->d, 1.0) < 0)
            return gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for the active set");
    }
    return GSFW_OK;
}

gsfw_error gsfw_active_set_loop(gsfw_run *run, gsfw_fw_plan *plan, double *x)
{
    const gsfw_settings *set = plan->set;
    const int d = run->d;
    const gsfw_method method = set->method;
    asfw_work w;
    gsfw_active_set *as = &w.as;
    gsfw_error rc = work_init(&w, run, set, x);
    if (rc) goto done;
    double *grad = w.grad;
    if (plan->L < 0) {
        rc = gsfw_fw_atom_curvature(run, plan, x, grad, w.support, w.atom, &plan->L);
        if (rc) goto done;
    }
    gsfw_run_start_clock(run);

    gsfw_status status = GSFW_STATUS_MAX_ITER;
    double f = 0.0, phi = INFINITY; /* phi: the last FW gap seen (lazy BPCG) */
    int t = 0;
    for (;; t++) {
        if (t > 0 && t % RECOMPOSE == 0) {
            gsfw_active_set_renormalize(as);
            gsfw_active_set_compose(as, x, d);
            if ((rc = gsfw_run_reset(run, x))) goto done;
        }
        if (run->check_invariants &&
            (rc = check_invariants(run, as, x, plan->C * plan->scale, w.dense_check)))
            goto done;
        if (gsfw_run_begin_iteration(run, t, x, &f, grad, &status, &rc)) {
            if (rc) goto done;
            break;
        }
        /* the active atoms' values <g, a_i>: the away atom maximises it, the local FW atom
         * minimises it */
        int away = 0, local = 0;
        double g_away = -INFINITY, g_local = INFINITY;
        for (int a = 0; a < as->count; a++) {
            double ga = gsfw_active_set_dot(as, a, grad);
            if (ga > g_away) {
                g_away = ga;
                away = a;
            }
            if (ga < g_local) {
                g_local = ga;
                local = a;
            }
        }
        double gx = 0.0, xx = 0.0;
        for (int i = 0; i < d; i++) {
            gx += grad[i] * x[i];
            xx += x[i] * x[i];
        }
        const double local_gap = g_away - g_local;
        int call_dmo = !(method == GSFW_METHOD_BPCG && set->lazy && isfinite(phi) &&
                         local_gap >= phi / BPCG_K && away != local);
        double gap = NAN, gv = 0.0, xv = 0.0, vv = 0.0, bound;
        if (call_dmo) {
            rc = gsfw_run_oracle(run, run->dmo, grad, w.support, &w.size);
            if (rc) goto done;
            const double nrm = gsfw_vec_nrm2_on(w.size, w.support, grad);
            bound = gsfw_run_bound(run, x, grad, plan->C, nrm, plan->delta);
            if (!(nrm > 0)) {
                status = GSFW_STATUS_ZERO_DIRECTION;
                gsfw_run_record(run, t, f, NAN, bound, NAN, as->count, x);
                break;
            }
            const double coef = -plan->C / nrm * plan->scale;
            for (int k = 0; k < w.size; k++) {
                int i = w.support[k];
                w.atom[k] = coef * grad[i];
                gv += grad[i] * w.atom[k];
                xv += x[i] * w.atom[k];
                vv += w.atom[k] * w.atom[k];
            }
            gap = gx - gv;
            phi = gap;
        } else {
            bound = gsfw_run_bound(run, x, grad, plan->C, NAN, plan->delta);
        }
        if (gsfw_run_converged(run, f, bound)) {
            status = GSFW_STATUS_CONVERGED;
            gsfw_run_record(run, t, f, gap, bound, NAN, as->count, x);
            break;
        }
        /* which step */
        asfw_step st = {.kind = STEP_FW, .away = away, .pair_from = -1};
        if (method == GSFW_METHOD_AFW) {
            const double away_gap = g_away - gx;
            if (!(gap >= away_gap) && as->weight[away] < 1.0) st.kind = STEP_AWAY;
        } else if (method == GSFW_METHOD_PFW) {
            st.kind = STEP_PAIR;
        } else if (away != local && (!call_dmo || local_gap >= gap / BPCG_K)) {
            st.kind = STEP_PAIR;
            st.pair_from = local;
        }
        if (st.kind == STEP_FW) {
            st = (asfw_step){.kind = STEP_FW, .away = away, .pair_from = -1, .cx = -1.0,
                             .slope = -gap, .d2 = xx - 2.0 * xv + vv, .gamma_max = 1.0,
                             .nnz = w.size, .uid = w.support, .uval = w.atom};
        } else if (st.kind == STEP_AWAY) {
            away_direction(&w, x, gx, g_away, xx, &st);
        } else {
            pair_direction(&w, &st);
        }
        rc = gsfw_run_direction(run, x, st.cx, st.nnz, st.uid, st.uval);
        if (rc) goto done;
        double gamma;
        rc = gsfw_fw_choose_step(run, plan, t, f, st.slope, st.d2, st.gamma_max, &gamma);
        if (rc) goto done;
        if (gsfw_run_record(run, t, f, gap, bound, gamma, as->count, x)) {
            status = GSFW_STATUS_CALLBACK_STOP;
            break;
        }
        rc = gsfw_run_step(run, x, gamma);
        if (rc) goto done;
        if (gamma == 0.0) continue;
        if ((rc = update_weights(run, &w, &st, gamma, x))) goto done;
    }
    gsfw_run_finish(run, t, f, x, status);
    run->info->active_size = as->count;

done:
    work_free(&w);
    return rc;
}

#define ACTIVE_SET_DEF(method)                                                               \
    {.id = method, .family = GSFW_FW_FAMILY, .active_set = 1, .auto_step = {"line", "adaptive"}, \
     .typical_iters = 300, .oracles = 1, .fw_loop = gsfw_active_set_loop}
static const gsfw_method_def afw_def = ACTIVE_SET_DEF(GSFW_METHOD_AFW);
static const gsfw_method_def pfw_def = ACTIVE_SET_DEF(GSFW_METHOD_PFW);
static const gsfw_method_def bpcg_def = ACTIVE_SET_DEF(GSFW_METHOD_BPCG);

const gsfw_entry gsfw_entry_method_afw = {
    GSFW_KIND_METHOD, "afw", "away-step Frank-Wolfe (Lacoste-Julien & Jaggi 2015)",
    GSFW_FW_USES " max_active", 0, 0, &afw_def, NULL};
const gsfw_entry gsfw_entry_method_pfw = {
    GSFW_KIND_METHOD, "pfw", "pairwise Frank-Wolfe", GSFW_FW_USES " max_active", 0, 0, &pfw_def,
    NULL};
const gsfw_entry gsfw_entry_method_bpcg = {
    GSFW_KIND_METHOD, "bpcg", "blended pairwise conditional gradients (Tsuji et al. 2022)",
    GSFW_FW_USES " max_active lazy", 0, 0, &bpcg_def, NULL};
