/* Lazy BPCG against AccFW on the vessel-map recovery of docs/experiments-megapixel.md,
 * through the library: settings.lazy (BPCG calls the head projection only when its local
 * pairwise steps stop paying) is not an option of `gsfw recover`.
 *
 *   usage: megapixel_lazy IMAGE.png RATIO ITERS METHOD [LAZY [STEP [G]]]
 *          METHOD accfw|bpcg|fw|pfw|afw; LAZY 0|1 (default 1); STEP auto|line|short|
 *          adaptive|agnostic (default line); G components (default 8, the vessel map's)
 *
 * The problem is recover's with --sensing dct --seed 0: x* = the image scaled to unit norm,
 * A = n = floor(RATIO s) rows of the orthonormal 2-D DCT scaled by sqrt(d/n), y = A x*,
 * f = 0.5 ||A x - y||^2, D = the head model (s, g) of radius 1, polish on. Prints one
 * line: iters, oracle calls, PCSF calls, oracle and gradient seconds, rel_err of the
 * polished point. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsfw.h"
#include "gsfw/operator.h"
#include "png_io.h"

static int fail(const char *what, const gsfw_err *err)
{
    fprintf(stderr, "megapixel_lazy: %s: %s\n", what, err ? err->message : "");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: megapixel_lazy IMAGE.png RATIO ITERS METHOD [LAZY [STEP [G]]]\n");
        return 2;
    }
    const char *method_name = argv[4];
    int lazy = argc > 5 ? atoi(argv[5]) : 1;
    const char *step_name = argc > 6 ? argv[6] : "line";
    int g = argc > 7 ? atoi(argv[7]) : 8;
    double ratio = atof(argv[2]);
    int iters = atoi(argv[3]);
    static const struct { const char *name; gsfw_method m; } methods[] = {
        {"accfw", GSFW_METHOD_ACCFW}, {"fw", GSFW_METHOD_FW}, {"bpcg", GSFW_METHOD_BPCG},
        {"pfw", GSFW_METHOD_PFW}, {"afw", GSFW_METHOD_AFW}};
    static const struct { const char *name; gsfw_step s; } steps[] = {
        {"auto", GSFW_STEP_AUTO}, {"line", GSFW_STEP_LINE}, {"short", GSFW_STEP_SHORT},
        {"adaptive", GSFW_STEP_ADAPTIVE}, {"agnostic", GSFW_STEP_AGNOSTIC}};
    int mi = -1, si = -1;
    for (int i = 0; i < 5; i++) {
        if (!strcmp(methods[i].name, method_name)) mi = i;
        if (!strcmp(steps[i].name, step_name)) si = i;
    }
    if (mi < 0 || si < 0 || !(ratio > 0) || iters < 1 || g < 1) {
        fprintf(stderr, "megapixel_lazy: bad METHOD '%s', STEP '%s', RATIO, ITERS or G\n",
                method_name, step_name);
        return 2;
    }

    gsfw_err err;
    double *img = NULL;
    int H, W;
    if (gsfw_png_read_gray(argv[1], &img, &H, &W, &err)) return fail("image", &err);
    int d = H * W, s = 0;
    double nrm = 0.0;
    for (int i = 0; i < d; i++) {
        s += img[i] != 0.0;
        nrm += img[i] * img[i];
    }
    nrm = sqrt(nrm);
    for (int i = 0; i < d; i++) img[i] /= nrm;
    int n = (int)floor(ratio * s);

    int rc = 1;
    gsfw_operator *A = NULL;
    gsfw_objective *obj = NULL;
    gsfw_graph *grid = NULL;
    gsfw_dmo *dmo = NULL;
    double *y = malloc((size_t)n * sizeof(double));
    double *xp = malloc((size_t)d * sizeof(double));
    if (!y || !xp) goto out;
    if (gsfw_operator_dct2(H, W, n, 0, &A, &err)) { fail("operator", &err); goto out; }
    if (A->apply(A->ctx, img, y)) { fail("measuring", NULL); goto out; }
    if (gsfw_objective_linear(A, n, y, NULL, &obj, &err)) { fail("objective", &err); goto out; }
    if (gsfw_graph_grid(H, W, &grid, &err)) { fail("grid", &err); goto out; }
    if (gsfw_dmo_head(grid, s, g, &dmo, &err)) { fail("head", &err); goto out; }

    gsfw_settings set;
    gsfw_settings_default(&set);
    set.method = methods[mi].m;
    set.step = steps[si].s;
    set.lazy = lazy;
    set.max_iter = iters;
    set.polish = 1;
    set.C = 1.0;
    gsfw_result res = {.x_polished = xp};
    gsfw_info info;
    if (gsfw_solve(obj, dmo, &set, &res, &info, &err)) { fail("solve", &err); goto out; }
    double e2 = 0.0;
    for (int i = 0; i < d; i++) e2 += (xp[i] - img[i]) * (xp[i] - img[i]);
    printf("method=%s lazy=%d step=%s d=%d s=%d g=%d n=%d iters=%d oracle_calls=%ld "
           "pcsf_calls=%ld time_s=%.3f oracle_s=%.3f gradient_s=%.3f polish_s=%.3f "
           "rel_err=%.3g\n", method_name, lazy, step_name, d, s, g, n, info.iterations,
           info.oracle_calls, gsfw_info_count(&info, "pcsf_calls"), info.solve_time, info.oracle_time,
           info.gradient_time, info.polish_time, sqrt(e2));
    rc = 0;
out:
    gsfw_dmo_free(dmo);
    gsfw_graph_free(grid);
    gsfw_objective_free(obj);
    gsfw_operator_free(A);
    gsfw_free(img);
    free(y);
    free(xp);
    return rc;
}
