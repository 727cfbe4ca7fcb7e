/* What a checked spec builds: the model's oracles, the loss options and objective, the
 * settings of the method and the solve, the sensing operator, and the memory estimate,
 * all through the entries' definitions. */
#include "core/spec.h"
#include "objectives/linear.h"
#include "operators/op_internal.h"

#include <math.h>
#include <string.h>

void gsfw_spec_fill(const gsfw_spec *spec, gsfw_param_target target, void *base,
                    int with_defaults)
{
    for (int i = 0; i < spec->nv; i++) {
        const gsfw_spec_value *v = &spec->v[i];
        if (v->p->target != target && v->p->target2 != target) continue;
        if (v->p->type == GSFW_PARAM_ENTRY) {
            const gsfw_entry *e = gsfw_spec_entry(spec, v->p->kind);
            gsfw_param_store(v->p, target, base, 0.0, e ? e->name : NULL);
        } else if (v->given || with_defaults) {
            gsfw_param_store(v->p, target, base, v->num, NULL);
        }
    }
}

/* ------------------------------------------------------------- the model */

void gsfw_spec_model(const gsfw_spec *spec, gsfw_model_spec *out)
{
    memset(out, 0, sizeof *out);
    if (!spec) return;
    gsfw_spec_fill(spec, GSFW_TARGET_MODEL, out, 1);
    const gsfw_entry *model = gsfw_spec_entry(spec, GSFW_KIND_MODEL);
    out->model = model ? model->name : NULL;
    out->def = model ? model->def : NULL;
    out->d = spec->d;
    out->graph = spec->graph;
    out->tree = spec->tree;
}

const char *gsfw_spec_model_used(const gsfw_spec *spec)
{
    const gsfw_entry *e = spec ? gsfw_spec_model_entry(spec) : NULL;
    return e ? e->name : NULL;
}

int gsfw_spec_is_baseline(const gsfw_spec *spec)
{
    const gsfw_method_def *m = gsfw_method_of(gsfw_spec_entry(spec, GSFW_KIND_METHOD));
    return m && m->baseline;
}

gsfw_error gsfw_spec_oracles(const gsfw_spec *spec, gsfw_dmo **dmo, gsfw_dmo **tail,
                             gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!spec || !dmo)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec oracles: %s is NULL",
                         !spec ? "the spec" : "the output pointer");
    *dmo = NULL;
    if (tail) *tail = NULL;
    if (spec->d < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec oracles: bind the spec to the "
                         "problem first (gsfw_spec_bind)");
    gsfw_model_spec ms;
    gsfw_spec_model(spec, &ms);
    const gsfw_method_def *m = gsfw_method_of(gsfw_spec_entry(spec, GSFW_KIND_METHOD));
    if (!(spec->uses & GSFW_USES_METHOD) || !m || !m->baseline)
        return gsfw_dmo_from_model(&ms, dmo, err);
    gsfw_dmo *unused = NULL;
    gsfw_error e = m->recipe(&ms, (int)gsfw_spec_number(spec, "reference_compat"), dmo,
                             tail ? tail : &unused, err);
    gsfw_dmo_free(unused);
    return e;
}

/* ------------------------------------------------------------- the loss */

void gsfw_spec_loss(const gsfw_spec *spec, const gsfw_reducer *reducer, gsfw_loss_options *out)
{
    gsfw_loss_options_default(out);
    if (!spec) return;
    const gsfw_entry *loss = gsfw_spec_entry(spec, GSFW_KIND_LOSS);
    if (loss) {
        int builtin = gsfw_loss_parse(loss->name);
        out->def = loss->def;
        if (builtin >= 0) out->loss = (gsfw_loss)builtin;
    }
    gsfw_spec_fill(spec, GSFW_TARGET_LOSS, out, 1);
    if (reducer) out->reducer = *reducer;
}

gsfw_error gsfw_spec_objective(const gsfw_spec *spec, const gsfw_operator *A, int n,
                               const double *y, const gsfw_reducer *reducer,
                               gsfw_objective **out, gsfw_err *err)
{
    gsfw_loss_options opt;
    gsfw_spec_loss(spec, reducer, &opt);
    return gsfw_objective_linear(A, n, y, &opt, out, err);
}

gsfw_error gsfw_spec_objective_dense(const gsfw_spec *spec, int n, int d, const double *A,
                                     gsfw_layout layout, int flags, const double *y,
                                     gsfw_objective **out, gsfw_err *err)
{
    gsfw_loss_options opt;
    gsfw_spec_loss(spec, NULL, &opt);
    const gsfw_loss_def *def = opt.def ? opt.def : gsfw_loss_builtin(opt.loss);
    if (def && def->quadratic && !opt.intercept)
        return gsfw_objective_least_squares(n, d, A, layout, y, out, err);
    gsfw_operator *op = NULL;
    gsfw_error e = gsfw_operator_dense(n, d, A, layout, flags, &op, err);
    if (e) {
        if (out) *out = NULL;
        return e;
    }
    return gsfw_objective_linear_owning(op, n, y, &opt, out, err);
}

/* ------------------------------------------------------------- the settings */

void gsfw_spec_settings(const gsfw_spec *spec, gsfw_settings *out)
{
    gsfw_settings_default(out);
    if (!spec) return;
    gsfw_spec_fill(spec, GSFW_TARGET_SETTINGS, out, 0);
    const gsfw_entry *method = gsfw_spec_entry(spec, GSFW_KIND_METHOD);
    if (method) out->method = gsfw_method_of(method)->id;
    const gsfw_entry *step = gsfw_spec_entry(spec, GSFW_KIND_STEP);
    if (step && step->def) {
        int builtin = gsfw_step_parse(step->name);
        if (builtin > 0 && gsfw_step_rule_builtin((gsfw_step)builtin) == step->def)
            out->step = (gsfw_step)builtin;
        else
            out->step_rule = step->def;
    }
}

void gsfw_spec_baseline_settings(const gsfw_spec *spec, const gsfw_settings *set,
                                 gsfw_baseline_settings *out)
{
    gsfw_baseline_settings_default(out);
    if (!spec) return;
    const gsfw_entry *method = gsfw_spec_entry(spec, GSFW_KIND_METHOD);
    if (method) out->method = gsfw_method_of(method)->id;
    if (set) {
        out->C = set->C;
        out->L = set->L;
        out->max_iter = set->max_iter;
        out->time_limit = set->time_limit;
        out->x_true = set->x_true;
        out->callback = set->callback;
        out->callback_data = set->callback_data;
    }
    gsfw_spec_fill(spec, GSFW_TARGET_BASELINE, out, 0);
}

gsfw_error gsfw_spec_solve(const gsfw_spec *spec, gsfw_objective *obj, gsfw_dmo *dmo,
                           gsfw_dmo *tail, const gsfw_settings *settings, gsfw_result *result,
                           gsfw_info *info, gsfw_err *err)
{
    if (!spec || !settings)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec solve: %s is NULL",
                         !spec ? "the spec" : "settings");
    if (!gsfw_spec_is_baseline(spec)) return gsfw_solve(obj, dmo, settings, result, info, err);
    gsfw_baseline_settings bset;
    gsfw_spec_baseline_settings(spec, settings, &bset);
    return gsfw_baseline_solve(obj, dmo, tail, &bset, result, info, err);
}

/* ------------------------------------------------------------- sensing */

static gsfw_error sensing_spec(const gsfw_spec *spec, const gsfw_sensing_spec *sizes,
                               const gsfw_entry **entry, gsfw_sensing_spec *out, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!spec || !sizes)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "sensing: %s is NULL",
                         !spec ? "the spec" : "sizes");
    const gsfw_entry *e = gsfw_spec_entry(spec, GSFW_KIND_SENSING);
    if (!e || !e->def) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "sensing: no kind chosen");
    *entry = e;
    *out = *sizes;
    gsfw_spec_fill(spec, GSFW_TARGET_SENSING, out, 0);
    return gsfw_sensing_check(e, out, err);
}

gsfw_error gsfw_spec_sensing(const gsfw_spec *spec, const gsfw_sensing_spec *sizes,
                             gsfw_operator **out, gsfw_err *err)
{
    const gsfw_entry *e = NULL;
    gsfw_sensing_spec ss;
    gsfw_error rc = sensing_spec(spec, sizes, &e, &ss, err);
    return rc ? rc : ((const gsfw_sensing_def *)e->def)->build(&ss, out, err);
}

gsfw_error gsfw_spec_measure(const gsfw_spec *spec, const gsfw_sensing_spec *sizes,
                             const double *x, double sigma, double *y, double *noise_sq,
                             gsfw_operator **out, gsfw_err *err)
{
    const gsfw_entry *e = NULL;
    gsfw_sensing_spec ss;
    gsfw_error rc = sensing_spec(spec, sizes, &e, &ss, err);
    return rc ? rc : gsfw_sensing_measure_entry(e, &ss, x, sigma, y, noise_sq, out, err);
}

/* ------------------------------------------------------------- memory */

double gsfw_spec_memory(const gsfw_spec *spec, const gsfw_sizes *sz)
{
    if (!spec || !sz) return NAN;
    double total = 0.0;
    const gsfw_method_def *m = (spec->uses & GSFW_USES_METHOD)
                                   ? gsfw_method_of(gsfw_spec_entry(spec, GSFW_KIND_METHOD))
                                   : NULL;
    const gsfw_entry *model = gsfw_spec_model_entry(spec);
    if ((spec->uses & GSFW_USES_MODEL) && model && model->def) {
        const gsfw_model_def *def = model->def;
        gsfw_model_spec ms;
        gsfw_spec_model(spec, &ms);
        if (def->memory) total += (m ? m->oracles : 1) * def->memory(&ms, sz);
    }
    if (spec->uses & GSFW_USES_LOSS) total += gsfw_objective_linear_memory(sz->n, sz->d);
    if (spec->uses & GSFW_USES_SENSING) {
        const gsfw_entry *e = gsfw_spec_entry(spec, GSFW_KIND_SENSING);
        const gsfw_sensing_def *def = e ? e->def : NULL;
        gsfw_sensing_spec ss = {.n = (int)fmin(sz->n, 2147483647.0), .height = 1,
                                .width = (int)fmin(sz->d, 2147483647.0)};
        gsfw_spec_fill(spec, GSFW_TARGET_SENSING, &ss, 0);
        if (def && def->memory) total += def->memory(&ss);
    }
    if (m) total += (sz->iters > 0 ? (sz->iters + 1.0) * sizeof(gsfw_iterate) : 0.0) +
                    16.0 * sz->d * sizeof(double);
    return total;
}
