/* The Frank-Wolfe flags shared by `gsfw solve` and `gsfw recover`: --step, --tol,
 * --tol-rel and --polish. */
#ifndef GSFW_CLI_FW_FLAGS_H
#define GSFW_CLI_FW_FLAGS_H

#include "gsfw.h"

typedef struct {
    gsfw_step step;  /* GSFW_STEP_AUTO when not given */
    double tol;      /* 0 when not given */
    double tol_rel;  /* 0 when not given */
    int polish;      /* polish_default when --polish is not given */
} cli_fw_flags;

/* Parse the raw strings (NULL when absent). Returns CLI_OK or CLI_USAGE (message printed). */
int cli_parse_fw_flags(const char *cmd, const char *step_text, const char *tol_text,
                       const char *tol_rel_text, const char *polish_text, int polish_default,
                       cli_fw_flags *out);

#endif
