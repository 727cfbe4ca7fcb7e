/* The inputs of the README's command-line tour, written deterministically (seed 1):
 *
 *   A.npy      120 x 400 matrix, i.i.d. N(0, 1/120) entries (row-major float64)
 *   xstar.npy  400-vector x*: a 4 x 6 block of the 20 x 20 grid (rows 6-9, columns 5-10,
 *              24 connected nonzeros, values in [1, 1.5) before scaling), unit l2 norm
 *   y.npy      120-vector y = A x* (noiseless)
 *   grid20.txt the 20 x 20 grid as an edge list "u v" (node r*20 + c), 760 lines
 *   z.npy      100-vector on the 10 x 10 grid: two blobs (rows 1-3 x columns 1-3 and
 *              rows 6-7 x columns 5-8, values 2-3) over N(0, 0.1^2) background
 *   graph.txt  a 12-node graph for `gsfw pcsf`: "u v cost" lines, 16 edges
 *   prizes.npy its 12 node prizes
 *
 *   usage: example_data DIR     (DIR is created if missing; `make examples` passes
 *                                examples/data) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gsfw.h"
#include "util/rng.h"

enum { N = 120, SIDE = 20, D = SIDE * SIDE, ZSIDE = 10 };

static int write_npy(const char *dir, const char *name, const double *x, int ndim, int rows,
                     int cols)
{
    char path[4096];
    gsfw_err err;
    int shape[2] = {rows, cols};
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (gsfw_npy_write(path, x, ndim, shape, &err)) {
        fprintf(stderr, "example_data: %s\n", err.message);
        return 1;
    }
    return 0;
}

static FILE *open_text(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    if (!fp) fprintf(stderr, "example_data: cannot write '%s': %s\n", path, strerror(errno));
    return fp;
}

static int close_text(FILE *fp, const char *name)
{
    if (fclose(fp)) {
        fprintf(stderr, "example_data: error writing '%s'\n", name);
        return 1;
    }
    return 0;
}

static int least_squares_problem(const char *dir, gsfw_rng *rng)
{
    static double A[N * D], x[D], y[N];
    double nrm = 0.0;
    for (int r = 6; r <= 9; r++)
        for (int c = 5; c <= 10; c++) {
            x[r * SIDE + c] = 1.0 + 0.5 * gsfw_rng_uniform(rng);
            nrm += x[r * SIDE + c] * x[r * SIDE + c];
        }
    for (int i = 0; i < D; i++) x[i] /= sqrt(nrm);
    const double sd = 1.0 / sqrt((double)N);
    for (int k = 0; k < N * D; k++) A[k] = sd * gsfw_rng_normal(rng);
    for (int i = 0; i < N; i++) {
        double acc = 0.0;
        for (int j = 0; j < D; j++) acc += A[i * D + j] * x[j];
        y[i] = acc;
    }
    if (write_npy(dir, "A.npy", A, 2, N, D) || write_npy(dir, "xstar.npy", x, 1, D, 1) ||
        write_npy(dir, "y.npy", y, 1, N, 1))
        return 1;
    FILE *fp = open_text(dir, "grid20.txt");
    if (!fp) return 1;
    fprintf(fp, "# the 20 x 20 grid, node r*20 + c\n");
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++) {
            int i = r * SIDE + c;
            if (c + 1 < SIDE) fprintf(fp, "%d %d\n", i, i + 1);
            if (r + 1 < SIDE) fprintf(fp, "%d %d\n", i, i + SIDE);
        }
    return close_text(fp, "grid20.txt");
}

static int projection_input(const char *dir, gsfw_rng *rng)
{
    double z[ZSIDE * ZSIDE];
    for (int i = 0; i < ZSIDE * ZSIDE; i++) z[i] = 0.1 * gsfw_rng_normal(rng);
    for (int r = 1; r <= 3; r++)
        for (int c = 1; c <= 3; c++) z[r * ZSIDE + c] = 2.0 + gsfw_rng_uniform(rng);
    for (int r = 6; r <= 7; r++)
        for (int c = 5; c <= 8; c++) z[r * ZSIDE + c] = 2.0 + gsfw_rng_uniform(rng);
    return write_npy(dir, "z.npy", z, 1, ZSIDE * ZSIDE, 1);
}

/* Two clusters of valuable nodes (0-4 and 7-10) joined by an expensive path. */
static int pcsf_instance(const char *dir)
{
    static const int edges[][2] = {{0, 1},  {1, 2},  {2, 3},  {3, 4},  {4, 0},  {2, 5},
                                   {5, 6},  {6, 7},  {7, 8},  {8, 9},  {9, 10}, {10, 7},
                                   {8, 11}, {11, 5}, {1, 3},  {9, 11}};
    static const double costs[] = {1, 1, 1, 1, 2, 4, 4, 4, 1, 1, 1, 2, 3, 6, 2, 3};
    static const double prizes[] = {3, 2, 4, 2, 3, 0.5, 0.5, 3, 4, 2, 3, 0};
    FILE *fp = open_text(dir, "graph.txt");
    if (!fp) return 1;
    fprintf(fp, "# u v cost (0-based node ids)\n");
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
        fprintf(fp, "%d %d %g\n", edges[e][0], edges[e][1], costs[e]);
    if (close_text(fp, "graph.txt")) return 1;
    return write_npy(dir, "prizes.npy", prizes, 1, (int)(sizeof prizes / sizeof prizes[0]), 1);
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: example_data DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    char part[4096];
    size_t len = strlen(dir);
    if (len >= sizeof part) {
        fprintf(stderr, "example_data: path too long\n");
        return 2;
    }
    for (size_t i = 1; i <= len; i++) { /* mkdir -p */
        if (dir[i] != '/' && dir[i] != '\0') continue;
        memcpy(part, dir, i);
        part[i] = '\0';
        if (mkdir(part, 0777) && errno != EEXIST) {
            fprintf(stderr, "example_data: cannot create '%s': %s\n", part, strerror(errno));
            return 1;
        }
    }
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 1);
    if (least_squares_problem(dir, &rng) || projection_input(dir, &rng) || pcsf_instance(dir))
        return 1;
    printf("wrote %s/: A.npy (120 x 400), y.npy (120), xstar.npy (400), grid20.txt, z.npy "
           "(100), graph.txt (12 nodes, 16 edges), prizes.npy (12)\n", dir);
    return 0;
}
