/* Tiny JSON reader for test data (not part of the library). */
#ifndef GSFW_TEST_JSON_MINI_H
#define GSFW_TEST_JSON_MINI_H

#include <stddef.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value {
    json_type type;
    double number;          /* JSON_NUMBER, JSON_BOOL (0/1) */
    char *string;           /* JSON_STRING */
    size_t len;             /* ARRAY / OBJECT: number of items */
    struct json_value *items;
    char **keys;            /* OBJECT: key of each item */
} json_value;

/* Parse text; returns NULL on error (a message in err when non-NULL). Nesting is limited
 * to 64 levels. Free with json_free. */
json_value *json_parse(const char *text, char *err, size_t err_len);
/* Read and parse a whole file. */
json_value *json_parse_file(const char *path, char *err, size_t err_len);
void json_free(json_value *v);
/* Object member by key or NULL. */
const json_value *json_get(const json_value *obj, const char *key);

#endif
