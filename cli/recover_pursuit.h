/* gsfw recover's path for large images: graph subspace pursuit, coarse to fine
 * (gsfw/pursuit.h), chosen by --pursuit or, by default, by the image's size
 * (docs/recover.md). */
#ifndef GSFW_CLI_RECOVER_PURSUIT_H
#define GSFW_CLI_RECOVER_PURSUIT_H

#include "gsfw.h"
#include "recover_args.h"

/* Decide whether the run takes the pursuit (--pursuit on; --method graph-sp on pixels
 * with the default model; or without --pursuit: a pixel image of at least
 * GSFW_PYRAMID_MIN_PIXELS pixels with the default model, and none of the Frank-Wolfe
 * methods' flags given), and if so set a up for it: method name, --iters
 * per level (default RECOVER_PURSUIT_ITERS), always polished. Returns CLI_OK, or
 * CLI_USAGE with the message printed (--pursuit on where it cannot run). */
int recover_pursuit_choose(const char *cmd, recover_args *a, int height, int width);

/* The levels of the recovery over the sensing operator A and the measurements y
 * (--levels: none or block sides such as 4,2; by default, by the image's size). Returns CLI_OK, or CLI_USAGE /
 * CLI_FAIL with the message printed. */
int recover_pursuit_setup(const char *cmd, const recover_args *a, const gsfw_operator *A,
                          const double *y, int height, int width, int s, int g,
                          gsfw_pyramid **out);

/* gsfw_multilevel_solve with recover's settings (--iters per level, --tol, --tol-rel on
 * the polished f relative to f(0)), stopped by SIGINT / SIGTERM between iterations.
 * level_info: one entry per level. */
gsfw_error recover_pursuit_run(const gsfw_pyramid *pyr, const recover_args *a,
                               const double *truth, gsfw_result *res, gsfw_info *info,
                               gsfw_info *level_info, gsfw_err *err);

/* The summary line's fields of the levels (" levels=2 level_s=...,..."), into buf. */
void recover_pursuit_fields(const gsfw_pyramid *pyr, const gsfw_info *level_info, char *buf,
                            size_t cap);

#endif
