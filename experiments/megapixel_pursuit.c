/* Coarse-to-fine graph subspace pursuit on the vessel-map recovery of
 * docs/experiments-megapixel.md, through the library, with its knobs exposed (recover
 * uses the defaults): one line per level and a total.
 *
 *   usage: megapixel_pursuit IMAGE.png RATIO [SEED [BLOCKS [EXPONENT [INNER [COARSE_INNER
 *                            [COARSE_STALL [G]]]]]]]
 *          BLOCKS: "auto" (default: gsfw_pyramid_settings_default), "none" (one level),
 *          or block sides "4,2"; EXPONENT: coarse sparsity s / block^EXPONENT (1.75);
 *          INNER, COARSE_INNER: refit iterations (30, 10); COARSE_STALL (1e-3); G (8)
 *
 * The problem is recover's with --sensing dct: x* = the image scaled to unit norm, A = n =
 * floor(RATIO s) rows of the orthonormal 2-D DCT (chosen by SEED) scaled by sqrt(d/n),
 * y = A x*, f = 0.5 ||A x - y||^2. Per level: its grid, s_k, iterations, status, oracle
 * and PCSF calls, the head projections' own calls and PCSF runs (head_calls, head_pcsf:
 * each level's head oracle is wrapped by a counter), seconds in the oracles and in the
 * objective (products and refits). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsfw.h"
#include "core/internal.h"
#include "counted_dmo.h"
#include "png_io.h"

static int parse_blocks(const char *text, int height, int width, gsfw_pyramid_settings *st)
{
    gsfw_pyramid_settings_default(st, height, width);
    if (!strcmp(text, "auto")) return 0;
    st->n_coarse = 0;
    if (!strcmp(text, "none")) return 0;
    for (const char *p = text; *p;) {
        if (st->n_coarse == GSFW_PYRAMID_MAX_COARSE) return -1;
        char *end;
        long b = strtol(p, &end, 10);
        if (end == p || b < 2) return -1;
        st->blocks[st->n_coarse++] = (int)b;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: megapixel_pursuit IMAGE.png RATIO [SEED [BLOCKS [EXPONENT "
                        "[INNER [COARSE_INNER [COARSE_STALL [G]]]]]]]\n");
        return 2;
    }
    const double ratio = atof(argv[2]);
    const unsigned long seed = argc > 3 ? strtoul(argv[3], NULL, 10) : 0;
    const char *blocks = argc > 4 ? argv[4] : "auto";
    gsfw_pursuit_settings set;
    gsfw_pursuit_settings_default(&set);
    if (argc > 6) set.inner_iters = atoi(argv[6]);
    if (argc > 7) set.coarse_inner_iters = atoi(argv[7]);
    if (argc > 8) set.coarse_stall = atof(argv[8]);
    const int g = argc > 9 ? atoi(argv[9]) : 8;

    gsfw_err err;
    double *img = NULL;
    int H, W;
    if (gsfw_png_read_gray(argv[1], &img, &H, &W, &err)) {
        fprintf(stderr, "megapixel_pursuit: %s\n", err.message);
        return 1;
    }
    gsfw_pyramid_settings pst;
    if (parse_blocks(blocks, H, W, &pst)) {
        fprintf(stderr, "megapixel_pursuit: bad BLOCKS '%s'\n", blocks);
        return 2;
    }
    if (argc > 5) pst.sparsity_exponent = atof(argv[5]);
    const int d = H * W;
    int s = 0;
    double nrm = 0.0;
    for (int i = 0; i < d; i++) {
        s += img[i] != 0.0;
        nrm += img[i] * img[i];
    }
    nrm = sqrt(nrm);
    for (int i = 0; i < d; i++) img[i] /= nrm;
    const int n = (int)floor(ratio * s);
    gsfw_operator *A = NULL;
    gsfw_pyramid *pyr = NULL;
    double *y = malloc((size_t)n * sizeof(double));
    double *x = malloc((size_t)d * sizeof(double));
    int rc = 1;
    if (!y || !x) goto out;
    if (gsfw_sensing_operator("dct", n, H, W, seed, 0, &A, &err) ||
        A->apply(A->ctx, img, y) ||
        gsfw_pyramid_image(A, y, H, W, s, g, NULL, &pst, &pyr, &err)) {
        fprintf(stderr, "megapixel_pursuit: %s\n", err.message);
        goto out;
    }
    int nl;
    const gsfw_level *pyr_levels = gsfw_pyramid_levels(pyr, &nl);
    gsfw_level levels[GSFW_PYRAMID_MAX_COARSE + 1];
    gsfw_dmo heads[GSFW_PYRAMID_MAX_COARSE + 1];
    gsfw_counted_dmo counts[GSFW_PYRAMID_MAX_COARSE + 1];
    for (int k = 0; k < nl; k++) {
        levels[k] = pyr_levels[k];
        heads[k] = gsfw_counted_wrap(pyr_levels[k].head, &counts[k], 0);
        levels[k].head = &heads[k];
    }
    gsfw_result res = {.x_best = x};
    gsfw_info info, linfo[GSFW_PYRAMID_MAX_COARSE + 1];
    set.x_true = img;
    double t0 = gsfw_now();
    if (gsfw_multilevel_solve(levels, nl, &set, &res, &info, linfo, &err)) {
        fprintf(stderr, "megapixel_pursuit: %s\n", err.message);
        goto out;
    }
    double wall = gsfw_now() - t0;
    long head_calls = 0, head_pcsf = 0;
    for (int k = 0; k < nl; k++) {
        int side = k < pst.n_coarse ? (H + pst.blocks[k] - 1) / pst.blocks[k] : H;
        printf("level=%d side=%d s=%d iters=%d status=%s oracle_calls=%ld pcsf_calls=%ld "
               "head_calls=%ld head_pcsf=%ld oracle_s=%.2f objective_s=%.2f\n", k, side,
               gsfw_pyramid_sparsity(pyr, k), linfo[k].iterations,
               gsfw_status_name(linfo[k].status), linfo[k].oracle_calls,
               gsfw_info_count(&linfo[k], "pcsf_calls"), counts[k].calls, counts[k].pcsf,
               linfo[k].oracle_time, linfo[k].gradient_time);
        head_calls += counts[k].calls;
        head_pcsf += counts[k].pcsf;
    }
    double e2 = 0.0;
    for (int i = 0; i < d; i++) e2 += (x[i] - img[i]) * (x[i] - img[i]);
    printf("total side=%d s=%d n=%d seed=%lu blocks=%s exponent=%g inner=%d/%d "
           "coarse_stall=%g status=%s oracle_calls=%ld pcsf_calls=%ld oracle_s=%.2f "
           "head_calls=%ld head_pcsf=%ld objective_s=%.2f solve_s=%.2f rel_err=%.3g\n", H, s,
           n, seed, blocks, pst.sparsity_exponent, set.inner_iters, set.coarse_inner_iters,
           set.coarse_stall, gsfw_status_name(info.status), info.oracle_calls,
           gsfw_info_count(&info, "pcsf_calls"), info.oracle_time, head_calls, head_pcsf,
           info.gradient_time, wall, sqrt(e2));
    rc = 0;
out:
    gsfw_pyramid_free(pyr);
    gsfw_operator_free(A);
    gsfw_free(img);
    free(y);
    free(x);
    return rc;
}
