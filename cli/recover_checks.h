/* Warnings of `gsfw recover` about options the chosen method ignores and about images
 * that are not sparse (printed on stderr; the run goes on). */
#ifndef GSFW_CLI_RECOVER_CHECKS_H
#define GSFW_CLI_RECOVER_CHECKS_H

/* model_text, g_text, l_text: the raw option values (NULL when absent); method a
 * gsfw_method; compat: --reference-compat given. */
void recover_warn_ignored(const char *cmd, int method, const char *model_text,
                          const char *g_text, const char *l_text, int compat);

/* Warn when more than half of the d pixels are nonzero (nnz of them; s and n = floor(R s)
 * as used), naming the counts and the usual cures. */
void recover_warn_dense(const char *cmd, int nnz, int d, int s, int n);

#endif
