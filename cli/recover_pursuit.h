/* `gsfw recover --method graph-sp`: graph subspace pursuit, coarse to fine
 * (gsfw/pursuit.h), the default for large images (docs/recover.md). */
#ifndef GSFW_CLI_RECOVER_PURSUIT_H
#define GSFW_CLI_RECOVER_PURSUIT_H

#include "gsfw.h"
#include "recover_args.h"

/* 1 when a run without --method should use graph-sp: a pixel image of at least
 * GSFW_PYRAMID_MIN_PIXELS pixels with the head model. */
int recover_pursuit_wanted(const recover_args *a, int height, int width);

/* --levels: auto (NULL), none, or block sides "4,2", into st (the defaults of the image's
 * size first). Returns CLI_OK or CLI_USAGE (message printed). */
int recover_parse_levels(const char *cmd, const char *text, int height, int width,
                         gsfw_pyramid_settings *st);

/* The levels of the recovery over the sensing operator A and the measurements y.
 * Returns CLI_OK, or CLI_USAGE / CLI_FAIL with the message printed. */
int recover_pursuit_setup(const char *cmd, const recover_args *a, const gsfw_operator *A,
                          const double *y, int height, int width, int s, int g,
                          gsfw_pyramid **out);

/* gsfw_multilevel_solve with recover's settings (--iters per level, --tol, --tol-rel),
 * stopped by SIGINT / SIGTERM between iterations. level_info: one entry per level. */
gsfw_error recover_pursuit_run(const gsfw_pyramid *pyr, const recover_args *a,
                               const double *truth, gsfw_result *res, gsfw_info *info,
                               gsfw_info *level_info, gsfw_err *err);

/* The summary line's extra fields of a graph-sp run (" levels=2 level_s=...", comma-
 * separated per level, coarsest first), on stdout. */
void recover_pursuit_fields(const gsfw_pyramid *pyr, const gsfw_info *level_info);

#endif
