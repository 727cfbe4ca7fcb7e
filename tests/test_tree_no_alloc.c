/* The tree oracles allocate every table in their constructors: select() and contains()
 * make no allocation at all, from the first call on. Counted by this executable's own
 * malloc, calloc, realloc and aligned allocators, which the statically linked library
 * calls and which pass each request on to glibc (as in test_no_alloc.c).
 *
 * The sanitizer builds replace the allocator themselves, so there the test is skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "gsfw.h"
#include "util/rng.h"

#include "support/alloc_counter.h"

static void test_select_allocates_nothing(void **state)
{
    (void)state;
#if !COUNTING
    skip();
#else
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 3);
    /* a forest: the 16x16 quadtree's nodes plus a path of 40 nodes as a second tree */
    enum { Q = 256, P = 40, N = Q + P };
    gsfw_tree *quad;
    assert_int_equal(gsfw_tree_quadtree(16, 16, &quad, NULL), GSFW_OK);
    int parent[N];
    const int *qp = gsfw_tree_parents(quad);
    for (int i = 0; i < Q; i++) parent[i] = qp[i];
    for (int i = 0; i < P; i++) parent[Q + i] = i == 0 ? -1 : Q + i - 1;
    gsfw_tree_free(quad);
    gsfw_tree *t;
    assert_int_equal(gsfw_tree_from_parents(N, parent, &t, NULL), GSFW_OK);
    gsfw_dmo *oracles[4];
    assert_int_equal(gsfw_dmo_tree_rooted(t, 30, &oracles[0], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_tree_forest(t, 30, 1, &oracles[1], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_tree_forest(t, 50, 2, &oracles[2], NULL), GSFW_OK);
    assert_int_equal(gsfw_dmo_tree_connected(t, 30, &oracles[3], NULL), GSFW_OK);
    double z[N];
    int support[N], size;
    for (int k = 0; k < 4; k++) {
        gsfw_dmo *dmo = oracles[k];
        long before = allocations;
        for (int call = 0; call < 5; call++) {
            for (int i = 0; i < N; i++) z[i] = gsfw_rng_normal(&rng);
            assert_int_equal(dmo->reset(dmo->ctx), 0);
            assert_int_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0);
            assert_int_equal(dmo->contains(dmo->ctx, support, size), 1);
        }
        if (allocations != before)
            fprintf(stderr, "%s: %ld allocations in select/contains\n", dmo->name,
                    allocations - before);
        assert_int_equal(allocations, before);
        gsfw_dmo_free(dmo);
    }
    gsfw_tree_free(t);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
