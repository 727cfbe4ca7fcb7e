/* Generalized matching pursuit (Locatello et al. 2017) over the atoms
 * {+-u : supp(u) in M, ||u|| = 1}:
 *
 *     z = grad f(x),  S = DMO(z),  u = -z_S/||z_S||
 *     x <- x - (<z, u>/L) u  =  x - z_S / L            (unit atoms: L_A = L ||u||^2 = L)
 *
 * so each step is a gradient step restricted to the oracle's support. The iterate is not
 * constrained (lin(atoms) = R^d); sparsity comes only from stopping early. L from
 * settings.L or the objective's estimate.
 *
 * reference_compat = 1 reproduces the reference script (dmo-fw algo_gen_mp): atoms
 * v = -C z_S/||z_S|| of norm C with the unit-atom step <v, z>/L, i.e. x <- x - C^2 z_S/L
 * (C^2 times the MP step; with C = ||x*|| << 1 it barely moves). */
#include "solvers/baselines/baselines.h"

#include <math.h>
#include <string.h>


gsfw_error gsfw_solve_gen_mp(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head)
{
    const int d = run->d;
    double L;
    gsfw_error rc = gsfw_run_lipschitz(run, set->L, gsfw_method_name(set->method), &L);
    if (rc) return rc;
    const double step = (set->reference_compat ? set->C * set->C : 1.0) / L;

    double *x = calloc((size_t)d, sizeof(double));
    double *grad = gsfw_malloc_array((size_t)d, sizeof(double));
    int *sup = gsfw_malloc_array((size_t)head->max_support, sizeof(int));
    double *atom = gsfw_malloc_array((size_t)head->max_support, sizeof(double));
    if (!x || !grad || !sup || !atom) {
        rc = gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for a problem of dimension %d", d);
        goto done;
    }
    rc = gsfw_run_reset(run, x);
    if (rc) goto done;
    gsfw_run_start_clock(run);

    gsfw_status status = GSFW_STATUS_MAX_ITER;
    double f = 0.0;
    int t = 0;
    for (;; t++) {
        if (gsfw_run_begin_iteration(run, t, x, &f, grad, &status, &rc)) {
            if (rc) goto done;
            break;
        }
        int size = 0;
        rc = gsfw_run_oracle(run, head, grad, sup, &size);
        if (rc) goto done;
        double nrm2 = 0.0;
        for (int k = 0; k < size; k++) nrm2 += grad[sup[k]] * grad[sup[k]];
        if (gsfw_run_record(run, t, f, NAN, NAN, NAN, 0, x)) {
            status = GSFW_STATUS_CALLBACK_STOP;
            break;
        }
        if (!(nrm2 > 0)) {
            status = GSFW_STATUS_ZERO_DIRECTION;
            break;
        }
        for (int k = 0; k < size; k++) atom[k] = -step * grad[sup[k]];
        rc = gsfw_run_update(run, x, 1.0, 1.0, size, sup, atom);
        if (rc) goto done;
    }
    gsfw_run_finish(run, t, f, x, status);

done:
    free(x);
    free(grad);
    free(sup);
    free(atom);
    return rc;
}

/* one DMO over the model */
static gsfw_error gen_mp_recipe(const gsfw_model_spec *spec, int compat, gsfw_dmo **head,
                                gsfw_dmo **tail, gsfw_err *err)
{
    (void)compat;
    (void)tail;
    return gsfw_baseline_make(spec, NULL, 0, spec->s, spec->g, head, err);
}

static gsfw_error gen_mp_loop(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head,
                              gsfw_dmo *tail)
{
    (void)tail;
    return gsfw_solve_gen_mp(run, set, head);
}

static const gsfw_method_def gen_mp_def = {
    .id = GSFW_METHOD_GEN_MP, .baseline = 1, .family = GSFW_BASELINE_FAMILY,
    .typical_iters = 300, .oracles = 1, .baseline_loop = gen_mp_loop, .recipe = gen_mp_recipe};

const gsfw_entry gsfw_entry_method_gen_mp = {
    GSFW_KIND_METHOD, "gen-mp", "generalised matching pursuit over the model's DMO",
    "L reference_compat", 0, 0, &gen_mp_def, NULL};
