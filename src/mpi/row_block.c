/* Which rows each rank holds. */
#include "mpi/gsfw_mpi.h"

void gsfw_mpi_row_block(int n, int nprocs, int rank, int *row0, int *rows)
{
    long a = (long)rank * n / nprocs, b = (long)(rank + 1) * n / nprocs;
    *row0 = (int)a;
    *rows = (int)(b - a);
}
