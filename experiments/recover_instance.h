/* The problem `gsfw recover` builds (cli/cmd_recover.c, docs/recover.md), rebuilt for the
 * experiment drivers dump_problem.c and alt_polish.c: x* = the image flattened row-major
 * and scaled to unit l2 norm, s = nnz(x*), g = the components of supp(x*) on the
 * 4-neighbour grid, n = floor(ratio s), A with i.i.d. N(0, 1/n) entries drawn column by
 * column from gsfw_rng seeded with the seed, y = A x* (noiseless).
 * Header-only (static functions) because every experiments .c file is its own executable. */
#ifndef GSFW_EXPERIMENTS_RECOVER_INSTANCE_H
#define GSFW_EXPERIMENTS_RECOVER_INSTANCE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gsfw.h"
#include "recover_metrics.h" /* rec_rel_err, rec_support_f1: recover's own metrics */
#include "util/rng.h"

typedef struct {
    int H, W, d, n, s, g;
    double *xstar;   /* d */
    double *A;       /* n x d, column-major (A[j * n + i]) */
    double *y;       /* n */
    gsfw_graph *graph;
} recover_instance;

static void recover_instance_free(recover_instance *p) {
    free(p->xstar);
    free(p->A);
    free(p->y);
    gsfw_graph_free(p->graph);
}

/* 0 on success; prints the reason and returns 1 otherwise. */
static int recover_instance_build(const char *image, double ratio, unsigned long seed,
                                 recover_instance *p) {
    gsfw_err err = {0};
    double *img = NULL;
    int ndim = 0, shape[2] = {0, 0};
    *p = (recover_instance){0};
    if (gsfw_npy_read(image, &img, &ndim, shape, &err)) {
        fprintf(stderr, "%s: %s\n", image, err.message);
        return 1;
    }
    if (ndim != 2) {
        fprintf(stderr, "%s: not a 2-D array\n", image);
        gsfw_free(img);
        return 1;
    }
    p->H = shape[0];
    p->W = shape[1];
    p->d = p->H * p->W;
    const int d = p->d;
    p->xstar = malloc((size_t)d * sizeof(double));
    unsigned char *mask = malloc((size_t)d);
    int *work = malloc(2 * (size_t)d * sizeof(int));
    if (!p->xstar || !mask || !work) {
        fprintf(stderr, "out of memory\n");
        gsfw_free(img);
        free(mask);
        free(work);
        return 1;
    }
    /* the same operations in the same order as recover, so x* matches bit for bit */
    double amax = 0.0, nrm = 0.0;
    int nnz = 0;
    for (int i = 0; i < d; i++) {
        amax = fmax(amax, fabs(img[i]));
        nnz += img[i] != 0.0;
    }
    for (int i = 0; i < d; i++) {
        img[i] /= amax;
        nrm += img[i] * img[i];
    }
    nrm = sqrt(nrm);
    for (int i = 0; i < d; i++) p->xstar[i] = img[i] / nrm;
    gsfw_free(img);
    if (gsfw_graph_grid(p->H, p->W, &p->graph, &err)) {
        fprintf(stderr, "grid: %s\n", err.message);
        free(mask);
        free(work);
        return 1;
    }
    for (int i = 0; i < d; i++) mask[i] = p->xstar[i] != 0.0;
    p->g = gsfw_graph_induced_components(p->graph, mask, work);
    free(mask);
    free(work);
    p->s = nnz;
    p->n = (int)floor(ratio * nnz);
    if (p->n < 1) {
        fprintf(stderr, "ratio %g gives no measurements\n", ratio);
        return 1;
    }
    const int n = p->n;
    p->A = malloc((size_t)n * (size_t)d * sizeof(double));
    p->y = calloc((size_t)n, sizeof(double));
    if (!p->A || !p->y) {
        fprintf(stderr, "out of memory for a %d x %d matrix\n", n, d);
        return 1;
    }
    gsfw_rng rng;
    gsfw_rng_seed(&rng, (uint64_t)seed);
    const double sd = 1.0 / sqrt((double)n);
    for (size_t k = 0; k < (size_t)n * (size_t)d; k++) p->A[k] = sd * gsfw_rng_normal(&rng);
    for (int j = 0; j < d; j++)
        if (p->xstar[j] != 0.0)
            for (int i = 0; i < n; i++) p->y[i] += p->A[(size_t)j * n + i] * p->xstar[j];
    return 0;
}

#endif
