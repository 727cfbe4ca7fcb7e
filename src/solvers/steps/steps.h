/* The built-in step rules (one file each). */
#ifndef GSFW_STEPS_H
#define GSFW_STEPS_H

#include "core/registry.h"

extern const gsfw_step_rule gsfw_step_rule_agnostic;
extern const gsfw_step_rule gsfw_step_rule_short;
extern const gsfw_step_rule gsfw_step_rule_adaptive;
extern const gsfw_step_rule gsfw_step_rule_line;

#endif
