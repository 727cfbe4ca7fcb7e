/* gsfw_spec: names and values by name, parsed and range-checked against the parameter
 * rows, and the checks of their combination against the entry rows (what each entry
 * uses, needs and fixes). What a checked spec builds is in spec_build.c. */
#include "core/spec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- life cycle */

static gsfw_error add_value(gsfw_spec *spec, const gsfw_param *p, gsfw_err *err)
{
    for (int i = 0; i < spec->nv; i++)
        if (!strcmp(spec->v[i].p->name, p->name))
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec: the parameter '%s' is defined "
                             "twice", p->name);
    if (spec->nv == spec->cap) {
        int cap = spec->cap ? 2 * spec->cap : 64;
        gsfw_spec_value *v = realloc(spec->v, (size_t)cap * sizeof *v);
        if (!v) return gsfw_fail(err, GSFW_ERR_NOMEM, "spec: out of memory");
        spec->v = v;
        spec->cap = cap;
    }
    gsfw_spec_value *v = &spec->v[spec->nv++];
    memset(v, 0, sizeof *v);
    v->p = p;
    v->num = p->def;
    return GSFW_OK;
}

gsfw_error gsfw_spec_create(unsigned uses, gsfw_spec **out, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec: the output pointer is NULL");
    *out = NULL;
    gsfw_spec *spec = calloc(1, sizeof *spec);
    if (!spec) return gsfw_fail(err, GSFW_ERR_NOMEM, "spec: out of memory");
    spec->uses = uses;
    const gsfw_param *p;
    for (int i = 0; (p = gsfw_registry_param(i)); i++) {
        gsfw_error e = add_value(spec, p, err);
        if (e) {
            gsfw_spec_free(spec);
            return e;
        }
    }
    *out = spec;
    return GSFW_OK;
}

void gsfw_spec_free(gsfw_spec *spec)
{
    if (!spec) return;
    free(spec->v);
    free(spec);
}

void gsfw_spec_set_spelling(gsfw_spec *spec, const char *(*spell)(void *, const char *),
                            void *ctx)
{
    if (!spec) return;
    spec->spell = spell;
    spec->spell_ctx = ctx;
}

gsfw_error gsfw_spec_add_entry(gsfw_spec *spec, const gsfw_entry *e, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!spec || !e || !e->name || !e->def)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec: %s is NULL",
                         !spec ? "the spec" : !e ? "the entry" : !e->name ? "the entry's name"
                                                                         : "the entry's def");
    if ((int)e->kind < 0 || e->kind >= GSFW_KIND_COUNT || e->kind == GSFW_KIND_METHOD)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec: entry '%s': a caller's entry is a "
                         "model, step rule, loss or sensing kind", e->name);
    if (gsfw_spec_find(spec, e->kind, e->name))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec: there is a %s called '%s' already",
                         gsfw_kind_noun(e->kind), e->name);
    if (spec->n_own == GSFW_SPEC_MAX_OWN)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec: at most %d entries of one's own",
                         GSFW_SPEC_MAX_OWN);
    int count;
    const gsfw_param *own = gsfw_entry_params(e, &count);
    for (int k = 0; k < count; k++) {
        gsfw_error rc = add_value(spec, &own[k], err);
        if (rc) return rc;
    }
    spec->own[spec->n_own++] = e;
    return GSFW_OK;
}

const gsfw_entry *gsfw_spec_find(const gsfw_spec *spec, gsfw_kind kind, const char *name)
{
    if (!name) return NULL;
    for (int i = 0; spec && i < spec->n_own; i++)
        if (spec->own[i]->kind == kind && gsfw_entry_answers(spec->own[i], name))
            return spec->own[i];
    return gsfw_registry_find(kind, name);
}

/* ------------------------------------------------------------- spelling */

const char *gsfw_spec_spell(const gsfw_spec *spec, const char *param)
{
    const char *s = spec && spec->spell ? spec->spell(spec->spell_ctx, param) : NULL;
    return s ? s : param;
}

void gsfw_spec_warn(gsfw_spec *spec, const char *fmt, ...)
{
    if (spec->n_warn == GSFW_SPEC_MAX_WARN) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(spec->warn[spec->n_warn++], sizeof spec->warn[0], fmt, ap);
    va_end(ap);
}

const char *gsfw_spec_warning(const gsfw_spec *spec, int i)
{
    return spec && i >= 0 && i < spec->n_warn ? spec->warn[i] : NULL;
}

/* ------------------------------------------------------------- values */

gsfw_spec_value *gsfw_spec_value_of(const gsfw_spec *spec, const char *name)
{
    for (int i = 0; spec && name && i < spec->nv; i++)
        if (!strcmp(spec->v[i].p->name, name)) return &spec->v[i];
    return NULL;
}

/* The value to set: known, and of a kind in play. */
static gsfw_error settable(gsfw_spec *spec, const char *name, gsfw_spec_value **out,
                           gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!spec || !name)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "spec: %s is NULL",
                         !spec ? "the spec" : "the parameter's name");
    gsfw_spec_value *v = gsfw_spec_value_of(spec, name);
    if (!v) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "unknown parameter '%s'", name);
    if (!gsfw_param_in_play(v->p, spec->uses))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s does not apply here (no %s is in play)",
                         gsfw_spec_spell(spec, name), gsfw_kind_noun(gsfw_param_kind(v->p)));
    *out = v;
    return GSFW_OK;
}

/* "a, b or c" from n names, appended at buf + used; the new length */
static size_t or_list(char names[][32], int n, char *buf, size_t cap, size_t used)
{
    for (int k = 0; k < n && used < cap; k++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s",
                                 k == 0 ? "" : k == n - 1 ? " or " : ", ", names[k]);
    return used;
}

/* "I or II (or 1 or 2)", "a, b or c": the first spelling of each code of a CHOICE, then
 * the others it accepts */
static void choice_list(const char *choices, char *buf, size_t cap)
{
    char names[8][32], others[8][32];
    int codes[8], n = 0, n_others = 0;
    for (const char *p = choices; p && *p;) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        const char *colon = memchr(p, ':', len);
        if (colon && (size_t)(colon - p) < sizeof names[0]) {
            int code = atoi(colon + 1), seen = 0;
            for (int k = 0; k < n; k++) seen |= codes[k] == code;
            char *name = !seen ? (n < 8 ? names[n] : NULL)
                               : (n_others < 8 ? others[n_others] : NULL);
            if (name) {
                memcpy(name, p, (size_t)(colon - p));
                name[colon - p] = '\0';
                if (seen) n_others++;
                else codes[n++] = code;
            }
        }
        p += len;
    }
    buf[0] = '\0';
    size_t used = or_list(names, n, buf, cap, 0);
    if (n_others && used < cap) {
        used += (size_t)snprintf(buf + used, cap - used, " (or ");
        used = or_list(others, n_others, buf, cap, used);
        if (used < cap) snprintf(buf + used, cap - used, ")");
    }
}

/* The code of a CHOICE spelling, or -1. */
static int choice_code(const char *choices, const char *text)
{
    size_t tl = strlen(text);
    for (const char *p = choices; p && *p;) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        const char *colon = memchr(p, ':', len);
        if (colon && (size_t)(colon - p) == tl && !strncmp(p, text, tl)) return atoi(colon + 1);
        p += len;
    }
    return -1;
}

/* A value's text as a message quotes it: whole up to 40 characters, else its first 20
 * and last 4 with the count ("10000000000000000000...0000 (401 digits)" for 10^400). */
static const char *abbreviate(const char *text, char *buf, size_t cap)
{
    const size_t len = strlen(text);
    if (len <= 40) return text;
    const size_t sign = text[0] == '-' || text[0] == '+';
    const int digits = strspn(text + sign, "0123456789") == len - sign;
    snprintf(buf, cap, "%.20s...%s (%zu %s)", text, text + len - 4, len - sign * digits,
             digits ? "digits" : "characters");
    return buf;
}

/* An integral double exactly: every digit up to 21 of them (2^64 is 18446744073709551616),
 * beyond that the shortest form that reads back as the same double (1e+300). */
static void exact_integer(double value, char *buf, size_t cap)
{
    if (fabs(value) < 1e21) {
        snprintf(buf, cap, "%.0f", value);
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, cap, "%.*g", digits, value);
        if (strtod(buf, NULL) == value) return;
    }
}

static gsfw_error out_of_range(const gsfw_spec *spec, const gsfw_param *p, const char *shown,
                               gsfw_err *err)
{
    char range[96], brief[64];
    gsfw_param_range_text(p, range, sizeof range);
    return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s %s, got %s", gsfw_spec_spell(spec, p->name),
                     range, abbreviate(shown, brief, sizeof brief));
}

/* A number of text for an INT, UINT64 or DOUBLE parameter; the messages of a strict
 * parser (the whole text, no leading blanks, finite). */
static gsfw_error parse_number(const gsfw_spec *spec, const gsfw_param *p, const char *text,
                               double *out, gsfw_err *err)
{
    const char *name = gsfw_spec_spell(spec, p->name);
    char *end = NULL;
    errno = 0;
    if (p->type != GSFW_PARAM_DOUBLE) {
        long long v = strtoll(text, &end, 10);
        if (isspace((unsigned char)text[0]) || end == text || *end != '\0')
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s expects an integer, got '%s'", name,
                             text);
        if (errno == ERANGE) return out_of_range(spec, p, text, err);
        *out = (double)v;
        return GSFW_OK;
    }
    double v = strtod(text, &end);
    if (isspace((unsigned char)text[0]) || end == text || *end != '\0' ||
        (errno != ERANGE && !isfinite(v)))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s expects a finite number, got '%s'", name,
                         text);
    char brief[64];
    if (errno == ERANGE)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: '%s' is %s", name,
                         abbreviate(text, brief, sizeof brief),
                         fabs(v) > 1.0 ? "too large for a double"
                                       : "too small for a double (it underflows)");
    *out = v;
    return GSFW_OK;
}

gsfw_error gsfw_spec_set(gsfw_spec *spec, const char *name, const char *text, gsfw_err *err)
{
    gsfw_spec_value *v = NULL;
    gsfw_error e = settable(spec, name, &v, err);
    if (e) return e;
    const gsfw_param *p = v->p;
    if (!text) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: the value is NULL",
                                gsfw_spec_spell(spec, name));
    double num = 0.0;
    char list[160];
    switch (p->type) {
    case GSFW_PARAM_ENTRY: {
        const gsfw_entry *entry = gsfw_spec_find(spec, p->kind, text);
        if (!entry) {
            gsfw_spec_names(spec, p->kind, list, sizeof list);
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s: unknown %s '%.64s' (known: %s)",
                             gsfw_spec_spell(spec, name), gsfw_kind_noun(p->kind), text, list);
        }
        v->entry = entry;
        v->given = 1;
        return GSFW_OK;
    }
    case GSFW_PARAM_VECTOR: v->given = 1; return GSFW_OK;
    case GSFW_PARAM_BOOL:
        if (!strcmp(text, "on") || !strcmp(text, "1") || !strcmp(text, "true")) {
            num = 1;
        } else if (!strcmp(text, "off") || !strcmp(text, "0") || !strcmp(text, "false")) {
            num = 0;
        } else {
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s must be on or off, got '%.64s'",
                             gsfw_spec_spell(spec, name), text);
        }
        break;
    case GSFW_PARAM_CHOICE: {
        int code = choice_code(p->choices, text);
        if (code < 0) {
            choice_list(p->choices, list, sizeof list);
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s must be %s, got '%.64s'",
                             gsfw_spec_spell(spec, name), list, text);
        }
        num = code;
        break;
    }
    default:
        if ((e = parse_number(spec, p, text, &num, err))) return e;
        if (!gsfw_param_in_range(p, num)) {
            /* an integer as a canonical %.0f while the double holds it exactly (+007 is 7),
             * else as given: 9007199254740993 reads as ...992 */
            char shown[64];
            if (p->type == GSFW_PARAM_DOUBLE || !(fabs(num) < 9007199254740992.0))
                return out_of_range(spec, p, text, err);
            snprintf(shown, sizeof shown, "%.0f", num);
            return out_of_range(spec, p, shown, err);
        }
        break;
    }
    v->num = num;
    v->given = 1;
    return GSFW_OK;
}

gsfw_error gsfw_spec_set_number(gsfw_spec *spec, const char *name, double value, gsfw_err *err)
{
    gsfw_spec_value *v = NULL;
    gsfw_error e = settable(spec, name, &v, err);
    if (e) return e;
    const gsfw_param *p = v->p;
    const char *shown = gsfw_spec_spell(spec, name);
    if (p->type == GSFW_PARAM_ENTRY || p->type == GSFW_PARAM_VECTOR)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s takes a %s, not a number", shown,
                         p->type == GSFW_PARAM_ENTRY ? "name" : "vector");
    if ((p->flags & GSFW_PARAM_ZERO_UNSET) && value == 0.0) {
        v->num = p->def;
        v->given = 0;
        return GSFW_OK;
    }
    char text[48];
    snprintf(text, sizeof text, "%g", value);
    switch (p->type) {
    case GSFW_PARAM_BOOL:
        if (value != 0.0 && value != 1.0)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s must be on or off (1 or 0), got "
                             "%s", shown, text);
        break;
    case GSFW_PARAM_CHOICE: {
        char list[160], code[32];
        char padded[512];
        snprintf(padded, sizeof padded, "%s ", p->choices);
        /* a code is a small integer: test the range before converting (beyond int the
           conversion is undefined) */
        const int integral = value == floor(value) && fabs(value) < 1e6;
        if (integral) snprintf(code, sizeof code, ":%d ", (int)value);
        if (!integral || !strstr(padded, code)) {
            choice_list(p->choices, list, sizeof list);
            if (value == floor(value)) exact_integer(value, text, sizeof text);
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s must be %s, got %s", shown, list,
                             text);
        }
        break;
    }
    default:
        if (!isfinite(value))
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s expects a finite number, got %s",
                             shown, text);
        if (p->type != GSFW_PARAM_DOUBLE && value != floor(value))
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "%s expects an integer, got %s", shown,
                             text);
        if (!gsfw_param_in_range(p, value)) {
            if (p->type != GSFW_PARAM_DOUBLE) exact_integer(value, text, sizeof text);
            return out_of_range(spec, p, text, err);
        }
        break;
    }
    v->num = value;
    v->given = 1;
    return GSFW_OK;
}

int gsfw_spec_accepts(const gsfw_spec *spec, const char *name)
{
    const gsfw_spec_value *v = gsfw_spec_value_of(spec, name);
    return v && gsfw_param_in_play(v->p, spec->uses);
}

int gsfw_spec_given(const gsfw_spec *spec, const char *name)
{
    const gsfw_spec_value *v = gsfw_spec_value_of(spec, name);
    return v ? v->given : 0;
}

double gsfw_spec_number(const gsfw_spec *spec, const char *name)
{
    const gsfw_spec_value *v = gsfw_spec_value_of(spec, name);
    return v ? v->num : NAN;
}

void gsfw_spec_available(gsfw_spec *spec, unsigned needs)
{
    if (spec) {
        spec->available = needs;
        spec->declared = 1;
    }
}

void gsfw_spec_names(const gsfw_spec *spec, gsfw_kind kind, char *buf, size_t cap)
{
    gsfw_registry_names(kind, ", ", buf, cap);
    size_t used = strlen(buf);
    for (int i = 0; spec && i < spec->n_own && used < cap; i++)
        if (spec->own[i]->kind == kind)
            used += (size_t)snprintf(buf + used, cap - used, ", %s", spec->own[i]->name);
}

/* the default model for what is available: an exact match of needs first */
static const gsfw_entry *default_model(const gsfw_spec *spec)
{
    const gsfw_entry *e, *fallback = NULL;
    for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_MODEL, i)); i++) {
        if (!(e->flags & GSFW_ENTRY_DEFAULT) || (e->needs & ~spec->available)) continue;
        if (e->needs == spec->available) return e;
        if (!fallback) fallback = e;
    }
    return fallback;
}

const gsfw_entry *gsfw_spec_entry(const gsfw_spec *spec, gsfw_kind kind)
{
    if (!spec || (int)kind < 0 || kind >= GSFW_KIND_COUNT) return NULL;
    const gsfw_spec_value *v = gsfw_spec_value_of(spec, gsfw_kind_param(kind));
    if (v && v->entry) return v->entry;
    if (kind == GSFW_KIND_MODEL) return default_model(spec);
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(kind, i)); i++)
        if (e->flags & GSFW_ENTRY_DEFAULT) return e;
    return gsfw_registry_entry(kind, 0);
}

int gsfw_spec_typical_iters(const gsfw_spec *spec)
{
    const gsfw_method_def *m = gsfw_method_of(gsfw_spec_entry(spec, GSFW_KIND_METHOD));
    return m ? m->typical_iters : 0;
}
