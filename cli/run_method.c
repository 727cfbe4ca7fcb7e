#include "run_method.h"

gsfw_error cli_run_method(const cli_run_opts *o, gsfw_objective *obj, gsfw_dmo *dmo,
                          gsfw_dmo *tail, gsfw_callback callback, void *callback_data,
                          gsfw_result *res, gsfw_info *info, gsfw_err *err)
{
    if (gsfw_method_is_baseline((gsfw_method)o->method)) {
        gsfw_baseline_settings bset;
        gsfw_baseline_settings_default(&bset);
        bset.method = (gsfw_method)o->method;
        bset.C = o->C;
        bset.L = o->L;
        bset.max_iter = o->iters;
        bset.time_limit = o->time_limit;
        bset.x_true = o->x_true;
        bset.reference_compat = o->reference_compat;
        bset.callback = callback;
        bset.callback_data = callback_data;
        return gsfw_baseline_solve(obj, dmo, tail, &bset, res, info, err);
    }
    gsfw_settings set;
    gsfw_settings_default(&set);
    set.method = (gsfw_method)o->method;
    set.option = o->option;
    set.step = (gsfw_step)o->step;
    set.C = o->C;
    set.L = o->L;
    set.L_rule = o->l_rule;
    set.delta = o->delta;
    set.max_iter = o->iters;
    set.time_limit = o->time_limit;
    set.tol = o->tol;
    set.tol_rel = o->tol_rel;
    set.x0 = o->x0;
    set.polish = o->polish;
    set.x_true = o->x_true;
    set.callback = callback;
    set.callback_data = callback_data;
    return gsfw_solve(obj, dmo, &set, res, info, err);
}
