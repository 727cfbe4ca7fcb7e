/* Placeholder until the tail subcommand lands. */
#include "cli.h"

int cmd_tail(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_fail("tail", "not available in this build yet");
}
