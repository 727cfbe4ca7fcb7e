/* Coarse-to-fine graph subspace pursuit (docs/pursuit.md): recover a 128 x 128 image of
 * two thick strokes from 3 s rows of the 2-D DCT, with one coarse level of 2 x 2 blocks.
 * Prints the levels' work and the relative error; exits 1 unless the image is recovered
 * (relative error <= 1e-6). Build after `make install`:
 *   cc pursuit_image.c $(pkg-config --cflags --libs gsfw) -lm -o pursuit_image
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gsfw.h"

enum { H = 128, W = 128, D = H * W };

int main(void)
{
    static double truth[D], y[D], x_best[D], x_last[D];
    int s = 0;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) {
            /* a diagonal stroke and a horizontal one, 3 pixels thick, of varying intensity */
            int on = abs(r - c) <= 1 || (r >= 90 && r < 93 && c >= 20 && c < 110);
            truth[r * W + c] = on ? 1.0 + 0.5 * sin(0.1 * (r + c)) : 0.0;
            s += on;
        }
    const int n = 3 * s, g = 1;
    gsfw_err err;
    gsfw_operator *A = NULL;
    gsfw_pyramid *pyr = NULL;
    if (gsfw_sensing_operator("dct", n, H, W, 7, 0, &A, &err) ||
        A->apply(A->ctx, truth, y)) {
        fprintf(stderr, "sensing: %s\n", err.message);
        return 1;
    }
    gsfw_pyramid_settings levels;
    gsfw_pyramid_settings_default(&levels, H, W); /* no coarse level below 512 x 512 ... */
    levels.n_coarse = 1;                          /* ... so ask for one, of 2 x 2 blocks */
    levels.blocks[0] = 2;
    if (gsfw_pyramid_image(A, y, H, W, s, g, NULL, &levels, &pyr, &err)) {
        fprintf(stderr, "pyramid: %s\n", err.message);
        return 1;
    }
    gsfw_pursuit_settings set;
    gsfw_pursuit_settings_default(&set);
    static gsfw_iterate trace[64];
    gsfw_result res = {.x_best = x_best, .x_last = x_last, .trace = trace,
                       .trace_capacity = 64};
    gsfw_info info, per_level[2];
    int n_levels = 0;
    const gsfw_level *lv = gsfw_pyramid_levels(pyr, &n_levels);
    gsfw_error e = gsfw_multilevel_solve(lv, n_levels, &set, &res, &info, per_level, &err);
    if (e) {
        fprintf(stderr, "solve: %s\n", err.message);
        return 1;
    }
    double num = 0.0, den = 0.0;
    for (int i = 0; i < D; i++) {
        num += (x_best[i] - truth[i]) * (x_best[i] - truth[i]);
        den += truth[i] * truth[i];
    }
    for (int k = 0; k < n_levels; k++)
        printf("level %d: s = %d, %d iterations, %ld projections (%ld PCSF runs)\n", k,
               gsfw_pyramid_sparsity(pyr, k), per_level[k].iterations,
               per_level[k].oracle_calls, gsfw_info_count(&per_level[k], "pcsf_calls"));
    const double rel = sqrt(num / den);
    printf("status %s, relative error %.2e\n", gsfw_status_name(info.status), rel);
    gsfw_pyramid_free(pyr);
    gsfw_operator_free(A);
    return rel <= 1e-6 ? 0 : 1;
}
