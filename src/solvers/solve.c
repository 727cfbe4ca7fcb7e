/* The public entry points: gsfw_solve (the Frank-Wolfe family) and gsfw_baseline_solve,
 * their settings' defaults and checks, and the method / status names. The per-run
 * bookkeeping lives in run.c, the loops in one file per family. */
#include "core/registry.h"
#include "solvers/baselines/baselines.h"
#include "solvers/fw_family.h"
#include "solvers/steps/steps.h"

#include <math.h>
#include <string.h>

const char *gsfw_status_name(gsfw_status status)
{
    switch (status) {
    case GSFW_STATUS_MAX_ITER: return "max_iter";
    case GSFW_STATUS_TIME_LIMIT: return "time_limit";
    case GSFW_STATUS_CALLBACK_STOP: return "callback_stop";
    case GSFW_STATUS_ZERO_DIRECTION: return "zero_direction";
    case GSFW_STATUS_CONVERGED: return "converged";
    case GSFW_STATUS_STALLED: return "stalled";
    case GSFW_STATUS_UNBOUNDED: return "unbounded";
    }
    return "unknown";
}

/* *res = result, or, when the caller asks for no best iterate, a copy of result whose
 * x_best is a buffer of its own (*buf, freed by the caller): the runs that read the best
 * iterate after the loop (the polish, the baselines' check of the answer) need one. */
static gsfw_error with_best(gsfw_result *result, int d, gsfw_result *local, gsfw_result **res,
                            double **buf, gsfw_err *err)
{
    *res = result;
    *buf = NULL;
    if (d < 1 || (result && result->x_best)) return GSFW_OK;
    memset(local, 0, sizeof *local);
    if (result) *local = *result;
    *buf = gsfw_malloc_array((size_t)d, sizeof(double));
    if (!*buf) return gsfw_fail(err, GSFW_ERR_NOMEM, "solve: out of memory");
    local->x_best = *buf;
    *res = local;
    return GSFW_OK;
}

/* ------------------------------------------------------------ gsfw_solve */

static gsfw_error check_settings(const gsfw_settings *set, const gsfw_dmo *dmo, gsfw_err *err)
{
    const gsfw_method_def *method = gsfw_method_of(gsfw_registry_method(set->method));
    if (!method || method->baseline) {
        char names[160];
        gsfw_method_family_names(0, names, sizeof names);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: method %d (%s) is not a "
                         "Frank-Wolfe method (%s)%s", (int)set->method,
                         gsfw_method_name(set->method), names,
                         method ? "; the baselines run through gsfw_baseline_solve" : "");
    }
    if (set->option != GSFW_OPTION_I && set->option != GSFW_OPTION_II)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: option must be I (1) or II (2), "
                         "got %d", (int)set->option);
    if (set->L_rule != GSFW_L_SPECTRAL && set->L_rule != GSFW_L_ATOM)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: unknown L_rule %d (spectral = 0, "
                         "atom = 1)", (int)set->L_rule);
    if ((int)set->step < GSFW_STEP_AUTO || (int)set->step > GSFW_STEP_LINE)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: unknown step rule %d",
                         (int)set->step);
    if (set->step_rule && !set->step_rule->choose)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: the step rule '%s' has no choose "
                         "callback", set->step_rule->name ? set->step_rule->name : "?");
    if (!(set->C > 0) || !isfinite(set->C))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: C must be finite and > 0, got %g",
                         set->C);
    if (!isfinite(set->L))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: L must be finite (or <= 0 to "
                         "estimate it), got %g", set->L);
    if (!isfinite(set->delta) || set->delta > 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: delta must be in (0, 1], or <= 0 "
                         "for the oracle's, and finite; got %g", set->delta);
    if (set->polish && set->polish_iters < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: polish_iters must be >= 0, got %d",
                         set->polish_iters);
    if (set->restarts < 0 || (set->restarts > 0 && set->restart_iters < 1))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: restarts must be >= 0 and "
                         "restart_iters >= 1, got %d and %d", set->restarts,
                         set->restart_iters);
    if (set->restarts > 0 && !set->polish)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: restarts start from the polished "
                         "point: set polish = 1 as well");
    if (method->active_set && set->max_active < 2)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: max_active must be >= 2 for %s, "
                         "got %d", gsfw_method_name(set->method), set->max_active);
    if (set->polish_oracle) {
        gsfw_error rc = gsfw_run_check_oracle("polish oracle", set->polish_oracle, dmo->d, err);
        if (rc) return rc;
    }
    return GSFW_OK;
}

/* x0: finite, in the C-ball (C/delta for Option II) and with a support the oracle's
 * model contains. */
static gsfw_error check_x0(const gsfw_settings *set, gsfw_dmo *dmo, double radius, int *ids,
                           gsfw_err *err)
{
    const double *x0 = set->x0;
    const int d = dmo->d;
    double nrm2 = 0.0;
    int nnz = 0;
    for (int i = 0; i < d; i++) {
        if (!isfinite(x0[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "solve: x0[%d] is %g; the starting point "
                             "must be finite", i, x0[i]);
        nrm2 += x0[i] * x0[i];
        if (x0[i] != 0.0) ids[nnz++] = i;
    }
    double nrm = sqrt(nrm2);
    if (nrm > radius * (1.0 + 1e-12))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: ||x0|| = %.6g exceeds the radius "
                         "%.6g of the feasible set; scale x0 into the ball", nrm, radius);
    if (nnz == 0) return GSFW_OK;
    const char *name = dmo->name ? dmo->name : "?";
    if (!dmo->contains)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: x0 has %d nonzeros, but the oracle "
                         "'%s' cannot check that its support is a set of the model (no "
                         "contains hook); start from 0", nnz, name);
    if (nnz > dmo->max_support)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: x0 has %d nonzeros, more than any "
                         "set of the oracle '%s' (at most %d): x0 is not in the feasible set "
                         "(a polished result always is)", nnz, name, dmo->max_support);
    int in = dmo->contains(dmo->ctx, ids, nnz);
    if (in < 0)
        return gsfw_fail(err, GSFW_ERR_NOMEM, "solve: out of memory checking x0's support");
    if (!in)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: the support of x0 (%d nonzeros) is "
                         "not a set of the model of the oracle '%s' (%s): x0 is not in the "
                         "feasible set (a polished result always is)", nnz, name,
                         dmo->model ? dmo->model : "no description");
    return GSFW_OK;
}

static const gsfw_step_rule *resolve_rule(const gsfw_settings *set, const gsfw_objective *obj,
                                          gsfw_step *used)
{
    if (set->step_rule) {
        *used = set->step;
        return set->step_rule;
    }
    gsfw_step s = set->step;
    if (s == GSFW_STEP_AUTO) {
        /* the method's choice (its row) for this objective */
        const gsfw_method_def *m = gsfw_method_of(gsfw_registry_method(set->method));
        s = (gsfw_step)gsfw_step_parse(m->auto_step[obj->quadratic ? 0 : 1]);
    }
    *used = s;
    return gsfw_step_rule_builtin(s);
}

static gsfw_error solve_fw(gsfw_objective *obj, gsfw_dmo *dmo, const gsfw_settings *settings,
                           gsfw_result *result, gsfw_info *info, gsfw_err *err, int checked)
{
    gsfw_info local_info;
    gsfw_err_clear(err);
    if (!info) info = &local_info;
    if (!obj || !dmo || !settings)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: %s is NULL",
                         !obj ? "the objective" : !dmo ? "the oracle" : "settings");
    if (obj->d >= 1) {
        gsfw_error rc = gsfw_run_check_oracle("oracle", dmo, obj->d, err);
        if (rc) return rc;
    }
    gsfw_error rc = check_settings(settings, dmo, err);
    if (rc) return rc;
    gsfw_run_limits lim = {settings->max_iter, settings->time_limit, settings->tol,
                           settings->tol_rel, settings->x_true, settings->callback,
                           settings->callback_data};
    /* polish needs the best iterate even when the caller does not ask for it */
    gsfw_result local_res;
    gsfw_result *res = result;
    double *best_buf = NULL;
    if (settings->polish && (rc = with_best(result, obj->d, &local_res, &res, &best_buf, err)))
        return rc;
    gsfw_run run;
    rc = gsfw_run_init(&run, obj, dmo, &lim, res, info, err);
    if (rc) {
        free(best_buf);
        return rc;
    }
    run.check_invariants = checked;
    run.bound_C = settings->C;
    gsfw_fw_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.set = settings;
    plan.C = settings->C;
    plan.delta = settings->delta > 0 ? settings->delta : dmo->delta;
    plan.scale = 1.0;
    info->delta = plan.delta;
    double *x = NULL;
    gsfw_fw_work work = {0};
    if (settings->option == GSFW_OPTION_II) {
        if (!(plan.delta > 0 && plan.delta <= 1)) {
            rc = gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: Option II needs delta in (0, 1]; "
                           "the oracle '%s' proves none, so set delta explicitly",
                           dmo->name ? dmo->name : "?");
            goto done;
        }
        plan.scale = 1.0 / plan.delta;
    }
    plan.rule = resolve_rule(settings, obj, &info->step);
    info->step_rule = plan.rule;
    if (plan.rule->state_size) {
        plan.rule_state = calloc(1, plan.rule->state_size);
        if (!plan.rule_state) {
            rc = gsfw_fail(err, GSFW_ERR_NOMEM, "solve: out of memory");
            goto done;
        }
    }
    x = calloc((size_t)obj->d, sizeof(double));
    if (!x) {
        rc = gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a problem of dimension %d",
                       obj->d);
        goto done;
    }
    if (settings->x0) {
        if ((rc = check_x0(settings, dmo, plan.C * plan.scale, run.top_work, err))) goto done;
        memcpy(x, settings->x0, (size_t)obj->d * sizeof(double));
    }
    if (dmo->reset && dmo->reset(dmo->ctx)) {
        rc = gsfw_fail(err, GSFW_ERR_CALLBACK, "solve: the oracle '%s' failed to reset",
                       dmo->name ? dmo->name : "?");
        goto done;
    }
    if (settings->polish_oracle && settings->polish_oracle->reset &&
        settings->polish_oracle->reset(settings->polish_oracle->ctx)) {
        rc = gsfw_fail(err, GSFW_ERR_CALLBACK, "solve: the polish oracle failed to reset");
        goto done;
    }
    if (settings->restarts > 0) {
        if ((rc = gsfw_fw_work_alloc(&run, &plan, &work))) goto done;
        plan.work = &work;
    }
    plan.needs_L = settings->method == GSFW_METHOD_ACCFW || plan.rule->needs_L;
    if ((rc = gsfw_run_reset(&run, x))) goto done;
    if (plan.needs_L && !(settings->L > 0) && settings->L_rule == GSFW_L_ATOM) {
        plan.L = -1.0; /* the loop computes it from the first atom */
    } else if (plan.needs_L) {
        if ((rc = gsfw_run_lipschitz(&run, settings->L, gsfw_method_name(settings->method),
                                     &plan.L)))
            goto done;
    }
    rc = gsfw_method_of(gsfw_registry_method(settings->method))->fw_loop(&run, &plan, x);
    if (rc) goto done;
    if (settings->polish) {
        double *target = result ? result->x_polished : NULL;
        double *tmp = NULL;
        if (!target) target = tmp = gsfw_malloc_array((size_t)obj->d, sizeof(double));
        if (!target) {
            rc = gsfw_fail(err, GSFW_ERR_NOMEM, "solve: out of memory for the polish");
            goto done;
        }
        rc = gsfw_polish(&run, &plan, res->x_best, target);
        if (!rc && settings->restarts > 0) rc = gsfw_restarts(&run, &plan, x, target);
        free(tmp);
    }

done:
    if (result && res != result) result->trace_len = res->trace_len;
    gsfw_run_free(&run);
    gsfw_fw_work_free(&work);
    free(plan.rule_state);
    free(x);
    free(best_buf);
    return rc;
}

gsfw_error gsfw_solve(gsfw_objective *obj, gsfw_dmo *dmo, const gsfw_settings *settings,
                      gsfw_result *result, gsfw_info *info, gsfw_err *err)
{
    return solve_fw(obj, dmo, settings, result, info, err, 0);
}

gsfw_error gsfw_solve_checked(gsfw_objective *obj, gsfw_dmo *dmo, const gsfw_settings *settings,
                              gsfw_result *result, gsfw_info *info, gsfw_err *err)
{
    return solve_fw(obj, dmo, settings, result, info, err, 1);
}

/* ---------------------------------------------------- gsfw_baseline_solve */

gsfw_error gsfw_baseline_answer_unbounded(gsfw_objective *obj, const gsfw_result *res,
                                          int *unbounded, gsfw_err *err)
{
    const double *points[2] = {res->x_best, res->x_last};
    return gsfw_run_shows_unbounded(obj, points, 2, unbounded, err);
}

static gsfw_error run_baseline(const gsfw_method_def *method, gsfw_objective *obj,
                               gsfw_dmo *head, gsfw_dmo *tail,
                               const gsfw_baseline_settings *settings, gsfw_result *result,
                               gsfw_info *info, gsfw_err *err)
{
    if (method->own_solve)
        return method->own_solve(obj, head, tail, settings, result, info, err);
    gsfw_run_limits lim = {settings->max_iter, settings->time_limit, 0.0, 0.0,
                           settings->x_true, settings->callback, settings->callback_data};
    gsfw_run run;
    gsfw_error rc = gsfw_run_init(&run, obj, head, &lim, result, info, err);
    if (rc) return rc;
    run.check_answer = 1;
    if (head->reset) head->reset(head->ctx);
    if (tail != head && tail->reset) tail->reset(tail->ctx);
    rc = method->baseline_loop(&run, settings, head, tail);
    gsfw_run_free(&run);
    return rc;
}

gsfw_error gsfw_baseline_solve(gsfw_objective *obj, gsfw_dmo *head, gsfw_dmo *tail,
                               const gsfw_baseline_settings *settings, gsfw_result *result,
                               gsfw_info *info, gsfw_err *err)
{
    gsfw_info local_info;
    gsfw_err_clear(err);
    if (!info) info = &local_info;
    if (!obj || !head || !settings)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: %s is NULL",
                         !obj ? "the objective" : !head ? "the head oracle" : "settings");
    const gsfw_method_def *method = gsfw_method_of(gsfw_registry_method(settings->method));
    if (!method || !method->baseline) {
        char names[160];
        gsfw_method_family_names(1, names, sizeof names);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: method %d (%s) is not a "
                         "baseline (%s)%s", (int)settings->method,
                         gsfw_method_name(settings->method), names,
                         method ? "; the Frank-Wolfe family runs through gsfw_solve" : "");
    }
    if (obj->d >= 1) {
        gsfw_error rc = gsfw_run_check_oracle("oracle", head, obj->d, err);
        if (!rc && tail) rc = gsfw_run_check_oracle("tail projection", tail, obj->d, err);
        if (rc) return rc;
    }
    if (!isfinite(settings->L))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: L must be finite (or <= 0 "
                         "to estimate it), got %g", settings->L);
    if (!(settings->C > 0) || !isfinite(settings->C))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: C must be finite and > 0, "
                         "got %g", settings->C);
    /* only graph-sp reads them, but a NaN or a negative value is refused for every
     * baseline, as gsfw_solve refuses it for the Frank-Wolfe family */
    gsfw_error tol_rc = gsfw_run_check_tol(settings->tol, settings->tol_rel, err);
    if (tol_rc) return tol_rc;
    if (settings->inner_iters < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: inner_iters must be >= 1, "
                         "got %d", settings->inner_iters);
    if (method->refits && !obj->minimize_on)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: %s minimises f on supports and "
                         "needs an objective with a minimize_on hook (least squares, "
                         "logistic and Huber objectives have one)",
                         gsfw_method_name(settings->method));
    if (!tail) tail = head;
    /* the check of the answer reads the best iterate even when the caller does not */
    gsfw_result local_res;
    gsfw_result *res = result;
    double *best_buf = NULL;
    gsfw_error rc = obj->no_minimiser
                        ? with_best(result, obj->d, &local_res, &res, &best_buf, err) : GSFW_OK;
    if (!rc) rc = run_baseline(method, obj, head, tail, settings, res, info, err);
    if (result && res != result) result->trace_len = res->trace_len;
    free(best_buf);
    return rc;
}
