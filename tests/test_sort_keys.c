/* The radix sort of (key, id) pairs (src/util/sort_keys.c) against qsort on (key,
 * position): the same keys in the same order, and equal keys in their input order, for
 * key patterns that skip none, some or all of the byte passes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/sort_keys.h"
#include "util/splitmix.h"

typedef struct {
    uint64_t key;
    int id;
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static uint64_t pattern_key(int pattern, uint64_t *seed)
{
    const uint64_t r = gsfw_splitmix64(seed);
    switch (pattern) {
    case 0: return r;                                   /* every byte varies */
    case 1: return r % 7;                               /* many ties, one byte */
    case 2: return (r & 0xff00ff0000ULL) | 0x4000000000000000ULL; /* two bytes vary */
    case 3: { /* bits of doubles >= 0 across magnitudes, zeros and subnormals included */
        double t = gsfw_splitmix_uniform(seed);
        if (r % 5 == 0) t = 0.0;
        else if (r % 5 == 1) t *= 1e-310;
        else t = t * (double)(r >> 40) * 1e3;
        uint64_t u;
        memcpy(&u, &t, sizeof u);
        return u;
    }
    default: return 42; /* all equal: every pass skipped */
    }
}

static void test_matches_qsort(void **state)
{
    (void)state;
    enum { N = 3000 };
    static uint64_t key[N], key_tmp[N];
    static int id[N], id_tmp[N];
    static pair want[N];
    uint64_t seed = 20261129;
    const int sizes[] = {0, 1, 2, 3, 17, 255, 256, 1000, N};
    for (int pattern = 0; pattern < 5; pattern++) {
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            const int k = sizes[si];
            for (int i = 0; i < k; i++) {
                key[i] = pattern_key(pattern, &seed);
                /* ids need not be sorted: equal keys keep their input positions */
                id[i] = (int)(gsfw_splitmix64(&seed) % 100000);
                want[i].key = key[i];
                want[i].id = i;
            }
            int ids_in[N];
            memcpy(ids_in, id, (size_t)k * sizeof *id);
            qsort(want, (size_t)k, sizeof *want, cmp_pair);
            gsfw_sort_keys(k, key, id, key_tmp, id_tmp);
            for (int i = 0; i < k; i++) {
                assert_true(key[i] == want[i].key);
                assert_int_equal(id[i], ids_in[want[i].id]);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_qsort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
