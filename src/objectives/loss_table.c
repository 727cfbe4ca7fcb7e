/* The losses by name: the loss parameters as registry rows, the options' defaults and
 * the enum values of the first three losses (each loss's row is in its file). */
#include "objectives/linear.h"
#include "core/registry.h"

#include <stddef.h>
#include <string.h>

const gsfw_param gsfw_params_loss[] = {
    {.name = "loss", .type = GSFW_PARAM_ENTRY, .kind = GSFW_KIND_LOSS,
     .flags = GSFW_PARAM_GENERAL, .help = "the loss of A x against y (gsfw help losses)"},
    {.name = "intercept", .type = GSFW_PARAM_BOOL, .flags = GSFW_PARAM_STRICT,
     .target = GSFW_TARGET_LOSS, .offset = offsetof(gsfw_loss_options, intercept),
     .help = "fit an unpenalised intercept b (profiled out)"},
    GSFW_PARAM_END,
};

void gsfw_loss_options_default(gsfw_loss_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->loss = GSFW_LOSS_SQUARED;
    gsfw_params_defaults(GSFW_TARGET_LOSS, opt);
}

const gsfw_loss_def *gsfw_loss_builtin(gsfw_loss loss)
{
    switch (loss) {
    case GSFW_LOSS_SQUARED: return &gsfw_loss_squared;
    case GSFW_LOSS_LOGISTIC: return &gsfw_loss_logistic;
    case GSFW_LOSS_HUBER: return &gsfw_loss_huber;
    }
    return NULL;
}

int gsfw_loss_parse(const char *name)
{
    const gsfw_entry *e = gsfw_registry_find(GSFW_KIND_LOSS, name);
    for (int k = GSFW_LOSS_SQUARED; e && k <= GSFW_LOSS_HUBER; k++)
        if (gsfw_loss_builtin((gsfw_loss)k) == e->def) return k;
    return -1;
}

const char *gsfw_loss_name(gsfw_loss loss)
{
    const gsfw_loss_def *def = gsfw_loss_builtin(loss);
    return def ? gsfw_loss_display_name(def) : "unknown";
}

const char *gsfw_loss_display_name(const gsfw_loss_def *def)
{
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_LOSS, i)); i++)
        if (e->def == def) return e->name;
    return def->name ? def->name : "?";
}

void gsfw_loss_options_def(gsfw_loss_options *opt, const gsfw_loss_def *def)
{
    gsfw_loss_options_default(opt);
    if (!opt || !def) return;
    opt->def = def;
    int builtin = gsfw_loss_parse(gsfw_loss_display_name(def));
    if (builtin >= 0) opt->loss = (gsfw_loss)builtin;
    for (int k = 0; def->params && k < def->n_params && k < GSFW_LOSS_MAX_PARAMS; k++)
        *(double *)((char *)opt + def->params[k].offset) = def->params[k].def;
}

int gsfw_loss_zero_row_free(const gsfw_loss_options *opt)
{
    const gsfw_loss_def *def = opt->def ? opt->def : gsfw_loss_builtin(opt->loss);
    if (!def || (def->target_problem && def->target_problem(0.0))) return 0;
    double param[GSFW_LOSS_MAX_PARAMS] = {0};
    for (int k = 0; def->params && k < def->n_params && k < GSFW_LOSS_MAX_PARAMS; k++)
        param[k] = *(const double *)((const char *)opt + def->params[k].offset);
    const double y = 0.0, z = 0.0; /* A x - y or A x: 0 either way */
    const gsfw_loss_params p = {.y = &y, .param = param};
    double g = 1.0;
    def->deriv(&p, 1, &z, 0.0, &g, NULL);
    return def->sum(&p, 1, &z, NULL, 0.0, 0.0, NULL) == 0.0 && g == 0.0;
}
