/* Writes the exact problem `gsfw recover --image IMAGE --ratio R --seed N` solves, for
 * `gsfw solve` and for other solvers (experiments/sklearn_compare.py):
 *
 *   usage: dump_problem --image FILE.npy --ratio R [--seed N] --out-dir DIR
 *
 * DIR/A.npy (n x d, row-major), DIR/y.npy (n), DIR/xstar.npy (d), and on stdout one line
 * "n=.. d=.. s=.. g=.. H=.. W=..": the --s/--g/--graph arguments `gsfw solve` needs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "recover_instance.h"

static int write_npy(const char *dir, const char *name, const double *x, int ndim,
                     const int shape[2]) {
    char path[4096];
    gsfw_err err = {0};
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (gsfw_npy_write(path, x, ndim, shape, &err)) {
        fprintf(stderr, "dump_problem: %s\n", err.message);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *image = NULL, *out = NULL;
    double ratio = 0.0;
    unsigned long seed = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--image")) image = argv[i + 1];
        else if (!strcmp(argv[i], "--ratio")) ratio = strtod(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--seed")) seed = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--out-dir")) out = argv[i + 1];
        else {
            fprintf(stderr, "dump_problem: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!image || !out || !(ratio > 0) || argc % 2 == 0) {
        fprintf(stderr, "usage: dump_problem --image FILE.npy --ratio R [--seed N] --out-dir DIR\n");
        return 2;
    }
    if (mkdir(out, 0777) && errno != EEXIST) {
        fprintf(stderr, "dump_problem: cannot create '%s': %s\n", out, strerror(errno));
        return 1;
    }
    recover_instance p;
    if (recover_instance_build(image, ratio, seed, &p)) {
        recover_instance_free(&p);
        return 1;
    }
    const int n = p.n, d = p.d;
    double *Arow = malloc((size_t)n * (size_t)d * sizeof(double));
    int rc = !Arow;
    if (Arow) {
        for (int j = 0; j < d; j++)
            for (int i = 0; i < n; i++) Arow[(size_t)i * d + j] = p.A[(size_t)j * n + i];
        const int sA[2] = {n, d}, sy[2] = {n, 0}, sx[2] = {d, 0};
        rc = write_npy(out, "A.npy", Arow, 2, sA) || write_npy(out, "y.npy", p.y, 1, sy) ||
             write_npy(out, "xstar.npy", p.xstar, 1, sx);
    } else {
        fprintf(stderr, "dump_problem: out of memory\n");
    }
    if (!rc) printf("n=%d d=%d s=%d g=%d H=%d W=%d\n", n, d, p.s, p.g, p.H, p.W);
    free(Arow);
    recover_instance_free(&p);
    return rc;
}
