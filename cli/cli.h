/* Shared pieces of the gsfw command-line tool: option parsing, error reporting and
 * loading of the inputs every subcommand needs (vectors, matrices, graphs). */
#ifndef GSFW_CLI_H
#define GSFW_CLI_H

#include <stddef.h>

#include "gsfw.h"

#define CLI_OK 0
#define CLI_FAIL 1  /* run-time error (bad file, bad data) */
#define CLI_USAGE 2 /* bad command line */
#define CLI_HELP (-1)

/* One subcommand: `gsfw NAME ...` runs run(argc, argv) with argv[0] = NAME. */
typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} cli_command;

int cmd_solve(int argc, char **argv);
int cmd_dmo(int argc, char **argv);
int cmd_pcsf(int argc, char **argv);
int cmd_tail(int argc, char **argv);
int cmd_recover(int argc, char **argv);

/* Option table entry. Value options store the argument in *value; switches store "1".
 * Both forms --flag value and --flag=value are accepted. */
typedef struct {
    const char *flag;   /* e.g. "--iters" */
    int is_switch;      /* 1: takes no value */
    const char **value; /* where the argument (or "1") is stored; NULL initially */
} cli_opt;

/* Parse argv[1..argc-1] against opts. Prints usage and returns CLI_HELP on --help/-h;
 * prints a message naming the flag and returns CLI_USAGE on an unknown flag, a missing
 * value, a flag given twice or a stray positional argument; CLI_OK otherwise. */
int cli_parse(const char *cmd, int argc, char **argv, cli_opt *opts, int nopts,
              const char *usage);

/* The program the messages below name, "PROGRAM CMD: message": "gsfw" unless set.
 * gsfw-mpi runs the subcommands' shared code (their flags, checks and warnings) and sets
 * its own name once, before any message, so that they name the tool the user ran. */
void cli_set_program(const char *name);
const char *cli_program(void);
/* The message of the last error printed (cli_fail, cli_usage_error), "" after
 * cli_forget_error or when none was. */
const char *cli_last_error(void);
void cli_forget_error(void);

/* Report a usage problem ("gsfw CMD: message" + hint) and return CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Report a run-time failure ("gsfw CMD: message") and return CLI_FAIL. */
int cli_fail(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Copy in to out (cap bytes with the NUL) with control bytes, C1 controls and malformed
 * UTF-8 written as \xNN; stops early when out is full. Returns the length written.
 * cli_usage_error and cli_fail pass every message through it. */
size_t cli_escape(const char *in, char *out, size_t cap);
/* Report a library error (its detailed message when present) and return CLI_FAIL. */
int cli_fail_err(const char *cmd, gsfw_error code, const gsfw_err *err);

/* Require a flag: returns CLI_USAGE with a message when value is NULL. */
int cli_require(const char *cmd, const char *flag, const char *value);
/* Strict number parsing: the whole string must be a number in range; a message naming
 * the flag is printed and CLI_USAGE returned otherwise. */
int cli_parse_int(const char *cmd, const char *flag, const char *text, long lo, long hi,
                  int *out);
int cli_parse_double(const char *cmd, const char *flag, const char *text, double *out);

/* --L VALUE | spectral | atom: a positive number sets *L (rule untouched); "spectral" and
 * "atom" set *L = 0 and the estimation rule. Returns CLI_OK or CLI_USAGE. */
int cli_parse_L(const char *cmd, const char *text, double *L, gsfw_lipschitz_rule *rule);

/* Load a float64 vector from .npy (1-D, or 2-D with one row/column). Returns CLI_OK or
 * CLI_FAIL (message printed naming the flag and file). *x freed with gsfw_free. */
int cli_load_vector(const char *cmd, const char *flag, const char *path, double **x, int *len);
/* The vector check of cli_load_vector on an array already read (ndim, shape as from
 * gsfw_npy_read): *len = its length, or an error naming flag and path, *x freed and NULL. */
int cli_vector_length(const char *cmd, const char *flag, const char *path, double **x,
                      int ndim, const int shape[2], int *len);
/* Load a 2-D float64 matrix (row-major) from .npy. */
int cli_load_matrix(const char *cmd, const char *flag, const char *path, double **A,
                    int *rows, int *cols);

/* Build the graph from exactly one of --graph grid:HxW or --edges FILE; n_expected >= 0
 * requires the graph to have that many nodes (for --edges: ids < n_expected, the node
 * count is n_expected). Returns CLI_OK, CLI_USAGE or CLI_FAIL (message printed). */
int cli_load_graph(const char *cmd, const char *grid_spec, const char *edges_path,
                   int n_expected, gsfw_graph **out);

/* cli_load_graph with the node count of an edge list stated (--nodes N; 0: not stated).
 * An edge list whose largest id + 1 differs from n_expected is refused unless nodes is
 * stated (the extra nodes are then isolated); --nodes with --graph is a usage error. */
int cli_load_graph_sized(const char *cmd, const char *grid_spec, const char *edges_path,
                         int nodes, int n_expected, gsfw_graph **out);
/* --nodes N (text may be NULL: *nodes = 0). Returns CLI_OK or CLI_USAGE. */
int cli_parse_nodes(const char *cmd, const char *text, int *nodes);

/* "gsfw CMD: warning: message" on stderr, escaped as cli_usage_error's; the run goes on. */
void cli_warn(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "gsfw CMD: note: message", the same way: something the user may want to know. */
void cli_note(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* An output path as given, with "-" meaning standard output ("/dev/stdout", which the
 * output writers write in place). */
const char *cli_output_path(const char *path);

/* 1 when path ends with suffix, 0 otherwise; the _nocase form compares ASCII letters of
 * path without case (suffix in lower case: ".png" matches "x.PNG"). */
int cli_ends_with(const char *path, const char *suffix);
int cli_ends_with_nocase(const char *path, const char *suffix);

/* Print node ids on one line separated by spaces. */
void cli_print_ids(const int *ids, int count);

#endif
