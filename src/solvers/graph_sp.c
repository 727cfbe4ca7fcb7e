/* graph-sp, graph subspace pursuit (gsfw/pursuit.h), as a method of the registry: the
 * one-level gsfw_pursuit_solve run through gsfw_baseline_solve, so that `gsfw solve`,
 * gsfw-mpi and Python select it by name like the other baselines. Its oracles are the
 * model's head and tail projections at the model's own s and g (the pursuit merges s new
 * coordinates, not 2s). */
#include "solvers/baselines/baselines.h"

/* The baseline callback called with the pursuit's iterates (one level: level is 0). */
typedef struct {
    gsfw_callback callback;
    void *data;
} sp_callback;

static int forward_callback(int level, const gsfw_iterate *it, const double *x, void *user)
{
    (void)level;
    const sp_callback *cb = user;
    return cb->callback(it, x, cb->data);
}

static gsfw_error graph_sp_solve(gsfw_objective *obj, gsfw_dmo *head, gsfw_dmo *tail,
                                 const gsfw_baseline_settings *set, gsfw_result *result,
                                 gsfw_info *info, gsfw_err *err)
{
    gsfw_pursuit_settings ps;
    gsfw_pursuit_settings_default(&ps);
    ps.max_iter = set->max_iter;
    ps.time_limit = set->time_limit;
    ps.inner_iters = set->inner_iters;
    ps.x_true = set->x_true;
    /* both unset: the pursuit's own stop, an exact fit; anything else (a NaN or a
       negative value too) goes to the pursuit, whose checks name it */
    if (set->tol != 0.0 || set->tol_rel != 0.0) {
        ps.tol = set->tol;
        ps.tol_rel = set->tol_rel;
    }
    sp_callback cb = {set->callback, set->callback_data};
    if (set->callback) {
        ps.callback = forward_callback;
        ps.callback_data = &cb;
    }
    return gsfw_pursuit_solve(obj, head, tail, &ps, result, info, err);
}

static gsfw_error graph_sp_recipe(const gsfw_model_spec *spec, int compat, gsfw_dmo **head,
                                  gsfw_dmo **tail, gsfw_err *err)
{
    (void)compat;
    gsfw_error rc = gsfw_baseline_make(spec, NULL, 0, spec->s, spec->g, head, err);
    return rc ? rc : gsfw_baseline_make(spec, NULL, 1, spec->s, spec->g, tail, err);
}

static const gsfw_method_def graph_sp_def = {
    .id = GSFW_METHOD_GRAPH_SP, .baseline = 1, .family = GSFW_BASELINE_FAMILY,
    .typical_iters = 50, .oracles = 2, .refits = 1, .own_solve = graph_sp_solve,
    .recipe = graph_sp_recipe};

const gsfw_entry gsfw_entry_method_graph_sp = {
    GSFW_KIND_METHOD, "graph-sp",
    "graph subspace pursuit: identify with the head projection, refit, tail projection, "
    "refit; stops when f stalls",
    "inner_iters tol tol_rel", 0, 0, &graph_sp_def, NULL};
