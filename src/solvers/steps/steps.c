/* The step rule "auto" (each method's own choice, in its row) and the names of the
 * rules behind the gsfw_step enum values. */
#include "solvers/steps/steps.h"

const gsfw_entry gsfw_entry_step_auto = {
    GSFW_KIND_STEP, "auto",
    "the method's choice: agnostic for fw/accfw, line (quadratic objectives) or adaptive for "
    "the active-set methods", "", 0, GSFW_ENTRY_DEFAULT, NULL, NULL};

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

int gsfw_step_parse(const char *name)
{
    const gsfw_entry *e = gsfw_registry_find(GSFW_KIND_STEP, name);
    if (!e) return -1;
    if (!e->def) return GSFW_STEP_AUTO;
    for (int k = GSFW_STEP_AGNOSTIC; k <= GSFW_STEP_LINE; k++)
        if (gsfw_step_rule_builtin((gsfw_step)k) == e->def) return k;
    return -1; /* a rule without an enum value: select it by name through a gsfw_spec */
}

const char *gsfw_step_name(gsfw_step step)
{
    if (step == GSFW_STEP_AUTO) return gsfw_entry_step_auto.name;
    const gsfw_step_rule *rule = gsfw_step_rule_builtin(step);
    return rule ? rule->name : "unknown";
}
