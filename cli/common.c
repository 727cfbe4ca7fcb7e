/* Option parsing, error reporting and input loading shared by the subcommands. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "gsfw %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'gsfw %s --help'.\n", cmd);
    return CLI_USAGE;
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "gsfw %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAIL;
}

int cli_fail_err(const char *cmd, gsfw_error code, const gsfw_err *err)
{
    if (err && err->message[0]) return cli_fail(cmd, "%s", err->message);
    return cli_fail(cmd, "%s", gsfw_error_message(code));
}

int cli_parse(const char *cmd, int argc, char **argv, cli_opt *opts, int nopts,
              const char *usage)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(usage, stdout);
            return CLI_HELP;
        }
        if (strncmp(arg, "--", 2) != 0)
            return cli_usage_error(cmd, "unexpected argument '%s'", arg);
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        cli_opt *opt = NULL;
        for (int k = 0; k < nopts; k++) {
            if (strlen(opts[k].flag) == name_len && !strncmp(opts[k].flag, arg, name_len)) {
                opt = &opts[k];
                break;
            }
        }
        if (!opt) return cli_usage_error(cmd, "unknown option '%.*s'", (int)name_len, arg);
        if (*opt->value) return cli_usage_error(cmd, "option '%s' given twice", opt->flag);
        if (opt->is_switch) {
            if (eq) return cli_usage_error(cmd, "option '%s' takes no value", opt->flag);
            *opt->value = "1";
        } else if (eq) {
            *opt->value = eq + 1;
        } else {
            if (i + 1 >= argc) return cli_usage_error(cmd, "option '%s' needs a value", opt->flag);
            *opt->value = argv[++i];
        }
    }
    return CLI_OK;
}

int cli_require(const char *cmd, const char *flag, const char *value)
{
    if (!value) return cli_usage_error(cmd, "missing required option %s", flag);
    return CLI_OK;
}

int cli_parse_int(const char *cmd, const char *flag, const char *text, long lo, long hi,
                  int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    /* strtol skips leading blanks; refuse them as trailing ones are refused */
    if (isspace((unsigned char)text[0]) || end == text || *end != '\0')
        return cli_usage_error(cmd, "%s expects an integer, got '%s'", flag, text);
    if (errno == ERANGE)
        return cli_usage_error(cmd, "%s must be between %ld and %ld, got %s", flag, lo, hi, text);
    if (v < lo || v > hi || v < INT_MIN || v > INT_MAX)
        return cli_usage_error(cmd, "%s must be between %ld and %ld, got %ld", flag, lo, hi, v);
    *out = (int)v;
    return CLI_OK;
}

int cli_parse_double(const char *cmd, const char *flag, const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    /* strtod skips leading blanks; refuse them as trailing ones are refused */
    if (isspace((unsigned char)text[0]) || end == text || *end != '\0' ||
        (errno != ERANGE && !isfinite(v)))
        return cli_usage_error(cmd, "%s expects a finite number, got '%s'", flag, text);
    if (errno == ERANGE)
        return cli_usage_error(cmd, "%s: '%s' is %s for a double", flag, text,
                               fabs(v) > 1.0 ? "too large" : "too small (it underflows)");
    *out = v;
    return CLI_OK;
}

int cli_parse_L(const char *cmd, const char *text, double *L, gsfw_lipschitz_rule *rule)
{
    if (!strcmp(text, "spectral")) {
        *L = 0.0;
        *rule = GSFW_L_SPECTRAL;
        return CLI_OK;
    }
    if (!strcmp(text, "atom")) {
        *L = 0.0;
        *rule = GSFW_L_ATOM;
        return CLI_OK;
    }
    int rc = cli_parse_double(cmd, "--L", text, L);
    if (rc) return cli_usage_error(cmd, "--L takes a number > 0, 'spectral' or 'atom'");
    if (!(*L > 0)) return cli_usage_error(cmd, "--L must be > 0, got %s", text);
    return CLI_OK;
}

int cli_load_vector(const char *cmd, const char *flag, const char *path, double **x, int *len)
{
    gsfw_err err;
    int ndim, shape[2];
    gsfw_error rc = gsfw_npy_read(path, x, &ndim, shape, &err);
    if (rc) return cli_fail(cmd, "%s: %s", flag, err.message);
    return cli_vector_length(cmd, flag, path, x, ndim, shape, len);
}

int cli_vector_length(const char *cmd, const char *flag, const char *path, double **x,
                      int ndim, const int shape[2], int *len)
{
    if (ndim == 2 && shape[0] != 1 && shape[1] != 1) {
        gsfw_free(*x);
        *x = NULL;
        return cli_fail(cmd, "%s: '%s' must hold a vector, but it is a %d x %d matrix", flag,
                        path, shape[0], shape[1]);
    }
    *len = shape[0] * shape[1];
    return CLI_OK;
}

int cli_load_matrix(const char *cmd, const char *flag, const char *path, double **A,
                    int *rows, int *cols)
{
    gsfw_err err;
    int ndim, shape[2];
    gsfw_error rc = gsfw_npy_read(path, A, &ndim, shape, &err);
    if (rc) return cli_fail(cmd, "%s: %s", flag, err.message);
    if (ndim != 2) {
        gsfw_free(*A);
        *A = NULL;
        return cli_fail(cmd, "%s: '%s' must hold a 2-D matrix, but it is 1-D", flag, path);
    }
    *rows = shape[0];
    *cols = shape[1];
    return CLI_OK;
}

static int parse_grid_spec(const char *cmd, const char *spec, int *h, int *w)
{
    const char *p = spec;
    if (strncmp(p, "grid:", 5) != 0)
        return cli_usage_error(cmd, "--graph expects grid:HxW, got '%s'", spec);
    p += 5;
    /* digits only: strtol alone would also take blanks and signs */
    char *end = NULL;
    errno = 0;
    long hh = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
    if (hh < 0 || errno || (*end != 'x' && *end != 'X'))
        return cli_usage_error(cmd, "--graph expects grid:HxW, got '%s'", spec);
    p = end + 1;
    long ww = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
    if (ww < 0 || errno || *end != '\0')
        return cli_usage_error(cmd, "--graph expects grid:HxW, got '%s'", spec);
    if (hh < 1 || ww < 1 || hh > 100000000L / ww)
        return cli_usage_error(cmd, "--graph grid size %ldx%ld is out of range", hh, ww);
    *h = (int)hh;
    *w = (int)ww;
    return CLI_OK;
}

int cli_load_graph(const char *cmd, const char *grid_spec, const char *edges_path,
                   int n_expected, gsfw_graph **out)
{
    gsfw_err err;
    gsfw_error rc;
    *out = NULL;
    if (grid_spec && edges_path)
        return cli_usage_error(cmd, "give either --graph or --edges, not both");
    if (!grid_spec && !edges_path)
        return cli_usage_error(cmd, "a graph is required: --graph grid:HxW or --edges FILE");
    if (grid_spec) {
        int h = 0, w = 0, r = parse_grid_spec(cmd, grid_spec, &h, &w);
        if (r) return r;
        if (n_expected >= 0 && (long)h * w != n_expected)
            return cli_fail(cmd, "--graph %s has %ld nodes but the vector has %d entries",
                            grid_spec, (long)h * w, n_expected);
        rc = gsfw_graph_grid(h, w, out, &err);
        if (rc) return cli_fail_err(cmd, rc, &err);
        return CLI_OK;
    }
    int m = 0, *u = NULL, *v = NULL;
    double *cost = NULL;
    rc = gsfw_edges_read(edges_path, n_expected, &m, &u, &v, &cost, &err);
    if (rc) return cli_fail(cmd, "--edges: %s", err.message);
    int n = n_expected;
    if (n < 0) { /* infer the node count from the largest id */
        n = 0;
        for (int e = 0; e < m; e++) {
            if (u[e] + 1 > n) n = u[e] + 1;
            if (v[e] + 1 > n) n = v[e] + 1;
        }
    }
    rc = gsfw_graph_from_edges(n, m, u, v, cost, out, &err);
    gsfw_free(u);
    gsfw_free(v);
    gsfw_free(cost);
    if (rc) return cli_fail(cmd, "--edges %s: %s", edges_path, err.message);
    return CLI_OK;
}

void cli_print_ids(const int *ids, int count)
{
    for (int i = 0; i < count; i++) printf(i ? " %d" : "%d", ids[i]);
    putchar('\n');
}
