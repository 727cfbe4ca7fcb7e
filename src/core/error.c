/* Error codes, messages and the detailed error report. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

const char *gsfw_version(void) { return GSFW_VERSION; }

const char *gsfw_error_message(gsfw_error code)
{
    switch (code) {
    case GSFW_OK: return "success";
    case GSFW_ERR_NOMEM: return "out of memory";
    case GSFW_ERR_INVALID_ARG: return "invalid argument";
    case GSFW_ERR_DIMENSION: return "dimension mismatch";
    case GSFW_ERR_NONFINITE: return "non-finite value (NaN or Inf)";
    case GSFW_ERR_IO: return "input/output error";
    case GSFW_ERR_FORMAT: return "malformed or unsupported file";
    case GSFW_ERR_GRAPH: return "invalid graph";
    case GSFW_ERR_CALLBACK: return "a user callback failed";
    case GSFW_ERR_INTERNAL: return "internal error";
    }
    return "unknown error code";
}

gsfw_error gsfw_fail(gsfw_err *err, gsfw_error code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

void gsfw_err_clear(gsfw_err *err)
{
    if (err) {
        err->code = GSFW_OK;
        err->message[0] = '\0';
    }
}

void gsfw_free(void *ptr) { free(ptr); }
