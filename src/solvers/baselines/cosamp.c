/* CoSaMP (Needell & Tropp 2009) and Graph-CoSaMP (Hegde, Indyk & Schmidt 2015).
 *
 *     p  = A^T (y - A x)  = -grad f(x)          proxy
 *     O  = HEAD(p)                              identify (the head oracle;
 *                                               top-2s for CoSaMP, a 2s graph head for
 *                                               Graph-CoSaMP)
 *     T  = O u supp(x)                          merge
 *     b_T = argmin_w ||A_T w - y||, b = 0 off T   estimate (minimum norm if |T| > n)
 *     x <- b restricted to TAIL(b)              prune (settings.tail, else the head oracle)
 *
 * The two methods are the same loop; they differ in the projections the caller passes.
 * The estimate is the objective's minimize_on on the columns T, warm-started from x: for
 * least squares an exact rank-revealing QR while T has few rows or columns (the operator
 * forms the columns), else CGLS / Craig's method, inner_iters iterations, which the outer
 * iterations keep refining (docs/baselines.md). A pseudo-inverse of A is never formed.
 * x_0 = 0, no early stopping (fixed iteration count). */
#include "solvers/baselines/baselines.h"

#include <math.h>
#include <string.h>


gsfw_error gsfw_solve_cosamp(gsfw_run *run, const gsfw_baseline_settings *set, gsfw_dmo *head,
                             gsfw_dmo *tail)
{
    const int d = run->d;
    gsfw_error rc = GSFW_OK;
    long cap_l = (long)head->max_support + tail->max_support;
    int cap = cap_l > d ? d : (int)cap_l;

    rc = gsfw_run_reserve(run, cap);
    if (rc) return rc;
    double *x = calloc((size_t)d, sizeof(double));
    double *xnew = calloc((size_t)d, sizeof(double));
    double *b = calloc((size_t)d, sizeof(double));
    double *grad = gsfw_malloc_array((size_t)d, sizeof(double));
    double *val = gsfw_malloc_array((size_t)d, sizeof(double));
    int *idx = gsfw_malloc_array((size_t)d, sizeof(int));
    unsigned char *inT = calloc((size_t)d, 1);
    int *T = gsfw_malloc_array((size_t)cap, sizeof(int));
    double *w = gsfw_malloc_array((size_t)cap, sizeof(double));
    int *hsup = gsfw_malloc_array((size_t)head->max_support, sizeof(int));
    int *xsup = gsfw_malloc_array((size_t)tail->max_support, sizeof(int));
    if (!x || !xnew || !b || !grad || !val || !idx || !inT || !T || !w || !hsup
        || !xsup) {
        rc = gsfw_fail(run->err, GSFW_ERR_NOMEM, "out of memory for a problem of dimension %d", d);
        goto done;
    }
    rc = gsfw_run_reset(run, x);
    if (rc) goto done;
    gsfw_run_start_clock(run);

    gsfw_status status = GSFW_STATUS_MAX_ITER;
    double f = 0.0;
    int t = 0, nx = 0; /* xsup[0..nx) = supp(x) as chosen by the last prune */
    int nT = 0;        /* b = the last refit, on T[0..nT) */
    for (;; t++) {
        if (gsfw_run_begin_iteration(run, t, x, &f, grad, &status, &rc)) {
            if (rc) goto done;
            break;
        }
        if (gsfw_run_record(run, t, f, NAN, NAN, NAN, 0, x)) {
            status = GSFW_STATUS_CALLBACK_STOP;
            break;
        }
        /* identify on the proxy -grad (supports do not depend on the sign) */
        int hs = 0;
        rc = gsfw_run_oracle(run, head, grad, hsup, &hs);
        if (rc) goto done;
        double nrm2 = 0.0;
        for (int k = 0; k < hs; k++) nrm2 += grad[hsup[k]] * grad[hsup[k]];
        if (!(nrm2 > 0)) {
            status = GSFW_STATUS_ZERO_DIRECTION;
            break;
        }
        /* merge, T's last refit cleared from b first (kept until now for the check of
         * the answer, gsfw_run.refit) */
        for (int j = 0; j < nT; j++) b[T[j]] = 0.0;
        nT = 0;
        int k = 0;
        for (int j = 0; j < nx && k < cap; j++)
            if (!inT[xsup[j]]) {
                inT[xsup[j]] = 1;
                T[k++] = xsup[j];
            }
        for (int j = 0; j < hs && k < cap; j++)
            if (!inT[hsup[j]]) {
                inT[hsup[j]] = 1;
                T[k++] = hsup[j];
            }
        for (int j = 0; j < k; j++) {
            inT[T[j]] = 0;
            w[j] = x[T[j]]; /* the warm start */
        }
        /* estimate */
        double f_on = 0.0;
        int hr = k ? run->obj->minimize_on(run->obj->ctx, k, T, w, set->inner_iters, 1e-10, &f_on)
                   : 0;
        if (hr)
            rc = gsfw_fail(run->err, GSFW_ERR_CALLBACK, "the objective's minimize_on failed "
                           "(code %d%s)", hr, gsfw_run_code_text(run, hr));
        if (rc) goto done;
        for (int j = 0; j < k; j++) b[T[j]] = w[j];
        nT = k;
        run->refit = b;
        /* prune */
        int ts = 0;
        rc = gsfw_run_oracle(run, tail, b, xsup, &ts);
        if (rc) goto done;
        memset(xnew, 0, (size_t)d * sizeof(double));
        nx = 0;
        for (int j = 0; j < ts; j++) {
            int i = xsup[j];
            xnew[i] = b[i];
            if (b[i] != 0.0) xsup[nx++] = i;
        }
        rc = gsfw_run_move(run, x, xnew, idx, val);
        if (rc) goto done;
    }
    gsfw_run_finish(run, t, f, x, status);

done:
    run->refit = NULL; /* b is freed */
    free(x);
    free(xnew);
    free(b);
    free(grad);
    free(val);
    free(idx);
    free(inT);
    free(T);
    free(w);
    free(hsup);
    free(xsup);
    return rc;
}

/* CoSaMP: head top-2s, tail top-s; Graph-CoSaMP: identify in M(G, 2s, 2g) (the Minkowski
 * sum of the model with itself; the reference scripts keep g components), tail over
 * M(G, s, g). */
static gsfw_error cosamp_recipe(const gsfw_model_spec *spec, int compat, gsfw_dmo **head,
                                gsfw_dmo **tail, gsfw_err *err)
{
    (void)compat;
    gsfw_error rc = gsfw_baseline_make(spec, "topk", 0, 2 * spec->s, 1, head, err);
    return rc ? rc : gsfw_baseline_make(spec, "topk", 1, spec->s, 1, tail, err);
}

static gsfw_error graph_cosamp_recipe(const gsfw_model_spec *spec, int compat, gsfw_dmo **head,
                                      gsfw_dmo **tail, gsfw_err *err)
{
    const int s = spec->s, g = spec->g;
    gsfw_error rc = gsfw_baseline_make(spec, NULL, 0, 2 * s, compat ? g : 2 * g, head, err);
    return rc ? rc : gsfw_baseline_make(spec, NULL, 1, s, g, tail, err);
}

static const gsfw_method_def cosamp_def = {
    .id = GSFW_METHOD_COSAMP, .baseline = 1, .family = GSFW_BASELINE_FAMILY,
    .typical_iters = 50, .own_model = "topk", .oracles = 2, .refits = 1,
    .baseline_loop = gsfw_solve_cosamp, .recipe = cosamp_recipe};
static const gsfw_method_def graph_cosamp_def = {
    .id = GSFW_METHOD_GRAPH_COSAMP, .baseline = 1, .family = GSFW_BASELINE_FAMILY,
    .typical_iters = 50, .oracles = 2, .refits = 1, .baseline_loop = gsfw_solve_cosamp,
    .recipe = graph_cosamp_recipe};

const gsfw_entry gsfw_entry_method_cosamp = {
    GSFW_KIND_METHOD, "cosamp", "CoSaMP (top-2s identification, top-s pruning, whatever the "
    "model)", "inner_iters", 0, 0, &cosamp_def, NULL};
const gsfw_entry gsfw_entry_method_graph_cosamp = {
    GSFW_KIND_METHOD, "graph-cosamp",
    "graph CoSaMP: identify over M(G, 2s, 2g), refit, tail projection",
    "inner_iters reference_compat", 0, 0, &graph_cosamp_def, NULL};
