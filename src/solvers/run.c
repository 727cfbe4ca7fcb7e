#include "solvers/run.h"

#include <math.h>
#include <string.h>

void gsfw_settings_default(gsfw_settings *s)
{
    if (!s) return; /* nothing to fill: a no-op rather than a crash */
    memset(s, 0, sizeof *s);
    s->method = GSFW_METHOD_ACCFW;
    s->option = GSFW_OPTION_I;
    s->C = 1.0;
    s->L = 0.0;       /* estimate */
    s->delta = 0.0;   /* from the oracle */
    s->max_iter = 100;
    s->time_limit = 0.0;
}

const char *gsfw_status_name(gsfw_status status)
{
    switch (status) {
    case GSFW_STATUS_MAX_ITER: return "max_iter";
    case GSFW_STATUS_TIME_LIMIT: return "time_limit";
    case GSFW_STATUS_CALLBACK_STOP: return "callback_stop";
    case GSFW_STATUS_ZERO_DIRECTION: return "zero_direction";
    }
    return "unknown";
}

static const char *const method_names[] = {"fw", "accfw", "iht", "cosamp",
                                           "graph-iht", "graph-cosamp", "gen-mp"};

int gsfw_method_parse(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < (int)(sizeof method_names / sizeof method_names[0]); i++)
        if (!strcmp(name, method_names[i])) return i;
    return -1;
}

const char *gsfw_method_name(gsfw_method method)
{
    if ((int)method < 0 || (int)method >= (int)(sizeof method_names / sizeof method_names[0]))
        return "unknown";
    return method_names[method];
}

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

gsfw_error gsfw_run_init(gsfw_run *run, gsfw_objective *obj, gsfw_dmo *dmo,
                         const gsfw_settings *set, gsfw_result *res, gsfw_info *info,
                         gsfw_err *err)
{
    memset(run, 0, sizeof *run);
    /* Everything is checked before any output (info, result) is touched. */
    if (!obj || !dmo || !set)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: %s is NULL",
                         !obj ? "the objective" : !dmo ? "the oracle" : "settings");
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
    gsfw_error rc = gsfw_run_check_oracle("oracle", dmo, obj->d, err);
    if (rc) return rc;
    if ((int)set->method < GSFW_METHOD_FW || (int)set->method > GSFW_METHOD_GEN_MP)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: unknown method %d",
                         (int)set->method);
    if (set->option != GSFW_OPTION_I && set->option != GSFW_OPTION_II)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: option must be I (1) or II (2), "
                         "got %d", (int)set->option);
    if (set->L_rule != GSFW_L_SPECTRAL && set->L_rule != GSFW_L_ATOM)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: unknown L_rule %d (spectral = 0, "
                         "atom = 1)", (int)set->L_rule);
    if (!(set->C > 0) || !isfinite(set->C))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: C must be finite and > 0, got %g",
                         set->C);
    if (set->max_iter < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: max_iter must be >= 0, got %d",
                         set->max_iter);
    if (!isfinite(set->L))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: L must be finite (or <= 0 to "
                         "estimate it), got %g", set->L);
    if (!isfinite(set->delta) || set->delta > 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: delta must be in (0, 1] (or <= 0 "
                         "for the oracle's), got %g", set->delta);
    /* NaN would compare false and silently mean "no limit"; +Inf is a valid "none". */
    if (isnan(set->time_limit))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: time_limit is NaN (use <= 0 for "
                         "no limit)");
    for (int i = 0; set->x_true && i < obj->d; i++)
        if (!isfinite(set->x_true[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "solve: x_true[%d] is %g; the ground "
                             "truth must be finite", i, set->x_true[i]);
    if (res && res->trace && res->trace_capacity < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: negative trace capacity %d",
                         res->trace_capacity);
    run->obj = obj;
    run->dmo = dmo;
    run->set = set;
    run->res = res;
    run->info = info;
    run->err = err;
    run->d = obj->d;
    run->incremental = hooks == 5;
    run->mark = calloc((size_t)obj->d, 1);
    run->scaled = gsfw_malloc_array((size_t)obj->d, sizeof(double));
    if (!run->mark || !run->scaled) {
        free(run->mark);
        free(run->scaled);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory");
    }
    memset(info, 0, sizeof *info);
    info->f_best = INFINITY;
    info->best_iter = -1;
    if (res) res->trace_len = 0;
    return GSFW_OK;
}

void gsfw_run_free(gsfw_run *run)
{
    free(run->mark);
    free(run->scaled);
    run->mark = NULL;
    run->scaled = NULL;
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
    if (rc) return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the objective failed (code %d)", rc);
    if (!isfinite(*f))
        return gsfw_fail(run->err, GSFW_ERR_NONFINITE, "the objective value is %g", *f);
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
    if (rc) return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the objective reset failed (code %d)", rc);
    return GSFW_OK;
}

gsfw_error gsfw_run_update(gsfw_run *run, double alpha, double beta, int nnz, const int *idx,
                           const double *val)
{
    if (!run->incremental) return GSFW_OK;
    double t0 = gsfw_now();
    /* x <- alpha x + beta v is the step gamma = 1 along d = (alpha - 1) x + beta v */
    int rc = 0;
    if (nnz > 0 && beta != 1.0) {
        /* the direction takes beta v: scale into the run's scratch */
        for (int k = 0; k < nnz; k++) run->scaled[k] = beta * val[k];
        val = run->scaled;
    }
    rc = run->obj->set_direction(run->obj->ctx, alpha - 1.0, nnz, idx, val);
    if (!rc) rc = run->obj->step(run->obj->ctx, 1.0);
    run->info->gradient_time += gsfw_now() - t0;
    if (rc) return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the objective update failed (code %d)", rc);
    return GSFW_OK;
}

gsfw_error gsfw_run_oracle(gsfw_run *run, gsfw_dmo *oracle, const double *z, int *support,
                           int *size)
{
    gsfw_dmo_stats stats = {0, 0};
    double t0 = gsfw_now();
    *size = 0;
    int rc = oracle->select(oracle->ctx, z, support, size, &stats);
    run->info->oracle_time += gsfw_now() - t0;
    run->info->oracle_calls++;
    run->info->pcsf_calls += stats.pcsf_calls;
    const char *name = oracle->name ? oracle->name : "?";
    if (rc) {
        /* The library's oracles refuse a non-finite z (e.g. an AccFW step point that
         * overflowed): say so rather than leave a bare code. Only on failure: no cost. */
        for (int i = 0; i < run->d; i++)
            if (!isfinite(z[i]))
                return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the oracle '%s' failed (code %d) "
                                 "on an input with a non-finite entry: z[%d] = %g", name, rc, i,
                                 z[i]);
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

int gsfw_run_record(gsfw_run *run, int t, double f, double gap, const double *x)
{
    gsfw_iterate it;
    it.iter = t;
    it.time_s = gsfw_now() - run->t_start;
    it.f = f;
    it.gap = gap;
    it.est_err = NAN;
    int nnz = 0;
    if (run->set->x_true) {
        double s = 0.0;
        for (int i = 0; i < run->d; i++) {
            double diff = x[i] - run->set->x_true[i];
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
    if (run->res && run->res->trace && t < run->res->trace_capacity) {
        run->res->trace[t] = it;
        run->res->trace_len = t + 1;
    }
    if (run->set->callback) return run->set->callback(&it, x, run->set->callback_data) != 0;
    return 0;
}

int gsfw_run_out_of_time(const gsfw_run *run)
{
    return run->set->time_limit > 0 && gsfw_now() - run->t_start > run->set->time_limit;
}

void gsfw_run_start_clock(gsfw_run *run, double t_setup_begin)
{
    run->info->setup_time += gsfw_now() - t_setup_begin;
    run->t_start = gsfw_now();
}

gsfw_error gsfw_run_start(gsfw_run *run, const double *x0, double t_setup_begin)
{
    gsfw_error rc = gsfw_run_reset(run, x0);
    if (rc) return rc;
    gsfw_run_start_clock(run, t_setup_begin);
    return GSFW_OK;
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
    if (t == run->set->max_iter) {
        *status = GSFW_STATUS_MAX_ITER;
    } else if (gsfw_run_out_of_time(run)) {
        *status = GSFW_STATUS_TIME_LIMIT;
    } else {
        return 0;
    }
    gsfw_run_record(run, t, *f, NAN, x);
    return 1;
}

gsfw_error gsfw_run_lipschitz(gsfw_run *run, double *L)
{
    const gsfw_settings *set = run->set;
    double t0 = gsfw_now();
    *L = 0.0;
    if (set->L > 0) {
        *L = set->L;
    } else if (run->obj->lipschitz) {
        if (run->obj->lipschitz(run->obj->ctx, L) || !(*L > 0) || !isfinite(*L))
            return gsfw_fail(run->err, GSFW_ERR_CALLBACK, "solve: could not estimate L (got "
                             "%g); set L explicitly", *L);
        run->info->L_estimated = 1;
    } else {
        return gsfw_fail(run->err, GSFW_ERR_INVALID_ARG, "solve: %s needs the smoothness "
                         "constant L: set it, or use an objective that can estimate it",
                         gsfw_method_name(set->method));
    }
    run->info->L = *L;
    run->info->setup_time += gsfw_now() - t0;
    return GSFW_OK;
}

void gsfw_run_finish(gsfw_run *run, int t_last, double f_last, const double *x,
                     gsfw_status status)
{
    run->info->status = status;
    run->info->iterations = t_last;
    run->info->f_last = f_last;
    run->info->solve_time = gsfw_now() - run->t_start;
    if (run->res && run->res->x_last)
        memcpy(run->res->x_last, x, (size_t)run->d * sizeof(double));
}

gsfw_error gsfw_solve(gsfw_objective *obj, gsfw_dmo *dmo, const gsfw_settings *settings,
                      gsfw_result *result, gsfw_info *info, gsfw_err *err)
{
    gsfw_info local_info;
    gsfw_run run;
    gsfw_err_clear(err);
    if (!info) info = &local_info;
    gsfw_error rc = gsfw_run_init(&run, obj, dmo, settings, result, info, err);
    if (rc) return rc;
    switch (settings->method) {
    case GSFW_METHOD_FW:
    case GSFW_METHOD_ACCFW:
        rc = gsfw_solve_frank_wolfe(&run);
        break;
    case GSFW_METHOD_IHT:
    case GSFW_METHOD_GRAPH_IHT:
        rc = gsfw_solve_iht(&run);
        break;
    case GSFW_METHOD_COSAMP:
    case GSFW_METHOD_GRAPH_COSAMP:
        rc = gsfw_solve_cosamp(&run);
        break;
    case GSFW_METHOD_GEN_MP:
        rc = gsfw_solve_gen_mp(&run);
        break;
    default:
        rc = gsfw_fail(err, GSFW_ERR_INVALID_ARG, "solve: method %d (%s) is not available",
                       (int)settings->method, gsfw_method_name(settings->method));
    }
    gsfw_run_free(&run);
    return rc;
}
