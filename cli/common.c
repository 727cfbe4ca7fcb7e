/* Option parsing, error reporting and input loading shared by the subcommands. */
#include "cli.h"
#include "outputs.h"
#include "memory.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the UTF-8 sequence starting at s when it is well formed and encodes a
 * printable character (not a C1 control, U+0080..U+009F, which some terminals obey),
 * else 0. */
static size_t printable_utf8(const unsigned char *s)
{
    unsigned c = s[0];
    size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (c >= 0xF5) len = 0;
    for (size_t k = 1; k < len; k++)
        if ((s[k] & 0xC0) != 0x80) return 0;
    if (len == 2 && c == 0xC2 && s[1] < 0xA0) return 0;          /* C1 controls */
    if (len == 3 && c == 0xE0 && s[1] < 0xA0) return 0;          /* overlong */
    if (len == 3 && c == 0xED && s[1] >= 0xA0) return 0;         /* surrogates */
    if (len == 4 && c == 0xF0 && s[1] < 0x90) return 0;          /* overlong */
    if (len == 4 && c == 0xF4 && s[1] >= 0x90) return 0;         /* beyond U+10FFFF */
    return len;
}

size_t cli_escape(const char *in, char *out, size_t cap)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t used = 0;
    if (cap == 0) return 0;
    while (*s) {
        size_t len = *s >= 0x20 && *s < 0x7F ? 1 : *s >= 0x80 ? printable_utf8(s) : 0;
        size_t want = len ? len : 4;
        if (used + want >= cap) break;
        if (len) {
            memcpy(out + used, s, len);
            s += len;
        } else {
            snprintf(out + used, 5, "\\x%02X", (unsigned)*s);
            s++;
        }
        used += want;
    }
    out[used] = '\0';
    return used;
}

static const char *program = "gsfw";
/* a message as formatted (room for a path of PATH_MAX and its text), and escaped: each
 * byte may take four */
enum { RAW_MESSAGE = 8192, SHOWN_MESSAGE = 4 * RAW_MESSAGE };
/* the last error printed, for gsfw-mpi, whose other ranks print nowhere: their failure
 * reaches rank 0's summary through it */
static char last_error[SHOWN_MESSAGE];

void cli_set_program(const char *name)
{
    program = name;
}

const char *cli_program(void)
{
    return program;
}

const char *cli_last_error(void)
{
    return last_error;
}

void cli_forget_error(void)
{
    last_error[0] = '\0';
}

/* Print "gsfw CMD: LABELmessage" with control bytes and malformed UTF-8 escaped: messages
 * quote file contents, paths and arguments, and none of them may move the cursor, clear
 * the screen or retitle the terminal. shown (cap bytes) receives the escaped message. */
static void print_escaped(const char *cmd, const char *label, const char *fmt, va_list ap,
                          char *shown, size_t cap)
{
    char raw[RAW_MESSAGE];
    vsnprintf(raw, sizeof raw, fmt, ap);
    cli_escape(raw, shown, cap);
    fprintf(stderr, "%s %s: %s%s\n", program, cmd, label, shown);
}

static void print_message(const char *cmd, const char *fmt, va_list ap)
{
    /* after SIGINT / SIGTERM a failure is the interruption's doing (a helper such as
     * gnuplot got the signal too): the run reports the interruption instead */
    if (cli_interrupted()) return;
    char shown[SHOWN_MESSAGE];
    print_escaped(cmd, "", fmt, ap, shown, sizeof shown);
    snprintf(last_error, sizeof last_error, "%s", shown);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message(cmd, fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try '%s %s --help'.\n", program, cmd);
    return CLI_USAGE;
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message(cmd, fmt, ap);
    va_end(ap);
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

/* Parse a finite double; NULL, or the end of a sentence "FLAG: '...' is ..." / "FLAG
 * expects ..." saying what is wrong. */
static const char *double_problem(const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    /* strtod skips leading blanks; refuse them as trailing ones are refused */
    if (isspace((unsigned char)text[0]) || end == text || *end != '\0' ||
        (errno != ERANGE && !isfinite(v)))
        return "not a finite number";
    if (errno == ERANGE)
        return fabs(v) > 1.0 ? "too large for a double" : "too small for a double (it underflows)";
    *out = v;
    return NULL;
}

int cli_parse_double(const char *cmd, const char *flag, const char *text, double *out)
{
    const char *why = double_problem(text, out);
    if (!why) return CLI_OK;
    if (!strcmp(why, "not a finite number"))
        return cli_usage_error(cmd, "%s expects a finite number, got '%s'", flag, text);
    return cli_usage_error(cmd, "%s: '%s' is %s", flag, text, why);
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
    const char *why = double_problem(text, L);
    if (why)
        return cli_usage_error(cmd, "--L takes a number > 0, 'spectral' or 'atom'; '%s' is %s",
                               text, why);
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
    return cli_load_graph_sized(cmd, grid_spec, edges_path, 0, n_expected, out);
}

/* The node count an edge list implies: one more than its largest id (0 without edges). */
static int edge_list_nodes(int m, const int *u, const int *v)
{
    int n = 0;
    for (int e = 0; e < m; e++) {
        if (u[e] + 1 > n) n = u[e] + 1;
        if (v[e] + 1 > n) n = v[e] + 1;
    }
    return n;
}

int cli_load_graph_sized(const char *cmd, const char *grid_spec, const char *edges_path,
                         int nodes, int n_expected, gsfw_graph **out)
{
    gsfw_err err;
    gsfw_error rc;
    *out = NULL;
    if (grid_spec && edges_path)
        return cli_usage_error(cmd, "give either --graph or --edges, not both");
    if (!grid_spec && !edges_path)
        return cli_usage_error(cmd, "a graph is required: --graph grid:HxW or --edges FILE");
    if (grid_spec && nodes > 0)
        return cli_usage_error(cmd, "--nodes goes with --edges (--graph %s fixes the node "
                               "count)", grid_spec);
    if (grid_spec) {
        int h = 0, w = 0, r = parse_grid_spec(cmd, grid_spec, &h, &w);
        if (r) return r;
        if (n_expected >= 0 && (long)h * w != n_expected)
            return cli_fail(cmd, "--graph %s has %ld nodes but the vector has %d entries",
                            grid_spec, (long)h * w, n_expected);
        double need = gsfw_memory_estimate("graph", (double)h * w, 2.0 * h * w);
        if ((r = cli_mem_check(cmd, need, "--graph"))) return r;
        rc = gsfw_graph_grid(h, w, out, &err);
        if (rc) return cli_fail_err(cmd, rc, &err);
        return CLI_OK;
    }
    if (nodes > 0 && n_expected >= 0 && nodes != n_expected)
        return cli_fail(cmd, "--nodes %d but the vector has %d entries", nodes, n_expected);
    const int limit = nodes > 0 ? nodes : n_expected;
    int m = 0, *u = NULL, *v = NULL;
    double *cost = NULL;
    /* a line of an edge list takes 6 bytes or more ("0 1 1\n") */
    int mr = cli_mem_check(cmd, gsfw_memory_estimate("graph", limit > 0 ? limit : 0,
                                                     cli_mem_file_size(edges_path) / 6.0),
                           "--edges");
    if (mr) return mr;
    rc = gsfw_edges_read(edges_path, limit, &m, &u, &v, &cost, &err);
    if (rc) return cli_fail(cmd, "--edges: %s", err.message);
    const int listed = edge_list_nodes(m, u, v);
    int n = limit >= 0 ? limit : listed;
    int ret = CLI_OK;
    /* Nodes beyond the largest id would be isolated: padding the graph silently would
     * hide a vector of the wrong length, so that takes an explicit --nodes. */
    if (nodes <= 0 && n_expected >= 0 && listed != n_expected)
        ret = cli_fail(cmd, "--edges %s has %d nodes (ids 0..%d) but the vector has %d "
                       "entries; if nodes %d..%d are isolated, say so with --nodes %d",
                       edges_path, listed, listed - 1, n_expected, listed, n_expected - 1,
                       n_expected);
    if (ret == CLI_OK) {
        rc = gsfw_graph_from_edges(n, m, u, v, cost, out, &err);
        if (rc) ret = cli_fail(cmd, "--edges %s: %s", edges_path, err.message);
    }
    gsfw_free(u);
    gsfw_free(v);
    gsfw_free(cost);
    return ret;
}

int cli_parse_nodes(const char *cmd, const char *text, int *nodes)
{
    *nodes = 0;
    if (!text) return CLI_OK;
    return cli_parse_int(cmd, "--nodes", text, 1, 2147483647L, nodes);
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
    char shown[SHOWN_MESSAGE];
    va_list ap;
    va_start(ap, fmt);
    print_escaped(cmd, "warning: ", fmt, ap, shown, sizeof shown);
    va_end(ap);
}

void cli_note(const char *cmd, const char *fmt, ...)
{
    char shown[SHOWN_MESSAGE];
    va_list ap;
    va_start(ap, fmt);
    print_escaped(cmd, "note: ", fmt, ap, shown, sizeof shown);
    va_end(ap);
}

const char *cli_output_path(const char *path)
{
    return path && !strcmp(path, "-") ? "/dev/stdout" : path;
}

int cli_ends_with(const char *path, const char *suffix)
{
    size_t lp = strlen(path), ls = strlen(suffix);
    return lp >= ls && !strcmp(path + lp - ls, suffix);
}

int cli_ends_with_nocase(const char *path, const char *suffix)
{
    size_t lp = strlen(path), ls = strlen(suffix);
    if (lp < ls) return 0;
    for (size_t i = 0; i < ls; i++) {
        char c = path[lp - ls + i]; /* ASCII only: not the locale's idea of case */
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return 0;
    }
    return 1;
}

void cli_print_ids(const int *ids, int count)
{
    for (int i = 0; i < count; i++) printf(i ? " %d" : "%d", ids[i]);
    putchar('\n');
}
