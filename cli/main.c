/* gsfw command-line entry point: dispatch to the subcommands. */
#include "cli.h"
#include "params.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const cli_command commands[] = {
    {"solve", cmd_solve,
     "minimise loss(Ax, y) over D(C, M) with a Frank-Wolfe method or a baseline"},
    {"dmo", cmd_dmo, "run a dual maximisation oracle on a vector and print the support"},
    {"pcsf", cmd_pcsf, "solve a prize-collecting Steiner forest instance"},
    {"tail", cmd_tail, "tail projection of a vector onto M(G, s, g)"},
    {"recover", cmd_recover, "graph-structured compressive sensing of an image"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: gsfw <command> [options]\n       gsfw --version\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'gsfw <command> --help' for the options of a command, and\n'gsfw help ");
    for (int k = 0; k < GSFW_KIND_COUNT; k++) fprintf(out, "%s|", gsfw_kind_name((gsfw_kind)k));
    fprintf(out, "params' for the library's, one line each.\n");
}

/* Descriptors 0-2 that the caller closed are reopened on /dev/null: otherwise the next
 * file opened (say a temporary output) would become "stdout", and output meant for
 * stdout (or for --trace /dev/stdout) would be written into it. */
static void reserve_standard_descriptors(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (got >= 0 && got != fd) close(got); /* cannot happen: the lowest free is fd */
    }
}

/* The exit status of a run that printed to stdout: output lost (a full disk; a closed
 * pipe when SIGPIPE is ignored, which otherwise ends the process first) is a failure,
 * also when it was still buffered at the end. A run that failed already has reported
 * its error: the one message the CLI promises. */
static int finish(const char *cmd, int rc)
{
    errno = 0;
    int failed = fflush(stdout) != 0;
    int e = errno;
    if (rc != CLI_OK || (!failed && !ferror(stdout))) return rc;
    if (failed && e) return cli_fail(cmd, "cannot write to standard output: %s", strerror(e));
    return cli_fail(cmd, "cannot write to standard output");
}

int main(int argc, char **argv)
{
    reserve_standard_descriptors();
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("gsfw %s\n", gsfw_version());
        return finish("--version", CLI_OK);
    }
    if (!strcmp(argv[1], "help") && argc == 3) /* gsfw help models|methods|...: the registry */
        return finish("help", cli_help_topic(argv[2]));
    if (!strcmp(argv[1], "help") && argc > 3) {
        char topic[256], extra[256];
        cli_escape(argv[2], topic, sizeof topic);
        cli_escape(argv[3], extra, sizeof extra);
        fprintf(stderr, "gsfw help: one topic at a time, got '%s' after '%s'\n", extra, topic);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return finish("--help", CLI_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = commands[i].run(argc - 1, argv + 1);
            return finish(commands[i].name, rc == CLI_HELP ? CLI_OK : rc);
        }
    }
    char shown[256];
    cli_escape(argv[1], shown, sizeof shown);
    fprintf(stderr, "gsfw: unknown command '%s'\n", shown);
    usage(stderr);
    return CLI_USAGE;
}
