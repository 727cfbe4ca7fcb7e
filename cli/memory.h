/* Refusing a run that cannot fit, before it allocates: the library estimates what a run
 * needs (core/memory.h), the command-line tool knows what the process may still use. */
#ifndef GSFW_CLI_MEMORY_H
#define GSFW_CLI_MEMORY_H

#include "core/memory.h"

/* Take a command's --max-memory (NULL: not given; the limit is then the available
 * memory): a size with an optional K, M, G or T suffix (powers of 1024, an optional
 * trailing B or iB), or "unlimited". CLI_OK or CLI_USAGE (message printed). */
int cli_mem_set_limit(const char *cmd, const char *text);
/* Refuse `need` bytes for `what` beyond the limit: the --max-memory value, else what the
 * process may still allocate, the smallest of MemAvailable, the memory cgroup's limit
 * minus its usage (containers) and the address-space limit (RLIMIT_AS) minus what is
 * mapped. Prints "gsfw CMD: WHAT needs about X, but Y ..." and returns CLI_FAIL, or
 * returns CLI_OK. */
int cli_mem_check(const char *cmd, double need, const char *what);
/* Bytes of a regular file (0 otherwise: a pipe's size is not known in advance). */
double cli_mem_file_size(const char *path);

/* The --max-memory line of the commands' --help texts. */
#define CLI_MEM_HELP                                                                        \
    "  --max-memory SIZE  memory the run may use (e.g. 512M, 8G, unlimited); default:\n"    \
    "                    the available memory (the smallest of MemAvailable, the memory\n"  \
    "                    cgroup's room and the address-space limit of ulimit -v). A run\n"  \
    "                    that would need more is refused before it allocates\n"

#endif
