#include "solvers/run.h"
#include "util/select.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

gsfw_error gsfw_run_check_oracle(const char *role, const gsfw_dmo *oracle, int d,
                                 gsfw_err *err)
{
    const char *name = oracle->name ? oracle->name : "?";
    if (!oracle->select)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: the %s '%s' has no select "
                         "callback", role, name);
    if (oracle->d != d)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "solve: the objective has dimension %d but "
                         "the %s '%s' works on %d entries", d, role, name, oracle->d);
    /* At most d distinct ids exist; the solvers allocate max_support entries. */
    if (oracle->max_support < 1 || oracle->max_support > d)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: the %s '%s' has max_support = "
                         "%d, outside 1..%d (its dimension)", role, name, oracle->max_support,
                         d);
    return GSFW_OK;
}

gsfw_error gsfw_run_check_tol(double tol, double tol_rel, gsfw_err *err)
{
    if (!(tol >= 0) || !isfinite(tol) || !(tol_rel >= 0) || !isfinite(tol_rel))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: tol and tol_rel must be finite and "
                         ">= 0 (0 = off), got %g and %g", tol, tol_rel);
    return GSFW_OK;
}

gsfw_error gsfw_run_init(gsfw_run *run, gsfw_objective *obj, gsfw_dmo *dmo,
                         const gsfw_run_limits *lim, gsfw_result *res, gsfw_info *info,
                         gsfw_err *err)
{
    memset(run, 0, sizeof *run);
    run->t_setup_begin = gsfw_now();
    /* Everything is checked before any output (info, result) is touched. */
    if (!obj)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: the objective is NULL");
    if (!obj->value || !obj->gradient)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: the objective has no value or "
                         "gradient callback");
    /* The incremental hooks are all-or-nothing (gsfw.h): a partial set would be ignored
     * silently, so the caller's cache would never be used or kept up to date. */
    int hooks = !!obj->reset + !!obj->cached_value_grad + !!obj->set_direction + !!obj->along +
                !!obj->step;
    if (hooks != 0 && hooks != 5)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: the objective's incremental hooks "
                         "reset, cached_value_grad, set_direction, along and step go together; "
                         "%s is missing",
                         !obj->reset ? "reset" : !obj->cached_value_grad ? "cached_value_grad"
                         : !obj->set_direction ? "set_direction" : !obj->along ? "along"
                         : "step");
    /* A hand-made objective may carry any d; the work arrays are sized by it. */
    if (obj->d < 1)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "solve: the objective's dimension d = %d must "
                         "be >= 1", obj->d);
    if (lim->max_iter < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: max_iter must be >= 0, got %d",
                         lim->max_iter);
    /* NaN would compare false and silently mean "no limit"; +Inf is a valid "none". */
    if (isnan(lim->time_limit))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: time_limit is NaN (use <= 0 for "
                         "no limit)");
    gsfw_error rc = gsfw_run_check_tol(lim->tol, lim->tol_rel, err);
    if (rc) return rc;
    for (int i = 0; lim->x_true && i < obj->d; i++)
        if (!isfinite(lim->x_true[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "solve: x_true[%d] is %g; the ground "
                             "truth must be finite", i, lim->x_true[i]);
    if (res && res->trace && res->trace_capacity < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: negative trace capacity %d",
                         res->trace_capacity);
    run->obj = obj;
    run->dmo = dmo;
    run->lim = *lim;
    run->res = res;
    run->info = info;
    run->err = err;
    run->d = obj->d;
    run->incremental = hooks == 5;
    run->bound0 = NAN;
    size_t d = (size_t)obj->d;
    run->mark = calloc(d, 1);
    run->scaled = gsfw_malloc_array(d, sizeof(double));
    run->top_work = gsfw_malloc_array(d, sizeof(int));
    run->top_values = gsfw_malloc_array(d, sizeof(double));
    int ok = run->mark && run->scaled && run->top_work && run->top_values;
    if (ok && !run->incremental) {
        run->dir_dense = gsfw_malloc_array(d, sizeof(double));
        run->x_trial = gsfw_malloc_array(d, sizeof(double));
        run->g_trial = gsfw_malloc_array(d, sizeof(double));
        ok = run->dir_dense && run->x_trial && run->g_trial;
    }
    if (!ok) {
        gsfw_run_free(run);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a problem of dimension %d",
                         obj->d);
    }
    memset(info, 0, sizeof *info);
    info->f_best = INFINITY;
    info->best_iter = -1;
    info->f_polished = NAN;
    info->gap_bound = NAN;
    info->L_source = GSFW_L_NONE;
    if (res) res->trace_len = 0;
    return GSFW_OK;
}

void gsfw_run_free(gsfw_run *run)
{
    free(run->mark);
    free(run->scaled);
    free(run->top_work);
    free(run->top_values);
    free(run->dir_dense);
    free(run->x_trial);
    free(run->g_trial);
    run->mark = NULL;
    run->scaled = NULL;
    run->top_work = NULL;
    run->top_values = NULL;
    run->dir_dense = run->x_trial = run->g_trial = NULL;
}

gsfw_error gsfw_run_nonfinite_value(gsfw_run *run, const char *who, const double *x, double f)
{
    double xmax = 0.0; /* computed only on failure */
    for (int i = 0; i < run->d; i++) xmax = fmax(xmax, fabs(x[i]));
    if (xmax == 0.0) /* no C is to blame: the objective itself, or data that overflow alone */
        return gsfw_fail(run->err, GSFW_ERR_NONFINITE, "%sthe objective value is %g at x = 0, "
                         "where C plays no part: the objective is not finite there, or its "
                         "data overflow (rescale them)", who, f);
    return gsfw_fail(run->err, GSFW_ERR_NONFINITE, "%sthe objective value is %g at a point "
                     "with max |x_i| = %g: the data or the point overflow (a smaller C, or "
                     "rescaled data)", who, f, xmax);
}

gsfw_error gsfw_run_eval(gsfw_run *run, const double *x, double *f, double *grad)
{
    double t0 = gsfw_now();
    int rc;
    gsfw_objective *o = run->obj;
    if (run->incremental)
        rc = o->cached_value_grad(o->ctx, f, grad);
    else if (o->value_grad)
        rc = o->value_grad(o->ctx, x, f, grad);
    else {
        rc = o->value(o->ctx, x, f);
        if (!rc) rc = o->gradient(o->ctx, x, grad);
    }
    run->info->gradient_time += gsfw_now() - t0;
    run->info->gradient_calls++;
    if (rc)
        return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the objective failed (code %d%s)", rc,
                         gsfw_run_code_text(run, rc));
    if (!isfinite(*f)) return gsfw_run_nonfinite_value(run, "", x, *f);
    for (int i = 0; i < run->d; i++)
        if (!isfinite(grad[i]))
            return gsfw_fail(run->err, GSFW_ERR_NONFINITE, "entry %d of the objective's "
                             "gradient is %g", i, grad[i]);
    return GSFW_OK;
}

gsfw_error gsfw_run_reset(gsfw_run *run, const double *x)
{
    if (!run->incremental) return GSFW_OK;
    double t0 = gsfw_now();
    int rc = run->obj->reset(run->obj->ctx, x);
    run->info->gradient_time += gsfw_now() - t0;
    if (rc)
        return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the objective reset failed (code %d%s)",
                         rc, gsfw_run_code_text(run, rc));
    return GSFW_OK;
}

const char *gsfw_run_code_text(gsfw_run *run, int code)
{
    const char *text = run->obj->code_text ? run->obj->code_text(code) : NULL;
    if (!text) return "";
    snprintf(run->code_text, sizeof run->code_text, ": %s", text);
    return run->code_text;
}

gsfw_error gsfw_run_reserve(gsfw_run *run, int max_support)
{
    if (!run->obj->reserve) return GSFW_OK;
    int rc = run->obj->reserve(run->obj->ctx, max_support);
    if (rc)
        return gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory reserving the objective's "
                         "workspace for supports of %d coordinates (reserve hook code %d)",
                         max_support, rc);
    return GSFW_OK;
}

gsfw_error gsfw_run_oracle(gsfw_run *run, gsfw_dmo *oracle, const double *z, int *support,
                           int *size)
{
    gsfw_dmo_stats stats = {{0}};
    double t0 = gsfw_now();
    *size = 0;
    int rc = oracle->select(oracle->ctx, z, support, size, &stats);
    run->info->oracle_time += gsfw_now() - t0;
    run->info->oracle_calls++;
    gsfw_info_add_counts(run->info, oracle, &stats);
    const char *name = oracle->name ? oracle->name : "?";
    if (rc) {
        /* The library's oracles refuse a non-finite z (e.g. an AccFW step point that
         * overflowed): say so rather than leave a bare code. Only on failure: no cost. */
        for (int i = 0; i < run->d; i++)
            if (!isfinite(z[i]))
                return gsfw_fail(run->err, GSFW_ERR_NONFINITE, "the oracle '%s' was handed a "
                                 "non-finite point, z[%d] = %g: the iterates overflowed (data "
                                 "too large for C, or L too small)", name, i, z[i]);
        return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the oracle '%s' failed (code %d)", name, rc);
    }
    if (*size < 0 || *size > oracle->max_support)
        return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the oracle '%s' returned %d ids, outside "
                         "0..%d", name, *size, oracle->max_support);
    gsfw_error out = GSFW_OK;
    int k;
    for (k = 0; k < *size; k++) {
        int i = support[k];
        if (i < 0 || i >= run->d) {
            out = gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the oracle '%s' returned id %d outside "
                            "0..%d", name, i, run->d - 1);
            break;
        }
        if (run->mark[i]) {
            out = gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the oracle '%s' returned id %d twice",
                            name, i);
            break;
        }
        run->mark[i] = 1;
    }
    for (int j = 0; j < k; j++) run->mark[support[j]] = 0;
    return out;
}

static gsfw_error objective_failed(gsfw_run *run, const char *what, int rc)
{
    return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the objective %s failed (code %d%s)", what,
                     rc, gsfw_run_code_text(run, rc));
}

gsfw_error gsfw_run_direction(gsfw_run *run, const double *x, double cx, int nnz,
                              const int *idx, const double *val)
{
    run->dir_cx = cx;
    run->dir_nnz = nnz;
    run->dir_idx = idx;
    run->dir_val = val;
    run->dir_x = x;
    if (!run->incremental) {
        for (int i = 0; i < run->d; i++) run->dir_dense[i] = cx * x[i];
        for (int k = 0; k < nnz; k++) run->dir_dense[idx[k]] += val[k];
        return GSFW_OK;
    }
    double t0 = gsfw_now();
    int rc = run->obj->set_direction(run->obj->ctx, cx, nnz, idx, val);
    run->info->gradient_time += gsfw_now() - t0;
    return rc ? objective_failed(run, "update", rc) : GSFW_OK;
}

int gsfw_run_line(void *ctx, double gamma, double *f, double *slope)
{
    gsfw_run *run = ctx;
    double t0 = gsfw_now();
    int rc;
    if (run->incremental) {
        rc = run->obj->along(run->obj->ctx, gamma, f, slope);
    } else {
        const int d = run->d;
        for (int i = 0; i < d; i++) run->x_trial[i] = run->dir_x[i] + gamma * run->dir_dense[i];
        double fv = 0.0;
        gsfw_objective *o = run->obj;
        if (o->value_grad)
            rc = o->value_grad(o->ctx, run->x_trial, &fv, run->g_trial);
        else {
            rc = o->value(o->ctx, run->x_trial, &fv);
            if (!rc) rc = o->gradient(o->ctx, run->x_trial, run->g_trial);
        }
        if (!rc) {
            double sl = 0.0;
            for (int i = 0; i < d; i++) sl += run->g_trial[i] * run->dir_dense[i];
            if (f) *f = fv;
            if (slope) *slope = sl;
        }
    }
    run->info->gradient_time += gsfw_now() - t0;
    run->info->gradient_calls++;
    return rc;
}

gsfw_error gsfw_run_step(gsfw_run *run, double *x, double gamma)
{
    if (gamma == 0.0) return GSFW_OK;
    const double keep = 1.0 + gamma * run->dir_cx;
    if (keep != 1.0)
        for (int i = 0; i < run->d; i++) x[i] *= keep;
    for (int k = 0; k < run->dir_nnz; k++) x[run->dir_idx[k]] += gamma * run->dir_val[k];
    if (!run->incremental) return GSFW_OK;
    double t0 = gsfw_now();
    int rc = run->obj->step(run->obj->ctx, gamma);
    run->info->gradient_time += gsfw_now() - t0;
    return rc ? objective_failed(run, "update", rc) : GSFW_OK;
}

gsfw_error gsfw_run_update(gsfw_run *run, double *x, double alpha, double beta, int nnz,
                           const int *idx, const double *val)
{
    if (beta != 1.0) {
        for (int k = 0; k < nnz; k++) run->scaled[k] = beta * val[k];
        val = run->scaled;
    }
    gsfw_error rc = gsfw_run_direction(run, x, alpha - 1.0, nnz, idx, val);
    if (!rc) rc = gsfw_run_step(run, x, 1.0);
    return rc;
}

gsfw_error gsfw_run_move(gsfw_run *run, double *x, const double *xnew, int *idx, double *val)
{
    int k = 0;
    for (int i = 0; i < run->d; i++) {
        if (xnew[i] != x[i]) {
            idx[k] = i;
            val[k] = xnew[i] - x[i];
            k++;
        }
    }
    if (k == 0) return GSFW_OK;
    gsfw_error rc = gsfw_run_direction(run, x, 0.0, k, idx, val);
    if (rc) return rc;
    if (run->incremental) {
        double t0 = gsfw_now();
        int hr = run->obj->step(run->obj->ctx, 1.0);
        run->info->gradient_time += gsfw_now() - t0;
        if (hr) return objective_failed(run, "update", hr);
    }
    /* copied rather than added, so that x equals xnew exactly */
    memcpy(x, xnew, (size_t)run->d * sizeof(double));
    return GSFW_OK;
}

double gsfw_run_bound(gsfw_run *run, const double *x, const double *grad, double C,
                      double head_norm, double delta)
{
    double best = INFINITY;
    if (isfinite(head_norm) && delta > 0) best = head_norm / delta;
    int s = run->dmo ? run->dmo->model_size : 0;
    if (s >= 1 && s <= run->d) {
        best = fmin(best, sqrt(gsfw_select_top_abs_sum(grad, run->d, s, 1, run->top_values)));
    }
    if (!isfinite(best)) return NAN;
    double gx = 0.0;
    for (int i = 0; i < run->d; i++) gx += grad[i] * x[i];
    return gx + C * best;
}

int gsfw_run_record(gsfw_run *run, int t, double f, double gap, double bound, double step,
                    int active, const double *x)
{
    gsfw_iterate it;
    it.iter = t;
    it.time_s = gsfw_now() - run->t_start;
    it.f = f;
    it.gap = gap;
    it.gap_bound = bound;
    it.step = step;
    it.active = active;
    it.est_err = NAN;
    int nnz = 0;
    if (run->lim.x_true) {
        double s = 0.0;
        for (int i = 0; i < run->d; i++) {
            double diff = x[i] - run->lim.x_true[i];
            s += diff * diff;
            nnz += x[i] != 0.0;
        }
        it.est_err = sqrt(s);
    } else {
        for (int i = 0; i < run->d; i++) nnz += x[i] != 0.0;
    }
    it.support = nnz;
    if (f < run->info->f_best) {
        run->info->f_best = f;
        run->info->best_iter = t;
        if (run->res && run->res->x_best)
            memcpy(run->res->x_best, x, (size_t)run->d * sizeof(double));
    }
    if (!isnan(bound) && !(bound >= run->info->gap_bound)) run->info->gap_bound = bound;
    if (run->res && run->res->trace && t < run->res->trace_capacity) {
        run->res->trace[t] = it;
        run->res->trace_len = t + 1;
    }
    if (run->lim.callback) return run->lim.callback(&it, x, run->lim.callback_data) != 0;
    return 0;
}

int gsfw_run_converged(gsfw_run *run, double f, double bound)
{
    (void)f;
    if (isnan(bound)) return 0;
    if (isnan(run->bound0)) run->bound0 = bound;
    if (!(run->lim.tol > 0 || run->lim.tol_rel > 0)) return 0;
    return bound <= run->lim.tol + run->lim.tol_rel * run->bound0;
}

int gsfw_run_out_of_time(const gsfw_run *run)
{
    return run->lim.time_limit > 0 && gsfw_now() - run->t_start > run->lim.time_limit;
}

void gsfw_run_start_clock(gsfw_run *run)
{
    run->t_start = gsfw_now();
    run->info->setup_time = run->t_start - run->t_setup_begin;
}

/* Refresh the objective's incremental cache from x every this many iterations, so that
 * rounding drift in the cached residual stays at the level of a direct evaluation. */
#define GSFW_CACHE_REFRESH 16

int gsfw_run_begin_iteration(gsfw_run *run, int t, const double *x, double *f, double *grad,
                             gsfw_status *status, gsfw_error *rc)
{
    *rc = GSFW_OK;
    if (run->incremental && t > 0 && t % GSFW_CACHE_REFRESH == 0) {
        if ((*rc = gsfw_run_reset(run, x))) return 1;
    }
    if ((*rc = gsfw_run_eval(run, x, f, grad))) return 1;
    if (t == run->lim.max_iter) {
        *status = GSFW_STATUS_MAX_ITER;
    } else if (gsfw_run_out_of_time(run)) {
        *status = GSFW_STATUS_TIME_LIMIT;
    } else {
        return 0;
    }
    double bound = run->bound_C > 0 ? gsfw_run_bound(run, x, grad, run->bound_C, NAN, 0.0) : NAN;
    gsfw_run_record(run, t, *f, NAN, bound, NAN, 0, x);
    return 1;
}

gsfw_error gsfw_run_lipschitz(gsfw_run *run, double L_given, const char *who, double *L)
{
    *L = 0.0;
    if (L_given > 0) {
        /* the steps divide by L: a subnormal L turns every step point into inf */
        if (!isfinite(1.0 / L_given))
            return gsfw_fail(run->err, GSFW_ERR_INVALID_ARG, "solve: L = %g is too small "
                             "(1/L overflows); L is the gradient's Lipschitz constant",
                             L_given);
        *L = L_given;
        run->info->L_source = GSFW_L_GIVEN;
    } else if (run->obj->lipschitz) {
        int rc = run->obj->lipschitz(run->obj->ctx, L);
        if (rc)
            return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "solve: could not estimate L (the "
                             "objective's estimate failed with code %d); set L explicitly",
                             rc);
        /* the data's fault, not a callback's: a zero operator, or entries so large (or
         * small) that the estimate or its inverse overflows */
        if (*L == 0.0)
            return gsfw_fail(run->err, GSFW_ERR_INVALID_ARG, "solve: could not estimate L "
                             "(got 0: is the data matrix zero?); set L explicitly");
        if (*L < 0)
            return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "solve: could not estimate L (the "
                             "objective's estimate is negative, %g); set L explicitly", *L);
        if (!isfinite(*L) || !isfinite(1.0 / *L))
            return gsfw_fail(run->err, GSFW_ERR_NONFINITE, "solve: could not estimate L "
                             "(got %g: the data's entries are not finite, or too large or "
                             "too small for 1/L to be finite); rescale them or set L", *L);
        run->info->L_source = GSFW_L_SPECTRAL;
    } else {
        return gsfw_fail(run->err, GSFW_ERR_INVALID_ARG, "solve: %s needs the smoothness "
                         "constant L: set it, or use an objective that can estimate it", who);
    }
    run->info->L = *L;
    return GSFW_OK;
}

gsfw_error gsfw_run_shows_unbounded(gsfw_objective *obj, const double *const *points, int k,
                                    int *unbounded, gsfw_err *err)
{
    *unbounded = 0;
    if (!obj->no_minimiser) return GSFW_OK;
    const size_t bytes = (size_t)obj->d * sizeof(double);
    for (int j = 0; j < k && !*unbounded; j++) {
        if (!points[j] || (j > 0 && points[j - 1] && !memcmp(points[j - 1], points[j], bytes)))
            continue;
        int rc = obj->no_minimiser(obj->ctx, points[j], unbounded);
        const char *text = rc && obj->code_text ? obj->code_text(rc) : NULL;
        if (rc) {
            *unbounded = 0;
            return gsfw_fail(err, GSFW_ERR_CALLBACK, "solve: the objective's "
                             "no_minimiser check failed (code %d%s%s)", rc, text ? ": " : "",
                             text ? text : "");
        }
    }
    return GSFW_OK;
}

void gsfw_run_finish(gsfw_run *run, int t_last, double f_last, const double *x,
                     gsfw_status status)
{
    run->info->solve_time = gsfw_now() - run->t_start;
    /* The baselines bound no norm: an answer that shows f to have no minimiser grows with
     * the iterations, whatever stopped the run but the callback (the caller's own stop).
     * A refitting loop's answer is its last refit pruned, which may no longer separate
     * the labels that refit did, and the refit drove the growth: it is checked too. The
     * check is advisory: the run ended normally, so a failure leaves its status. */
    if (run->check_answer && status != GSFW_STATUS_CALLBACK_STOP) {
        const double *points[3] = {run->res ? run->res->x_best : NULL, x, run->refit};
        int unbounded = 0;
        gsfw_err ignored;
        if (!gsfw_run_shows_unbounded(run->obj, points, 3, &unbounded, &ignored) && unbounded)
            status = GSFW_STATUS_UNBOUNDED;
    }
    run->info->status = status;
    run->info->iterations = t_last;
    run->info->f_last = f_last;
    if (run->res && run->res->x_last)
        memcpy(run->res->x_last, x, (size_t)run->d * sizeof(double));
}
