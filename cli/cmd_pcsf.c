/* Placeholder until the pcsf subcommand lands. */
#include "cli.h"

int cmd_pcsf(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_fail("pcsf", "not available in this build yet");
}
