/* Placeholder until the recover subcommand lands. */
#include "cli.h"

int cmd_recover(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_fail("recover", "not available in this build yet");
}
