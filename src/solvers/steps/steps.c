/* Names and lookup of the built-in step rules. */
#include "solvers/steps/steps.h"

#include <string.h>

static const char *const step_names[] = {"auto", "agnostic", "short", "adaptive", "line"};

int gsfw_step_parse(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < (int)(sizeof step_names / sizeof step_names[0]); i++)
        if (!strcmp(name, step_names[i])) return i;
    return -1;
}

const char *gsfw_step_name(gsfw_step step)
{
    if ((int)step < 0 || (int)step >= (int)(sizeof step_names / sizeof step_names[0]))
        return "unknown";
    return step_names[step];
}

const gsfw_step_rule *gsfw_step_rule_builtin(gsfw_step step)
{
    switch (step) {
    case GSFW_STEP_AGNOSTIC: return &gsfw_step_rule_agnostic;
    case GSFW_STEP_SHORT: return &gsfw_step_rule_short;
    case GSFW_STEP_ADAPTIVE: return &gsfw_step_rule_adaptive;
    case GSFW_STEP_LINE: return &gsfw_step_rule_line;
    default: return NULL;
    }
}
