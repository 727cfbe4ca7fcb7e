/* Ideas for recovering below the restarts' phase transition, on gsfw recover's problem
 * (experiments/recover_instance.h), measured against the library's restarts.
 *
 * Stage 1 is gsfw_solve as gsfw recover runs it (accfw, polish, tol-rel 1e-3, restarts
 * --restarts). Then, from its polished point x (support in the model):
 *
 *   --cosamp K   model-aware refinement (Graph-CoSaMP from x): K times
 *                  Gamma = head projection over M(G, 2s, 2g) of the gradient at x,
 *                  b = least squares on Gamma u supp(x),
 *                  x' = least squares on the projection of b onto M(G, s, g);
 *                stop when f does not fall.
 *   --random R   R randomised warm restarts: rounds of AccFW with the line step from the
 *                best point so far, each with L scaled by 2^u, u uniform in [-J, J]
 *                (--jitter J, default 1), so that the step points, and so the supports
 *                the head projection picks, differ from round to round; the best
 *                polished point is kept (with --cosamp, each round is refined too).
 *   --grow F     continuation in s: stage 1 with the model's s and g scaled by F (a
 *                looser model: more of the true support in the first polish), then the
 *                restarts at s.
 *
 *   usage: frontier --image FILE.npy --ratio R [--seeds A:B] [--restarts 10]
 *                   [--cosamp 0] [--random 0] [--jitter 1] [--round-iters 20]
 *                   [--grow 1] [--threshold 0.05]
 * One CSV row per seed (header first):
 *   seed,rel_err1,rel_err,f,support_f1,stage1_restarts,rounds_kept,cpu_s,ok
 * rel_err1 after stage 1, rel_err the final answer (the lowest f); cpu_s the process CPU
 * time of the whole seed (single-threaded BLAS advised). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>

#include "recover_instance.h"
#include "util/rng.h"

typedef struct {
    const char *image;
    double ratio, jitter, threshold, grow;
    int seed_lo, seed_hi, restarts, cosamp, random, round_iters, amp, nonneg, stage1;
} options;

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.jitter = 1.0, .threshold = 0.05, .grow = 1.0, .seed_lo = 0, .seed_hi = 19,
                   .restarts = 10, .round_iters = 20, .stage1 = 1};
    if (argc % 2 == 0) return 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--image")) o->image = v;
        else if (!strcmp(k, "--ratio")) o->ratio = strtod(v, NULL);
        else if (!strcmp(k, "--seeds")) {
            if (sscanf(v, "%d:%d", &o->seed_lo, &o->seed_hi) != 2) return 1;
        } else if (!strcmp(k, "--restarts")) o->restarts = atoi(v);
        else if (!strcmp(k, "--cosamp")) o->cosamp = atoi(v);
        else if (!strcmp(k, "--random")) o->random = atoi(v);
        else if (!strcmp(k, "--jitter")) o->jitter = strtod(v, NULL);
        else if (!strcmp(k, "--round-iters")) o->round_iters = atoi(v);
        else if (!strcmp(k, "--grow")) o->grow = strtod(v, NULL);
        else if (!strcmp(k, "--amp")) o->amp = atoi(v);
        else if (!strcmp(k, "--nonneg")) o->nonneg = atoi(v);
        else if (!strcmp(k, "--stage1")) o->stage1 = atoi(v);
        else if (!strcmp(k, "--threshold")) o->threshold = strtod(v, NULL);
        else return 1;
    }
    return !o->image || !(o->ratio > 0) || o->seed_hi < o->seed_lo || o->restarts < 0 ||
           o->cosamp < 0 || o->random < 0 || o->round_iters < 1 || !(o->grow >= 1);
}

/* As in alt_polish.c: the head projection has no contains hook; the only x0 given here
 * are polished points, whose supports the same kind of projection selected. */
static int wrap_select(void *ctx, const double *z, int *support, int *size, gsfw_dmo_stats *st)
{
    gsfw_dmo *in = ctx;
    return in->select(in->ctx, z, support, size, st);
}
static int wrap_reset(void *ctx)
{
    gsfw_dmo *in = ctx;
    return in->reset ? in->reset(in->ctx) : 0;
}
static int wrap_contains(void *ctx, const int *support, int size)
{
    gsfw_dmo *in = ctx;
    (void)support;
    return size <= in->max_support;
}
static gsfw_dmo wrap_oracle(gsfw_dmo *in)
{
    return (gsfw_dmo){.d = in->d, .max_support = in->max_support, .delta = in->delta,
                      .name = in->name, .model = in->model, .ctx = in, .select = wrap_select,
                      .reset = wrap_reset, .contains = wrap_contains,
                      .model_size = in->model_size};
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    int d;
    gsfw_objective *obj;
    gsfw_dmo *head2, *proj; /* M(G, 2s, 2g) and M(G, s, g) */
    double *g, *b, *x_try;
    int *gamma, *sel;
    unsigned char *in;
} cosamp_ctx;

/* least squares on the k ids of ids into x (dense, zero elsewhere); f at the result */
static int ls_on(cosamp_ctx *c, const int *ids, int k, double *x, double *f)
{
    double *w = c->b; /* k <= 3s of scratch */
    for (int j = 0; j < k; j++) w[j] = x[ids[j]];
    if (c->obj->minimize_on(c->obj->ctx, k, ids, w, 200, 1e-13, f)) return 1;
    memset(x, 0, (size_t)c->d * sizeof(double));
    for (int j = 0; j < k; j++) x[ids[j]] = w[j];
    return c->obj->value(c->obj->ctx, x, f);
}

/* Graph-CoSaMP iterations from x (in place) while f falls; returns f(x). */
static double cosamp_refine(cosamp_ctx *c, double *x, double f, int iters)
{
    const int d = c->d;
    for (int it = 0; it < iters; it++) {
        double fx;
        gsfw_dmo_stats st = {0};
        int k = 0, m = 0;
        if (c->obj->value_grad(c->obj->ctx, x, &fx, c->g)) break;
        if (c->head2->select(c->head2->ctx, c->g, c->gamma, &k, &st)) break;
        memset(c->in, 0, (size_t)d);
        for (int j = 0; j < k; j++) c->in[c->gamma[j]] = 1;
        for (int i = 0; i < d; i++)
            if (x[i] != 0.0 && !c->in[i]) c->gamma[k++] = i;
        memcpy(c->x_try, x, (size_t)d * sizeof(double));
        double fb;
        if (ls_on(c, c->gamma, k, c->x_try, &fb)) break;
        if (c->proj->select(c->proj->ctx, c->x_try, c->sel, &m, &st)) break;
        double fn;
        if (ls_on(c, c->sel, m, c->x_try, &fn)) break;
        if (!(fn < f * (1 - 1e-9))) break;
        memcpy(x, c->x_try, (size_t)d * sizeof(double));
        f = fn;
    }
    return f;
}

/* Approximate message passing with the head projection as the denoiser (model-based
 * AMP, hard projection): r = x + A^T z, x = P_M(r) (the values of r kept on the
 * selected support S; with nonneg also clipped at 0), z = y - A x + z |S| / n (the
 * Onsager term: the divergence of a projection with a locally constant support is |S|).
 * From x = 0; the iterate of lowest residual is polished (least squares on its support)
 * into x_out. Returns f there, or INFINITY. */
static double amp_run(const recover_instance *p, cosamp_ctx *c, int iters, int nonneg,
                      double *x_out)
{
    const int n = p->n, d = p->d;
    double *x = calloc((size_t)d, sizeof(double)), *r = malloc((size_t)d * sizeof(double));
    double *z = malloc((size_t)n * sizeof(double)), *best = calloc((size_t)d, sizeof(double));
    double f_best = INFINITY;
    if (!x || !r || !z || !best) goto out;
    memcpy(z, p->y, (size_t)n * sizeof(double));
    double res_best = INFINITY;
    for (int t = 0; t < iters; t++) {
        memcpy(r, x, (size_t)d * sizeof(double));
        cblas_dgemv(CblasColMajor, CblasTrans, n, d, 1.0, p->A, n, z, 1, 1.0, r, 1);
        if (nonneg)
            for (int i = 0; i < d; i++) r[i] = r[i] > 0 ? r[i] : 0;
        int k = 0;
        gsfw_dmo_stats st = {0};
        if (c->proj->select(c->proj->ctx, r, c->sel, &k, &st)) break;
        /* damping beta (FRONTIER_AMP_DAMP, default 1: none): x = (1 - beta) x + beta P(r) */
        const char *dv = getenv("FRONTIER_AMP_DAMP");
        const double beta = dv ? atof(dv) : 1.0;
        for (int i = 0; i < d; i++) x[i] *= 1.0 - beta;
        for (int j = 0; j < k; j++) x[c->sel[j]] += beta * r[c->sel[j]];
        const double ons = beta * (double)k / n;
        double rr = 0;
        for (int i = 0; i < n; i++) z[i] *= ons;
        cblas_daxpy(n, 1.0, p->y, 1, z, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, d, -1.0, p->A, n, x, 1, 1.0, z, 1);
        /* the residual of x itself, without the Onsager memory */
        memcpy(r, p->y, (size_t)n * sizeof(double));
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, d, -1.0, p->A, n, x, 1, 1.0, r, 1);
        rr = cblas_ddot(n, r, 1, r, 1);
        if (rr < res_best) {
            res_best = rr;
            memcpy(best, x, (size_t)d * sizeof(double));
        }
    }
    int k = 0;
    for (int i = 0; i < d; i++)
        if (best[i] != 0.0) c->sel[k++] = i;
    if (k && !ls_on(c, c->sel, k, best, &f_best)) {
        /* into the C-ball (C = 1), as gsfw's polish does, so that it can start a solve */
        const double nrm = cblas_dnrm2(d, best, 1);
        if (nrm > 1.0) {
            cblas_dscal(d, 1.0 / nrm, best, 1);
            if (c->obj->value(c->obj->ctx, best, &f_best)) f_best = INFINITY;
        }
        memcpy(x_out, best, (size_t)d * sizeof(double));
    } else {
        f_best = INFINITY;
    }
out:
    free(x);
    free(r);
    free(z);
    free(best);
    return f_best;
}

static int run_seed(const options *o, int seed, int *ok_count)
{
    recover_instance p;
    gsfw_err err = {0};
    gsfw_objective *obj = NULL;
    gsfw_dmo *dmo = NULL, *loose = NULL;
    cosamp_ctx c = {0};
    double *x_ans = NULL, *x_pol = NULL;
    int rc = 1;
    if (recover_instance_build(o->image, o->ratio, (unsigned long)seed, &p)) return 1;
    const int d = p.d;
    const double cpu0 = cpu_now();
    if (gsfw_objective_least_squares(p.n, d, p.A, GSFW_COL_MAJOR, p.y, &obj, &err)) goto fail;
    gsfw_model_spec spec = {.model = "head", .d = d, .s = p.s, .g = p.g, .graph = p.graph,
                            .delta = 1.0};
    if (gsfw_dmo_from_model(&spec, &dmo, &err)) goto fail;
    gsfw_dmo oracle = wrap_oracle(dmo);
    x_ans = malloc((size_t)d * sizeof(double));
    x_pol = malloc((size_t)d * sizeof(double));
    c.d = d;
    c.obj = obj;
    c.g = malloc((size_t)d * sizeof(double));
    c.b = malloc((size_t)d * sizeof(double));
    c.x_try = malloc((size_t)d * sizeof(double));
    c.gamma = malloc((size_t)d * sizeof(int));
    c.sel = malloc((size_t)d * sizeof(int));
    c.in = malloc((size_t)d);
    if (!x_ans || !x_pol || !c.g || !c.b || !c.x_try || !c.gamma || !c.sel || !c.in) goto fail;
    c.proj = dmo;
    if (obj->reserve && obj->reserve(obj->ctx, 3 * p.s + 8)) goto fail;
    if (o->cosamp) {
        gsfw_model_spec s2 = spec;
        s2.s = 2 * p.s < d ? 2 * p.s : d;
        s2.g = 2 * p.g < s2.s ? 2 * p.g : s2.s;
        if (gsfw_dmo_from_model(&s2, &c.head2, &err)) goto fail;
        c.proj = dmo;
        if (obj->reserve && obj->reserve(obj->ctx, 3 * p.s + 8)) goto fail;
    }
    /* stage 1: recover's solve (with a looser model under --grow) */
    gsfw_settings set;
    gsfw_settings_default(&set);
    set.polish = 1;
    set.max_iter = 300;
    set.tol_rel = 1e-3;
    set.restarts = o->grow > 1 ? 0 : o->restarts;
    gsfw_dmo *first = dmo;
    if (o->grow > 1) {
        gsfw_model_spec sl = spec;
        sl.s = (int)(o->grow * p.s) < d ? (int)(o->grow * p.s) : d;
        sl.g = (int)(o->grow * p.g + 0.5) < sl.s ? (int)(o->grow * p.g + 0.5) : sl.s;
        if (gsfw_dmo_from_model(&sl, &loose, &err)) goto fail;
        first = loose;
        set.polish_oracle = dmo; /* the answer is projected onto the true model */
    }
    gsfw_result res = {.x_polished = x_ans};
    gsfw_info info;
    memset(&info, 0, sizeof info);
    info.f_polished = INFINITY;
    memset(x_ans, 0, (size_t)d * sizeof(double));
    if (o->stage1 && gsfw_solve(obj, first, &set, &res, &info, &err)) goto fail;
    const double L = info.L;
    double f_ans = info.f_polished;
    const int stage1_restarts = info.restarts;
    const double rel1 = rec_rel_err(x_ans, p.xstar, d);
    int kept = 0;
    if (o->grow > 1 && o->restarts > 0) { /* continuation: the restarts at the true s */
        gsfw_settings r = set;
        r.polish_oracle = NULL;
        r.method = GSFW_METHOD_ACCFW;
        r.step = GSFW_STEP_LINE;
        r.max_iter = o->round_iters;
        r.tol_rel = 0;
        r.L = L;
        r.restarts = o->restarts;
        r.x0 = x_ans;
        gsfw_result rr = {.x_polished = x_pol};
        if (gsfw_solve(obj, &oracle, &r, &rr, &info, &err)) goto fail;
        if (info.f_polished < f_ans) {
            f_ans = info.f_polished;
            memcpy(x_ans, x_pol, (size_t)d * sizeof(double));
        }
    }
    if (o->cosamp) f_ans = cosamp_refine(&c, x_ans, f_ans, o->cosamp);
    if (o->amp) {
        if (dmo->reset) dmo->reset(dmo->ctx); /* the projection's warm start: as new */
        gsfw_dmo *topk = NULL; /* FRONTIER_AMP_MODEL=topk: the graph-free projection */
        if (getenv("FRONTIER_AMP_MODEL") && !strcmp(getenv("FRONTIER_AMP_MODEL"), "topk")) {
            if (gsfw_dmo_topk(d, p.s, &topk, &err)) goto fail;
            c.proj = topk;
        }
        double f_amp = amp_run(&p, &c, o->amp, o->nonneg, x_pol);
        c.proj = dmo;
        gsfw_dmo_free(topk);
        if (getenv("FRONTIER_VERBOSE"))
            fprintf(stderr, "amp: f %g rel_err %g\n", f_amp, rec_rel_err(x_pol, p.xstar, d));
        if (f_amp < f_ans) {
            f_ans = f_amp;
            memcpy(x_ans, x_pol, (size_t)d * sizeof(double));
            kept++;
        }
    }
    double yy = 0.0;
    for (int i = 0; i < p.n; i++) yy += p.y[i] * p.y[i];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 1000003ULL * (uint64_t)seed + 17);
    for (int r = 0; r < o->random && f_ans > 0.5e-24 * yy; r++) {
        gsfw_settings rs;
        gsfw_settings_default(&rs);
        rs.method = GSFW_METHOD_ACCFW;
        rs.step = GSFW_STEP_LINE;
        rs.max_iter = o->round_iters;
        rs.L = L * pow(2.0, o->jitter * (2.0 * gsfw_rng_uniform(&rng) - 1.0));
        rs.polish = 1;
        rs.x0 = x_ans;
        gsfw_result rr = {.x_polished = x_pol};
        if (gsfw_solve(obj, &oracle, &rs, &rr, &info, &err)) goto fail;
        double f_r = info.f_polished;
        if (o->cosamp) f_r = cosamp_refine(&c, x_pol, f_r, o->cosamp);
        if (f_r < f_ans) {
            f_ans = f_r;
            memcpy(x_ans, x_pol, (size_t)d * sizeof(double));
            kept++;
        }
    }
    const double cpu_s = cpu_now() - cpu0;
    const double rel = rec_rel_err(x_ans, p.xstar, d);
    const double f1 = rec_support_f1(x_ans, p.xstar, d, NULL, NULL);
    const int ok = rel <= o->threshold;
    *ok_count += ok;
    printf("%d,%.6g,%.6g,%.6g,%.6f,%d,%d,%.3f,%d\n", seed, rel1, rel, f_ans, f1, stage1_restarts,
           kept, cpu_s, ok);
    fflush(stdout);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "frontier: seed %d: %s\n", seed, err.message[0] ? err.message : "out of memory");
done:
    free(x_ans);
    free(x_pol);
    free(c.g);
    free(c.b);
    free(c.x_try);
    free(c.gamma);
    free(c.sel);
    free(c.in);
    gsfw_dmo_free(c.head2);
    gsfw_dmo_free(loose);
    gsfw_dmo_free(dmo);
    gsfw_objective_free(obj);
    recover_instance_free(&p);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o)) {
        fprintf(stderr, "usage: frontier --image FILE.npy --ratio R [--seeds A:B] [--restarts 10]\n"
                        "                [--cosamp 0] [--random 0] [--jitter 1] [--round-iters 20]\n"
                        "                [--grow 1] [--threshold 0.05]\n");
        return 2;
    }
    printf("seed,rel_err1,rel_err,f,support_f1,stage1_restarts,rounds_kept,cpu_s,ok\n");
    int ok = 0;
    for (int seed = o.seed_lo; seed <= o.seed_hi; seed++)
        if (run_seed(&o, seed, &ok)) return 1;
    fprintf(stderr, "frontier: %s ratio %g, restarts %d, cosamp %d, random %d (jitter %g), grow %g: "
                    "%d of %d ok\n", o.image, o.ratio, o.restarts, o.cosamp, o.random, o.jitter,
            o.grow, ok, o.seed_hi - o.seed_lo + 1);
    return 0;
}
