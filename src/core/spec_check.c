/* gsfw_spec_check and gsfw_spec_bind: the combination of the values given with the
 * entries chosen, read from the rows alone. A parameter given that no entry in play
 * reads is an error (strict parameters) or a warning naming who ignores it; a value an
 * entry fixes ("s=1" in its uses) must be that value; the tables' own checks follow. */
#include "core/spec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- rotating buffers for spelled names in one message */

typedef struct {
    char buf[6][96];
    int next;
} spelled;

/* "--model head": the kind's parameter as the caller spells it and the entry's name */
static const char *selection(const gsfw_spec *spec, spelled *sp, const gsfw_entry *e)
{
    char *out = sp->buf[sp->next++ % 6];
    snprintf(out, sizeof sp->buf[0], "%s %s", gsfw_spec_spell(spec, gsfw_kind_param(e->kind)),
             e->name);
    return out;
}

/* ---- the entries in play */

typedef struct {
    const gsfw_entry *e[GSFW_KIND_COUNT]; /* NULL: not in play */
    const gsfw_entry *asked_model;        /* the model asked for, when the method replaces it */
} in_play;

const gsfw_entry *gsfw_spec_model_entry(const gsfw_spec *spec)
{
    const gsfw_method_def *m = (spec->uses & GSFW_USES_METHOD)
                                   ? gsfw_method_of(gsfw_spec_entry(spec, GSFW_KIND_METHOD))
                                   : NULL;
    if (m && m->own_model) return gsfw_registry_find(GSFW_KIND_MODEL, m->own_model);
    return gsfw_spec_entry(spec, GSFW_KIND_MODEL);
}

static void entries_in_play(const gsfw_spec *spec, in_play *ip)
{
    memset(ip, 0, sizeof *ip);
    for (int k = 0; k < GSFW_KIND_COUNT; k++)
        if (spec->uses & (1u << k)) ip->e[k] = gsfw_spec_entry(spec, (gsfw_kind)k);
    const gsfw_method_def *m = gsfw_method_of(ip->e[GSFW_KIND_METHOD]);
    if (m && m->baseline) ip->e[GSFW_KIND_STEP] = NULL; /* the baselines take no steps */
    if (ip->e[GSFW_KIND_MODEL] && m && m->own_model) {
        ip->asked_model = ip->e[GSFW_KIND_MODEL];
        ip->e[GSFW_KIND_MODEL] = gsfw_spec_model_entry(spec);
    }
}

int gsfw_spec_uses(const gsfw_spec *spec, const char *name)
{
    if (!spec || !name) return 0;
    in_play ip;
    entries_in_play(spec, &ip);
    for (int k = 0; k < GSFW_KIND_COUNT; k++)
        if (ip.e[k] && gsfw_entry_uses(ip.e[k], name)) return 1;
    return 0;
}

/* 1 if a built-in or own entry of the kind reads the parameter */
static int kind_uses(const gsfw_spec *spec, gsfw_kind kind, const char *param)
{
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(kind, i)); i++)
        if (gsfw_entry_uses(e, param)) return 1;
    for (int i = 0; i < spec->n_own; i++)
        if (spec->own[i]->kind == kind && gsfw_entry_uses(spec->own[i], param)) return 1;
    return 0;
}

static int is_default(const gsfw_spec_value *v)
{
    if (v->p->type == GSFW_PARAM_ENTRY) return !v->entry || (v->entry->flags & GSFW_ENTRY_DEFAULT);
    if (v->p->type == GSFW_PARAM_VECTOR) return 0;
    return v->num == v->p->def;
}

/* A given value no entry in play reads (general and entry parameters aside). */
static int unused(const gsfw_spec *spec, const in_play *ip, const gsfw_spec_value *v)
{
    const gsfw_param *p = v->p;
    if (!v->given || (p->flags & GSFW_PARAM_GENERAL) || is_default(v)) return 0;
    if (p->type == GSFW_PARAM_ENTRY && p->kind != GSFW_KIND_STEP) return 0;
    for (int k = 0; k < GSFW_KIND_COUNT; k++)
        if (ip->e[k] && gsfw_entry_uses(ip->e[k], p->name)) return 0;
    (void)spec;
    return 1;
}

/* "belong to the Frank-Wolfe methods" when the users are exactly one family's methods,
 * else "needs --loss huber or ..." */
static void users_text(const gsfw_spec *spec, const gsfw_param *p, char *out, size_t cap,
                       const char **family)
{
    *family = NULL;
    const gsfw_entry *e;
    int only_methods = 1, n = 0;
    for (int k = 0; k < GSFW_KIND_COUNT; k++)
        if (k != GSFW_KIND_METHOD && kind_uses(spec, (gsfw_kind)k, p->name)) only_methods = 0;
    if (only_methods) {
        const char *fam = NULL;
        int same = 1;
        for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_METHOD, i)); i++) {
            const gsfw_method_def *m = gsfw_method_of(e);
            int uses = gsfw_entry_uses(e, p->name);
            if (uses && !fam) fam = m->family;
            if (fam && uses != !strcmp(m->family, fam)) same = 0;
        }
        if (fam && same) {
            *family = fam;
            return;
        }
    }
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < GSFW_KIND_COUNT; k++) {
        for (int i = 0; (e = gsfw_registry_entry((gsfw_kind)k, i)); i++) {
            if (!gsfw_entry_uses(e, p->name) || used >= cap) continue;
            used += (size_t)snprintf(out + used, cap - used, n ? " or %s" : "%s %s",
                                     n ? e->name : gsfw_spec_spell(spec, gsfw_kind_param(e->kind)),
                                     n ? "" : e->name);
            n++;
        }
        if (n) break;
    }
}

/* The strict parameters given without a user: one error. */
static gsfw_error refuse_strict(const gsfw_spec *spec, const in_play *ip, gsfw_err *err)
{
    for (int i = 0; i < spec->nv; i++) {
        const gsfw_spec_value *v = &spec->v[i];
        if (!(v->p->flags & GSFW_PARAM_STRICT) || !unused(spec, ip, v)) continue;
        char users[256];
        const char *family;
        users_text(spec, v->p, users, sizeof users, &family);
        if (!family)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s needs %s",
                             gsfw_spec_spell(spec, v->p->name), users);
        /* every such parameter given, in one sentence */
        char names[512];
        size_t used = 0;
        int count = 0, total = 0;
        for (int j = i; j < spec->nv; j++) {
            const gsfw_spec_value *w = &spec->v[j];
            const char *fam;
            if (!(w->p->flags & GSFW_PARAM_STRICT) || !unused(spec, ip, w)) continue;
            users_text(spec, w->p, users, sizeof users, &fam);
            total += fam && !strcmp(fam, family);
        }
        for (int j = i; j < spec->nv && used < sizeof names; j++) {
            const gsfw_spec_value *w = &spec->v[j];
            const char *fam;
            if (!(w->p->flags & GSFW_PARAM_STRICT) || !unused(spec, ip, w)) continue;
            users_text(spec, w->p, users, sizeof users, &fam);
            if (!fam || strcmp(fam, family)) continue;
            count++;
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                     count == 1 ? "" : count == total ? " and " : ", ",
                                     gsfw_spec_spell(spec, w->p->name));
        }
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s belong%s to the %s methods, not to %s",
                         names, total == 1 ? "s" : "", family,
                         ip->e[GSFW_KIND_METHOD]->name);
    }
    return GSFW_OK;
}

/* "by --method fw with --step agnostic": the entries in play of the kinds that could
 * have read the parameter (the method for a model it replaced) */
static void blame(const gsfw_spec *spec, const in_play *ip, const gsfw_param *p, char *out,
                  size_t cap)
{
    spelled sp = {.next = 0};
    size_t used = 0;
    int n = 0;
    out[0] = '\0';
    for (int k = 0; k < GSFW_KIND_COUNT && used < cap; k++) {
        const gsfw_entry *e = ip->e[k];
        if (!e || !kind_uses(spec, (gsfw_kind)k, p->name)) continue;
        if (k == GSFW_KIND_MODEL && ip->asked_model) e = ip->e[GSFW_KIND_METHOD];
        if (n && e == ip->e[GSFW_KIND_METHOD] && k != GSFW_KIND_METHOD) continue;
        used += (size_t)snprintf(out + used, cap - used, "%s%s", n ? " with " : "",
                                 selection(spec, &sp, e));
        n++;
    }
}

static void warn_unused(gsfw_spec *spec, const in_play *ip)
{
    spelled sp = {.next = 0};
    if (ip->asked_model && gsfw_spec_given(spec, "model") &&
        ip->asked_model != ip->e[GSFW_KIND_MODEL])
        gsfw_spec_warn(spec, "%s is ignored by %s (it always uses %s)",
                       selection(spec, &sp, ip->asked_model),
                       selection(spec, &sp, ip->e[GSFW_KIND_METHOD]),
                       ip->e[GSFW_KIND_MODEL]->name);
    for (int i = 0; i < spec->nv; i++) {
        const gsfw_spec_value *v = &spec->v[i];
        if ((v->p->flags & GSFW_PARAM_STRICT) || !unused(spec, ip, v)) continue;
        char who[256];
        blame(spec, ip, v->p, who, sizeof who);
        if (!who[0]) continue;
        gsfw_spec_warn(spec, "%s is ignored by %s%s%s%s", gsfw_spec_spell(spec, v->p->name), who,
                       v->p->unused ? " (" : "", v->p->unused ? v->p->unused : "",
                       v->p->unused ? ")" : "");
    }
}

/* The values the entries in play fix ("s=1" in their uses). */
static gsfw_error check_fixed(const gsfw_spec *spec, const in_play *ip, gsfw_err *err)
{
    for (int k = 0; k < GSFW_KIND_COUNT; k++) {
        const gsfw_entry *e = ip->e[k];
        char name[64];
        double want;
        for (int f = 0; e && gsfw_entry_fixed_at(e, f, name, sizeof name, &want); f++) {
            double got = gsfw_spec_number(spec, name);
            if (got != want) {
                spelled sp = {.next = 0};
                return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s needs %s %g, got %g",
                                 selection(spec, &sp, e), gsfw_spec_spell(spec, name), want,
                                 got);
            }
        }
    }
    return GSFW_OK;
}

/* The built-in models, ", "-separated: those whose needs all lie in `needs` (fit = 1),
 * or those that need something of it (fit = 0). */
static void model_names(unsigned needs, int fit, char *buf, size_t cap)
{
    size_t used = 0;
    const gsfw_entry *e;
    buf[0] = '\0';
    for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_MODEL, i)) && used < cap; i++)
        if (fit ? !(e->needs & ~needs) : (e->needs & needs) != 0)
            used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? ", " : "",
                                     e->name);
}

/* A model whose needs the problem cannot meet, when what it offers is declared. */
static gsfw_error check_available(const gsfw_spec *spec, const in_play *ip, gsfw_err *err)
{
    const gsfw_entry *model = ip->e[GSFW_KIND_MODEL];
    if (!spec->declared || !model || !(model->needs & ~spec->available)) return GSFW_OK;
    char fits[256];
    model_names(spec->available, 1, fits, sizeof fits);
    spelled sp = {.next = 0};
    return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s needs a %s, which this problem does not "
                     "have (the models that fit: %s)", selection(spec, &sp, model),
                     model->needs & GSFW_NEEDS_GRAPH ? "graph" : "tree", fits);
}

/* A graph and a tree with no model named: the default model could be either one's, so
 * neither is taken (the other would be ignored without the caller having chosen). */
static gsfw_error check_structure(const gsfw_spec *spec, gsfw_err *err)
{
    const unsigned both = GSFW_NEEDS_GRAPH | GSFW_NEEDS_TREE;
    if (!(spec->uses & GSFW_USES_MODEL) || (spec->available & both) != both ||
        gsfw_spec_given(spec, "model"))
        return GSFW_OK;
    char graph_models[256], tree_models[256];
    model_names(GSFW_NEEDS_GRAPH, 0, graph_models, sizeof graph_models);
    model_names(GSFW_NEEDS_TREE, 0, tree_models, sizeof tree_models);
    return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "a graph and a tree are given but no %s: name "
                     "one (the graph's: %s; the tree's: %s)", gsfw_spec_spell(spec, "model"),
                     graph_models, tree_models);
}

gsfw_error gsfw_spec_check(gsfw_spec *spec, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!spec) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec: the spec is NULL");
    spec->n_warn = 0;
    in_play ip;
    entries_in_play(spec, &ip);
    gsfw_error e;
    if ((e = check_structure(spec, err))) return e;
    if ((e = check_available(spec, &ip, err))) return e;
    if ((e = refuse_strict(spec, &ip, err))) return e;
    if ((e = check_fixed(spec, &ip, err))) return e;
    if ((spec->uses & GSFW_USES_MODEL) && (e = gsfw_params_model_check(spec, err))) return e;
    if ((spec->uses & GSFW_USES_METHOD) && (e = gsfw_params_method_check(spec, err))) return e;
    warn_unused(spec, &ip);
    return GSFW_OK;
}

gsfw_error gsfw_spec_bind(gsfw_spec *spec, int d, const gsfw_graph *graph,
                          const gsfw_tree *tree, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!spec) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec: the spec is NULL");
    if (d < 1) return gsfw_fail(err, GSFW_ERR_DIMENSION, "the dimension d = %d must be >= 1", d);
    spec->d = d;
    spec->graph = graph;
    spec->tree = tree;
    if (!spec->declared) spec->available = (graph ? GSFW_NEEDS_GRAPH : 0) | (tree ? GSFW_NEEDS_TREE : 0);
    if (!(spec->uses & GSFW_USES_MODEL)) return GSFW_OK;
    gsfw_error e = check_structure(spec, err);
    if (e) return e;
    in_play ip;
    entries_in_play(spec, &ip);
    const gsfw_entry *model = ip.e[GSFW_KIND_MODEL];
    spelled sp = {.next = 0};
    const int s = (int)gsfw_spec_number(spec, "s");
    if (s > d)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s %d exceeds the dimension d = %d",
                         gsfw_spec_spell(spec, "s"), s, d);
    if ((model->needs & GSFW_NEEDS_GRAPH) && !graph)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s needs a graph",
                         selection(spec, &sp, model));
    if ((model->needs & GSFW_NEEDS_TREE) && !tree)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s needs a tree",
                         selection(spec, &sp, model));
    if (graph && (model->needs & GSFW_NEEDS_GRAPH) && graph->n != d)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "the graph has %d nodes but the problem has "
                         "d = %d unknowns", graph->n, d);
    if (tree && (model->needs & GSFW_NEEDS_TREE) && gsfw_tree_num_nodes(tree) != d)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "the tree has %d nodes but the problem has "
                         "d = %d unknowns", gsfw_tree_num_nodes(tree), d);
    const gsfw_entry *who = ip.asked_model ? ip.e[GSFW_KIND_METHOD] : model;
    if (graph && !(model->needs & GSFW_NEEDS_GRAPH))
        gsfw_spec_warn(spec, "%s is ignored by %s", gsfw_spec_spell(spec, "graph"),
                       selection(spec, &sp, who));
    if (tree && !(model->needs & GSFW_NEEDS_TREE))
        gsfw_spec_warn(spec, "%s is ignored by %s", gsfw_spec_spell(spec, "tree"),
                       selection(spec, &sp, who));
    return GSFW_OK;
}
