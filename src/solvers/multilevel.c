/* The pursuit solvers' entry points (gsfw/pursuit.h): settings, checks, and the
 * coarse-to-fine driver over pursuit_level.c. */
#include "solvers/pursuit_level.h"

#include <math.h>
#include <string.h>

void gsfw_pursuit_settings_default(gsfw_pursuit_settings *s)
{
    if (!s) return;
    memset(s, 0, sizeof *s);
    s->max_iter = 50;
    s->inner_iters = 30;
    s->coarse_inner_iters = 10;
    s->inner_tol = 1e-10;
    s->tol = 0.0;
    s->tol_rel = 1e-12;
    s->stall = 1e-3;
    s->coarse_stall = 1e-2;
    s->patience = 6;
    s->coarse_patience = 2;
}

static gsfw_error check_settings(const gsfw_pursuit_settings *s, gsfw_err *err)
{
    if (s->max_iter < 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: max_iter must be >= 0, got %d",
                         s->max_iter);
    if (s->inner_iters < 1 || s->coarse_inner_iters < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: inner_iters and "
                         "coarse_inner_iters must be >= 1, got %d and %d", s->inner_iters,
                         s->coarse_inner_iters);
    if (!(s->inner_tol >= 0) || !isfinite(s->inner_tol))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: inner_tol must be finite and "
                         ">= 0, got %g", s->inner_tol);
    if (!(s->tol >= 0) || !isfinite(s->tol) || !(s->tol_rel >= 0) || !isfinite(s->tol_rel))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: tol and tol_rel must be finite "
                         "and >= 0, got %g and %g", s->tol, s->tol_rel);
    if (!(s->stall >= 0 && s->stall < 1) || !(s->coarse_stall >= 0 && s->coarse_stall < 1))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: stall and coarse_stall must be "
                         "in [0, 1), got %g and %g", s->stall, s->coarse_stall);
    if (s->patience < 1 || s->coarse_patience < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: patience and coarse_patience "
                         "must be >= 1, got %d and %d", s->patience, s->coarse_patience);
    if (isnan(s->time_limit))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: time_limit is NaN (use <= 0 for "
                         "no limit)");
    return GSFW_OK;
}

/* Level k's pieces: present, of matching sizes, the objective able to refit. */
static gsfw_error check_level(const gsfw_level *levels, int k, gsfw_err *err)
{
    const gsfw_level *l = &levels[k];
    if (!l->obj || !l->head || !l->tail)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: level %d has no %s", k,
                         !l->obj ? "objective" : !l->head ? "head oracle" : "tail oracle");
    if (!l->obj->minimize_on)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: the objective of level %d ('%s') "
                         "has no minimize_on hook: the pursuit refits on supports", k,
                         l->obj->name ? l->obj->name : "?");
    gsfw_error rc = gsfw_run_check_oracle("head oracle", l->head, l->obj->d, err);
    if (!rc) rc = gsfw_run_check_oracle("tail oracle", l->tail, l->obj->d, err);
    if (rc || k == 0) return rc;
    const gsfw_operator *p = l->prolong;
    if (!p || !p->apply)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: level %d has no prolong operator "
                         "(with an apply hook) from level %d", k, k - 1);
    if (p->d != levels[k - 1].obj->d || p->n != l->obj->d)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "pursuit: the prolong operator of level %d is "
                         "%d x %d; it must map level %d's %d unknowns to level %d's %d", k,
                         p->n, p->d, k - 1, levels[k - 1].obj->d, k, l->obj->d);
    return GSFW_OK;
}

static gsfw_error check_start(const double *x, int d, const char *what, gsfw_err *err)
{
    for (int i = 0; x && i < d; i++)
        if (!isfinite(x[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "pursuit: %s[%d] is %g; it must be "
                             "finite", what, i, x[i]);
    return GSFW_OK;
}

/* Add a level's calls and times to the run's totals. */
static void add_info(gsfw_info *total, const gsfw_info *level)
{
    total->oracle_calls += level->oracle_calls;
    gsfw_info_add_info_counts(total, level);
    total->gradient_calls += level->gradient_calls;
    total->setup_time += level->setup_time;
    total->solve_time += level->solve_time;
    total->oracle_time += level->oracle_time;
    total->gradient_time += level->gradient_time;
}

/* The best point of level k carried up through the prolong operators to the finest
 * level (into dst), after a run that ended before the finest level. */
static gsfw_error carry_up(const gsfw_level *levels, int k, int n_levels, double **xs,
                           double *dst, gsfw_err *err)
{
    for (int j = k + 1; j < n_levels; j++) {
        double *to = j == n_levels - 1 ? dst : xs[j];
        if (levels[j].prolong->apply(levels[j].prolong->ctx, xs[j - 1], to))
            return gsfw_fail(err, GSFW_ERR_CALLBACK, "pursuit: the prolong operator of level %d "
                             "failed", j);
    }
    return GSFW_OK;
}

/* The finest level's outputs after a run that stopped on coarse level k. */
static gsfw_error finish_early(const gsfw_level *levels, int k, int n_levels, double **xs,
                               gsfw_result *result, const gsfw_info *lk, gsfw_info *info,
                               gsfw_err *err)
{
    const int d = levels[n_levels - 1].obj->d;
    gsfw_error rc = carry_up(levels, k, n_levels, xs, xs[n_levels - 1], err);
    if (rc) return rc;
    if (result) {
        if (result->x_best && result->x_best != xs[n_levels - 1])
            memcpy(result->x_best, xs[n_levels - 1], (size_t)d * sizeof(double));
        if (result->x_last) memcpy(result->x_last, xs[n_levels - 1], (size_t)d * sizeof(double));
        if (result->x_polished)
            memcpy(result->x_polished, xs[n_levels - 1], (size_t)d * sizeof(double));
        result->trace_len = 0;
    }
    info->status = lk->status;
    info->iterations = 0;
    info->best_iter = -1;
    info->f_best = info->f_last = info->f_polished = NAN;
    return GSFW_OK;
}

gsfw_error gsfw_multilevel_solve(const gsfw_level *levels, int n_levels,
                                 const gsfw_pursuit_settings *settings, gsfw_result *result,
                                 gsfw_info *info, gsfw_info *level_info, gsfw_err *err)
{
    gsfw_err_clear(err);
    gsfw_info local_info;
    if (!info) info = &local_info;
    if (!levels || !settings)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: %s is NULL",
                         !levels ? "levels" : "settings");
    if (n_levels < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "pursuit: n_levels must be >= 1, got %d",
                         n_levels);
    gsfw_error rc = check_settings(settings, err);
    for (int k = 0; !rc && k < n_levels; k++) rc = check_level(levels, k, err);
    if (rc) return rc; /* before any level's objective is read: it may be NULL */
    const int fine = n_levels - 1;
    rc = check_start(settings->x0, levels[0].obj->d, "x0", err);
    if (!rc) rc = check_start(settings->x_true, levels[fine].obj->d, "x_true", err);
    if (rc) return rc;
    /* every level's best point; the finest one's is the caller's x_best when given */
    enum { LOCAL_LEVELS = 16 };
    double *xs[LOCAL_LEVELS] = {0};
    double **xv = n_levels <= (int)(sizeof xs / sizeof xs[0]) ? xs
                  : gsfw_calloc_array((size_t)n_levels, sizeof(double *));
    int ok = xv != NULL;
    for (int k = 0; ok && k < n_levels; k++) {
        if (k == fine && result && result->x_best) {
            xv[k] = result->x_best;
            continue;
        }
        xv[k] = gsfw_malloc_array((size_t)levels[k].obj->d, sizeof(double));
        ok = xv[k] != NULL;
    }
    memset(info, 0, sizeof *info);
    if (level_info) memset(level_info, 0, (size_t)n_levels * sizeof *level_info);
    if (!ok) rc = gsfw_fail(err, GSFW_ERR_NOMEM, "pursuit: out of memory");
    const double t0 = gsfw_now();
    for (int k = 0; !rc && k < n_levels; k++) {
        const gsfw_level *l = &levels[k];
        gsfw_pursuit_plan plan = {.set = settings, .level = k,
                                  .inner_iters = k == fine ? settings->inner_iters
                                                           : settings->coarse_inner_iters,
                                  .stall = k == fine ? settings->stall : settings->coarse_stall,
                                  .patience = k == fine ? settings->patience
                                                        : settings->coarse_patience,
                                  .x_true = k == fine ? settings->x_true : NULL,
                                  .start = k == 0 ? settings->x0 : xv[k - 1],
                                  .check_answer = k == fine};
        if (settings->time_limit > 0) {
            /* the levels share the limit; one that starts with none left stops at once */
            plan.time_limit = settings->time_limit - (gsfw_now() - t0);
            if (!(plan.time_limit > 0)) plan.time_limit = 1e-300;
        }
        if (k > 0 && l->prolong->apply(l->prolong->ctx, xv[k - 1], xv[k])) {
            rc = gsfw_fail(err, GSFW_ERR_CALLBACK, "pursuit: the prolong operator of level %d "
                           "failed", k);
            break;
        }
        if (k > 0) plan.start = xv[k];
        gsfw_result lres = {.x_best = xv[k]};
        if (k == fine && result) {
            lres = *result;
            lres.x_best = xv[k];
        }
        gsfw_info li;
        rc = gsfw_pursuit_level(l->obj, l->head, l->tail, &plan, &lres, &li, err);
        if (rc) break;
        if (k == fine && result) result->trace_len = lres.trace_len;
        if (level_info) level_info[k] = li;
        add_info(info, &li);
        if (k == fine) {
            info->status = li.status;
            info->iterations = li.iterations;
            info->best_iter = li.best_iter;
            info->f_best = li.f_best;
            info->f_last = li.f_last;
            info->f_polished = li.f_polished;
            info->polished_size = li.polished_size;
        } else if (li.status == GSFW_STATUS_TIME_LIMIT ||
                   li.status == GSFW_STATUS_CALLBACK_STOP) {
            rc = finish_early(levels, k, n_levels, xv, result, &li, info, err);
            break;
        }
    }
    info->gap_bound = NAN;
    info->L_source = GSFW_L_NONE;
    info->step = GSFW_STEP_AUTO;
    for (int k = 0; xv && k < n_levels; k++)
        if (!(k == fine && result && result->x_best)) free(xv[k]);
    if (xv != xs) free(xv);
    return rc;
}

gsfw_error gsfw_pursuit_solve(gsfw_objective *obj, gsfw_dmo *head, gsfw_dmo *tail,
                              const gsfw_pursuit_settings *settings, gsfw_result *result,
                              gsfw_info *info, gsfw_err *err)
{
    gsfw_level level = {obj, head, tail, NULL};
    return gsfw_multilevel_solve(&level, 1, settings, result, info, NULL, err);
}
