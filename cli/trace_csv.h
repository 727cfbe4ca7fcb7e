/* Per-iterate trace as CSV (full precision). */
#ifndef GSFW_CLI_TRACE_CSV_H
#define GSFW_CLI_TRACE_CSV_H

#include <stdio.h>

#include "gsfw.h"

/* Columns: iter,time_s,f,gap,[est_err,]support,gap_bound,step,active; numbers with 17
 * significant digits.
 * Returns 0, or -1 when the stream reports a write error. */
int cli_write_trace_stream(FILE *fp, const gsfw_iterate *trace, int len, int with_est_err);
/* The same into path, atomically. Returns CLI_OK or CLI_FAIL (message printed). */
int cli_write_trace(const char *cmd, const char *path, const gsfw_iterate *trace, int len,
                    int with_est_err);

#endif
