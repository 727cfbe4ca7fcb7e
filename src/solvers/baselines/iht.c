/* Iterative hard thresholding and its graph-structured version.
 *
 * IHT (Blumensath & Davies 2009):
 *     x <- P( x - mu grad f(x) )
 *   P = the tail projection (the head oracle when none was given; for the exact
 *   top-s oracle this is the hard-thresholding operator H_s).
 * Graph-IHT / AM-IHT (Hegde, Indyk & Schmidt 2016, approximate-model IHT):
 *     H = HEAD(grad f(x))                (the head oracle)
 *     b = x - mu grad_H f(x)             (gradient restricted to H)
 *     x <- b restricted to TAIL(b)       (the tail projection)
 *
 * Step mu = 1/L with L from settings.L or the objective's estimate (||A||_2^2 by power
 * iteration for least squares). B&D's analysis takes mu = 1 for ||A||_2 < 1, which is
 * mu = 1/L after rescaling A; AM-IHT's mu = 1 assumes a RIP-normalised A and diverges on
 * Gaussian designs with ||A||_2^2 >> 1 (set L = 1 to get it). x_0 = 0. Each iterate's
 * change is sparse (old support union new support), so the residual cache is updated in
 * O(n nnz) and an iteration costs one A^T r product plus the projections. */
#include "solvers/baselines/baselines.h"

#include <math.h>
#include <string.h>


gsfw_error gsfw_solve_iht(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head,
                          gsfw_dmo *tail)
{
    const int d = run->d;
    const int graph = set->method == GSFW_METHOD_GRAPH_IHT;
    double L;
    gsfw_error rc = gsfw_run_lipschitz(run, set->L, gsfw_method_name(set->method), &L);
    if (rc) return rc;
    const double mu = 1.0 / L;

    double *x = calloc((size_t)d, sizeof(double));
    double *xnew = calloc((size_t)d, sizeof(double));
    double *grad = gsfw_malloc_array((size_t)d, sizeof(double));
    double *b = gsfw_malloc_array((size_t)d, sizeof(double));
    double *val = gsfw_malloc_array((size_t)d, sizeof(double));
    int *idx = gsfw_malloc_array((size_t)d, sizeof(int));
    int *hsup = gsfw_malloc_array((size_t)head->max_support, sizeof(int));
    int *tsup = gsfw_malloc_array((size_t)tail->max_support, sizeof(int));
    if (!x || !xnew || !grad || !b || !val || !idx || !hsup || !tsup) {
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
        if (gsfw_run_record(run, t, f, NAN, NAN, NAN, 0, x)) {
            status = GSFW_STATUS_CALLBACK_STOP;
            break;
        }
        memcpy(b, x, (size_t)d * sizeof(double));
        double moved = 0.0;
        if (graph) {
            int hs = 0;
            rc = gsfw_run_oracle(run, head, grad, hsup, &hs);
            if (rc) goto done;
            for (int k = 0; k < hs; k++) {
                int i = hsup[k];
                moved += grad[i] * grad[i];
                b[i] -= mu * grad[i];
            }
        } else {
            for (int i = 0; i < d; i++) {
                moved += grad[i] * grad[i];
                b[i] -= mu * grad[i];
            }
        }
        if (!(moved > 0)) {
            status = GSFW_STATUS_ZERO_DIRECTION;
            break;
        }
        int ts = 0;
        rc = gsfw_run_oracle(run, tail, b, tsup, &ts);
        if (rc) goto done;
        memset(xnew, 0, (size_t)d * sizeof(double));
        for (int k = 0; k < ts; k++) xnew[tsup[k]] = b[tsup[k]];
        rc = gsfw_run_move(run, x, xnew, idx, val);
        if (rc) goto done;
    }
    gsfw_run_finish(run, t, f, x, status);

done:
    free(x);
    free(xnew);
    free(grad);
    free(b);
    free(val);
    free(idx);
    free(hsup);
    free(tsup);
    return rc;
}

/* IHT: the tail is top-s (no head); Graph-IHT: head on the gradient over M(G, 2s, 2g)
 * (AM-IHT's M + M_T; the reference scripts use a window of d/2 nodes in g pieces), tail
 * over M(G, s, g). */
static gsfw_error iht_recipe(const gsfw_model_spec *spec, int compat, gsfw_dmo **head,
                             gsfw_dmo **tail, gsfw_err *err)
{
    (void)compat;
    (void)tail;
    return gsfw_baseline_make(spec, "topk", 0, spec->s, 1, head, err);
}

static gsfw_error graph_iht_recipe(const gsfw_model_spec *spec, int compat, gsfw_dmo **head,
                                   gsfw_dmo **tail, gsfw_err *err)
{
    const int s = spec->s, g = spec->g;
    gsfw_error rc = compat ? gsfw_baseline_make(spec, NULL, 0, spec->d / 2, g, head, err)
                           : gsfw_baseline_make(spec, NULL, 0, 2 * s, 2 * g, head, err);
    return rc ? rc : gsfw_baseline_make(spec, NULL, 1, s, g, tail, err);
}

static const gsfw_method_def iht_def = {
    .id = GSFW_METHOD_IHT, .baseline = 1, .family = GSFW_BASELINE_FAMILY, .typical_iters = 300,
    .own_model = "topk", .oracles = 1, .baseline_loop = gsfw_solve_iht, .recipe = iht_recipe};
static const gsfw_method_def graph_iht_def = {
    .id = GSFW_METHOD_GRAPH_IHT, .baseline = 1, .family = GSFW_BASELINE_FAMILY,
    .typical_iters = 300, .oracles = 2, .baseline_loop = gsfw_solve_iht,
    .recipe = graph_iht_recipe};

const gsfw_entry gsfw_entry_method_iht = {
    GSFW_KIND_METHOD, "iht", "iterative hard thresholding (top-s, whatever the model)", "L", 0,
    0, &iht_def, NULL};
const gsfw_entry gsfw_entry_method_graph_iht = {
    GSFW_KIND_METHOD, "graph-iht",
    "graph IHT (AM-IHT): head on the gradient, tail projection of the step",
    "L reference_compat", 0, 0, &graph_iht_def, NULL};
