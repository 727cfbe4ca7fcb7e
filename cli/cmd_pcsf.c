/* gsfw pcsf: solve one prize-collecting Steiner forest instance and print the result.
 *
 *   gsfw pcsf (--edges FILE | --graph grid:HxW) --prizes FILE [--root R] [--clusters G]
 *             [--pruning none|simple|gw|strong] [--tolerance EPS] [--stats]
 *
 * stdout: exactly two lines, "nodes: i j k ..." and "edges: e1 e2 ..." (0-based node ids
 * and edge indices in input order; for grids the edge order of gsfw_graph_grid). */
#include "cli.h"
#include "io/lines.h"
#include "memory.h"
#include "io/npy.h"
#include "core/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const USAGE =
    "usage: gsfw pcsf (--edges FILE | --graph grid:HxW) --prizes FILE [--root R]\n"
    "                 [--clusters G] [--pruning none|simple|gw|strong] [--tolerance EPS]\n"
    "                 [--stats] [--max-memory SIZE]\n"
    "\n"
    "Prize-collecting Steiner forest (Goemans-Williamson growth + pruning, results equal\n"
    "to pcst_fast including ties).\n"
    "\n"
    "  --edges FILE     edge list, one 'u v cost' (or 'u v', unit cost) per line, 0-based\n"
    "  --graph grid:HxW H x W 4-neighbour grid, node r*W+c, unit costs; edges listed per\n"
    "                   node in row-major order: (i, i+1) if not in the last column,\n"
    "                   then (i, i+W) if not in the last row\n"
    "  --prizes FILE    one prize per node: a float64 .npy vector or a text file with one\n"
    "                   number per line ('#' comments and blank lines allowed); the node\n"
    "                   count of the instance is the number of prizes\n"
    "  --root R         root node, or -1 for the unrooted problem (default -1)\n"
    "  --clusters G     unrooted: number of trees (active clusters) to keep (default 1);\n"
    "                   rooted runs need 0 (the default when --root >= 0)\n"
    "  --pruning P      none, simple, gw or strong (default gw)\n"
    "  --tolerance EPS  merge tolerance relative to the edge cost, in [0, 1) (default\n"
    "                   1e-6 as pcst_fast; 1e-10 as the original cluster_approx)\n"
    "  --stats          print timing and event counts on stderr\n"
    CLI_MEM_HELP
    "\n"
    "Output (stdout): 'nodes: ...' and 'edges: ...' on two lines (edge indices refer to the\n"
    "input order). Exit status 1 on bad data, 2 on a bad command line.\n";

/* Text prizes: one number per line. Returns CLI_OK or CLI_FAIL with a message. */
static int read_text_prizes(FILE *f, const char *path, double **out, int *len)
{
    size_t cap = 1024, n = 0;
    double *x = malloc(cap * sizeof *x);
    gsfw_line ln = {NULL, 0, 0};
    long lineno = 0;
    int rc = CLI_OK;
    if (!x) return cli_fail("pcsf", "--prizes: out of memory");
    for (;;) {
        errno = 0;
        gsfw_line_status ls = gsfw_line_read(f, &ln, GSFW_LINE_MAX);
        if (ls == GSFW_LINE_EOF) break;
        lineno++;
        if (ls == GSFW_LINE_READ_ERROR) {
            rc = cli_fail("pcsf", "--prizes: error reading '%s': %s", path, strerror(errno));
            break;
        }
        if (ls == GSFW_LINE_NOMEM) {
            rc = cli_fail("pcsf", "--prizes: out of memory");
            break;
        }
        if (gsfw_line_problem(ls)) {
            rc = cli_fail("pcsf", "--prizes %s: line %ld %s", path, lineno,
                          gsfw_line_problem(ls));
            break;
        }
        char *p = ln.buf;
        /* a UTF-8 byte-order mark (editors on Windows write one) is skipped, as in edge
         * lists */
        if (lineno == 1 && ln.len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;
        while (*p == ' ' || *p == '\t') p++;
        char *hash = strchr(p, '#');
        if (hash) *hash = '\0';
        size_t l = strlen(p);
        while (l > 0 && (p[l - 1] == '\n' || p[l - 1] == '\r' || p[l - 1] == ' ' ||
                         p[l - 1] == '\t'))
            p[--l] = '\0';
        if (l == 0) continue;
        char *end = NULL;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || *end != '\0') {
            rc = cli_fail("pcsf", "--prizes %s: line %ld: expected one number, got '%.40s'",
                          path, lineno, p);
            break;
        }
        if (n == cap) {
            cap *= 2;
            double *t = realloc(x, cap * sizeof *t);
            if (!t) {
                rc = cli_fail("pcsf", "--prizes: out of memory");
                break;
            }
            x = t;
        }
        if (n >= (size_t)1 << 30) {
            rc = cli_fail("pcsf", "--prizes %s: too many prizes", path);
            break;
        }
        x[n++] = v;
    }
    free(ln.buf);
    if (rc != CLI_OK) {
        free(x);
        return rc;
    }
    *out = x;
    *len = (int)n;
    return CLI_OK;
}

/* .npy when the file starts with the npy magic, text otherwise; the file is opened once,
 * so that a pipe (--prizes <(...)) works. *x freed with free(). */
static int load_prizes(const char *path, double **x, int *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return cli_fail("pcsf", "--prizes: cannot open '%s': %s", path, strerror(errno));
    int first = getc(f);
    if (first != EOF) ungetc(first, f); /* one byte of push-back is always available */
    int rc;
    if (first == 0x93) { /* the first byte of the npy magic, never the start of a number */
        gsfw_err err;
        int ndim, shape[2];
        if (gsfw_npy_read_stream(f, path, x, &ndim, shape, &err))
            rc = cli_fail("pcsf", "--prizes: %s", err.message);
        else
            rc = cli_vector_length("pcsf", "--prizes", path, x, ndim, shape, len);
    } else {
        rc = read_text_prizes(f, path, x, len);
    }
    fclose(f);
    return rc;
}

/* Fast "label: a b c\n" writer (outputs can have a million ids). */
static void print_line(const char *label, const int *ids, int count)
{
    char buf[1 << 14];
    size_t k = 0;
    fputs(label, stdout);
    for (int i = 0; i < count; i++) {
        if (k > sizeof buf - 16) {
            fwrite(buf, 1, k, stdout);
            k = 0;
        }
        buf[k++] = ' ';
        char tmp[12];
        int t = 0;
        unsigned v = (unsigned)ids[i];
        do {
            tmp[t++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (t) buf[k++] = tmp[--t];
    }
    buf[k++] = '\n';
    fwrite(buf, 1, k, stdout);
}

/* "grid:<digits>x<digits>" exactly (anything else goes through cli_load_graph, which
 * owns the messages for unusual specs). */
static int canonical_grid_spec(const char *s)
{
    if (strncmp(s, "grid:", 5)) return 0;
    s += 5;
    if (!isdigit((unsigned char)*s)) return 0;
    while (isdigit((unsigned char)*s)) s++;
    if (*s++ != 'x' || !isdigit((unsigned char)*s)) return 0;
    while (isdigit((unsigned char)*s)) s++;
    return *s == '\0';
}

/* The instance's edge list (the PCSF reads no adjacency). */
typedef struct {
    int m;
    int *u, *v;
    double *cost; /* NULL: unit costs */
} edge_list;

static void edge_list_free(edge_list *el)
{
    gsfw_free(el->u);
    gsfw_free(el->v);
    gsfw_free(el->cost);
}

/* The H x W grid's edges in gsfw_graph_grid's order, without the CSR adjacency a
 * gsfw_graph carries (36 MB and a pass over the edges at 1000x1000). */
static int grid_edge_list(int h, int w, edge_list *el)
{
    long long mm = (long long)h * (w - 1) + (long long)(h - 1) * w;
    el->m = (int)mm;
    el->u = malloc((mm > 0 ? (size_t)mm : 1) * sizeof(int));
    el->v = malloc((mm > 0 ? (size_t)mm : 1) * sizeof(int));
    if (!el->u || !el->v) return cli_fail("pcsf", "out of memory for a %d x %d grid", h, w);
    int e = 0;
    for (int r = 0; r < h; r++) {
        for (int c = 0; c < w; c++) {
            int i = r * w + c;
            if (c + 1 < w) {
                el->u[e] = i;
                el->v[e++] = i + 1;
            }
            if (r + 1 < h) {
                el->u[e] = i;
                el->v[e++] = i + w;
            }
        }
    }
    return CLI_OK;
}

/* A copy of a graph's edge list (unit costs: cost NULL). */
static int copy_edges(const gsfw_graph *g, edge_list *el)
{
    const int *u, *v;
    const double *cost;
    gsfw_graph_edges(g, &u, &v, &cost);
    size_t m = (size_t)gsfw_graph_edge_count(g);
    el->m = (int)m;
    el->u = malloc((m ? m : 1) * sizeof(int));
    el->v = malloc((m ? m : 1) * sizeof(int));
    el->cost = cost ? malloc((m ? m : 1) * sizeof(double)) : NULL;
    if (!el->u || !el->v || (cost && !el->cost))
        return cli_fail("pcsf", "out of memory for %zu edges", m);
    memcpy(el->u, u, m * sizeof(int));
    memcpy(el->v, v, m * sizeof(int));
    if (cost) memcpy(el->cost, cost, m * sizeof(double));
    return CLI_OK;
}

/* What the prize file holds, for a message: "is empty", "has 3 prizes", or with `nodes`
 * "has only 3 prizes (nodes 0..2)". */
static const char *prizes_held(int n, int nodes, char *buf, size_t cap)
{
    if (n == 0) snprintf(buf, cap, "is empty");
    else if (nodes) snprintf(buf, cap, "has only %d prizes (nodes 0..%d)", n, n - 1);
    else snprintf(buf, cap, "has %d prizes", n);
    return buf;
}

/* The graph's edges, with messages that name the prize file when the sizes disagree;
 * an edge list is checked by building the graph once (ids, costs). */
static int load_graph(const char *grid, const char *edges, int n, const char *prizes_path,
                      edge_list *el)
{
    gsfw_err err;
    char held[64];
    gsfw_graph *g = NULL;
    if (grid) {
        long h = 0, w = 0;
        char tail = 0;
        int sized = sscanf(grid, "grid:%ldx%ld%c", &h, &w, &tail) == 2 && h > 0 && w > 0 &&
                    h <= 100000000L / w;
        if (sized && h * w != n)
            return cli_fail("pcsf", "--graph %s has %ld nodes but --prizes %s %s", grid, h * w,
                            prizes_path, prizes_held(n, 0, held, sizeof held));
        if (sized && canonical_grid_spec(grid)) return grid_edge_list((int)h, (int)w, el);
        int ret = cli_load_graph("pcsf", grid, NULL, n, &g);
        if (ret == CLI_OK) ret = copy_edges(g, el);
        gsfw_graph_free(g);
        return ret;
    }
    gsfw_error rc = gsfw_edges_read(edges, -1, &el->m, &el->u, &el->v, &el->cost, &err);
    if (rc) return cli_fail("pcsf", "--edges: %s", err.message);
    const int *u = el->u, *v = el->v;
    for (int e = 0; e < el->m; e++) {
        int big = u[e] > v[e] ? u[e] : v[e];
        if (big >= n)
            return cli_fail("pcsf", "--edges %s: edge %d (%d, %d) uses node %d, but --prizes "
                            "%s %s", edges, e, u[e], v[e], big, prizes_path,
                            prizes_held(n, 1, held, sizeof held));
    }
    rc = gsfw_graph_from_edges(n, el->m, u, v, el->cost, &g, &err);
    gsfw_graph_free(g);
    if (rc) return cli_fail("pcsf", "--edges %s: %s", edges, err.message);
    return CLI_OK;
}

/* Library messages start with "pcsf: "; the CLI prefixes its own name already. */
static int fail_lib(gsfw_error code, const gsfw_err *err)
{
    const char *msg = err->message[0] ? err->message : gsfw_error_message(code);
    if (!strncmp(msg, "pcsf: ", 6)) msg += 6;
    return cli_fail("pcsf", "%s", msg);
}

int cmd_pcsf(int argc, char **argv)
{
    const char *edges = NULL, *grid = NULL, *prizes_path = NULL, *root_s = NULL,
               *clusters_s = NULL, *pruning_s = NULL, *stats_s = NULL, *mem_text = NULL,
               *tol_s = NULL;
    cli_opt opts[] = {
        {"--edges", 0, &edges},       {"--graph", 0, &grid},
        {"--prizes", 0, &prizes_path}, {"--root", 0, &root_s},
        {"--clusters", 0, &clusters_s}, {"--pruning", 0, &pruning_s},
        {"--stats", 1, &stats_s}, {"--max-memory", 0, &mem_text},
        {"--tolerance", 0, &tol_s},
    };
    int rc = cli_parse("pcsf", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), USAGE);
    if (rc) return rc;
    if ((rc = cli_mem_set_limit("pcsf", mem_text))) return rc;
    if ((rc = cli_require("pcsf", "--prizes", prizes_path))) return rc;
    if (!grid && !edges)
        return cli_usage_error("pcsf", "a graph is required: --graph grid:HxW or --edges FILE");
    if (grid && edges) return cli_usage_error("pcsf", "give either --graph or --edges, not both");
    int root = -1, clusters = -1;
    if (root_s && (rc = cli_parse_int("pcsf", "--root", root_s, -1, 2147483647L, &root)))
        return rc;
    if (clusters_s &&
        (rc = cli_parse_int("pcsf", "--clusters", clusters_s, 0, 2147483647L, &clusters)))
        return rc;
    if (clusters < 0) clusters = root >= 0 ? 0 : 1;
    if (root >= 0 && clusters != 0)
        return cli_usage_error("pcsf", "a rooted run (--root %d) needs --clusters 0, got %d", root,
                               clusters);
    double tolerance = GSFW_PCSF_DEFAULT_TOLERANCE;
    if (tol_s) {
        if ((rc = cli_parse_double("pcsf", "--tolerance", tol_s, &tolerance))) return rc;
        if (!(tolerance >= 0.0 && tolerance < 1.0))
            return cli_usage_error("pcsf", "--tolerance %s is outside [0, 1)", tol_s);
    }
    int pruning = GSFW_PRUNING_GW;
    if (pruning_s) {
        pruning = gsfw_pruning_parse(pruning_s);
        if (pruning < 0)
            return cli_usage_error("pcsf", "unknown pruning '%s' (expected none, simple, gw "
                                   "or strong)", pruning_s);
    }

    double t0 = gsfw_now();
    double *prizes = NULL;
    int n = 0;
    if ((rc = load_prizes(prizes_path, &prizes, &n))) return rc;
    if (root >= n) {
        free(prizes);
        return cli_fail("pcsf", "--root %d is out of range: the instance has %d nodes (from "
                        "--prizes)", root, n);
    }
    edge_list el = {0, NULL, NULL, NULL};
    rc = load_graph(grid, edges, n, prizes_path, &el);
    if (rc) {
        edge_list_free(&el);
        free(prizes);
        return rc;
    }
    double t1 = gsfw_now();
    gsfw_pcsf *ws = NULL;
    gsfw_err err;
    int *out_nodes = malloc((n > 0 ? (size_t)n : 1) * sizeof(int));
    int *out_edges = malloc((el.m > 0 ? (size_t)el.m : 1) * sizeof(int));
    int nn = 0, ne = 0;
    gsfw_error e = GSFW_OK;
    if (!out_nodes || !out_edges) {
        rc = cli_fail("pcsf", "out of memory for %d nodes and %d edges", n, el.m);
    } else if ((rc = cli_mem_check("pcsf", gsfw_memory_estimate("pcsf", n, el.m),
                                   "the PCSF workspace"))) {
        /* message printed */
    } else if ((e = gsfw_pcsf_create(&ws, &err)) ||
               (e = gsfw_pcsf_set_tolerance(ws, tolerance, &err)) ||
               (e = gsfw_pcsf_run(ws, n, el.m, el.u, el.v, prizes, el.cost, root,
                                  clusters, (gsfw_pruning)pruning, out_nodes, &nn, out_edges,
                                  &ne, &err))) {
        rc = fail_lib(e, &err);
    }
    double t2 = gsfw_now();
    if (rc == CLI_OK) {
        print_line("nodes:", out_nodes, nn);
        print_line("edges:", out_edges, ne);
        if (stats_s)
            fprintf(stderr, "pcsf: n=%d m=%d root=%d clusters=%d pruning=%s load_s=%.4f "
                    "solve_s=%.4f write_s=%.4f nodes=%d edges=%d\n", n, el.m, root, clusters,
                    pruning_s ? pruning_s : "gw", t1 - t0, t2 - t1, gsfw_now() - t2, nn, ne);
    }
    gsfw_pcsf_free(ws);
    free(out_nodes);
    free(out_edges);
    edge_list_free(&el);
    free(prizes);
    return rc;
}
