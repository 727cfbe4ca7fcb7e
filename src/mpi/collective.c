/* Decisions every rank must take together: setup success and when a run stops. */
#include "mpi/gsfw_mpi.h"

int gsfw_mpi_agree(MPI_Comm comm, int ok, int *failed)
{
    int mine[2] = {ok ? 0 : 1, ok ? 0 : 1}, all[2] = {0, 0};
    /* a failed collective leaves the verdict "failed" rather than hanging on a guess */
    if (MPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, comm) != MPI_SUCCESS) all[0] = 1;
    if (failed) *failed = all[0];
    return all[0] == 0;
}

int gsfw_mpi_stop_callback(const gsfw_iterate *it, const double *x, void *data)
{
    gsfw_mpi_stop *st = data;
    int mine = 0, all = 0;
    if (st->user && st->user(it, x, st->user_data)) mine = 1;
    /* rank 0's clock alone: the ranks' clocks and loads differ, the decision must not */
    if (st->rank == 0 && st->time_limit > 0 && it->time_s > st->time_limit && !mine) mine = 2;
    /* an int maximum is exact: every rank receives the same verdict */
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, st->comm) != MPI_SUCCESS) all = 1;
    if (all) st->reason = all;
    return all != 0;
}
