/* Generic objective plumbing: user-callback objectives and destruction. */
#include "core/internal.h"

gsfw_error gsfw_objective_callback(int d, void *ctx,
                                   int (*value)(void *, const double *, double *),
                                   int (*gradient)(void *, const double *, double *),
                                   int (*value_grad)(void *, const double *, double *, double *),
                                   gsfw_objective **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "objective: output pointer is NULL");
    *out = NULL;
    if (d < 1) return gsfw_fail(err, GSFW_ERR_DIMENSION, "objective: dimension must be >= 1, got %d", d);
    if (!value || !gradient)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "objective: value and gradient callbacks are "
                         "required");
    gsfw_objective *obj = calloc(1, sizeof *obj);
    if (!obj) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory");
    obj->d = d;
    obj->ctx = ctx;
    obj->value = value;
    obj->gradient = gradient;
    obj->value_grad = value_grad;
    obj->destroy = NULL; /* the struct itself is freed by gsfw_objective_free */
    *out = obj;
    return GSFW_OK;
}

void gsfw_objective_free(gsfw_objective *obj)
{
    if (!obj) return;
    if (obj->destroy)
        obj->destroy(obj);
    else
        free(obj);
}
