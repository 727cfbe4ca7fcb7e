/* Sums over ranks for the linear objectives (gsfw_reducer), identical on every rank. */
#include "mpi/gsfw_mpi.h"

#include "core/internal.h"

/* Reduce to rank 0, then broadcast: the sum is computed once, so every rank holds the
 * same bits whatever order MPI adds the contributions in. */
static int sum_over_ranks(MPI_Comm comm, double *buf, int count)
{
    int rank;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return -1;
    int rc = MPI_Reduce(rank == 0 ? MPI_IN_PLACE : buf, rank == 0 ? buf : NULL, count,
                        MPI_DOUBLE, MPI_SUM, 0, comm);
    if (rc != MPI_SUCCESS) return -1;
    return MPI_Bcast(buf, count, MPI_DOUBLE, 0, comm) == MPI_SUCCESS ? 0 : -1;
}

static int plain_sum(void *ctx, double *buf, int count)
{
    return sum_over_ranks(*(MPI_Comm *)ctx, buf, count);
}

gsfw_reducer gsfw_mpi_reducer(MPI_Comm *comm)
{
    gsfw_reducer r = {comm, plain_sum};
    return r;
}

static int timed_sum(void *ctx, double *buf, int count)
{
    gsfw_mpi_reducer_stats *st = ctx;
    double t0 = MPI_Wtime();
    int rc = sum_over_ranks(st->comm, buf, count);
    st->seconds += MPI_Wtime() - t0;
    st->calls++;
    st->doubles += count;
    return rc;
}

gsfw_reducer gsfw_mpi_reducer_timed(gsfw_mpi_reducer_stats *stats)
{
    gsfw_reducer r = {stats, timed_sum};
    return r;
}
