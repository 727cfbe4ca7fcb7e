/* The head and tail oracles of the baselines (gsfw_baseline_oracles in gsfw.h): each
 * method's recipe is in its row (iht.c, cosamp.c, gen_mp.c); this is the step they
 * share, an oracle of a model at another size. */
#include "solvers/baselines/baselines.h"

#include <string.h>

gsfw_error gsfw_baseline_make(const gsfw_model_spec *base, const char *model, int tail, int s,
                              int g, gsfw_dmo **out, gsfw_err *err)
{
    gsfw_model_spec spec = *base;
    /* d <= 0 takes the graph's or the tree's node count (gsfw_model_spec) */
    const int d = spec.d > 0 ? spec.d
                  : spec.graph ? gsfw_graph_nodes(spec.graph)
                  : spec.tree ? gsfw_tree_num_nodes(spec.tree) : 0;
    if (d > 0 && s > d) s = d;
    if (s < 1) s = 1;
    if (g > s) g = s;
    if (g < 1) g = 1;
    spec.s = s;
    spec.g = g;
    if (model) { /* by name: a model the method always uses */
        spec.model = model;
        spec.def = NULL;
    }
    if (!spec.def) {
        const gsfw_entry *e = gsfw_registry_find(GSFW_KIND_MODEL, spec.model);
        if (e) spec.def = e->def;
    }
    /* the tail projection of a model whose head is another oracle (head: the PCSF tail) */
    if (tail && spec.def && spec.def->tail) spec.def = spec.def->tail;
    return gsfw_dmo_from_model(&spec, out, err);
}

gsfw_error gsfw_baseline_oracles(gsfw_method method, const gsfw_model_spec *spec,
                                 int reference_compat, gsfw_dmo **head, gsfw_dmo **tail,
                                 gsfw_err *err)
{
    if (!spec || !head || !tail)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "baseline oracles: %s is NULL",
                         !spec ? "spec" : !head ? "head" : "tail");
    *head = *tail = NULL;
    const gsfw_method_def *m = gsfw_method_of(gsfw_registry_method(method));
    if (!m || !m->baseline)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "baseline oracles: %s is not a baseline",
                         gsfw_method_name(method));
    gsfw_model_spec base = *spec;
    if (!base.model && !base.def) base.model = m->own_model ? m->own_model : "topk";
    if (base.g <= 0) base.g = 1;
    /* a model the method reads by name: the values it fixes hold for the caller's s and g
     * (the recipe then sizes its oracles, which such a model keeps at its own) */
    const gsfw_entry *named = !m->own_model && !base.def
                                  ? gsfw_registry_find(GSFW_KIND_MODEL, base.model) : NULL;
    gsfw_error rc = named ? gsfw_model_check_fixed(named, &base, err) : GSFW_OK;
    if (rc) return rc;
    rc = m->recipe(&base, reference_compat, head, tail, err);
    if (rc) {
        gsfw_dmo_free(*head);
        gsfw_dmo_free(*tail);
        *head = *tail = NULL;
    }
    return rc;
}
