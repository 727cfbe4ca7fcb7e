/* The inside of a gsfw_spec, shared by spec.c (values), spec_check.c (combinations) and
 * spec_build.c (what it builds). Not part of the public API. */
#ifndef GSFW_CORE_SPEC_H
#define GSFW_CORE_SPEC_H

#include "core/registry.h"

#define GSFW_SPEC_MAX_OWN 16
#define GSFW_SPEC_MAX_WARN 8

typedef struct {
    const gsfw_param *p;
    double num;              /* INT, UINT64, DOUBLE, BOOL, CHOICE */
    const gsfw_entry *entry; /* ENTRY (NULL: the kind's default) */
    int given;
} gsfw_spec_value;

struct gsfw_spec {
    unsigned uses;           /* GSFW_USES_*: the kinds in play */
    unsigned available;      /* GSFW_NEEDS_*: what the problem offers */
    int declared;            /* available was declared (or bound) */
    gsfw_spec_value *v;      /* one per parameter known to the spec */
    int nv, cap;
    const gsfw_entry *own[GSFW_SPEC_MAX_OWN];
    int n_own;
    const char *(*spell)(void *ctx, const char *param);
    void *spell_ctx;
    char warn[GSFW_SPEC_MAX_WARN][320];
    int n_warn;
    int d;                   /* bound: the dimension (0: not bound) */
    const gsfw_graph *graph;
    const gsfw_tree *tree;
};

gsfw_spec_value *gsfw_spec_value_of(const gsfw_spec *spec, const char *name);
/* Keep a warning (dropped beyond GSFW_SPEC_MAX_WARN). */
void gsfw_spec_warn(gsfw_spec *spec, const char *fmt, ...) GSFW_PRINTF(2, 3);
/* The names of a kind's entries in this spec, ", "-separated, into buf. */
void gsfw_spec_names(const gsfw_spec *spec, gsfw_kind kind, char *buf, size_t cap);

/* The model entry whose oracles the method builds: the method's own model (iht's top-s),
 * else the spec's. */
const gsfw_entry *gsfw_spec_model_entry(const gsfw_spec *spec);
/* Fill a target structure with the values of the parameters given (and the defaults of
 * those not given when with_defaults). */
void gsfw_spec_fill(const gsfw_spec *spec, gsfw_param_target target, void *base,
                    int with_defaults);

#endif
