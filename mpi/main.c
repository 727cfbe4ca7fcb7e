/* gsfw-mpi: the distributed subcommands of gsfw, started by mpirun. */
#include <stdio.h>
#include <stdlib.h>
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

/* FNV-1a over the arguments, their count and their boundaries */
static unsigned long long arguments_hash(int argc, char **argv)
{
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < argc; i++) {
        for (const unsigned char *c = (const unsigned char *)argv[i]; *c; c++)
            h = (h ^ *c) * 1099511628211ULL;
        h = (h ^ 0x100) * 1099511628211ULL;
    }
    return h;
}

/* Every rank must run the same command: ranks started with different arguments would
 * wait in different collectives for ever. Rank 0 names the ranks that differ. */
static int arguments_agree(const mpi_ctx *m, int argc, char **argv)
{
    unsigned long long mine = arguments_hash(argc - 1, argv + 1), root = mine;
    MPI_Bcast(&root, 1, MPI_UNSIGNED_LONG_LONG, 0, m->comm);
    int differs = mine != root, any = 0;
    MPI_Allreduce(&differs, &any, 1, MPI_INT, MPI_MAX, m->comm);
    if (!any) return 1;
    const char flag = (char)differs;
    char *flags = m->rank == 0 ? calloc((size_t)m->nprocs, 1) : NULL;
    MPI_Gather(&flag, 1, MPI_CHAR, flags, 1, MPI_CHAR, 0, m->comm);
    if (m->rank == 0) {
        char list[256] = "";
        const int count = flags ? mpi_rank_list(flags, m->nprocs, list, sizeof list) : 0;
        /* one write: the ranks share the terminal */
        fprintf(stderr, "gsfw-mpi: the ranks were started with different arguments: rank%s %s "
                "differ%s from rank 0; every rank must run the same command\n",
                count == 1 ? "" : "s", list, count == 1 ? "s" : "");
        free(flags);
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli_set_program("gsfw-mpi"); /* the shared subcommand code's messages name this tool */
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "gsfw-mpi: MPI_Init failed\n");
        return CLI_FAIL;
    }
    mpi_ctx m = {.comm = MPI_COMM_WORLD, .rank = 0, .nprocs = 1, .saved_stdout = -1,
                 .saved_stderr = -1, .held = ""};
    MPI_Comm_rank(m.comm, &m.rank);
    MPI_Comm_size(m.comm, &m.nprocs);
    int rc;
    if (!arguments_agree(&m, argc, argv)) {
        rc = CLI_USAGE;
    } else if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
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
    if (argc >= 2) mpi_flush_held(&m, argv[1]); /* a failure no agreement collected */
    fflush(stdout);
    MPI_Finalize();
    return rc;
}
