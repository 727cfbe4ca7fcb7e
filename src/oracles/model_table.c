/* Oracles by model name: the model parameters as registry rows, and gsfw_dmo_from_model,
 * which builds the oracle of a model row (each row is in its oracle's file). */
#include "oracles/dmo_internal.h"
#include "core/registry.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#define MODEL(field) .target = GSFW_TARGET_MODEL, .offset = offsetof(gsfw_model_spec, field)

const gsfw_param gsfw_params_model[] = {
    {.name = "model", .type = GSFW_PARAM_ENTRY, .kind = GSFW_KIND_MODEL,
     .flags = GSFW_PARAM_GENERAL, MODEL(model), .help = "the support model (gsfw help models)"},
    {.name = "s", .type = GSFW_PARAM_INT, .lo = 1, .hi = 2147483647, .def = 1,
     .flags = GSFW_PARAM_GENERAL, MODEL(s), .help = "sparsity: nodes in a support"},
    {.name = "g", .type = GSFW_PARAM_INT, .lo = 1, .hi = 2147483647, .def = 1, MODEL(g),
     .unused = "it has no graph", .help = "connected components (default 1)"},
    {.name = "delta", .type = GSFW_PARAM_DOUBLE, .lo = 0, .hi = 1,
     .flags = GSFW_PARAM_LO_OPEN | GSFW_PARAM_ZERO_UNSET, MODEL(delta),
     .target2 = GSFW_TARGET_SETTINGS, .offset2 = offsetof(gsfw_settings, delta),
     .help = "target of the approximate oracles; Option II's scale (default: the oracle's)"},
    {.name = "near_miss", .type = GSFW_PARAM_DOUBLE, .lo = -1, .hi = 1,
     .flags = GSFW_PARAM_ZERO_UNSET | GSFW_PARAM_HI_OPEN, MODEL(near_miss),
     .unused = "only the head model reads it",
     .help = "head: end a warm search at a size within this fraction of the window and "
             "repair it to s nodes (default automatic: 0.2; < 0: off)"},
    {.name = "seed", .type = GSFW_PARAM_UINT64, .lo = 0, .hi = 2147483647, MODEL(seed),
     .target2 = GSFW_TARGET_SENSING, .offset2 = offsetof(gsfw_sensing_spec, seed),
     .unused = "it is deterministic", .help = "seed of randomised oracles and operators"},
    GSFW_PARAM_END,
};

gsfw_error gsfw_params_model_check(const gsfw_spec *spec, gsfw_err *err)
{
    const double s = gsfw_spec_number(spec, "s"), g = gsfw_spec_number(spec, "g");
    if (gsfw_spec_given(spec, "s") && g > s) /* s may come later (gsfw recover) */
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s %.0f exceeds %s %.0f (at most s nodes "
                         "in at most g components needs g <= s)", gsfw_spec_spell(spec, "g"),
                         g, gsfw_spec_spell(spec, "s"), s);
    return GSFW_OK;
}

int gsfw_model_needs_graph(const char *model)
{
    const gsfw_entry *e = gsfw_registry_find(GSFW_KIND_MODEL, model);
    if (!e) return -1;
    return e->needs & GSFW_NEEDS_GRAPH ? 1 : e->needs & GSFW_NEEDS_TREE ? 2 : 0;
}

/* the list, written once (the rows are constant, so it never changes) */
static char model_names[512];
static pthread_once_t model_names_once = PTHREAD_ONCE_INIT;

static void write_model_names(void)
{
    gsfw_registry_names(GSFW_KIND_MODEL, ", ", model_names, sizeof model_names);
}

const char *gsfw_model_names(void)
{
    pthread_once(&model_names_once, write_model_names);
    return model_names;
}

gsfw_error gsfw_model_check_fixed(const gsfw_entry *e, const gsfw_model_spec *spec,
                                  gsfw_err *err)
{
    /* the values the model fixes ("s=1" in its uses), refused as the spec check does
     * (spec_check.c) rather than replaced by the builder's own; s or g <= 0 (left unset)
     * takes the fixed value */
    static const char *const names[] = {"s", "g"};
    for (int k = 0; k < 2; k++) {
        double want;
        if (!gsfw_entry_fixed(e, names[k], &want)) continue;
        int got = k == 0 ? spec->s : spec->g;
        if (got > 0 && got != want)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model %s needs %s %g, got %d",
                             e->name, names[k], want, got);
    }
    return GSFW_OK;
}

gsfw_error gsfw_dmo_from_model(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    if (!out || !spec)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model: %s is NULL",
                         !out ? "the output pointer" : "spec");
    *out = NULL;
    gsfw_model_spec m = *spec;
    if (!m.def) {
        const gsfw_entry *e = gsfw_registry_find(GSFW_KIND_MODEL, m.model);
        if (!e && !m.model)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model: neither a name nor a "
                             "definition is given (known: %s)", gsfw_model_names());
        if (!e)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "unknown model '%s' (known: %s)",
                             m.model, gsfw_model_names());
        if ((e->needs & GSFW_NEEDS_GRAPH) && !m.graph)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model '%s' needs a graph", m.model);
        if ((e->needs & GSFW_NEEDS_TREE) && !m.tree)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model '%s' needs a tree", m.model);
        const int nodes = (e->needs & GSFW_NEEDS_GRAPH) ? gsfw_graph_nodes(m.graph)
                          : (e->needs & GSFW_NEEDS_TREE) ? gsfw_tree_num_nodes(m.tree) : m.d;
        if (m.d > 0 && m.d != nodes)
            return gsfw_fail(err, GSFW_ERR_DIMENSION, "model '%s': the %s has %d nodes but d "
                             "= %d", m.model, (e->needs & GSFW_NEEDS_GRAPH) ? "graph" : "tree",
                             nodes, m.d);
        gsfw_error rc = gsfw_model_check_fixed(e, &m, err);
        if (rc) return rc;
        m.def = e->def;
    }
    if (!m.def->build)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model: the definition has no build "
                         "function");
    if (m.g <= 0) m.g = 1;
    if (isnan(m.delta))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "model: delta is nan (in (0, 1], or <= 0 "
                         "for 1)");
    if (!(m.delta > 0)) m.delta = 1.0;
    return m.def->build(&m, out, err);
}
