/* Tree-sparse compressive sensing of 1-D piecewise-cubic signals (the Monte-Carlo
 * experiment of model-based compressive sensing, Baraniuk, Cevher, Duarte & Hegde 2010):
 * how many measurements does each method need?
 *
 * usage: tree_1d [TRIALS] [K] [SENSING] > runs.csv
 *   TRIALS   signals (and sensing matrices) per ratio, default 20
 *   K        tree sparsity of the signals, default 40
 *   SENSING  gaussian (default) or hadamard-signs
 *
 * Each trial draws a piecewise-cubic signal of length N = 1024 (5 random breakpoints, a
 * random cubic on every piece), takes its orthonormal D4 wavelet coefficients (GSL,
 * periodic), and keeps the best K-node rooted subtree of the binary coefficient tree (the
 * exact tree projection): theta* is exactly K-tree-sparse, scaled to unit norm, and
 * x* = Psi theta* is the signal. From n = round(r K) measurements y = A x* the methods
 * recover theta:
 *   accfw        DMO-AccFW over the rooted-tree model (s = K), polished
 *   tree-cosamp  CoSaMP with tree head (2K) and tail (K) projections
 *   tree-iht     IHT with the tree tail projection
 *   cosamp, iht  the same over plain K-sparsity
 * Output: one CSV row per (trial, ratio, method): the relative error ||x - x*|| / ||x*||
 * and the solve time. The signals and matrices are a function of (trial, n) alone. */
#include "gsfw.h"
#include "util/rng.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_wavelet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 1024, BREAKS = 5 };

/* ---- the 1-D orthonormal wavelet basis as an operator: apply = synthesis Psi theta,
 * adjoint = analysis Psi^T x. GSL's layout: index 0 the scaling coefficient, detail k of
 * level j (j = 0 coarsest) at 2^j + k, so the parent of i >= 2 is i / 2, of 1 is 0. */
typedef struct {
    gsl_wavelet *w;
    gsl_wavelet_workspace *ws;
    double buf[N];
} wav_ctx;

static int wav_apply(void *ctx, const double *theta, double *x)
{
    wav_ctx *c = ctx;
    memcpy(x, theta, N * sizeof(double));
    return gsl_wavelet_transform_inverse(c->w, x, 1, N, c->ws) != GSL_SUCCESS;
}

static int wav_adjoint(void *ctx, const double *x, double *theta)
{
    wav_ctx *c = ctx;
    memcpy(theta, x, N * sizeof(double));
    return gsl_wavelet_transform_forward(c->w, theta, 1, N, c->ws) != GSL_SUCCESS;
}

static int wav_apply_sparse(void *ctx, int nnz, const int *idx, const double *val, double alpha,
                            double *y)
{
    wav_ctx *c = ctx;
    memset(c->buf, 0, sizeof c->buf);
    for (int k = 0; k < nnz; k++) c->buf[idx[k]] = alpha * val[k];
    if (gsl_wavelet_transform_inverse(c->w, c->buf, 1, N, c->ws) != GSL_SUCCESS) return 1;
    for (int i = 0; i < N; i++) y[i] += c->buf[i];
    return 0;
}

static int wav_adjoint_sparse(void *ctx, const double *r, int nnz, const int *idx, double *out)
{
    wav_ctx *c = ctx;
    memcpy(c->buf, r, sizeof c->buf);
    if (gsl_wavelet_transform_forward(c->w, c->buf, 1, N, c->ws) != GSL_SUCCESS) return 1;
    for (int k = 0; k < nnz; k++) out[k] = c->buf[idx[k]];
    return 0;
}

static int wav_norm2(void *ctx, double *norm2)
{
    (void)ctx;
    *norm2 = 1.0;
    return 0;
}

static void wav_destroy(gsfw_operator *self)
{
    wav_ctx *c = self->ctx;
    gsl_wavelet_free(c->w);
    gsl_wavelet_workspace_free(c->ws);
    free(c);
    free(self);
}

static gsfw_operator *wavelet1d(void)
{
    wav_ctx *c = calloc(1, sizeof *c);
    gsfw_operator *op = calloc(1, sizeof *op);
    if (!c || !op) exit(1);
    c->w = gsl_wavelet_alloc(gsl_wavelet_daubechies, 4);
    c->ws = gsl_wavelet_workspace_alloc(N);
    if (!c->w || !c->ws) exit(1);
    *op = (gsfw_operator){.n = N, .d = N, .name = "wavelet1d", .ctx = c, .apply = wav_apply,
                          .adjoint = wav_adjoint, .apply_sparse = wav_apply_sparse,
                          .adjoint_sparse = wav_adjoint_sparse, .norm2 = wav_norm2,
                          .destroy = wav_destroy};
    return op;
}

static void check(gsfw_error e, const gsfw_err *err, const char *what)
{
    if (e) {
        fprintf(stderr, "tree_1d: %s: %s\n", what, err->message);
        exit(1);
    }
}

static double norm(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

/* A piecewise-cubic signal: BREAKS sorted random breakpoints, on each piece a cubic in
 * the local coordinate u in [-1, 1] with N(0, 1) coefficients. */
static void piecewise_cubic(gsfw_rng *rng, double *x)
{
    int cut[BREAKS + 2] = {0};
    cut[BREAKS + 1] = N;
    for (int b = 1; b <= BREAKS; b++) cut[b] = 1 + (int)gsfw_rng_below(rng, N - 1);
    for (int i = 1; i <= BREAKS; i++) /* insertion sort */
        for (int j = i; j > 1 && cut[j] < cut[j - 1]; j--) {
            int t = cut[j];
            cut[j] = cut[j - 1];
            cut[j - 1] = t;
        }
    for (int p = 0; p <= BREAKS; p++) {
        double a[4];
        for (int k = 0; k < 4; k++) a[k] = gsfw_rng_normal(rng);
        int len = cut[p + 1] - cut[p];
        for (int i = cut[p]; i < cut[p + 1]; i++) {
            double u = len > 1 ? 2.0 * (i - cut[p]) / (len - 1) - 1.0 : 0.0;
            x[i] = a[0] + u * (a[1] + u * (a[2] + u * a[3]));
        }
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int trials = argc > 1 ? atoi(argv[1]) : 20;
    int K = argc > 2 ? atoi(argv[2]) : 40;
    const char *sensing = argc > 3 ? argv[3] : "gaussian";
    if (trials < 1 || K < 1 || K > N / 8 ||
        (strcmp(sensing, "gaussian") && strcmp(sensing, "hadamard-signs"))) {
        fprintf(stderr, "usage: tree_1d [TRIALS >= 1] [K in 1..%d] [gaussian|hadamard-signs]\n",
                N / 8);
        return 2;
    }
    gsl_set_error_handler_off();
    static const double ratios[] = {1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0};
    static const char *methods[] = {"accfw", "tree-cosamp", "tree-iht", "cosamp", "iht"};
    const int n_ratios = (int)(sizeof ratios / sizeof ratios[0]);
    const int n_methods = (int)(sizeof methods / sizeof methods[0]);

    gsfw_err err;
    int parent[N];
    parent[0] = -1;
    for (int i = 1; i < N; i++) parent[i] = i / 2;
    gsfw_tree *tree;
    check(gsfw_tree_from_parents(N, parent, &tree, &err), &err, "tree");
    gsfw_dmo *proj;
    check(gsfw_dmo_tree_rooted(tree, K, &proj, &err), &err, "tree projection");
    gsfw_operator *psi = wavelet1d();

    static double x[N], theta[N], theta_star[N], xs[N], xr[N], best[N], last[N], pol[N];
    int support[N];
    printf("trial,ratio,n,method,rel_err,time_s\n");
    for (int trial = 0; trial < trials; trial++) {
        /* the signal: exactly K-tree-sparse in D4 */
        gsfw_rng rng;
        gsfw_rng_seed(&rng, 1000 + (uint64_t)trial);
        piecewise_cubic(&rng, x);
        if (psi->adjoint(psi->ctx, x, theta)) return 1;
        int sz = 0;
        gsfw_dmo_stats st;
        if (proj->select(proj->ctx, theta, support, &sz, &st)) return 1;
        memset(theta_star, 0, sizeof theta_star);
        double nt = 0.0;
        for (int k = 0; k < sz; k++) nt += theta[support[k]] * theta[support[k]];
        for (int k = 0; k < sz; k++) theta_star[support[k]] = theta[support[k]] / sqrt(nt);
        if (psi->apply(psi->ctx, theta_star, xs)) return 1;

        for (int ri = 0; ri < n_ratios; ri++) {
            int n = (int)lround(ratios[ri] * K);
            gsfw_operator *A, *Apsi;
            uint64_t seed = 7919u * (uint64_t)trial + (uint64_t)n;
            check(gsfw_sensing_operator(sensing, n, 1, N, seed, 0, &A, &err), &err, "sensing");
            check(gsfw_operator_compose(A, psi, &Apsi, &err), &err, "compose");
            double *y = malloc((size_t)n * sizeof(double));
            if (!y || A->apply(A->ctx, xs, y)) return 1;
            gsfw_objective *obj;
            check(gsfw_objective_linear(Apsi, n, y, NULL, &obj, &err), &err, "objective");
            for (int m = 0; m < n_methods; m++) {
                gsfw_result res = {.x_best = best, .x_last = last, .x_polished = pol};
                gsfw_info info;
                const double *ret = best;
                double t0 = now();
                if (m == 0) {
                    gsfw_settings set;
                    gsfw_settings_default(&set);
                    set.method = GSFW_METHOD_ACCFW;
                    set.C = 1.0;
                    set.max_iter = 300;
                    set.tol_rel = 1e-3;
                    set.polish = 1;
                    check(gsfw_solve(obj, proj, &set, &res, &info, &err), &err, methods[m]);
                    ret = pol;
                } else {
                    gsfw_method meth = m == 1 ? GSFW_METHOD_GRAPH_COSAMP
                                       : m == 2 ? GSFW_METHOD_GRAPH_IHT
                                       : m == 3 ? GSFW_METHOD_COSAMP
                                                : GSFW_METHOD_IHT;
                    gsfw_model_spec spec = {.model = m <= 2 ? "tree" : "topk", .d = N, .s = K,
                                            .g = 1, .tree = tree, .delta = 1.0};
                    gsfw_dmo *head = NULL, *tail = NULL;
                    check(gsfw_baseline_oracles(meth, &spec, 0, &head, &tail, &err), &err,
                          methods[m]);
                    gsfw_baseline_settings bset;
                    gsfw_baseline_settings_default(&bset);
                    bset.method = meth;
                    bset.max_iter = (meth == GSFW_METHOD_COSAMP || meth == GSFW_METHOD_GRAPH_COSAMP)
                                        ? 50 : 300;
                    check(gsfw_baseline_solve(obj, head, tail, &bset, &res, &info, &err), &err,
                          methods[m]);
                    gsfw_dmo_free(head);
                    gsfw_dmo_free(tail);
                }
                double t = now() - t0;
                if (psi->apply(psi->ctx, ret, xr)) return 1;
                for (int i = 0; i < N; i++) xr[i] -= xs[i];
                printf("%d,%g,%d,%s,%.6g,%.4g\n", trial, ratios[ri], n, methods[m],
                       norm(xr, N) / norm(xs, N), t);
            }
            fflush(stdout);
            gsfw_objective_free(obj);
            free(y);
            gsfw_operator_free(Apsi);
            gsfw_operator_free(A);
        }
    }
    gsfw_dmo_free(proj);
    gsfw_operator_free(psi);
    gsfw_tree_free(tree);
    return 0;
}
