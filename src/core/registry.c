/* The list of the built-ins: one line per entry, each entry defined in the file that
 * implements it. A new built-in is that file and one line below (in the place it should
 * take in listings). */
#include "core/registry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GSFW_BUILTINS(X)                                       \
    /* methods: the Frank-Wolfe family, then the baselines */  \
    X(method_fw)                                               \
    X(method_accfw)                                            \
    X(method_afw)                                              \
    X(method_pfw)                                              \
    X(method_bpcg)                                             \
    X(method_iht)                                              \
    X(method_cosamp)                                           \
    X(method_graph_iht)                                        \
    X(method_graph_cosamp)                                     \
    X(method_gen_mp)                                           \
    X(method_graph_sp)                                         \
    /* support models */                                       \
    X(model_topk)                                              \
    X(model_topk_approx)                                       \
    X(model_l1)                                                \
    X(model_subgraph)                                          \
    X(model_head)                                              \
    X(model_tail)                                              \
    X(model_tree)                                              \
    X(model_tree_connected)                                    \
    X(model_interval)                                          \
    /* step rules */                                           \
    X(step_auto)                                               \
    X(step_agnostic)                                           \
    X(step_short)                                              \
    X(step_adaptive)                                           \
    X(step_line)                                               \
    X(step_armijo)                                             \
    /* losses */                                               \
    X(loss_ls)                                                 \
    X(loss_logistic)                                           \
    X(loss_huber)                                              \
    X(loss_squared_hinge)                                      \
    /* sensing operators */                                    \
    X(sensing_gaussian)                                        \
    X(sensing_implicit_gaussian)                               \
    X(sensing_dct)                                             \
    X(sensing_hadamard)                                        \
    X(sensing_dct_signs)                                       \
    X(sensing_hadamard_signs)                                  \
    X(sensing_rademacher)                                      \
    /* bases of the unknowns */                                \
    X(basis_pixel)                                             \
    X(basis_haar)                                              \
    X(basis_db4)

#define DECLARE(row) extern const gsfw_entry gsfw_entry_##row;
GSFW_BUILTINS(DECLARE)
#undef DECLARE

#define ADDRESS(row) &gsfw_entry_##row,
static const gsfw_entry *const builtins[] = {GSFW_BUILTINS(ADDRESS)};
#undef ADDRESS
#define N_BUILTINS ((int)(sizeof builtins / sizeof builtins[0]))

/* the general parameters, in listing order */
static const gsfw_param *const param_tables[] = {gsfw_params_method, gsfw_params_model,
                                                 gsfw_params_loss, gsfw_params_sensing};
#define N_TABLES ((int)(sizeof param_tables / sizeof param_tables[0]))

static const char *const kind_names[GSFW_KIND_COUNT][2] = {
    {"methods", "method"}, {"models", "model"}, {"steps", "step"}, {"losses", "loss"},
    {"sensing", "sensing"}, {"bases", "basis"}};

const char *gsfw_kind_noun(gsfw_kind kind)
{
    static const char *const nouns[GSFW_KIND_COUNT] = {"method", "model", "step rule", "loss",
                                                       "sensing kind", "basis"};
    return (int)kind >= 0 && kind < GSFW_KIND_COUNT ? nouns[kind] : "entry";
}

const char *gsfw_kind_param(gsfw_kind kind)
{
    static const char *const params[GSFW_KIND_COUNT] = {"method", "model", "step", "loss",
                                                        "sensing", "basis"};
    return (int)kind >= 0 && kind < GSFW_KIND_COUNT ? params[kind] : NULL;
}

const char *gsfw_kind_name(gsfw_kind kind)
{
    return (int)kind >= 0 && kind < GSFW_KIND_COUNT ? kind_names[kind][0] : NULL;
}

int gsfw_kind_parse(const char *name)
{
    for (int k = 0; name && k < GSFW_KIND_COUNT; k++)
        if (!strcmp(name, kind_names[k][0]) || !strcmp(name, kind_names[k][1])) return k;
    return -1;
}

const gsfw_entry *gsfw_registry_entry(gsfw_kind kind, int i)
{
    for (int k = 0; k < N_BUILTINS; k++)
        if (builtins[k]->kind == kind && i-- == 0) return builtins[k];
    return NULL;
}

/* 1 if word is one of the space-separated words of list */
static int in_list(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; p && *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n == len && !strncmp(p, word, len)) return 1;
        p += n;
    }
    return 0;
}

int gsfw_entry_answers(const gsfw_entry *e, const char *name)
{
    return !strcmp(e->name, name) || in_list(e->aliases, name);
}

const gsfw_entry *gsfw_registry_find(gsfw_kind kind, const char *name)
{
    if (!name) return NULL;
    for (int k = 0; k < N_BUILTINS; k++)
        if (builtins[k]->kind == kind && gsfw_entry_answers(builtins[k], name))
            return builtins[k];
    return NULL;
}

const gsfw_entry *gsfw_registry_method(gsfw_method id)
{
    for (int k = 0; k < N_BUILTINS; k++)
        if (builtins[k]->kind == GSFW_KIND_METHOD && gsfw_method_of(builtins[k])->id == id)
            return builtins[k];
    return NULL;
}

const char *gsfw_registry_names(gsfw_kind kind, const char *sep, char *buf, size_t cap)
{
    size_t used = 0;
    if (!buf || cap == 0) return buf;
    buf[0] = '\0';
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(kind, i)); i++) {
        int n = snprintf(buf + used, cap - used, "%s%s", i ? sep : "", e->name);
        if (n < 0 || (size_t)n >= cap - used) {
            if (cap > 4) strcpy(buf + cap - 4, "...");
            break;
        }
        used += (size_t)n;
    }
    return buf;
}

const gsfw_param *gsfw_entry_params(const gsfw_entry *e, int *count)
{
    *count = 0;
    if (!e || e->kind != GSFW_KIND_LOSS || !e->def) return NULL;
    const gsfw_loss_def *loss = e->def;
    *count = loss->params ? loss->n_params : 0;
    return loss->params;
}

const gsfw_param *gsfw_entry_params_of(const gsfw_entry *e, int *count)
{
    int ignored;
    return gsfw_entry_params(e, count ? count : &ignored);
}

const gsfw_param *gsfw_registry_param(int i)
{
    if (i < 0) return NULL;
    for (int t = 0; t < N_TABLES; t++)
        for (const gsfw_param *p = param_tables[t]; p->name; p++)
            if (i-- == 0) return p;
    for (int k = 0; k < N_BUILTINS; k++) {
        int count;
        const gsfw_param *own = gsfw_entry_params(builtins[k], &count);
        if (i < count) return own + i;
        i -= count;
    }
    return NULL;
}

const gsfw_param *gsfw_registry_find_param(const char *name)
{
    const gsfw_param *p;
    for (int i = 0; name && (p = gsfw_registry_param(i)); i++)
        if (!strcmp(p->name, name)) return p;
    return NULL;
}

int gsfw_entry_uses(const gsfw_entry *e, const char *param)
{
    if (!e || !param) return 0;
    /* "s=1" in uses: the entry reads s and takes 1 only */
    size_t len = strlen(param);
    for (const char *p = e->uses; p && *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " =");
        if (n == len && !strncmp(p, param, len)) return 1;
        p += strcspn(p, " ");
    }
    int count;
    const gsfw_param *own = gsfw_entry_params(e, &count);
    for (int k = 0; k < count; k++)
        if (!strcmp(own[k].name, param)) return 1;
    return 0;
}

int gsfw_entry_fixed_at(const gsfw_entry *e, int k, char *name, size_t cap, double *value)
{
    /* "s=1" in uses: the entry reads s and takes 1 only */
    for (const char *p = e ? e->uses : NULL; p && *p;) {
        while (*p == ' ') p++;
        const size_t len = strcspn(p, " ");
        const char *eq = memchr(p, '=', len);
        if (eq && k-- == 0) {
            const size_t nl = (size_t)(eq - p) < cap - 1 ? (size_t)(eq - p) : cap - 1;
            memcpy(name, p, nl);
            name[nl] = '\0';
            *value = atof(eq + 1);
            return 1;
        }
        p += len;
    }
    return 0;
}

int gsfw_entry_fixed(const gsfw_entry *e, const char *param, double *value)
{
    char name[64];
    double v;
    for (int k = 0; param && gsfw_entry_fixed_at(e, k, name, sizeof name, &v); k++)
        if (!strcmp(name, param)) {
            if (value) *value = v;
            return 1;
        }
    return 0;
}

static gsfw_kind target_kind(gsfw_param_target target)
{
    switch (target) {
    case GSFW_TARGET_MODEL: return GSFW_KIND_MODEL;
    case GSFW_TARGET_LOSS: return GSFW_KIND_LOSS;
    case GSFW_TARGET_SENSING: return GSFW_KIND_SENSING;
    default: return GSFW_KIND_METHOD;
    }
}

gsfw_kind gsfw_param_kind(const gsfw_param *p)
{
    return p->type == GSFW_PARAM_ENTRY ? p->kind : target_kind(p->target);
}

int gsfw_param_in_play(const gsfw_param *p, unsigned uses)
{
    if (uses & (1u << gsfw_param_kind(p))) return 1;
    return p->type != GSFW_PARAM_ENTRY && p->target2 != GSFW_TARGET_NONE &&
           (uses & (1u << target_kind(p->target2)));
}

static void store_one(const gsfw_param *p, void *base, size_t offset, double num,
                      const char *name)
{
    char *field = (char *)base + offset;
    switch (p->type) {
    case GSFW_PARAM_DOUBLE: *(double *)field = num; break;
    case GSFW_PARAM_UINT64: *(uint64_t *)field = (uint64_t)num; break;
    case GSFW_PARAM_ENTRY: *(const char **)field = name; break;
    case GSFW_PARAM_VECTOR: break; /* the caller's pointer */
    default: *(int *)field = (int)num; break;
    }
}

void gsfw_param_store(const gsfw_param *p, gsfw_param_target target, void *base, double num,
                      const char *name)
{
    if (p->target == target) store_one(p, base, p->offset, num, name);
    if (p->target2 == target && target != GSFW_TARGET_NONE)
        store_one(p, base, p->offset2, num, name);
}

void gsfw_params_defaults(gsfw_param_target target, void *base)
{
    const gsfw_param *p;
    for (int i = 0; (p = gsfw_registry_param(i)); i++)
        if (p->type != GSFW_PARAM_ENTRY && p->type != GSFW_PARAM_VECTOR)
            gsfw_param_store(p, target, base, p->def, NULL);
}

/* "must be > 0", "must be in (0, 1]", "must be between 0 and 100000000" */
void gsfw_param_range_text(const gsfw_param *p, char *buf, size_t cap)
{
    const int integral = p->type == GSFW_PARAM_INT || p->type == GSFW_PARAM_UINT64;
    if (integral) {
        snprintf(buf, cap, "must be between %.0f and %.0f", p->lo, p->hi);
    } else if (isinf(p->hi)) {
        snprintf(buf, cap, "must be %s %g", p->flags & GSFW_PARAM_LO_OPEN ? ">" : ">=", p->lo);
    } else {
        snprintf(buf, cap, "must be in %c%g, %g%c", p->flags & GSFW_PARAM_LO_OPEN ? '(' : '[',
                 p->lo, p->hi, p->flags & GSFW_PARAM_HI_OPEN ? ')' : ']');
    }
}

int gsfw_param_in_range(const gsfw_param *p, double x)
{
    if (!isfinite(x)) return 0;
    if (p->flags & GSFW_PARAM_LO_OPEN ? !(x > p->lo) : !(x >= p->lo)) return 0;
    if (p->flags & GSFW_PARAM_HI_OPEN ? !(x < p->hi) : !(x <= p->hi)) return 0;
    return 1;
}

int gsfw_param_check(const gsfw_param *p, double x, char *why, size_t cap)
{
    if (gsfw_param_in_range(p, x)) return 0;
    gsfw_param_range_text(p, why, cap);
    return 1;
}
