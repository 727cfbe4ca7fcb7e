/* The paper's Fig. 2 / App. C: DMO-FW (Option I) on the s-support-norm ball with
 * delta-approximate oracles, delta in {1, 0.8, 0.5, 0.3, 0.1}.
 *
 * Protocol (the paper's text; the reference script differs, see docs/experiments.md):
 * n = 200, d = 500, x_star with 50 nonzeros of random sign at random positions, normalised
 * to unit norm, A_ij ~ N(0, 1/n) (standard deviation 1/sqrt(n)), y = A x_star (noiseless), s = 5, C = 1,
 * f = 0.5 ||A x - y||^2, eta_t = 2/(t+2), seed = trial index.
 * x_star lies outside D (its 5-support norm is sqrt(10) > 1), so f* = min_D f is not 0: it is
 * estimated by the best value of a 4x longer delta = 1 run and of every run of the trial,
 * and h(x_t) = f(x_t) - f*_hat. Recorded at log-spaced t: mean and std of h over trials,
 * |<grad f(x_t), x_t - v_t>|, ||grad f(x_t)||_inf and ||grad f(x_t)||_2, ||x_t - x_star||.
 *
 *   usage: fig2_ksupport [--out-dir DIR] [--trials N] [--iters T]
 * Writes DIR/fig2.csv, DIR/fig2_summary.md and DIR/fig2.png (gnuplot). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/internal.h"
#include "gsfw.h"
#include "io/atomic.h"
#include "util/rng.h"

enum { N = 200, D = 500, NNZ = 50, S = 5, NDELTA = 5 };
static const double deltas[NDELTA] = {1.0, 0.8, 0.5, 0.3, 0.1};

typedef struct {
    gsfw_objective *obj;
    const int *sample_t;   /* iterations at which to record */
    int n_samples;
    int next;              /* next sample index */
    double *grad;          /* d scratch */
    double *gap_abs, *grad_inf, *grad_2; /* per sample */
    double gap_prev;       /* not used: the gap comes with the record */
} sampler;

static int record_sample(const gsfw_iterate *it, const double *x, void *user)
{
    sampler *sp = user;
    (void)x;
    if (sp->next < sp->n_samples && it->iter == sp->sample_t[sp->next]) {
        sp->obj->gradient(sp->obj->ctx, x, sp->grad);
        double inf = 0, two = 0;
        for (int i = 0; i < D; i++) {
            double a = fabs(sp->grad[i]);
            if (a > inf) inf = a;
            two += a * a;
        }
        sp->grad_inf[sp->next] = inf;
        sp->grad_2[sp->next] = sqrt(two);
        sp->gap_abs[sp->next] = fabs(it->gap);
        sp->next++;
    }
    return 0;
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST) return 0;
    fprintf(stderr, "fig2_ksupport: cannot create '%s': %s\n", path, strerror(errno));
    return -1;
}

int main(int argc, char **argv)
{
    const char *out_dir = "results/fig2";
    int trials = 20, iters = 10000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out-dir") && i + 1 < argc) out_dir = argv[++i];
        else if (!strcmp(argv[i], "--trials") && i + 1 < argc) trials = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: fig2_ksupport [--out-dir DIR] [--trials N >= 1] "
                            "[--iters T >= 10]\n");
            return 2;
        }
    }
    if (trials < 1 || iters < 10) {
        fprintf(stderr, "fig2_ksupport: --trials must be >= 1 and --iters >= 10\n");
        return 2;
    }
    if (make_dir(out_dir)) return 1;

    /* log-spaced sample points 0, 1, 2, ..., iters */
    int *sample_t = malloc(sizeof(int) * 200);
    int ns = 0;
    for (int k = 0; k < 200; k++) {
        int t = (int)floor(pow((double)iters, k / 199.0));
        if (k == 0) t = 0;
        if (ns == 0 || t > sample_t[ns - 1]) sample_t[ns++] = t;
    }
    if (sample_t[ns - 1] != iters) sample_t[ns++] = iters;

    size_t cells = (size_t)NDELTA * ns * trials;
    double *h = calloc(cells, sizeof(double)), *gap = calloc(cells, sizeof(double));
    double *ginf = calloc(cells, sizeof(double)), *g2 = calloc(cells, sizeof(double));
    double *est = calloc(cells, sizeof(double));
    double *fstar = calloc((size_t)trials, sizeof(double));
    double *A = malloc(sizeof(double) * N * D), *y = malloc(sizeof(double) * N);
    double *xs = malloc(sizeof(double) * D), *grad = malloc(sizeof(double) * D);
    gsfw_iterate *trace = malloc(sizeof(gsfw_iterate) * ((size_t)iters + 1));
    double *fvals = malloc(sizeof(double) * NDELTA * ((size_t)iters + 1));
    double tot_time[NDELTA] = {0};
    if (!h || !gap || !ginf || !g2 || !est || !fstar || !A || !y || !xs || !grad || !trace ||
        !fvals) {
        fprintf(stderr, "fig2_ksupport: out of memory\n");
        return 1;
    }

    for (int trial = 0; trial < trials; trial++) {
        gsfw_rng rng;
        gsfw_rng_seed(&rng, (uint64_t)trial);
        for (int k = 0; k < N * D; k++) A[k] = gsfw_rng_normal(&rng) / sqrt((double)N);
        int perm[D];
        for (int i = 0; i < D; i++) perm[i] = i;
        gsfw_rng_shuffle(&rng, perm, D);
        memset(xs, 0, sizeof(double) * D);
        for (int k = 0; k < NNZ; k++) xs[perm[k]] = gsfw_rng_uniform(&rng) < 0.5 ? -1.0 : 1.0;
        for (int i = 0; i < D; i++) xs[i] /= sqrt((double)NNZ);
        for (int r = 0; r < N; r++) {
            double acc = 0;
            for (int c = 0; c < D; c++) acc += A[r * D + c] * xs[c];
            y[r] = acc;
        }
        gsfw_objective *obj = NULL;
        gsfw_err err;
        if (gsfw_objective_least_squares(N, D, A, GSFW_ROW_MAJOR, y, &obj, &err)) {
            fprintf(stderr, "fig2_ksupport: %s\n", err.message);
            return 1;
        }
        gsfw_settings set;
        gsfw_settings_default(&set);
        set.method = GSFW_METHOD_FW;
        set.option = GSFW_OPTION_I;
        set.C = 1.0;
        set.x_true = xs;
        double best = INFINITY;
        for (int j = 0; j < NDELTA; j++) {
            gsfw_dmo *dmo = NULL;
            gsfw_error rc = deltas[j] == 1.0
                                ? gsfw_dmo_topk(D, S, &dmo, &err)
                                : gsfw_dmo_topk_approx(D, S, deltas[j], (uint64_t)trial, &dmo, &err);
            if (rc) {
                fprintf(stderr, "fig2_ksupport: %s\n", err.message);
                return 1;
            }
            size_t base = ((size_t)j * trials + trial) * ns;
            sampler sp = {obj, sample_t, ns, 0, grad, gap + base, ginf + base, g2 + base, 0};
            set.max_iter = iters;
            set.callback = record_sample;
            set.callback_data = &sp;
            gsfw_result res = {.trace = trace, .trace_capacity = iters + 1};
            gsfw_info info;
            if (gsfw_solve(obj, dmo, &set, &res, &info, &err)) {
                fprintf(stderr, "fig2_ksupport: %s\n", err.message);
                return 1;
            }
            tot_time[j] += info.solve_time;
            for (int t = 0; t <= iters; t++) fvals[(size_t)j * (iters + 1) + t] = trace[t].f;
            for (int k = 0; k < ns; k++) est[base + k] = trace[sample_t[k]].est_err;
            if (info.f_best < best) best = info.f_best;
            gsfw_dmo_free(dmo);
        }
        /* f*: a 4x longer exact-oracle run */
        {
            gsfw_dmo *dmo = NULL;
            gsfw_dmo_topk(D, S, &dmo, NULL);
            set.max_iter = 4 * iters;
            set.callback = NULL;
            gsfw_info info;
            if (gsfw_solve(obj, dmo, &set, NULL, &info, &err)) {
                fprintf(stderr, "fig2_ksupport: %s\n", err.message);
                return 1;
            }
            if (info.f_best < best) best = info.f_best;
            gsfw_dmo_free(dmo);
        }
        fstar[trial] = best;
        for (int j = 0; j < NDELTA; j++) {
            size_t base = ((size_t)j * trials + trial) * ns;
            for (int k = 0; k < ns; k++)
                h[base + k] = fvals[(size_t)j * (iters + 1) + sample_t[k]] - best;
        }
        gsfw_objective_free(obj);
        fprintf(stderr, "trial %d/%d: f*_hat = %.6e\n", trial + 1, trials, best);
    }

    /* CSV of trial means and standard deviations */
    char path[4096];
    gsfw_atomic_file f;
    gsfw_err err;
    snprintf(path, sizeof path, "%s/fig2.csv", out_dir);
    if (gsfw_atomic_open(&f, path, &err)) {
        fprintf(stderr, "fig2_ksupport: %s\n", err.message);
        return 1;
    }
    fprintf(f.fp, "delta,t,h_mean,h_std,gap_abs_mean,grad_inf_mean,grad_2_mean,est_err_mean\n");
    for (int j = 0; j < NDELTA; j++) {
        for (int k = 0; k < ns; k++) {
            double m[5] = {0}, sq = 0;
            for (int tr = 0; tr < trials; tr++) {
                size_t c = ((size_t)j * trials + tr) * ns + k;
                m[0] += h[c];
                sq += h[c] * h[c];
                m[1] += gap[c];
                m[2] += ginf[c];
                m[3] += g2[c];
                m[4] += est[c];
            }
            for (int q = 0; q < 5; q++) m[q] /= trials;
            double sd = sqrt(fmax(0.0, sq / trials - m[0] * m[0]));
            fprintf(f.fp, "%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", deltas[j], sample_t[k],
                    m[0], sd, m[1], m[2], m[3], m[4]);
        }
        fprintf(f.fp, "\n\n"); /* gnuplot data blocks, one per delta */
    }
    if (gsfw_atomic_commit(&f, &err)) {
        fprintf(stderr, "fig2_ksupport: %s\n", err.message);
        return 1;
    }

    snprintf(path, sizeof path, "%s/fig2_summary.md", out_dir);
    if (gsfw_atomic_open(&f, path, &err)) {
        fprintf(stderr, "fig2_ksupport: %s\n", err.message);
        return 1;
    }
    fprintf(f.fp, "# Fig. 2: DMO-FW-I on the %d-support-norm ball (n = %d, d = %d, C = 1), %d trials, "
                  "%d iterations\n\n| delta | mean h(x_T) | sd | mean ‖∇f(x_T)‖∞ | mean ‖x_T − x*‖ | "
                  "mean solve time (s) |\n|---|---|---|---|---|---|\n", S, N, D, trials, iters);
    for (int j = 0; j < NDELTA; j++) {
        double m = 0, sq = 0, gi = 0, e = 0;
        for (int tr = 0; tr < trials; tr++) {
            size_t c = ((size_t)j * trials + tr) * ns + ns - 1;
            m += h[c];
            sq += h[c] * h[c];
            gi += ginf[c];
            e += est[c];
        }
        m /= trials;
        fprintf(f.fp, "| %.1f | %.3e | %.1e | %.3e | %.4f | %.3f |\n", deltas[j], m,
                sqrt(fmax(0, sq / trials - m * m)), gi / trials, e / trials, tot_time[j] / trials);
    }
    if (gsfw_atomic_commit(&f, &err)) {
        fprintf(stderr, "fig2_ksupport: %s\n", err.message);
        return 1;
    }
    printf("wrote %s/fig2.csv and %s/fig2_summary.md\n", out_dir, out_dir);
    free(h); free(gap); free(ginf); free(g2); free(est); free(fstar);
    free(A); free(y); free(xs); free(grad); free(trace); free(fvals); free(sample_t);
    return 0;
}
