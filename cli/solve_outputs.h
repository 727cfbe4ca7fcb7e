/* The files gsfw solve writes (--out, --best-out, --trace, --polished-out): checked
 * before the run, written together after it. */
#ifndef GSFW_CLI_SOLVE_OUTPUTS_H
#define GSFW_CLI_SOLVE_OUTPUTS_H

#include <stdio.h>

#include "gsfw.h"

/* Two outputs naming one file (however spelt) would overwrite each other: refused (a
 * usage error naming both flags) before any work. Special files such as /dev/null may
 * be given more than once. NULL paths are outputs not asked for. */
int cli_solve_distinct_outputs(const char *cmd, const char *out_path, const char *best_path,
                               const char *trace_path, const char *pol_path);

/* The outputs of a solve command (*paths[0..3]: --out, --best-out, --trace,
 * --polished-out; NULL when not asked for): at most one is '-' (standard output), each
 * is then spelt as the writers take it ('-' becomes /dev/stdout), and no two name one
 * file. *summary: stdout, or stderr when an output takes standard output. Returns CLI_OK
 * or CLI_USAGE (message printed). */
int cli_solve_plan_outputs(const char *cmd, const char **const paths[4], FILE **summary);

/* Write the requested outputs (NULL paths skipped) together: every file goes to a
 * temporary first and they are renamed into place only when all were written, so a
 * failure leaves neither a partial file nor a mix of old and new outputs, and never
 * deletes a file that existed. Returns CLI_OK, CLI_FAIL or, when a signal came during
 * the move, 128 + the signal (message printed). */
int cli_solve_write_outputs(const char *cmd, const char *out_path, const char *best_path,
                            const char *trace_path, const char *pol_path, const double *x_last,
                            const double *x_best, const double *x_pol, int d,
                            const gsfw_iterate *trace, int trace_len, int with_est_err);

#endif
