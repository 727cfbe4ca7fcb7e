/* Tiny JSON reader for test data: recursive descent with a fixed nesting limit. */
#include "support/json_mini.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p;
    char *err;
    size_t err_len;
} parser;

static int fail(parser *ps, const char *msg)
{
    if (ps->err && ps->err_len) snprintf(ps->err, ps->err_len, "json: %s near '%.20s'", msg, ps->p);
    return -1;
}

static void skip_ws(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t') ps->p++;
}

static void free_inner(json_value *v)
{
    if (v->type == JSON_STRING) free(v->string);
    if (v->type == JSON_ARRAY || v->type == JSON_OBJECT) {
        for (size_t i = 0; i < v->len; i++) {
            free_inner(&v->items[i]);
            if (v->keys) free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    }
}

static int parse_string(parser *ps, char **out)
{
    if (*ps->p != '"') return fail(ps, "expected a string");
    ps->p++;
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    if (!s) return fail(ps, "out of memory");
    while (*ps->p && *ps->p != '"') {
        char ch = *ps->p++;
        if (ch == '\\') {
            char esc = *ps->p++;
            switch (esc) {
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'u': /* keep ASCII only; other code points become '?' */
                ch = '?';
                for (int k = 0; k < 4 && *ps->p; k++) ps->p++;
                break;
            case '\0': free(s); return fail(ps, "unterminated string");
            default: ch = esc; break;
            }
        }
        if (n + 2 > cap) {
            cap *= 2;
            char *t = realloc(s, cap);
            if (!t) { free(s); return fail(ps, "out of memory"); }
            s = t;
        }
        s[n++] = ch;
    }
    if (*ps->p != '"') { free(s); return fail(ps, "unterminated string"); }
    ps->p++;
    s[n] = '\0';
    *out = s;
    return 0;
}

static int parse_value(parser *ps, json_value *v, int depth);

static int push(json_value *v, size_t *cap, int with_key)
{
    if (v->len < *cap) return 0;
    size_t nc = *cap ? 2 * *cap : 8;
    json_value *it = realloc(v->items, nc * sizeof *it);
    if (!it) return -1;
    v->items = it;
    if (with_key) {
        char **k = realloc(v->keys, nc * sizeof *k);
        if (!k) return -1;
        v->keys = k;
    }
    *cap = nc;
    return 0;
}

static int parse_value(parser *ps, json_value *v, int depth)
{
    memset(v, 0, sizeof *v);
    if (depth > 64) return fail(ps, "nesting too deep");
    skip_ws(ps);
    char ch = *ps->p;
    if (ch == '{' || ch == '[') {
        int obj = ch == '{';
        v->type = obj ? JSON_OBJECT : JSON_ARRAY;
        ps->p++;
        size_t cap = 0;
        skip_ws(ps);
        if (*ps->p == (obj ? '}' : ']')) { ps->p++; return 0; }
        for (;;) {
            if (push(v, &cap, obj)) return fail(ps, "out of memory");
            char *key = NULL;
            if (obj) {
                skip_ws(ps);
                if (parse_string(ps, &key)) return -1;
                skip_ws(ps);
                if (*ps->p != ':') { free(key); return fail(ps, "expected ':'"); }
                ps->p++;
                v->keys[v->len] = key;
            }
            if (parse_value(ps, &v->items[v->len], depth + 1)) {
                free_inner(&v->items[v->len]);
                free(key);
                return -1;
            }
            v->len++;
            skip_ws(ps);
            if (*ps->p == ',') { ps->p++; continue; }
            if (*ps->p == (obj ? '}' : ']')) { ps->p++; return 0; }
            return fail(ps, "expected ',' or a closing bracket");
        }
    }
    if (ch == '"') {
        v->type = JSON_STRING;
        return parse_string(ps, &v->string);
    }
    if (!strncmp(ps->p, "true", 4)) { v->type = JSON_BOOL; v->number = 1; ps->p += 4; return 0; }
    if (!strncmp(ps->p, "false", 5)) { v->type = JSON_BOOL; ps->p += 5; return 0; }
    if (!strncmp(ps->p, "null", 4)) { v->type = JSON_NULL; ps->p += 4; return 0; }
    char *end = NULL;
    v->number = strtod(ps->p, &end);
    if (end == ps->p) return fail(ps, "unexpected character");
    v->type = JSON_NUMBER;
    ps->p = end;
    return 0;
}

json_value *json_parse(const char *text, char *err, size_t err_len)
{
    parser ps = {text, err, err_len};
    json_value *v = malloc(sizeof *v);
    if (!v) return NULL;
    if (parse_value(&ps, v, 0)) {
        free_inner(v);
        free(v);
        return NULL;
    }
    skip_ws(&ps);
    if (*ps.p) {
        fail(&ps, "trailing characters");
        json_free(v);
        return NULL;
    }
    return v;
}

json_value *json_parse_file(const char *path, char *err, size_t err_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err) snprintf(err, err_len, "json: cannot open %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *t = realloc(buf, cap * 2);
            if (!t) { free(buf); buf = NULL; break; }
            buf = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) return NULL;
    buf[n] = '\0';
    json_value *v = json_parse(buf, err, err_len);
    free(buf);
    return v;
}

void json_free(json_value *v)
{
    if (!v) return;
    free_inner(v);
    free(v);
}

const json_value *json_get(const json_value *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < obj->len; i++)
        if (!strcmp(obj->keys[i], key)) return &obj->items[i];
    return NULL;
}
