/* The registry's parameters as command-line flags (params.h). */
#include "params.h"

#include "core/registry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The flag of a parameter: --NAME with '-' for '_'; a few read better otherwise. */
static void flag_of(const char *param, char *out, size_t cap)
{
    static const char *const renamed[][2] = {{"max_iter", "--iters"}, {"L_rule", "--L"}};
    for (size_t k = 0; k < sizeof renamed / sizeof renamed[0]; k++)
        if (!strcmp(param, renamed[k][0])) {
            snprintf(out, cap, "%s", renamed[k][1]);
            return;
        }
    snprintf(out, cap, "--%s", param);
    for (char *p = out + 2; *p; p++)
        if (*p == '_') *p = '-';
}

static const char *spell(void *ctx, const char *param)
{
    cli_params *cp = ctx;
    if (!strcmp(param, "graph") && cp->graph_flag) return cp->graph_flag;
    char *out = cp->spelled[cp->next++ % 8];
    flag_of(param, out, sizeof cp->spelled[0]);
    return out;
}

/* name is one of list (NULL-terminated, may be NULL) */
static int listed(const char *name, const char *const *list)
{
    for (int k = 0; list && list[k]; k++)
        if (!strcmp(name, list[k])) return 1;
    return 0;
}

int cli_params_init(const char *cmd, cli_params *cp, unsigned uses, const char *const *skip)
{
    memset(cp, 0, sizeof *cp);
    gsfw_err err;
    if (gsfw_spec_create(uses, &cp->spec, &err)) return cli_fail_err(cmd, err.code, &err);
    gsfw_spec_set_spelling(cp->spec, spell, cp);
    const gsfw_param *p;
    for (int i = 0; (p = gsfw_registry_param(i)) && cp->n < CLI_MAX_PARAMS; i++) {
        if (p->type == GSFW_PARAM_VECTOR || !strcmp(p->name, "L_rule") ||
            listed(p->name, skip) || !gsfw_spec_accepts(cp->spec, p->name))
            continue;
        cp->param[cp->n] = p;
        flag_of(p->name, cp->flag[cp->n], sizeof cp->flag[0]);
        cp->n++;
    }
    return CLI_OK;
}

void cli_params_free(cli_params *cp)
{
    gsfw_spec_free(cp->spec);
    cp->spec = NULL;
}

/* Booleans are switches, except those whose default a command may turn on (--polish
 * on|off). */
static int is_switch(const gsfw_param *p)
{
    return p->type == GSFW_PARAM_BOOL && strcmp(p->name, "polish") != 0;
}

int cli_params_opts(cli_params *cp, cli_opt *opts)
{
    for (int k = 0; k < cp->n; k++)
        opts[k] = (cli_opt){cp->flag[k], is_switch(cp->param[k]), &cp->text[k]};
    return cp->n;
}

static int param_index(const cli_params *cp, const char *param)
{
    for (int k = 0; k < cp->n; k++)
        if (!strcmp(cp->param[k]->name, param)) return k;
    return -1;
}

const char *cli_params_text(const cli_params *cp, const char *param)
{
    const int k = param_index(cp, param);
    return k < 0 ? NULL : cp->text[k];
}

/* A required flag may be left out when the model named by --model fixes it ("s=1" in
 * its uses, as l1's), or when no model has that name: the unknown name is then the
 * error to report, which cli_params_apply does. */
static int model_excuses(const cli_params *cp, const char *param)
{
    const char *name = cli_params_text(cp, "model");
    if (!name || !strcmp(param, "model")) return 0;
    const gsfw_entry *e = gsfw_registry_find(GSFW_KIND_MODEL, name);
    return !e || gsfw_entry_fixed(e, param, NULL);
}

int cli_params_require(const char *cmd, const cli_params *cp)
{
    for (int i = 0; cp->required && cp->required[i]; i++) {
        if (model_excuses(cp, cp->required[i])) continue;
        const int k = param_index(cp, cp->required[i]);
        int rc = cli_require(cmd, k < 0 ? cp->required[i] : cp->flag[k],
                             k < 0 ? NULL : cp->text[k]);
        if (rc) return rc;
    }
    return CLI_OK;
}

/* --L takes a number or a rule of L_rule */
static int apply_L(const char *cmd, cli_params *cp, const char *text)
{
    gsfw_err err;
    if (!gsfw_spec_set(cp->spec, "L_rule", text, &err)) return CLI_OK;
    if (!gsfw_spec_set(cp->spec, "L", text, &err)) return CLI_OK;
    if (!strstr(err.message, "expects a finite number")) return cli_usage_error(cmd, "%s", err.message);
    /* neither: name both forms, with the rules as the registry spells them */
    const gsfw_param *rule = gsfw_registry_find_param("L_rule");
    char rules[128] = "";
    size_t used = 0;
    for (const char *p = rule ? rule->choices : ""; *p && used < sizeof rules;) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, ":");
        used += (size_t)snprintf(rules + used, sizeof rules - used, ", '%.*s'", (int)len, p);
        p += strcspn(p, " ");
    }
    char *last = strrchr(rules, ',');
    if (last && used + 2 < sizeof rules) {
        memmove(last + 3, last + 1, strlen(last + 1) + 1); /* ", 'x'" becomes " or 'x'" */
        memcpy(last, " or", 3);
    }
    return cli_usage_error(cmd, "--L takes a number > 0%s; '%s' is not a finite number", rules,
                           text);
}

int cli_params_apply(const char *cmd, cli_params *cp)
{
    gsfw_err err;
    for (int k = 0; k < cp->n; k++) {
        const char *text = cp->text[k];
        if (!text) continue;
        const char *name = cp->param[k]->name;
        if (!strcmp(name, "L")) {
            int rc = apply_L(cmd, cp, text);
            if (rc) return rc;
        } else if (gsfw_spec_set(cp->spec, name, text, &err)) {
            return cli_usage_error(cmd, "%s", err.message);
        }
    }
    return CLI_OK;
}

int cli_params_mark(const char *cmd, cli_params *cp, const char *param, const char *path)
{
    gsfw_err err;
    if (path && gsfw_spec_set(cp->spec, param, path, &err))
        return cli_usage_error(cmd, "%s", err.message);
    return CLI_OK;
}

void cli_params_warn(const char *cmd, cli_params *cp)
{
    const char *w;
    while ((w = gsfw_spec_warning(cp->spec, cp->n_warned))) {
        cli_warn(cmd, "%s", w);
        cp->n_warned++;
    }
}

int cli_params_check(const char *cmd, cli_params *cp)
{
    gsfw_err err;
    cp->n_warned = 0;
    if (gsfw_spec_check(cp->spec, &err)) return cli_usage_error(cmd, "%s", err.message);
    cli_params_warn(cmd, cp);
    return CLI_OK;
}

int cli_params_bind(const char *cmd, cli_params *cp, int d, const gsfw_graph *graph,
                    const gsfw_tree *tree)
{
    gsfw_err err;
    if (gsfw_spec_bind(cp->spec, d, graph, tree, &err)) return cli_fail(cmd, "%s", err.message);
    cli_params_warn(cmd, cp);
    return CLI_OK;
}

const gsfw_entry *cli_entry(const cli_params *cp, gsfw_kind kind)
{
    return gsfw_spec_entry(cp->spec, kind);
}

const char *cli_choice_name(const char *param, int code, char *buf, size_t cap)
{
    const gsfw_param *p = gsfw_registry_find_param(param);
    snprintf(buf, cap, "%d", code);
    for (const char *c = p ? p->choices : ""; *c;) {
        while (*c == ' ') c++;
        size_t len = strcspn(c, ":");
        if (atoi(c + len + 1) == code) {
            snprintf(buf, cap, "%.*s", (int)len, c);
            break;
        }
        c += strcspn(c, " ");
    }
    return buf;
}

int cli_params_recovery_defaults(const char *cmd, cli_params *cp, int *iters)
{
    gsfw_spec *spec = cp->spec;
    gsfw_err err;
    if (!gsfw_spec_is_baseline(spec) && !gsfw_spec_given(spec, "polish"))
        gsfw_spec_set_number(spec, "polish", 1, &err);
    const int tol = gsfw_spec_given(spec, "tol"), tol_rel = gsfw_spec_given(spec, "tol_rel");
    const int iters_given = cli_params_text(cp, "max_iter") != NULL;
    if (gsfw_spec_number(spec, "polish") && !tol && !tol_rel && !iters_given) {
        gsfw_spec_set_number(spec, "tol_rel", 1e-3, &err);
        /* warm restarts from the polished point: free when the first polish is exact
         * (the rounds stop at an exact fit), and they find the support near the
         * measurement limit where one run does not (docs/experiments-phase.md) */
        if (!gsfw_spec_given(spec, "restarts"))
            gsfw_spec_set_number(spec, "restarts", CLI_RECOVER_RESTARTS, &err);
    }
    /* a tolerance asked for explicitly decides the stop: the default count becomes a cap
     * that only guards against a bound that never gets there */
    *iters = tol || tol_rel ? CLI_RECOVER_TOL_ITER_CAP : gsfw_spec_typical_iters(spec);
    if (iters_given) *iters = (int)gsfw_spec_number(spec, "max_iter");
    else if (gsfw_spec_set_number(spec, "max_iter", *iters, &err))
        return cli_fail(cmd, "%s", err.message);
    return CLI_OK;
}

/* ---- usage texts */

/* text wrapped at 88 columns, continuation lines indented by `indent` spaces */
static void wrapped(FILE *out, const char *text, int col, int indent)
{
    int first = 1;
    for (const char *p = text; *p;) {
        while (*p == ' ') p++;
        size_t word = strcspn(p, " ");
        if (!word) break;
        if (!first && col + 1 + (int)word > 88) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", (int)word, p);
        col += (int)word;
        p += word;
        first = 0;
    }
    fputc('\n', out);
}

void cli_usage_entries(FILE *out, gsfw_kind kind, const char *indent)
{
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(kind, i)); i++) {
        int col = fprintf(out, "%s%-18s ", indent, e->name);
        if (col > (int)strlen(indent) + 19) {
            fprintf(out, "\n%*s", (int)strlen(indent) + 19, "");
            col = (int)strlen(indent) + 19;
        }
        wrapped(out, e->summary, col, (int)strlen(indent) + 19);
    }
}

/* what a flag takes: a kind's name, a choice, a number */
static void metavar(const gsfw_param *p, char *out, size_t cap)
{
    static const char *const kind_var[GSFW_KIND_COUNT] = {"METHOD", "MODEL", "RULE", "LOSS",
                                                          "KIND", "BASIS"};
    switch (p->type) {
    case GSFW_PARAM_ENTRY: snprintf(out, cap, "%s", kind_var[p->kind]); break;
    case GSFW_PARAM_BOOL: snprintf(out, cap, "%s", is_switch(p) ? "" : "on|off"); break;
    case GSFW_PARAM_CHOICE: {
        size_t used = 0;
        out[0] = '\0';
        int seen[8], n = 0;
        for (const char *c = p->choices; *c && used < cap;) {
            while (*c == ' ') c++;
            size_t len = strcspn(c, ":");
            int code = atoi(c + len + 1), dup = 0;
            for (int k = 0; k < n; k++) dup |= seen[k] == code;
            if (!dup && n < 8) {
                seen[n++] = code;
                used += (size_t)snprintf(out + used, cap - used, "%s%.*s", used ? "|" : "",
                                         (int)len, c);
            }
            c += strcspn(c, " ");
        }
        break;
    }
    case GSFW_PARAM_DOUBLE: snprintf(out, cap, "X"); break;
    default: snprintf(out, cap, "N"); break;
    }
}

void cli_usage_params(FILE *out, const cli_params *cp, const char *const *skip)
{
    for (int k = 0; k < cp->n; k++) {
        const gsfw_param *p = cp->param[k];
        if (listed(p->name, skip)) continue;
        char var[64], line[128];
        metavar(p, var, sizeof var);
        if (!strcmp(p->name, "L")) snprintf(var, sizeof var, "L|spectral|atom");
        snprintf(line, sizeof line, "  %s%s%s", cp->flag[k], var[0] ? " " : "", var);
        int col = 20;
        if (strlen(line) >= 19)
            fprintf(out, "%s\n%20s", line, "");
        else
            fprintf(out, "%-19s ", line);
        char help[256];
        const int required = listed(p->name, cp->required);
        if (p->type == GSFW_PARAM_ENTRY) {
            char names[200];
            gsfw_registry_names(p->kind, ", ", names, sizeof names);
            snprintf(help, sizeof help, "%s%s: %s", p->help, required ? ", required" : "", names);
        } else if (required) {
            char fixers[128] = "";
            size_t used = 0;
            const gsfw_entry *e;
            for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_MODEL, i)) && used < sizeof fixers; i++)
                if (gsfw_entry_fixed(e, p->name, NULL))
                    used += (size_t)snprintf(fixers + used, sizeof fixers - used, "%s%s",
                                             used ? ", " : "", e->name);
            if (fixers[0])
                snprintf(help, sizeof help, "%s (required unless the model fixes it: "
                         "%s)", p->help, fixers);
            else
                snprintf(help, sizeof help, "%s (required)", p->help);
        } else if ((p->type == GSFW_PARAM_INT || p->type == GSFW_PARAM_DOUBLE) && p->def != 0 &&
                   !strstr(p->help, "default") && !(p->flags & GSFW_PARAM_GENERAL &&
                                                    !strcmp(p->name, "s"))) {
            snprintf(help, sizeof help, "%s (default %g)", p->help, p->def);
        } else {
            snprintf(help, sizeof help, "%s", p->help);
        }
        wrapped(out, help, col, 20);
    }
}

int cli_help_topic(const char *topic)
{
    if (!strcmp(topic, "params") || !strcmp(topic, "parameters")) {
        const gsfw_param *p;
        for (int i = 0; (p = gsfw_registry_param(i)); i++) {
            char flag[40];
            flag_of(p->name, flag, sizeof flag);
            printf("%-18s %-14s %s\n", p->name, flag, p->help ? p->help : "");
        }
        return CLI_OK;
    }
    int kind = gsfw_kind_parse(topic);
    if (kind < 0) {
        char shown[256]; /* control bytes escaped, as in every message quoting input */
        cli_escape(topic, shown, sizeof shown);
        fprintf(stderr, "gsfw help: unknown topic '%s' (known:", shown);
        for (int k = 0; k < GSFW_KIND_COUNT; k++) fprintf(stderr, " %s,", gsfw_kind_name(k));
        fprintf(stderr, " params)\n");
        return CLI_USAGE;
    }
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry((gsfw_kind)kind, i)); i++) {
        char extra[160] = "";
        size_t used = 0;
        if (e->uses && e->uses[0])
            used += (size_t)snprintf(extra, sizeof extra, "reads %s", e->uses);
        int count;
        const gsfw_param *own = gsfw_entry_params_of(e, &count);
        for (int k = 0; k < count && used < sizeof extra; k++)
            used += (size_t)snprintf(extra + used, sizeof extra - used, "%s%s",
                                     used == 0 && k == 0 ? "reads " : " ", own[k].name);
        if (e->needs & (GSFW_NEEDS_GRAPH | GSFW_NEEDS_TREE) && used < sizeof extra)
            snprintf(extra + used, sizeof extra - used, "%sneeds %s", used ? "; " : "",
                     e->needs & GSFW_NEEDS_GRAPH ? "a graph" : "a tree");
        printf("%-18s %s%s%s%s\n", e->name, e->summary, extra[0] ? " [" : "", extra,
               extra[0] ? "]" : "");
    }
    return CLI_OK;
}

int cli_asks_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
    return 0;
}

char *cli_usage_text(const char *head, const cli_params *cp, const char *const *skip,
                     const char *tail)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) return NULL;
    fputs(head, out);
    cli_usage_params(out, cp, skip);
    static const char *const titles[GSFW_KIND_COUNT] = {
        "Methods (--method; gsfw help methods):", "Models (--model; gsfw help models):",
        "Step rules of the Frank-Wolfe methods (--step; gsfw help steps):",
        "Losses (--loss; gsfw help losses):", "Sensing operators (--sensing; gsfw help sensing):",
        "Bases (--basis; gsfw help bases):"};
    for (int k = 0; k < GSFW_KIND_COUNT; k++) {
        if (!gsfw_spec_accepts(cp->spec, gsfw_kind_param((gsfw_kind)k))) continue;
        fprintf(out, "\n%s\n", titles[k]);
        cli_usage_entries(out, (gsfw_kind)k, "  ");
    }
    fputs(tail, out);
    if (fclose(out)) {
        free(text);
        return NULL;
    }
    return text;
}
