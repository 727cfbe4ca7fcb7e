/* Graph subspace pursuit on one level (gsfw/pursuit.h has the iteration):
 *
 *     H = head(grad f(x_t)),  T = supp(x_t) u H,  b = refit on T,
 *     P = tail(b),            x_{t+1} = refit on P (from b)
 *
 * Invariants between iterations: x is zero outside cur[0..n_cur) (the last pruned
 * support), b and the marks `in` are all zero. Every buffer is allocated before the
 * first iteration. */
#include "solvers/pursuit_level.h"
#include "util/vec.h"

#include <math.h>
#include <string.h>

typedef struct {
    gsfw_run *run;
    gsfw_dmo *tail;
    int inner_iters;
    double inner_tol;
    double *x, *b, *w, *grad;  /* d each (w: refit values, |T| <= d) */
    int *cur, n_cur;           /* supp(x) as the tail returned it */
    int *merged;               /* d: T */
    int *head_sup;             /* head->max_support */
    unsigned char *in;         /* d marks */
} pursuit_work;

static void work_free(pursuit_work *w)
{
    free(w->b);
    free(w->w);
    free(w->grad);
    free(w->cur);
    free(w->merged);
    free(w->head_sup);
    free(w->in);
}

static gsfw_error work_alloc(pursuit_work *w, int d, const gsfw_dmo *head)
{
    w->b = gsfw_calloc_array((size_t)d, sizeof(double));
    w->w = gsfw_malloc_array((size_t)d, sizeof(double));
    w->grad = gsfw_malloc_array((size_t)d, sizeof(double));
    w->cur = gsfw_malloc_array((size_t)d, sizeof(int));
    w->merged = gsfw_malloc_array((size_t)d, sizeof(int));
    w->head_sup = gsfw_malloc_array((size_t)head->max_support, sizeof(int));
    w->in = gsfw_calloc_array((size_t)d, 1);
    if (w->b && w->w && w->grad && w->cur && w->merged && w->head_sup && w->in) return GSFW_OK;
    return gsfw_fail(w->run->err, GSFW_ERR_NOMEM, "pursuit: out of memory for a problem of "
                     "dimension %d", d);
}

/* to[S] = argmin f over vectors supported on S (k ids), from the values from[S]; to is
 * written on S only. */
static gsfw_error refit(pursuit_work *w, const int *S, int k, const double *from, double *to)
{
    if (k == 0) return GSFW_OK;
    gsfw_objective *o = w->run->obj;
    for (int j = 0; j < k; j++) w->w[j] = from[S[j]];
    double f = 0.0, t0 = gsfw_now();
    int rc = o->minimize_on(o->ctx, k, S, w->w, w->inner_iters, w->inner_tol, &f);
    w->run->info->gradient_time += gsfw_now() - t0;
    if (rc)
        return gsfw_fail(w->run->err, GSFW_ERR_CALLBACK, "pursuit: the objective's minimize_on "
                         "failed (code %d%s) on %d coordinates", rc,
                         gsfw_run_code_text(w->run, rc), k);
    for (int j = 0; j < k; j++) to[S[j]] = w->w[j];
    return GSFW_OK;
}

/* b = refit on T = merged[0..k), P = tail(b), x = refit on P from b; cur = P. */
static gsfw_error prune_and_polish(pursuit_work *w, int k)
{
    gsfw_error rc = refit(w, w->merged, k, w->x, w->b);
    int n_pruned = 0;
    /* the pruned support goes straight into cur once x is cleared on the old one */
    for (int j = 0; !rc && j < w->n_cur; j++) w->x[w->cur[j]] = 0.0;
    if (!rc) rc = gsfw_run_oracle(w->run, w->tail, w->b, w->cur, &n_pruned);
    w->n_cur = rc ? 0 : n_pruned;
    if (!rc) rc = refit(w, w->cur, n_pruned, w->b, w->x);
    for (int j = 0; j < k; j++) w->b[w->merged[j]] = 0.0;
    return rc;
}

/* merged = cur u head_sup[0..kh); returns |merged|, *added = the new ids. */
static int merge(pursuit_work *w, int kh, int *added)
{
    int k = 0;
    for (int j = 0; j < w->n_cur; j++) {
        w->in[w->cur[j]] = 1;
        w->merged[k++] = w->cur[j];
    }
    *added = 0;
    for (int j = 0; j < kh; j++) {
        int i = w->head_sup[j];
        if (!w->in[i]) {
            w->in[i] = 1;
            w->merged[k++] = i;
            (*added)++;
        }
    }
    for (int j = 0; j < k; j++) w->in[w->merged[j]] = 0;
    return k;
}

static int level_callback(const gsfw_iterate *it, const double *x, void *user)
{
    const gsfw_pursuit_plan *plan = user;
    return plan->set->callback(plan->level, it, x, plan->set->callback_data);
}

/* f(0), the reference of tol_rel, on the zero vector b. */
static gsfw_error value_at_zero(pursuit_work *w, double *f0)
{
    double t0 = gsfw_now();
    int rc = w->run->obj->value(w->run->obj->ctx, w->b, f0);
    w->run->info->gradient_time += gsfw_now() - t0;
    if (rc)
        return gsfw_fail(w->run->err, GSFW_ERR_CALLBACK, "pursuit: the objective failed (code "
                         "%d%s) at 0", rc, gsfw_run_code_text(w->run, rc));
    if (!isfinite(*f0)) return gsfw_run_nonfinite_value(w->run, "pursuit: ", w->b, *f0);
    return GSFW_OK;
}

/* The oracles' finer mode (gsfw_dmo.refine), when the level stops making progress with
 * their first one: 1 if either changed. */
static int refine_oracles(pursuit_work *w, gsfw_dmo *head)
{
    int changed = head->refine && head->refine(head->ctx) == 0;
    if (w->tail != head && w->tail->refine && w->tail->refine(w->tail->ctx) == 0) changed = 1;
    return changed;
}

/* The loop from x_0 (already polished, or 0). */
static gsfw_error iterate(pursuit_work *w, gsfw_dmo *head, const gsfw_pursuit_plan *plan,
                          double f_zero)
{
    gsfw_run *run = w->run;
    const gsfw_pursuit_settings *set = plan->set;
    const double target = set->tol + set->tol_rel * f_zero;
    gsfw_status status = GSFW_STATUS_MAX_ITER;
    gsfw_error rc = GSFW_OK;
    double f = 0.0, best_before = INFINITY;
    int t = 0, misses = 0;
    for (;; t++) {
        if (gsfw_run_begin_iteration(run, t, w->x, &f, w->grad, &status, &rc)) break;
        if (gsfw_run_record(run, t, f, NAN, NAN, NAN, 0, w->x)) {
            status = GSFW_STATUS_CALLBACK_STOP;
            break;
        }
        if (f <= target) {
            status = GSFW_STATUS_CONVERGED;
            break;
        }
        misses = t > 0 && !(f < (1.0 - plan->stall) * best_before) ? misses + 1 : 0;
        /* `patience` misses switch cheap oracles to their accurate mode, and as many more
         * end the level: near the fewest measurements the pursuit can stay above its best
         * for a few iterations before it finds the support, and the cheap mode's inexact
         * projections are what most often lead it there */
        if (misses >= plan->patience) {
            if (!refine_oracles(w, head)) {
                status = GSFW_STATUS_STALLED;
                break;
            }
            misses = 0;
        }
        best_before = fmin(best_before, f);
        int kh = 0, added = 0, k = 0;
        for (;;) {
            if ((rc = gsfw_run_oracle(run, head, w->grad, w->head_sup, &kh))) break;
            if (!(gsfw_vec_nrm2_on(kh, w->head_sup, w->grad) > 0)) {
                status = GSFW_STATUS_ZERO_DIRECTION;
                break;
            }
            k = merge(w, kh, &added);
            if (added > 0 || !refine_oracles(w, head)) break;
        }
        if (rc || status == GSFW_STATUS_ZERO_DIRECTION) break;
        if (added == 0) { /* the refit on supp(x_t) would give x_t again */
            status = GSFW_STATUS_STALLED;
            break;
        }
        if ((rc = prune_and_polish(w, k))) break;
        if ((rc = gsfw_run_reset(run, w->x))) break;
    }
    if (!rc) gsfw_run_finish(run, t, f, w->x, status);
    return rc;
}

gsfw_error gsfw_pursuit_level(gsfw_objective *obj, gsfw_dmo *head, gsfw_dmo *tail,
                              const gsfw_pursuit_plan *plan, gsfw_result *result,
                              gsfw_info *info, gsfw_err *err)
{
    const gsfw_pursuit_settings *set = plan->set;
    gsfw_run_limits lim = {set->max_iter, plan->time_limit, 0.0, 0.0, plan->x_true,
                           set->callback ? level_callback : NULL, (void *)plan};
    gsfw_run run;
    gsfw_error rc = gsfw_run_init(&run, obj, head, &lim, result, info, err);
    if (rc) return rc;
    /* on the finest level, for every caller of gsfw_pursuit_solve, not only graph-sp's:
     * a coarse level that ends by the time limit or the callback must keep that status,
     * which ends the run there. The refits on merged supports are not checked
     * (gsfw_run.refit stays NULL): the answer is polished on the pruned support, so a
     * merged support that separates the labels does not make it grow unless the pruned
     * one does too, which the check of the answer sees */
    run.check_answer = plan->check_answer;
    const int d = obj->d;
    pursuit_work w;
    memset(&w, 0, sizeof w);
    w.run = &run;
    w.tail = tail;
    w.inner_iters = plan->inner_iters;
    w.inner_tol = set->inner_tol;
    w.x = calloc((size_t)d, sizeof(double));
    if (!w.x) rc = gsfw_fail(err, GSFW_ERR_NOMEM, "pursuit: out of memory");
    if (!rc) rc = work_alloc(&w, d, head);
    long cap = (long)head->max_support + tail->max_support;
    if (!rc) rc = gsfw_run_reserve(&run, cap < d ? (int)cap : d);
    if (!rc && head->reset && head->reset(head->ctx))
        rc = gsfw_fail(err, GSFW_ERR_CALLBACK, "pursuit: the head oracle failed to reset");
    if (!rc && tail != head && tail->reset && tail->reset(tail->ctx))
        rc = gsfw_fail(err, GSFW_ERR_CALLBACK, "pursuit: the tail oracle failed to reset");
    double f_zero = 0.0;
    if (!rc) rc = value_at_zero(&w, &f_zero);
    /* the start's prune and polish are iterations' work: the solve's clock runs */
    if (!rc) gsfw_run_start_clock(&run);
    if (!rc && plan->start) {
        int k = 0;
        for (int i = 0; i < d; i++)
            if (plan->start[i] != 0.0) {
                w.x[i] = plan->start[i];
                w.merged[k++] = w.cur[w.n_cur++] = i;
            }
        if (k > 0) rc = prune_and_polish(&w, k);
    }
    if (!rc) rc = gsfw_run_reset(&run, w.x);
    if (!rc) rc = iterate(&w, head, plan, f_zero);
    if (!rc) {
        info->f_polished = info->f_best;
        int nnz = 0;
        for (int i = 0; i < d; i++) nnz += result->x_best[i] != 0.0;
        info->polished_size = nnz;
        if (result->x_polished)
            memcpy(result->x_polished, result->x_best, (size_t)d * sizeof(double));
    }
    work_free(&w);
    free(w.x);
    gsfw_run_free(&run);
    return rc;
}
