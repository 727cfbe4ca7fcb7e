/* gsfw-mpi bench-reduce: the cost of the sum over ranks on this machine or cluster (the
 * latency and bandwidth terms of the cost model in docs/mpi.md), and whether
 * MPI_Allreduce gives every rank the same bits here. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_cli.h"

static const char usage[] =
    "usage: mpirun -np K gsfw-mpi bench-reduce [--reps R]\n"
    "\n"
    "For d = 1, 1e3, 1e4, 1e5, 1e6 doubles: microseconds per sum over the K ranks with\n"
    "gsfw-mpi's reducer (MPI_Reduce to rank 0 + MPI_Bcast) and with MPI_Allreduce, after a\n"
    "barrier (no waiting for slow ranks counted), and whether MPI_Allreduce left the same\n"
    "bits on every rank (same=1) for sums of values of mixed signs and magnitudes.\n";

/* FNV-1a over the bytes of a vector */
static uint64_t digest(const double *v, int count)
{
    const unsigned char *b = (const unsigned char *)v;
    uint64_t h = 1469598103934665603ULL;
    for (size_t k = 0; k < (size_t)count * sizeof(double); k++) h = (h ^ b[k]) * 1099511628211ULL;
    return h;
}

int mpi_cmd_bench_reduce(mpi_ctx *m, int argc, char **argv)
{
    const char *reps_text = NULL;
    cli_opt opts[] = {{"--reps", 0, &reps_text}};
    int reps = 20;
    mpi_quiet_begin(m);
    int rc = cli_parse("bench-reduce", argc, argv, opts, 1, usage);
    if (!rc && reps_text)
        rc = cli_parse_int("bench-reduce", "--reps", reps_text, 1, 1000000, &reps);
    mpi_quiet_end(m);
    if (rc) return rc;
    const int sizes[] = {1, 1000, 10000, 100000, 1000000};
    double *buf = malloc(1000000 * sizeof(double)), *src = malloc(1000000 * sizeof(double));
    if (mpi_agree(m, "bench-reduce", "allocation", buf && src ? CLI_OK : CLI_FAIL)) {
        free(buf);
        free(src);
        return CLI_FAIL;
    }
    MPI_Comm comm = m->comm;
    gsfw_reducer red = gsfw_mpi_reducer(&comm);
    if (m->rank == 0)
        printf("ranks=%d reps=%d\n%10s %16s %16s %6s\n", m->nprocs, reps, "d", "reduce+bcast_us",
               "allreduce_us", "same");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int d = sizes[k];
        /* values of mixed signs and magnitudes, different on every rank */
        for (int i = 0; i < d; i++)
            src[i] = (double)(((long long)i * 7919 + (long long)m->rank * 104729) % 2001 - 1000) *
                     (1.0 + 1e-3 * m->rank) / (1.0 + (i % 13));
        double t_red = 0.0, t_all = 0.0;
        for (int r = 0; r < reps; r++) {
            memcpy(buf, src, (size_t)d * sizeof(double));
            MPI_Barrier(comm);
            double t0 = MPI_Wtime();
            red.sum(red.ctx, buf, d);
            t_red += MPI_Wtime() - t0;
            MPI_Barrier(comm);
            t0 = MPI_Wtime();
            MPI_Allreduce(src, buf, d, MPI_DOUBLE, MPI_SUM, comm);
            t_all += MPI_Wtime() - t0;
        }
        unsigned long long h = digest(buf, d), lo, hi;
        MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
        MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
        double tr[2] = {t_red, t_all}, tmax[2];
        MPI_Reduce(tr, tmax, 2, MPI_DOUBLE, MPI_MAX, 0, comm);
        if (m->rank == 0)
            printf("%10d %16.2f %16.2f %6d\n", d, 1e6 * tmax[0] / reps, 1e6 * tmax[1] / reps,
                   lo == hi);
    }
    free(buf);
    free(src);
    return CLI_OK;
}
