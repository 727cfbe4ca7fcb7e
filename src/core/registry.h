/* The registry's internals: the definition of a method (kept out of the public API: a
 * new method means a new solver loop), the parameter tables and the lookups the spec
 * uses. Not part of the public API. */
#ifndef GSFW_CORE_REGISTRY_H
#define GSFW_CORE_REGISTRY_H

#include "core/internal.h"

struct gsfw_run;
struct gsfw_fw_plan;

/* A method. The Frank-Wolfe methods run through gsfw_solve (fw_loop), the baselines
 * through gsfw_baseline_solve (baseline_loop, with the oracles of recipe). */
typedef struct {
    gsfw_method id;
    int baseline;            /* 1: a baseline (gsfw_baseline_solve) */
    const char *family;      /* "Frank-Wolfe" or "baseline": "belongs to the %s methods" */
    int active_set;          /* 1: keeps an active set (max_active, lazy) */
    const char *auto_step[2]; /* the rule of GSFW_STEP_AUTO: [0] on a quadratic objective,
                                [1] otherwise */
    int typical_iters;       /* what the recovery experiments run (gsfw recover's default) */
    const char *own_model;   /* the model it always uses, whatever is asked ("topk"), or NULL */
    int oracles;             /* oracles it builds over the model (memory estimates) */
    int refits;              /* 1: minimises f on supports, so it needs the objective's
                                minimize_on (checked by gsfw_baseline_solve) */
    gsfw_error (*fw_loop)(struct gsfw_run *run, struct gsfw_fw_plan *plan, double *x);
    gsfw_error (*baseline_loop)(struct gsfw_run *run, const gsfw_baseline_settings *settings,
                                gsfw_dmo *head, gsfw_dmo *tail);
    /* a baseline with a driver of its own (graph-sp: gsfw_pursuit_solve), called by
     * gsfw_baseline_solve after its checks instead of baseline_loop; it checks whether
     * its answer shows f to have no minimiser itself (gsfw_run.check_answer) */
    gsfw_error (*own_solve)(gsfw_objective *obj, gsfw_dmo *head, gsfw_dmo *tail,
                            const gsfw_baseline_settings *settings, gsfw_result *result,
                            gsfw_info *info, gsfw_err *err);
    /* the head and tail oracles of a baseline over a model (gsfw_baseline_oracles) */
    gsfw_error (*recipe)(const gsfw_model_spec *spec, int reference_compat, gsfw_dmo **head,
                         gsfw_dmo **tail, gsfw_err *err);
} gsfw_method_def;

/* 1 if the entry is called name or answers to it (aliases). */
int gsfw_entry_answers(const gsfw_entry *e, const char *name);
/* "method", "model", "step rule", "loss", "sensing kind": a kind in messages. */
const char *gsfw_kind_noun(gsfw_kind kind);

/* The method entry of an enum value, or NULL. */
const gsfw_entry *gsfw_registry_method(gsfw_method id);
/* Its definition (entry->def), or NULL for a NULL entry. */
static inline const gsfw_method_def *gsfw_method_of(const gsfw_entry *e)
{
    return e ? (const gsfw_method_def *)e->def : NULL;
}

/* The names of the Frank-Wolfe methods (baseline = 0) or the baselines, ", "-separated. */
void gsfw_method_family_names(int baseline, char *buf, size_t cap);

/* A parameter table ends with a row whose name is NULL. */
#define GSFW_PARAM_END {.name = NULL}

/* The general parameter tables, one per structure they fill (the entries' own
 * parameters come with the entries). */
extern const gsfw_param gsfw_params_method[];  /* src/solvers/settings.c */
extern const gsfw_param gsfw_params_model[];   /* src/oracles/model_table.c */
extern const gsfw_param gsfw_params_loss[];    /* src/objectives/loss_table.c */
extern const gsfw_param gsfw_params_sensing[]; /* src/operators/sensing.c */

/* The checks of the general tables' values among themselves (g <= s; a rule only the
 * Frank-Wolfe family has), made by gsfw_spec_check when their kind is in play. */
gsfw_error gsfw_params_model_check(const gsfw_spec *spec, gsfw_err *err);
gsfw_error gsfw_params_method_check(const gsfw_spec *spec, gsfw_err *err);

/* The own parameters of an entry (a loss's), or NULL; *count receives their number. */
const gsfw_param *gsfw_entry_params(const gsfw_entry *e, int *count);
/* The kind a parameter belongs to (the kind that must be in play for it). */
gsfw_kind gsfw_param_kind(const gsfw_param *p);
/* 1 if a kind the parameter fills (either target) is among uses (GSFW_USES_*). */
int gsfw_param_in_play(const gsfw_param *p, unsigned uses);

/* Fill a target structure from a value: the field at p->offset (and the second target's,
 * for parameters with two) in `base` when p->target == target. */
void gsfw_param_store(const gsfw_param *p, gsfw_param_target target, void *base, double num,
                      const char *name);

/* 1 if x lies in the parameter's range; the range as "must be > 0", "must be in (0, 1]"
 * or "must be between 1 and 100"; gsfw_param_check: 0 when in range, else 1 with the
 * range text in why. */
int gsfw_param_in_range(const gsfw_param *p, double x);
void gsfw_param_range_text(const gsfw_param *p, char *buf, size_t cap);
int gsfw_param_check(const gsfw_param *p, double x, char *why, size_t cap);

/* The name a loss is known by (its entry's, else its def's). */
const char *gsfw_loss_display_name(const gsfw_loss_def *def);

/* Apply every general parameter's default to a target structure (the settings'
 * *_default functions). */
void gsfw_params_defaults(gsfw_param_target target, void *base);

/* The k-th (from 0) value the entry fixes ("s=1" in its uses): the parameter's name into
 * name (cap >= 1 bytes, truncated) and the value into *value; 0 when it fixes fewer. */
int gsfw_entry_fixed_at(const gsfw_entry *e, int k, char *name, size_t cap, double *value);
/* 1 if the entry fixes the parameter ("s=1" in its uses), with the value in *value (may
 * be NULL); else 0. */
int gsfw_entry_fixed(const gsfw_entry *e, const char *param, double *value);

/* GSFW_ERR_INVALID_ARG when the spec's s or g differs from a value the model entry fixes
 * ("s=1" in its uses; g <= 0 counts as 1), with the spec check's message. */
gsfw_error gsfw_model_check_fixed(const gsfw_entry *e, const gsfw_model_spec *spec,
                                  gsfw_err *err);

/* The model entry called name among the built-ins (gsfw_dmo_from_model). */
gsfw_error gsfw_model_build(const gsfw_entry *model, const gsfw_model_spec *spec,
                            gsfw_dmo **out, gsfw_err *err);

#endif
