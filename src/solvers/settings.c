/* The settings of the solvers as registry rows: one row per value a caller may set by
 * name (gsfw_spec_set), with its range, default and the field it fills. The defaults of
 * gsfw_settings and gsfw_baseline_settings come from these rows. A new setting is a
 * field of gsfw_settings (or gsfw_baseline_settings) and one row here; the command line
 * and Python then take it by name (docs/extending.md). */
#include "core/registry.h"

#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#define SET(field) .target = GSFW_TARGET_SETTINGS, .offset = offsetof(gsfw_settings, field)
#define BASE(field) .target2 = GSFW_TARGET_BASELINE, .offset2 = offsetof(gsfw_baseline_settings, field)
#define BASE_ONLY(field) .target = GSFW_TARGET_BASELINE, .offset = offsetof(gsfw_baseline_settings, field)

const gsfw_param gsfw_params_method[] = {
    {.name = "method", .type = GSFW_PARAM_ENTRY, .kind = GSFW_KIND_METHOD,
     .flags = GSFW_PARAM_GENERAL, .help = "the solver (gsfw help methods)"},
    {.name = "step", .type = GSFW_PARAM_ENTRY, .kind = GSFW_KIND_STEP,
     .flags = GSFW_PARAM_STRICT, .help = "the step rule (gsfw help steps)"},
    {.name = "option", .type = GSFW_PARAM_CHOICE, .choices = "I:1 II:2 1:1 2:2", .def = 1,
     .flags = GSFW_PARAM_STRICT, SET(option),
     .help = "I: atoms of norm C (iterates in D); II: atoms scaled by 1/delta"},
    {.name = "C", .type = GSFW_PARAM_DOUBLE, .lo = 0, .hi = INFINITY, .def = 1,
     .flags = GSFW_PARAM_LO_OPEN | GSFW_PARAM_GENERAL, SET(C), BASE(C),
     .help = "radius of the feasible set D(C, M)"},
    {.name = "L", .type = GSFW_PARAM_DOUBLE, .lo = 0, .hi = INFINITY,
     .flags = GSFW_PARAM_LO_OPEN | GSFW_PARAM_ZERO_UNSET, SET(L), BASE(L),
     .unused = "it takes no 1/L steps",
     .help = "smoothness constant (default: estimated by L_rule)"},
    {.name = "L_rule", .type = GSFW_PARAM_CHOICE, .choices = "spectral:0 atom:1",
     .def = GSFW_L_ATOM, SET(L_rule), .unused = "it takes no 1/L steps",
     .help = "how L is estimated: atom (curvature along the first atom) or spectral "
             "(||A||_2^2; the baselines' only rule)"},
    {.name = "max_iter", .type = GSFW_PARAM_INT, .lo = 0, .hi = 100000000, .def = 100,
     .flags = GSFW_PARAM_GENERAL, SET(max_iter), BASE(max_iter),
     .help = "iterations T: iterates x_0..x_T are produced"},
    {.name = "time_limit", .type = GSFW_PARAM_DOUBLE, .lo = 0, .hi = INFINITY,
     .flags = GSFW_PARAM_LO_OPEN | GSFW_PARAM_GENERAL | GSFW_PARAM_ZERO_UNSET, SET(time_limit),
     BASE(time_limit), .help = "stop after this many seconds"},
    {.name = "tol", .type = GSFW_PARAM_DOUBLE, .lo = 0, .hi = INFINITY,
     .flags = GSFW_PARAM_LO_OPEN | GSFW_PARAM_STRICT | GSFW_PARAM_ZERO_UNSET, SET(tol),
     BASE(tol),
     .help = "stop when the certified bound on f(x_t) - f* falls below it (graph-sp: when "
             "f(x_t) does)"},
    {.name = "tol_rel", .type = GSFW_PARAM_DOUBLE, .lo = 0, .hi = 1,
     .flags = GSFW_PARAM_LO_OPEN | GSFW_PARAM_HI_OPEN | GSFW_PARAM_STRICT |
              GSFW_PARAM_ZERO_UNSET,
     SET(tol_rel), BASE(tol_rel),
     .help = "... or below this fraction of the bound at x_0 (graph-sp: of f(0))"},
    {.name = "x0", .type = GSFW_PARAM_VECTOR, .flags = GSFW_PARAM_STRICT,
     .help = "starting point (d entries): ||x0|| <= C, support in the model"},
    {.name = "polish", .type = GSFW_PARAM_BOOL, .flags = GSFW_PARAM_STRICT, SET(polish),
     .help = "end by projecting onto the model and refitting on that support"},
    {.name = "polish_iters", .type = GSFW_PARAM_INT, .lo = 0, .hi = 100000000, .def = 200,
     .flags = GSFW_PARAM_STRICT, SET(polish_iters),
     .help = "inner iterations of the polish's refit"},
    {.name = "restarts", .type = GSFW_PARAM_INT, .lo = 0, .hi = 1000,
     .flags = GSFW_PARAM_STRICT, SET(restarts),
     .help = "with polish: warm restarts from the polished point (AccFW rounds with line "
             "search, the best polished point kept; 0: none)"},
    {.name = "restart_iters", .type = GSFW_PARAM_INT, .lo = 1, .hi = 100000000, .def = 20,
     .flags = GSFW_PARAM_STRICT, SET(restart_iters),
     .help = "iterations of each restart round"},
    {.name = "max_active", .type = GSFW_PARAM_INT, .lo = 2, .hi = 100000000, .def = 500,
     .flags = GSFW_PARAM_STRICT, SET(max_active),
     .help = "capacity of the active set (then the smallest weight is merged)"},
    {.name = "lazy", .type = GSFW_PARAM_BOOL, .flags = GSFW_PARAM_STRICT, SET(lazy),
     .help = "call the oracle only when local steps stop paying"},
    {.name = "inner_iters", .type = GSFW_PARAM_INT, .lo = 1, .hi = 100000000, .def = 10,
     BASE_ONLY(inner_iters), .help = "iterations of each restricted least-squares solve"},
    {.name = "reference_compat", .type = GSFW_PARAM_BOOL, BASE_ONLY(reference_compat),
     .help = "the reference scripts' baseline settings"},
    {.name = "x_true", .type = GSFW_PARAM_VECTOR, .flags = GSFW_PARAM_GENERAL,
     .help = "ground truth (d entries): est_err = ||x_t - x_true||"},
    GSFW_PARAM_END,
};

/* the default method, from its row */
static gsfw_method default_method(int baseline)
{
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_METHOD, i)); i++) {
        const gsfw_method_def *m = gsfw_method_of(e);
        if (m->baseline == baseline && (baseline || (e->flags & GSFW_ENTRY_DEFAULT)))
            return m->id;
    }
    return GSFW_METHOD_ACCFW;
}

void gsfw_settings_default(gsfw_settings *s)
{
    if (!s) return; /* nothing to fill: a no-op rather than a crash */
    memset(s, 0, sizeof *s);
    gsfw_params_defaults(GSFW_TARGET_SETTINGS, s);
    s->method = default_method(0);
    s->step = GSFW_STEP_AUTO;
}

void gsfw_baseline_settings_default(gsfw_baseline_settings *s)
{
    if (!s) return;
    memset(s, 0, sizeof *s);
    gsfw_params_defaults(GSFW_TARGET_BASELINE, s);
    s->method = default_method(1);
}

gsfw_error gsfw_params_method_check(const gsfw_spec *spec, gsfw_err *err)
{
    const gsfw_entry *method = gsfw_spec_entry(spec, GSFW_KIND_METHOD);
    if (gsfw_method_of(method)->baseline && gsfw_spec_given(spec, "L_rule") &&
        gsfw_spec_number(spec, "L_rule") == GSFW_L_ATOM)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s atom is a rule of the Frank-Wolfe "
                         "family; %s takes a number or 'spectral'",
                         gsfw_spec_spell(spec, "L_rule"), method->name);
    if (!gsfw_method_of(method)->baseline && gsfw_spec_number(spec, "restarts") > 0 &&
        !gsfw_spec_number(spec, "polish"))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s needs %s on: the restarts start from "
                         "the polished point", gsfw_spec_spell(spec, "restarts"),
                         gsfw_spec_spell(spec, "polish"));
    return GSFW_OK;
}

/* ------------------------------------------------------------- method names */

int gsfw_method_parse(const char *name)
{
    const gsfw_entry *e = gsfw_registry_find(GSFW_KIND_METHOD, name);
    return e ? (int)gsfw_method_of(e)->id : -1;
}

const char *gsfw_method_name(gsfw_method method)
{
    const gsfw_entry *e = gsfw_registry_method(method);
    return e ? e->name : "unknown";
}

int gsfw_method_is_baseline(gsfw_method method)
{
    const gsfw_entry *e = gsfw_registry_method(method);
    return e ? gsfw_method_of(e)->baseline : 0;
}

void gsfw_method_family_names(int baseline, char *buf, size_t cap)
{
    const gsfw_entry *e;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_METHOD, i)) && used < cap; i++)
        if (gsfw_method_of(e)->baseline == baseline)
            used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", e->name);
}
