/* gsfw-mpi: the distributed subcommands of gsfw, started by mpirun. */
#include <stdio.h>
#include <string.h>

#include "mpi_cli.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: mpirun -np K gsfw-mpi <command> [options]\n\ncommands:\n"
                 "  solve    gsfw solve with the rows of A and y spread over the ranks\n"
                 "  recover  gsfw recover with each rank generating its rows of the sensing "
                 "matrix\n"
                 "  bench-reduce  time the sum over ranks (the cost model's network terms)\n"
                 "\nRun 'gsfw-mpi <command> --help' for the options of a command.\n");
}

int main(int argc, char **argv)
{
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "gsfw-mpi: MPI_Init failed\n");
        return CLI_FAIL;
    }
    mpi_ctx m = {MPI_COMM_WORLD, 0, 1, -1, -1};
    MPI_Comm_rank(m.comm, &m.rank);
    MPI_Comm_size(m.comm, &m.nprocs);
    int rc;
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (m.rank == 0) usage(argc < 2 ? stderr : stdout);
        rc = argc < 2 ? CLI_USAGE : CLI_OK;
    } else if (!strcmp(argv[1], "solve")) {
        rc = mpi_cmd_solve(&m, argc - 1, argv + 1);
    } else if (!strcmp(argv[1], "bench-reduce")) {
        rc = mpi_cmd_bench_reduce(&m, argc - 1, argv + 1);
    } else if (!strcmp(argv[1], "recover")) {
        rc = mpi_cmd_recover(&m, argc - 1, argv + 1);
    } else {
        if (m.rank == 0) {
            fprintf(stderr, "gsfw-mpi: unknown command '%s'\n", argv[1]);
            usage(stderr);
        }
        rc = CLI_USAGE;
    }
    if (rc == CLI_HELP) rc = CLI_OK;
    fflush(stdout);
    MPI_Finalize();
    return rc;
}
