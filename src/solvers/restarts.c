/* Warm restarts from the polished point (settings.restarts).
 *
 * A Frank-Wolfe run that ends near, but not at, the right support leaves a polished point
 * (the model projection of its best iterate, refitted) whose support is almost right.
 * Restarting DMO-AccFW there, with a fresh eta_t, makes its first step point
 * x - grad f(x) / L a full gradient step from a good point, which the head projection
 * then corrects; a few such rounds find supports that one longer run does not:
 *
 *   x_ans = the first run's polished point
 *   round r = 1..R: AccFW with the line step for restart_iters iterations from x_ans
 *                   (L kept from the first run), then polish; x_ans = the polished point
 *                   if its f is lower
 *   stop at an exact fit (0 <= f(x_ans) <= 1e-24 f(0)) or after a round that did not
 *   lower f: the next round would start from the same point and repeat it exactly
 *
 * AccFW with line search is the rule that recovered most in the experiments
 * (docs/experiments-phase.md): rounds of DMO-FW or blended pairwise steps start from
 * atoms far from x_ans and lose what the polish found. Each round resets the oracles, as
 * a fresh gsfw_solve from x_ans would, so a round is the same computation as a solve from
 * that point. Everything the rounds use is allocated before the first one
 * (gsfw_fw_work), so the number of allocations does not depend on the rounds run. */
#include "solvers/fw_family.h"

#include <math.h>
#include <string.h>

/* A polished f this far below f(0) is an exact fit (the noiseless optimum 0 up to
 * rounding): nothing is left to gain. */
#define GSFW_EXACT_FIT 1e-24
/* A round must lower f by more than this fraction to be worth repeating from. */
#define GSFW_RESTART_GAIN 1e-9

gsfw_error gsfw_fw_work_alloc(gsfw_run *run, const gsfw_fw_plan *plan, gsfw_fw_work *work)
{
    const size_t d = (size_t)run->d;
    const gsfw_settings *set = plan->set;
    const gsfw_dmo *pol = set->polish_oracle ? set->polish_oracle : run->dmo;
    const size_t m = (size_t)run->dmo->max_support, pm = (size_t)pol->max_support;
    memset(work, 0, sizeof *work);
    work->grad = gsfw_malloc_array(d, sizeof(double));
    work->w = gsfw_malloc_array(d, sizeof(double));
    work->atom = gsfw_malloc_array(m, sizeof(double));
    work->support = gsfw_malloc_array(m, sizeof(int));
    work->pol_support = gsfw_malloc_array(pm, sizeof(int));
    work->pol_w = gsfw_malloc_array(pm, sizeof(double));
    work->round_best = gsfw_malloc_array(d, sizeof(double));
    work->x_try = gsfw_malloc_array(d, sizeof(double));
    int ok = work->grad && work->w && work->atom && work->support && work->pol_support &&
             work->pol_w && work->round_best && work->x_try;
    if (ok && !run->obj->minimize_on) {
        work->pol_g = gsfw_malloc_array(d, sizeof(double));
        work->pol_w_try = gsfw_malloc_array(pm, sizeof(double));
        ok = work->pol_g && work->pol_w_try;
    }
    if (ok) return GSFW_OK;
    gsfw_fw_work_free(work);
    return gsfw_fail(run->err, GSFW_ERR_NOMEM, "solve: out of memory for the restarts");
}

void gsfw_fw_work_free(gsfw_fw_work *work)
{
    free(work->grad);
    free(work->w);
    free(work->atom);
    free(work->support);
    free(work->pol_support);
    free(work->pol_w);
    free(work->pol_g);
    free(work->pol_w_try);
    free(work->round_best);
    free(work->x_try);
    memset(work, 0, sizeof *work);
}

static gsfw_error reset_oracles(gsfw_run *run, const gsfw_settings *set)
{
    gsfw_dmo *o[2] = {run->dmo, set->polish_oracle};
    for (int k = 0; k < 2; k++)
        if (o[k] && o[k]->reset && o[k]->reset(o[k]->ctx))
            return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "solve: the oracle '%s' failed to "
                             "reset before a restart", o[k]->name ? o[k]->name : "?");
    return GSFW_OK;
}

/* f(0), the scale of an exact fit; x_try is scratch. */
static gsfw_error value_at_zero(gsfw_run *run, double *x_try, double *f0)
{
    memset(x_try, 0, (size_t)run->d * sizeof(double));
    int rc = run->obj->value(run->obj->ctx, x_try, f0);
    if (rc)
        return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "restarts: the objective failed (code "
                         "%d%s) at 0", rc, gsfw_run_code_text(run, rc));
    return GSFW_OK;
}

gsfw_error gsfw_restarts(gsfw_run *run, gsfw_fw_plan *plan, double *x, double *x_ans)
{
    const gsfw_settings *set = plan->set;
    gsfw_info *info = run->info;
    gsfw_fw_work *work = plan->work;
    const int d = run->d;
    const gsfw_info first = *info; /* the first run's figures, kept */
    info->restarts = info->restart_best = 0;
    double f_zero;
    gsfw_error rc = value_at_zero(run, work->x_try, &f_zero);
    if (rc) return rc;
    /* room for the rounds' polishes: the projections return about the first one's size
     * (the head projection's window is [s, 1.05 s]); a larger support grows it once */
    const gsfw_dmo *pol = set->polish_oracle ? set->polish_oracle : run->dmo;
    int room = info->polished_size > pol->model_size ? info->polished_size : pol->model_size;
    room += room / 4 + 1;
    if ((rc = gsfw_run_reserve(run, room < pol->max_support ? room : pol->max_support)))
        return rc;

    /* the rounds: AccFW, line step, restart_iters iterations, no tolerance, L as the
     * first run resolved it (an FW first run had none: the first round estimates it) */
    gsfw_settings round = *set;
    round.method = GSFW_METHOD_ACCFW;
    round.step = GSFW_STEP_LINE;
    round.step_rule = NULL;
    round.max_iter = set->restart_iters;
    round.tol = round.tol_rel = 0.0;
    gsfw_fw_plan rp = *plan;
    rp.set = &round;
    rp.rule = gsfw_step_rule_builtin(GSFW_STEP_LINE);
    rp.rule_state = NULL;
    rp.needs_L = 1;
    rp.L = plan->needs_L && plan->L > 0 ? plan->L : -1.0;

    gsfw_result round_res = {.x_best = work->round_best}; /* no trace, no x_last */
    gsfw_result *first_res = run->res;
    const gsfw_run_limits lim = run->lim;
    double f_ans = info->f_polished, solve_s = first.solve_time, polish_s = first.polish_time;
    int size_ans = info->polished_size, stopped = 0;
    run->res = &round_res;
    run->lim.tol = run->lim.tol_rel = 0.0;
    run->lim.max_iter = set->restart_iters;
    for (int r = 1; r <= set->restarts && !stopped; r++) {
        if (f_ans >= 0 && f_ans <= GSFW_EXACT_FIT * f_zero) break;
        if (lim.time_limit > 0) { /* the limit covers the whole solve */
            run->lim.time_limit = lim.time_limit - solve_s - polish_s;
            if (!(run->lim.time_limit > 0)) break;
        }
        memcpy(x, x_ans, (size_t)d * sizeof(double));
        if ((rc = reset_oracles(run, set)) || (rc = gsfw_run_reset(run, x))) break;
        info->f_best = INFINITY;
        info->best_iter = -1;
        run->bound0 = NAN;
        if ((rc = gsfw_fw_loop(run, &rp, x))) break;
        solve_s += info->solve_time;
        stopped = info->status == GSFW_STATUS_CALLBACK_STOP;
        rc = gsfw_polish(run, &rp, work->round_best, work->x_try);
        polish_s += info->polish_time;
        if (rc) break;
        info->restarts = r;
        const double f_r = info->f_polished;
        const int gained = f_r < f_ans - GSFW_RESTART_GAIN * fabs(f_ans);
        if (f_r < f_ans) {
            memcpy(x_ans, work->x_try, (size_t)d * sizeof(double));
            f_ans = f_r;
            size_ans = info->polished_size;
            info->restart_best = r;
        }
        if (!gained) break;
    }
    run->res = first_res;
    run->lim = lim;
    /* the first run's figures, with the rounds' counts (accumulated in info) and times */
    const int rounds = info->restarts, best = info->restart_best;
    const long oracle_calls = info->oracle_calls, gradient_calls = info->gradient_calls;
    long counters[GSFW_DMO_COUNTERS];
    memcpy(counters, info->counters, sizeof counters);
    const double oracle_s = info->oracle_time, gradient_s = info->gradient_time;
    *info = first;
    info->oracle_calls = oracle_calls;
    memcpy(info->counters, counters, sizeof counters);
    info->gradient_calls = gradient_calls;
    info->oracle_time = oracle_s;
    info->gradient_time = gradient_s;
    info->solve_time = solve_s;
    info->polish_time = polish_s;
    info->f_polished = f_ans;
    info->polished_size = size_ans;
    info->restarts = rounds;
    info->restart_best = best;
    if (stopped) info->status = GSFW_STATUS_CALLBACK_STOP;
    return rc;
}
