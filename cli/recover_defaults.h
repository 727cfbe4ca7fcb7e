/* Defaults of `gsfw recover` that `gsfw-mpi recover` shares. */
#ifndef GSFW_CLI_RECOVER_DEFAULTS_H
#define GSFW_CLI_RECOVER_DEFAULTS_H

/* The iteration count of a method (a gsfw_method) when --iters is not given: 500 for
 * fw, 50 for cosamp and graph-cosamp, 300 for the others. */
int cli_recover_default_iters(int method);

#endif
