/* The warning of `gsfw recover` about images that are not sparse (printed on stderr;
 * the run goes on). Options the chosen method ignores are the spec's to report. */
#ifndef GSFW_CLI_RECOVER_CHECKS_H
#define GSFW_CLI_RECOVER_CHECKS_H

/* Warn when more than half of the d pixels are nonzero (nnz of them; s and n = floor(R s)
 * as used), naming the counts and the usual cures. */
void recover_warn_dense(const char *cmd, int nnz, int d, int s, int n);

#endif
