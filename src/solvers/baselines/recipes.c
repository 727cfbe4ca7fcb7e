/* The head and tail oracles of each baseline (see gsfw_baseline_oracles in gsfw.h). */
#include "core/internal.h"

#include <string.h>

/* The model's oracle for (s, g), clamped to 1 <= s <= d, 1 <= g <= s; `tail` picks the
 * tail projection of the PCSF head model. */
static gsfw_error make(const gsfw_model_spec *base, const char *model, int tail, int s, int g,
                       gsfw_dmo **out, gsfw_err *err)
{
    gsfw_model_spec spec = *base;
    if (s > spec.d) s = spec.d;
    if (s < 1) s = 1;
    if (g > s) g = s;
    if (g < 1) g = 1;
    spec.model = !strcmp(model, "head") && tail ? "tail" : model;
    spec.s = s;
    spec.g = g;
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
    if (!gsfw_method_is_baseline(method))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "baseline oracles: %s is not a baseline",
                         gsfw_method_name(method));
    const char *model = spec->model ? spec->model : "topk";
    const int s = spec->s, g = spec->g > 0 ? spec->g : 1, d = spec->d;
    gsfw_error rc;
    switch (method) {
    case GSFW_METHOD_IHT:
        rc = make(spec, "topk", 0, s, 1, head, err);
        break;
    case GSFW_METHOD_COSAMP:
        rc = make(spec, "topk", 0, 2 * s, 1, head, err);
        if (!rc) rc = make(spec, "topk", 1, s, 1, tail, err);
        break;
    case GSFW_METHOD_GRAPH_IHT:
        /* head on the gradient: M(G, 2s, 2g) (AM-IHT's M + M_T); the reference scripts use
         * a window of d/2 nodes with g components */
        rc = reference_compat ? make(spec, model, 0, d / 2, g, head, err)
                              : make(spec, model, 0, 2 * s, 2 * g, head, err);
        if (!rc) rc = make(spec, model, 1, s, g, tail, err);
        break;
    case GSFW_METHOD_GRAPH_COSAMP:
        /* identify in M(G, 2s, 2g) (the Minkowski sum of the model with itself); the
         * reference scripts keep g components */
        rc = make(spec, model, 0, 2 * s, reference_compat ? g : 2 * g, head, err);
        if (!rc) rc = make(spec, model, 1, s, g, tail, err);
        break;
    default: /* gen-mp: one DMO over the model */
        rc = make(spec, model, 0, s, g, head, err);
        break;
    }
    if (rc) {
        gsfw_dmo_free(*head);
        gsfw_dmo_free(*tail);
        *head = *tail = NULL;
    }
    return rc;
}
