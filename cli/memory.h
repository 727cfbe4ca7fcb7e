/* What a run will allocate, what the process may still allocate, and the refusal when
 * the first exceeds the second.
 *
 * Commands estimate their large allocations (dense matrices, graphs, PCSF workspaces,
 * traces) from the sizes of their inputs before making them, so that a run which cannot
 * fit ends with a message instead of being killed by the kernel's out-of-memory killer
 * halfway through. The estimates are sizes in, bytes out (doubles, so that no product
 * overflows), and are summed by the caller. */
#ifndef GSFW_CLI_MEMORY_H
#define GSFW_CLI_MEMORY_H

#include <stddef.h>

/* Bytes of a dense rows x cols matrix of doubles. */
double cli_mem_dense(double rows, double cols);
/* Bytes of a gsfw_graph with the given nodes and edges (adjacency, edge lists, costs). */
double cli_mem_graph(double nodes, double edges);
/* Bytes of one head or tail projection on such a graph: its own copies of prizes and
 * costs plus the PCSF workspace (clusters, pairing heaps, pruning scratch). */
double cli_mem_pcsf(double nodes, double edges);
/* Bytes of a trace of iters + 1 iterates. */
double cli_mem_trace(double iters);

/* Memory the process may still allocate, in bytes: the smallest of MemAvailable in
 * /proc/meminfo, the memory cgroup's limit minus its usage (containers), and the
 * address-space limit (RLIMIT_AS) minus what is mapped now. Negative when none is known
 * (then no check is made). */
double cli_mem_available(void);

/* Parse --max-memory: a size with an optional K, M, G or T suffix (powers of 1024, an
 * optional trailing B or iB), or "unlimited". *bytes < 0 means unlimited. Returns CLI_OK
 * or CLI_USAGE (message printed). */
int cli_mem_parse_limit(const char *cmd, const char *text, double *bytes);

/* "24.4 GB"-style text of a byte count (binary units: KB = 1024 bytes). */
void cli_mem_format(double bytes, char *buf, size_t cap);

/* Take the --max-memory flag of a command (NULL: not given; the limit is then the
 * available memory). Returns CLI_OK or CLI_USAGE (message printed). The value is kept for
 * cli_mem_check (the process runs one command). */
int cli_mem_set_limit(const char *cmd, const char *text);
/* Refuse a run that needs `need` bytes for `what` when they exceed the limit: the
 * --max-memory value when given, else the available memory. Prints "gsfw CMD: WHAT needs
 * about X, but Y are available (...)" and returns CLI_FAIL, or returns CLI_OK. */
int cli_mem_check(const char *cmd, double need, const char *what);
/* Bytes of a file (0 when it cannot be stat'ed or is not a regular file: a pipe's size
 * is not known in advance). */
double cli_mem_file_size(const char *path);

/* The --max-memory line of the commands' --help texts. */
#define CLI_MEM_HELP                                                                        \
    "  --max-memory SIZE  memory the run may use (e.g. 512M, 8G, unlimited); default:\n"    \
    "                    the available memory (the smallest of MemAvailable, the memory\n"  \
    "                    cgroup's room and the address-space limit of ulimit -v). A run\n"  \
    "                    that would need more is refused before it allocates\n"

#endif
