#include "fw_flags.h"

#include <string.h>

#include "cli.h"

int cli_parse_fw_flags(const char *cmd, const char *step_text, const char *tol_text,
                       const char *tol_rel_text, const char *polish_text, int polish_default,
                       cli_fw_flags *out)
{
    int rc, step = GSFW_STEP_AUTO;
    out->tol = out->tol_rel = 0.0;
    out->polish = polish_default;
    if (step_text && (step = gsfw_step_parse(step_text)) < 0)
        return cli_usage_error(cmd, "unknown step rule '%s' (known: auto, agnostic, short, "
                               "adaptive, line)", step_text);
    out->step = (gsfw_step)step;
    if (tol_text) {
        if ((rc = cli_parse_double(cmd, "--tol", tol_text, &out->tol))) return rc;
        if (!(out->tol > 0)) return cli_usage_error(cmd, "--tol must be > 0, got %s", tol_text);
    }
    if (tol_rel_text) {
        if ((rc = cli_parse_double(cmd, "--tol-rel", tol_rel_text, &out->tol_rel))) return rc;
        if (!(out->tol_rel > 0 && out->tol_rel < 1))
            return cli_usage_error(cmd, "--tol-rel must be in (0, 1), got %s", tol_rel_text);
    }
    if (polish_text) {
        if (!strcmp(polish_text, "on"))
            out->polish = 1;
        else if (!strcmp(polish_text, "off"))
            out->polish = 0;
        else
            return cli_usage_error(cmd, "--polish must be on or off, got '%s'", polish_text);
    }
    return CLI_OK;
}
