/* --tree for the tree models: the wavelet quadtree or a parents .npy (tree_load.h).
 * The library's .npy reader is float64-only; parent ids usually come as integers
 * (numpy's default int64), so the few header fields a 1-D id array needs are read here. */
#include "tree_load.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memory.h"

#define NPY_MAX_BYTES ((long)1 << 31)

int cli_check_tree_flag(const char *cmd, const gsfw_entry *model, const char *tree_spec)
{
    int needs = (model->needs & GSFW_NEEDS_TREE) != 0;
    if (needs && !tree_spec)
        return cli_usage_error(cmd, "--model %s needs a tree: --tree quadtree:HxW or --tree "
                               "parents.npy", model->name);
    if (!needs && tree_spec) {
        char names[256] = "";
        size_t used = 0;
        const gsfw_entry *e;
        for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_MODEL, i)) && used < sizeof names; i++)
            if (e->needs & GSFW_NEEDS_TREE)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                         used ? ", " : "", e->name);
        return cli_usage_error(cmd, "--tree is for the tree models (%s), not --model %s", names,
                               model->name);
    }
    return CLI_OK;
}

/* "quadtree:HxW" -> h, w; CLI_USAGE on a malformed spelling. */
static int parse_quadtree_spec(const char *cmd, const char *spec, int *h, int *w)
{
    const char *p = spec + strlen("quadtree:");
    char *end = NULL;
    errno = 0;
    long hh = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
    if (hh < 0 || errno || (*end != 'x' && *end != 'X'))
        return cli_usage_error(cmd, "--tree expects quadtree:HxW or a .npy file, got '%s'", spec);
    p = end + 1;
    long ww = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
    if (ww < 0 || errno || *end != '\0')
        return cli_usage_error(cmd, "--tree expects quadtree:HxW or a .npy file, got '%s'", spec);
    if (hh > INT_MAX || ww > INT_MAX)
        return cli_usage_error(cmd, "--tree %s: size out of range", spec);
    *h = (int)hh;
    *w = (int)ww;
    return CLI_OK;
}

/* The quoted value after 'key': in the header dict; NULL if absent. */
static const char *dict_value(const char *header, const char *key)
{
    const char *p = strstr(header, key);
    if (!p) return NULL;
    p += strlen(key);
    while (*p == ' ') p++;
    if (*p != ':') return NULL;
    p++;
    while (*p == ' ') p++;
    return p;
}

/* descr and the element count of a 1-D array (or 2-D with one row or column). */
static int parse_npy_header(const char *header, char *descr, size_t descr_cap, long *count)
{
    const char *p = dict_value(header, "'descr'");
    if (!p || (*p != '\'' && *p != '"')) return -1;
    char quote = *p++;
    size_t k = 0;
    while (*p && *p != quote && k + 1 < descr_cap) descr[k++] = *p++;
    descr[k] = '\0';
    if (*p != quote) return -1;
    p = dict_value(header, "'shape'");
    if (!p || *p != '(') return -1;
    p++;
    long dims[2];
    int ndim = 0;
    for (;;) {
        while (*p == ' ' || *p == ',') p++;
        if (*p == ')') break;
        if (!isdigit((unsigned char)*p) || ndim == 2) return -1;
        char *end;
        errno = 0;
        dims[ndim++] = strtol(p, &end, 10);
        if (errno) return -1;
        p = end;
    }
    if (ndim == 1)
        *count = dims[0];
    else if (ndim == 2 && (dims[0] == 1 || dims[1] == 1))
        *count = dims[0] * dims[1];
    else
        return -2;
    return 0;
}

static int read_file(const char *cmd, const char *path, unsigned char **bytes, long *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return cli_fail(cmd, "--tree: cannot open '%s': %s", path, strerror(errno));
    long cap = 1 << 16, n = 0;
    unsigned char *buf = malloc((size_t)cap);
    while (buf) {
        size_t got = fread(buf + n, 1, (size_t)(cap - n), fp);
        n += (long)got;
        if (n < cap) break;
        if (cap >= NPY_MAX_BYTES) {
            free(buf);
            fclose(fp);
            return cli_fail(cmd, "--tree: '%s' is larger than 2 GiB", path);
        }
        unsigned char *grown = realloc(buf, (size_t)cap * 2);
        if (!grown) free(buf);
        buf = grown;
        cap *= 2;
    }
    int failed = ferror(fp);
    fclose(fp);
    if (!buf) return cli_fail(cmd, "--tree: out of memory reading '%s'", path);
    if (failed) {
        free(buf);
        return cli_fail(cmd, "--tree: cannot read '%s'", path);
    }
    *bytes = buf;
    *len = n;
    return CLI_OK;
}

int cli_read_parents(const char *cmd, const char *path, int **parent, int *n_out)
{
    unsigned char *b = NULL;
    long len = 0;
    *parent = NULL;
    int rc = read_file(cmd, path, &b, &len);
    if (rc) return rc;
    long hlen = 0, start = 0;
    if (len >= 10 && !memcmp(b, "\x93NUMPY", 6) && b[6] == 1) {
        hlen = b[8] | (long)b[9] << 8;
        start = 10;
    } else if (len >= 12 && !memcmp(b, "\x93NUMPY", 6) && (b[6] == 2 || b[6] == 3)) {
        hlen = b[8] | (long)b[9] << 8 | (long)b[10] << 16 | (long)b[11] << 24;
        start = 12;
    } else {
        free(b);
        return cli_fail(cmd, "--tree: '%s' is not a .npy file (nor quadtree:HxW)", path);
    }
    if (hlen > len - start) {
        free(b);
        return cli_fail(cmd, "--tree: '%s' ends inside its .npy header", path);
    }
    char *header = malloc((size_t)hlen + 1);
    if (!header) {
        free(b);
        return cli_fail(cmd, "--tree: out of memory reading '%s'", path);
    }
    memcpy(header, b + start, (size_t)hlen);
    header[hlen] = '\0';
    char descr[16];
    long count = 0;
    int hr = parse_npy_header(header, descr, sizeof descr, &count);
    free(header);
    if (hr) {
        free(b);
        return cli_fail(cmd, "--tree: '%s': %s", path,
                        hr == -2 ? "the parent array must be 1-D (or one row or column)"
                                 : "malformed .npy header");
    }
    int item = !strcmp(descr, "<i4") ? 4 : !strcmp(descr, "<i8") || !strcmp(descr, "<f8") ? 8 : 0;
    if (!item) {
        free(b);
        return cli_fail(cmd, "--tree: '%s' holds '%s'; parent ids must be little-endian int32 "
                        "('<i4'), int64 ('<i8') or float64 ('<f8')", path, descr);
    }
    const unsigned char *data = b + start + hlen;
    long avail = len - start - hlen;
    if (count < 1 || count > INT_MAX || count > avail / item || count * item != avail) {
        free(b);
        return cli_fail(cmd, "--tree: '%s' has %ld bytes of data for %ld entries of %d bytes",
                        path, avail, count, item);
    }
    int *p = malloc((size_t)count * sizeof(int));
    if (!p) {
        free(b);
        return cli_fail(cmd, "--tree: out of memory for %ld parent ids", count);
    }
    for (long i = 0; i < count; i++) {
        const unsigned char *e = data + i * item;
        double value;
        int64_t v64 = 0;
        if (descr[1] == 'f') {
            memcpy(&value, e, 8);
        } else if (item == 4) {
            int32_t v32;
            memcpy(&v32, e, 4);
            value = v64 = v32;
        } else {
            memcpy(&v64, e, 8);
            value = (double)v64;
        }
        const char *why = !(value == floor(value)) ? "not an integer"
                          : value < (double)INT_MIN || value > (double)INT_MAX
                              ? "out of range" : NULL;
        /* the range of ids within an int is the tree's check, which names the node */
        if (why) {
            char shown[32];
            if (descr[1] == 'f')
                snprintf(shown, sizeof shown, "%.17g", value);
            else
                snprintf(shown, sizeof shown, "%lld", (long long)v64);
            free(p);
            free(b);
            return cli_fail(cmd, "--tree: '%s' entry %ld is %s, %s; a parent is a node id "
                            "(0..%ld) or -1 for a root", path, i, shown, why, count - 1);
        }
        p[i] = (int)value;
    }
    free(b);
    *parent = p;
    *n_out = (int)count;
    return CLI_OK;
}

int cli_bind_tree(const char *cmd, const char *tree_spec, int d, gsfw_tree **tree)
{
    *tree = NULL;
    if (!tree_spec) return CLI_OK;
    gsfw_err err;
    gsfw_error e;
    int rc;
    char what[96];
    if (!strncmp(tree_spec, "quadtree:", strlen("quadtree:"))) {
        int h = 0, w = 0;
        if ((rc = parse_quadtree_spec(cmd, tree_spec, &h, &w))) return rc;
        /* the size and the memory before the tree is built */
        if ((long)h * w != d)
            return cli_fail(cmd, "--tree %s has %ld nodes but the vector has %d entries",
                            tree_spec, (long)h * w, d);
        snprintf(what, sizeof what, "--tree %s", tree_spec);
        rc = cli_mem_check(cmd, gsfw_memory_estimate("forest", (double)h * w, 0), what);
        if (rc) return rc;
        if ((e = gsfw_tree_quadtree(h, w, tree, &err))) return cli_fail(cmd, "--tree %s: %s",
                                                                        tree_spec, err.message);
    } else {
        int *parent = NULL, n = 0;
        if ((rc = cli_read_parents(cmd, tree_spec, &parent, &n))) return rc;
        if (n != d) {
            free(parent);
            return cli_fail(cmd, "--tree '%s' has %d nodes but the vector has %d entries",
                            tree_spec, n, d);
        }
        snprintf(what, sizeof what, "--tree '%s' (%d nodes)", tree_spec, n);
        if ((rc = cli_mem_check(cmd, gsfw_memory_estimate("forest", n, 0), what))) {
            free(parent);
            return rc;
        }
        e = gsfw_tree_from_parents(n, parent, tree, &err);
        free(parent);
        if (e) return cli_fail(cmd, "--tree '%s': %s", tree_spec, err.message);
    }
    return CLI_OK;
}
