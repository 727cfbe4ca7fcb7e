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

gsfw_error gsfw_active_set_loop(gsfw_run *run, gsfw_fw_plan *plan, double *x)
{
    const gsfw_settings *set = plan->set;
    const int d = run->d;
    const gsfw_method method = set->method;
    const int ms = run->dmo->max_support;
    gsfw_active_set as;
    long nnz0 = 0;
    for (int i = 0; i < d; i++) nnz0 += x[i] != 0.0;
    /* room for a full active set of the oracle's largest atoms, so that the arena does not
     * grow inside the loop, unless that is unreasonable (then it grows geometrically) */
    long arena = (long)set->max_active * ms;
    if (arena > (1L << 22)) arena = 16L * ms > (1L << 22) ? 16L * ms : (1L << 22);
    gsfw_error rc = gsfw_active_set_init(&as, set->max_active, nnz0 + arena, run->err);
    if (rc) return rc;
    double *grad = gsfw_malloc_array((size_t)d, sizeof(double));
    int *support = gsfw_malloc_array((size_t)ms, sizeof(int));
    double *atom = gsfw_malloc_array((size_t)ms, sizeof(double));
    double *dense = calloc((size_t)d, sizeof(double)); /* merging two atoms */
    int *u_idx = gsfw_malloc_array((size_t)d, sizeof(int));
    double *u_val = gsfw_malloc_array((size_t)d, sizeof(double));
    unsigned char *in_u = calloc((size_t)d, 1);
    double *dense_check = run->check_invariants ? gsfw_malloc_array((size_t)d, sizeof(double))
                                                : NULL;
    if (!grad || !support || !atom || !dense || !u_idx || !u_val || !in_u ||
        (run->check_invariants && !dense_check)) {
        rc = gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for a problem of dimension %d", d);
        goto done;
    }
    if (gsfw_active_set_add_dense(&as, x, d, 1.0) < 0) {
        rc = gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for the active set");
        goto done;
    }
    if (plan->L < 0) {
        rc = gsfw_fw_atom_curvature(run, plan, x, grad, support, atom, &plan->L);
        if (rc) goto done;
    }
    gsfw_run_start_clock(run);

    gsfw_status status = GSFW_STATUS_MAX_ITER;
    double f = 0.0, phi = INFINITY; /* phi: the last FW gap seen (lazy BPCG) */
    int t = 0, size = 0;
    for (;; t++) {
        if (t > 0 && t % RECOMPOSE == 0) {
            gsfw_active_set_renormalize(&as);
            gsfw_active_set_compose(&as, x, d);
            if ((rc = gsfw_run_reset(run, x))) goto done;
        }
        if (run->check_invariants &&
            (rc = check_invariants(run, &as, x, plan->C * plan->scale, dense_check)))
            goto done;
        if (gsfw_run_begin_iteration(run, t, x, &f, grad, &status, &rc)) {
            if (rc) goto done;
            break;
        }
        /* the active atoms' values <g, a_i>: the away atom maximises it, the local FW atom
         * minimises it */
        int away = 0, local = 0;
        double g_away = -INFINITY, g_local = INFINITY;
        for (int a = 0; a < as.count; a++) {
            double ga = gsfw_active_set_dot(&as, a, grad);
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
            rc = gsfw_run_oracle(run, run->dmo, grad, support, &size);
            if (rc) goto done;
            double nrm2 = 0.0;
            for (int k = 0; k < size; k++) nrm2 += grad[support[k]] * grad[support[k]];
            bound = gsfw_run_bound(run, x, grad, plan->C, sqrt(nrm2), plan->delta);
            if (!(nrm2 > 0)) {
                status = GSFW_STATUS_ZERO_DIRECTION;
                gsfw_run_record(run, t, f, NAN, bound, NAN, as.count, x);
                break;
            }
            const double coef = -plan->C / sqrt(nrm2) * plan->scale;
            for (int k = 0; k < size; k++) {
                int i = support[k];
                atom[k] = coef * grad[i];
                gv += grad[i] * atom[k];
                xv += x[i] * atom[k];
                vv += atom[k] * atom[k];
            }
            gap = gx - gv;
            phi = gap;
        } else {
            bound = gsfw_run_bound(run, x, grad, plan->C, NAN, plan->delta);
        }
        if (gsfw_run_converged(run, f, bound)) {
            status = GSFW_STATUS_CONVERGED;
            gsfw_run_record(run, t, f, gap, bound, NAN, as.count, x);
            break;
        }
        /* which step */
        step_kind kind = STEP_FW;
        int pair_from = -1; /* PAIR: the active atom receiving weight (-1: the new FW atom) */
        if (method == GSFW_METHOD_AFW) {
            const double away_gap = g_away - gx;
            if (!(gap >= away_gap) && as.weight[away] < 1.0) kind = STEP_AWAY;
        } else if (method == GSFW_METHOD_PFW) {
            kind = STEP_PAIR;
        } else if (away != local && (!call_dmo || local_gap >= gap / BPCG_K)) {
            kind = STEP_PAIR;
            pair_from = local;
        }
        double cx = -1.0, slope = 0.0, d2 = 0.0, gamma_max = 1.0;
        int nnz = 0;
        const int *uid = support;
        const double *uval = atom;
        const double wa = as.weight[away];
        if (kind == STEP_FW) {
            nnz = size;
            slope = -gap;
            d2 = xx - 2.0 * xv + vv;
        } else if (kind == STEP_AWAY) {
            /* d = x - a: u = -a */
            cx = 1.0;
            nnz = as.size[away];
            const int *aid = as.ids + as.start[away];
            const double *aval = as.vals + as.start[away];
            double xa = 0.0;
            for (int k = 0; k < nnz; k++) {
                u_idx[k] = aid[k];
                u_val[k] = -aval[k];
                xa += x[aid[k]] * aval[k];
            }
            uid = u_idx;
            uval = u_val;
            slope = gx - g_away;
            d2 = xx - 2.0 * xa + gsfw_active_set_norm2(&as, away);
            gamma_max = wa / (1.0 - wa);
        } else {
            /* d = p - a with p the new FW atom (PFW) or the local FW atom (BPCG) */
            cx = 0.0;
            const int *pid = pair_from < 0 ? support : as.ids + as.start[pair_from];
            const double *pval = pair_from < 0 ? atom : as.vals + as.start[pair_from];
            int psize = pair_from < 0 ? size : as.size[pair_from];
            const int *aid = as.ids + as.start[away];
            const double *aval = as.vals + as.start[away];
            for (int k = 0; k < psize; k++) {
                int i = pid[k];
                if (!in_u[i]) {
                    in_u[i] = 1;
                    u_idx[nnz++] = i;
                }
                dense[i] += pval[k];
            }
            for (int k = 0; k < as.size[away]; k++) {
                int i = aid[k];
                if (!in_u[i]) {
                    in_u[i] = 1;
                    u_idx[nnz++] = i;
                }
                dense[i] -= aval[k];
            }
            for (int k = 0; k < nnz; k++) {
                int i = u_idx[k];
                u_val[k] = dense[i];
                dense[i] = 0.0;
                in_u[i] = 0;
                d2 += u_val[k] * u_val[k];
                slope += grad[i] * u_val[k];
            }
            uid = u_idx;
            uval = u_val;
            gamma_max = wa;
        }
        rc = gsfw_run_direction(run, x, cx, nnz, uid, uval);
        if (rc) goto done;
        double gamma;
        rc = gsfw_fw_choose_step(run, plan, t, f, slope, d2, gamma_max, &gamma);
        if (rc) goto done;
        if (gsfw_run_record(run, t, f, gap, bound, gamma, as.count, x)) {
            status = GSFW_STATUS_CALLBACK_STOP;
            break;
        }
        rc = gsfw_run_step(run, x, gamma);
        if (rc) goto done;
        if (gamma == 0.0) continue;
        /* the weights follow the step */
        int add_fw = 0;
        double add_w = 0.0;
        if (kind == STEP_FW) {
            if (gamma >= 1.0) {
                gsfw_active_set_clear(&as);
            } else {
                for (int a = 0; a < as.count; a++) as.weight[a] *= 1.0 - gamma;
            }
            add_fw = 1;
            add_w = gamma;
        } else if (kind == STEP_AWAY) {
            for (int a = 0; a < as.count; a++) as.weight[a] *= 1.0 + gamma;
            as.weight[away] -= gamma;
            if (gamma >= gamma_max) {
                gsfw_active_set_drop(&as, away);
                run->info->drop_steps++;
            }
        } else {
            if (pair_from >= 0) {
                as.weight[pair_from] += gamma;
            } else {
                add_fw = 1;
                add_w = gamma;
            }
            as.weight[away] -= gamma;
            if (gamma >= gamma_max) {
                gsfw_active_set_drop(&as, away);
                run->info->drop_steps++;
            }
        }
        if (add_fw && gsfw_active_set_add(&as, support, atom, size, add_w) < 0) {
            /* full (or out of memory): fold everything into one atom equal to x */
            gsfw_active_set_clear(&as);
            if (gsfw_active_set_add_dense(&as, x, d, 1.0) < 0) {
                rc = gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for the active set");
                goto done;
            }
        }
    }
    gsfw_run_finish(run, t, f, x, status);
    run->info->active_size = as.count;

done:
    gsfw_active_set_free(&as);
    free(grad);
    free(support);
    free(atom);
    free(dense);
    free(u_idx);
    free(u_val);
    free(in_u);
    free(dense_check);
    return rc;
}
