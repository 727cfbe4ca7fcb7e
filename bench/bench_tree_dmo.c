/* Cost of the exact tree DMOs on the wavelet quadtree of a side x side image against
 * the exact top-s oracle and one 2-D wavelet analysis (Haar) of the same image,
 * measured side by side in one run (median of the repeats). Times are CPU time of the
 * process (the machine's other load does not count), with wall time for reference.
 *   usage: bench_tree_dmo [side = 256] [s = 5000] [repeats = 5] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/internal.h"
#include "gsfw.h"
#include "util/rng.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Median CPU seconds of `repeats` select() calls on z (*wall: median wall seconds; *size:
 * the support size of the last call). */
static double time_select(gsfw_dmo *dmo, const double *z, int *support, int repeats,
                          double *times, double *wall, int *size)
{
    double *walls = times + repeats;
    for (int r = 0; r < repeats; r++) {
        double w0 = gsfw_now(), t0 = cpu_now();
        if (dmo->select(dmo->ctx, z, support, size, NULL)) return -1.0;
        times[r] = cpu_now() - t0;
        walls[r] = gsfw_now() - w0;
    }
    qsort(times, (size_t)repeats, sizeof(double), cmp_double);
    qsort(walls, (size_t)repeats, sizeof(double), cmp_double);
    *wall = walls[repeats / 2];
    return times[repeats / 2];
}

int main(int argc, char **argv)
{
    int side = argc > 1 ? atoi(argv[1]) : 256;
    int s = argc > 2 ? atoi(argv[2]) : 5000;
    int repeats = argc > 3 ? atoi(argv[3]) : 5;
    int n = side * side;
    if (side < 2 || s < 1 || s > n || repeats < 1) {
        fprintf(stderr, "usage: bench_tree_dmo [side >= 2, power of two] [1 <= s <= side^2] "
                        "[repeats >= 1]\n");
        return 2;
    }
    gsfw_err err;
    gsfw_tree *tree;
    gsfw_operator *op;
    if (gsfw_tree_quadtree(side, side, &tree, &err) ||
        gsfw_operator_wavelet2d(side, "haar", &op, &err)) {
        fprintf(stderr, "bench_tree_dmo: %s\n", err.message);
        return 1;
    }
    /* coefficients of a smooth image plus noise: energy decays down the tree */
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 1);
    double *img = malloc((size_t)n * sizeof(double)), *z = malloc((size_t)n * sizeof(double));
    double *times = malloc(2 * (size_t)repeats * sizeof(double));
    int *support = malloc((size_t)n * sizeof(int));
    if (!img || !z || !times || !support) return 1;
    for (int r = 0; r < side; r++)
        for (int c = 0; c < side; c++)
            img[r * side + c] = ((r / (side / 4) + c / (side / 4)) % 2) +
                                0.05 * gsfw_rng_normal(&rng);
    double t_wav = 0.0;
    for (int r = 0; r < repeats; r++) {
        double t0 = cpu_now();
        op->adjoint(op->ctx, img, z);
        times[r] = cpu_now() - t0;
    }
    qsort(times, (size_t)repeats, sizeof(double), cmp_double);
    t_wav = times[repeats / 2];

    struct {
        const char *name;
        gsfw_dmo *dmo;
    } runs[4] = {{"topk", NULL}, {"tree-rooted", NULL}, {"tree-forest g=4", NULL},
                 {"tree-connected", NULL}};
    double t_build[4];
    for (int k = 0; k < 4; k++) {
        double t0 = gsfw_now();
        gsfw_error rc = k == 0   ? gsfw_dmo_topk(n, s, &runs[k].dmo, &err)
                        : k == 1 ? gsfw_dmo_tree_rooted(tree, s, &runs[k].dmo, &err)
                        : k == 2 ? gsfw_dmo_tree_forest(tree, s, 4, &runs[k].dmo, &err)
                                 : gsfw_dmo_tree_connected(tree, s, &runs[k].dmo, &err);
        t_build[k] = gsfw_now() - t0;
        if (rc) {
            fprintf(stderr, "bench_tree_dmo: %s\n", err.message);
            return 1;
        }
    }
    printf("quadtree %dx%d (n = %d), s = %d, median of %d\n", side, side, n, s, repeats);
    printf("haar analysis: %.3f ms\n", 1e3 * t_wav);
    double t_topk = 0.0;
    for (int k = 0; k < 4; k++) {
        int size = 0;
        double wall = 0.0;
        double t = time_select(runs[k].dmo, z, support, repeats, times, &wall, &size);
        double energy = 0.0;
        for (int i = 0; i < size; i++) energy += z[support[i]] * z[support[i]];
        if (k == 0) t_topk = t;
        printf("%-16s build %8.3f ms  select %9.3f ms cpu (%7.1f x topk, wall %9.3f ms)  "
               "|S| = %d  ||z_S||^2 = %.6g\n", runs[k].name, 1e3 * t_build[k], 1e3 * t,
               t / t_topk, 1e3 * wall, size, energy);
        gsfw_dmo_free(runs[k].dmo);
    }
    gsfw_operator_free(op);
    gsfw_tree_free(tree);
    free(img);
    free(z);
    free(times);
    free(support);
    return 0;
}
