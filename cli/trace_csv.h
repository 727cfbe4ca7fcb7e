/* Per-iterate trace as CSV (full precision, written atomically). */
#ifndef GSFW_CLI_TRACE_CSV_H
#define GSFW_CLI_TRACE_CSV_H

#include "gsfw.h"

/* Columns: iter,time_s,f,gap,[est_err,]support; numbers with 17 significant digits.
 * Returns CLI_OK or CLI_FAIL (message printed). */
int cli_write_trace(const char *cmd, const char *path, const gsfw_iterate *trace, int len,
                    int with_est_err);

#endif
