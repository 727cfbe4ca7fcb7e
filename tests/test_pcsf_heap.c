/* Pairing heap of the PCSF growth phase (src/oracles/pcsf/pcsf_heap.h): heap order
 * under random operations, the tie rule, and step-by-step equality with a sibling-list
 * pairing heap written the way pcst_fast writes its own (same roots, same stored values
 * and offsets bit for bit), which is what keeps the PCSF outputs equal to the
 * reference's when keys tie. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/splitmix.h"
#include "oracles/pcsf/pcsf_heap.h"

static int rng_int(uint64_t *s, int n) { return (int)(gsfw_splitmix64(s) % (uint64_t)n); }

/* ---------------------------------------------- sibling-list reference heap */

typedef struct {
    double value, offset;
    int child, next, prev; /* leftmost child, right sibling, left sibling or parent */
} ref_node;

static int ref_link(ref_node *nd, int x, int y)
{
    if (x < 0) return y;
    if (y < 0) return x;
    int small = y, large = x;
    if (nd[x].value < nd[y].value) {
        small = x;
        large = y;
    }
    ref_node *s = &nd[small], *l = &nd[large];
    l->next = s->child;
    if (l->next >= 0) nd[l->next].prev = large;
    l->prev = small;
    s->child = large;
    l->value -= s->offset;
    l->offset -= s->offset;
    return small;
}

static int ref_insert(ref_node *nd, int root, int x, double value)
{
    nd[x].value = value;
    nd[x].offset = 0.0;
    nd[x].child = nd[x].next = nd[x].prev = -1;
    return ref_link(nd, root, x);
}

static int ref_delete_min(ref_node *nd, int root, int *buf)
{
    const double off = nd[root].offset;
    int np = 0;
    for (int c = nd[root].child; c >= 0;) {
        int a = c, b = nd[a].next;
        c = b >= 0 ? nd[b].next : -1;
        nd[a].prev = nd[a].next = -1;
        nd[a].value += off;
        nd[a].offset += off;
        if (b >= 0) {
            nd[b].prev = nd[b].next = -1;
            nd[b].value += off;
            nd[b].offset += off;
        }
        buf[np++] = ref_link(nd, a, b);
    }
    nd[root].child = -1;
    if (np == 0) return -1;
    int r = buf[np - 1];
    for (int i = np - 2; i >= 0; i--) r = ref_link(nd, r, buf[i]);
    return r;
}

static int ref_decrease_key(ref_node *nd, int root, int x, double cur, double key)
{
    ref_node *n = &nd[x];
    n->offset += cur - n->value;
    n->value = key;
    if (n->prev < 0) return root;
    int P = n->prev;
    if (nd[P].child == x)
        nd[P].child = n->next;
    else
        nd[P].next = n->next;
    if (n->next >= 0) nd[n->next].prev = P;
    n->prev = n->next = -1;
    return ref_link(nd, root, x);
}

/* ------------------------------------------------------------------- tests */

enum { N = 600 };

typedef struct {
    gsfw_ph_node nd[N];
    gsfw_ph H;
    int root[2];
    int where[N];  /* heap of node i, or -1 */
    double key[N]; /* true key, tracked independently */
} fixture;

/* A tiny arena, so that the runs below also grow it. */
static void fixture_init(fixture *f)
{
    memset(&f->H, 0, sizeof f->H);
    f->H.nd = f->nd;
    assert_int_equal(gsfw_ph_reserve(&f->H, N, 4), 0);
    f->root[0] = f->root[1] = -1;
    for (int i = 0; i < N; i++) f->where[i] = -1;
}

/* Random operations on two heaps with integer keys (every offset sum is exact, and
 * ties are frequent); every popped key is the minimum of the tracked keys. */
static void test_heap_order_random(void **state)
{
    (void)state;
    static fixture f;
    fixture_init(&f);
    uint64_t seed = 99;
    for (int step = 0; step < 40000; step++) {
        int h = rng_int(&seed, 2), op = rng_int(&seed, 10);
        if (op < 4) {
            int x = rng_int(&seed, N);
            if (f.where[x] >= 0) continue;
            double k = (double)rng_int(&seed, 50);
            f.root[h] = gsfw_ph_insert(&f.H, f.root[h], x, k);
            f.where[x] = h;
            f.key[x] = k;
        } else if (op < 7) {
            if (f.root[h] < 0) continue;
            double mn = INFINITY;
            for (int i = 0; i < N; i++)
                if (f.where[i] == h && f.key[i] < mn) mn = f.key[i];
            int x = f.root[h];
            assert_true(f.nd[x].value == mn && f.key[x] == mn);
            f.root[h] = gsfw_ph_delete_min(&f.H, x);
            f.where[x] = -1;
        } else if (op < 8) {
            int x = rng_int(&seed, N);
            if (f.where[x] != h) continue;
            double k = f.key[x] - (double)rng_int(&seed, 10);
            f.root[h] = gsfw_ph_decrease_key(&f.H, f.root[h], x, f.key[x], k);
            f.key[x] = k;
        } else if (op < 9) {
            double d = (double)(rng_int(&seed, 21) - 5);
            gsfw_ph_add_all(&f.H, f.root[h], d);
            for (int i = 0; i < N; i++)
                if (f.where[i] == h) f.key[i] += d;
        } else {
            f.root[h] = gsfw_ph_link(&f.H, f.root[h], f.root[1 - h]);
            f.root[1 - h] = -1;
            for (int i = 0; i < N; i++)
                if (f.where[i] == 1 - h) f.where[i] = h;
        }
        assert_false(f.H.failed);
        if (f.root[h] >= 0) {
            assert_int_equal(f.nd[f.root[h]].pos, -1);
            assert_int_equal(f.where[f.root[h]], h);
        }
    }
    assert_true(f.H.slot_cap > 4); /* the arena grew */
    for (int h = 0; h < 2; h++) {
        double last = -INFINITY;
        while (f.root[h] >= 0) {
            int x = f.root[h];
            assert_true(f.key[x] >= last && f.nd[x].value == f.key[x]);
            last = f.key[x];
            f.root[h] = gsfw_ph_delete_min(&f.H, x);
            f.where[x] = -1;
        }
    }
    for (int i = 0; i < N; i++) assert_int_equal(f.where[i], -1);
    gsfw_ph_free(&f.H);
}

/* The same operations on this heap and on the sibling-list reference: the roots agree
 * after every step, and so do the stored values and offsets of every node, bit for bit
 * (keys are multiples of 0.1 and offsets of 0.3, so the sums round). Keys come from
 * few distinct values, so most comparisons tie. */
static void test_heap_matches_sibling_list(void **state)
{
    (void)state;
    static fixture f;
    static ref_node rn[N];
    static int rbuf[N];
    int rroot[2] = {-1, -1};
    fixture_init(&f);
    uint64_t seed = 2024;
    long ties = 0;
    for (int step = 0; step < 60000; step++) {
        int h = rng_int(&seed, 2), op = rng_int(&seed, 12);
        if (op < 5) {
            int x = rng_int(&seed, N);
            if (f.where[x] >= 0) continue;
            double k = 0.1 * rng_int(&seed, 6);
            f.root[h] = gsfw_ph_insert(&f.H, f.root[h], x, k);
            rroot[h] = ref_insert(rn, rroot[h], x, k);
            f.where[x] = h;
            f.key[x] = k;
        } else if (op < 8) {
            if (f.root[h] < 0) continue;
            int x = f.root[h];
            f.root[h] = gsfw_ph_delete_min(&f.H, x);
            rroot[h] = ref_delete_min(rn, x, rbuf);
            f.where[x] = -1;
            /* a tied pop: the next minimum has the same key */
            if (f.root[h] >= 0 && f.nd[f.root[h]].value == f.nd[x].value) ties++;
        } else if (op < 9) {
            int x = rng_int(&seed, N);
            if (f.where[x] != h) continue;
            /* the caller supplies the current true key: take it from the reference */
            double cur = rn[x].value;
            for (int a = rn[x].prev, y = x; a >= 0; y = a, a = rn[a].prev)
                if (rn[a].child == y) cur += rn[a].offset; /* a is y's parent */
            double k = cur - 0.1 * rng_int(&seed, 3);
            f.root[h] = gsfw_ph_decrease_key(&f.H, f.root[h], x, cur, k);
            rroot[h] = ref_decrease_key(rn, rroot[h], x, cur, k);
        } else if (op < 10) {
            double d = 0.3 * (rng_int(&seed, 5) - 1);
            gsfw_ph_add_all(&f.H, f.root[h], d);
            if (rroot[h] >= 0) {
                rn[rroot[h]].value += d;
                rn[rroot[h]].offset += d;
            }
        } else {
            f.root[h] = gsfw_ph_link(&f.H, f.root[h], f.root[1 - h]);
            rroot[h] = ref_link(rn, rroot[h], rroot[1 - h]);
            f.root[1 - h] = rroot[1 - h] = -1;
            for (int i = 0; i < N; i++)
                if (f.where[i] == 1 - h) f.where[i] = h;
        }
        assert_int_equal(f.root[0], rroot[0]);
        assert_int_equal(f.root[1], rroot[1]);
        for (int i = 0; i < N; i++) {
            if (f.where[i] < 0) continue;
            assert_memory_equal(&f.nd[i].value, &rn[i].value, sizeof(double));
            assert_memory_equal(&f.nd[i].offset, &rn[i].offset, sizeof(double));
        }
    }
    assert_false(f.H.failed);
    assert_true(ties > 1000);
    gsfw_ph_free(&f.H);
}

static void test_heap_tie_rule(void **state)
{
    (void)state;
    static fixture f;
    fixture_init(&f);
    gsfw_ph *H = &f.H;
    /* on equal keys the inserted node (second argument of link) becomes the root */
    int r = gsfw_ph_insert(H, -1, 0, 1.0);
    r = gsfw_ph_insert(H, r, 1, 1.0);
    assert_int_equal(r, 1);
    r = gsfw_ph_insert(H, r, 2, 1.0);
    assert_int_equal(r, 2);
    /* children of 2: 1 (newest; 0 below it); deleting 2 leaves 1 */
    assert_int_equal(gsfw_ph_delete_min(H, r), 1);
    /* root 4 with children, newest first, 0, 7, 6, 5 (equal keys): pairs (0,7) -> 7 and
     * (6,5) -> 5, fold link(5, 7) -> 7 */
    r = gsfw_ph_insert(H, -1, 4, 0.0);
    for (int x = 5; x < 8; x++) r = gsfw_ph_link(H, r, gsfw_ph_insert(H, -1, x, 2.0));
    r = gsfw_ph_link(H, r, gsfw_ph_insert(H, -1, 0, 2.0));
    assert_int_equal(r, 4);
    assert_int_equal(gsfw_ph_delete_min(H, r), 7);
    /* a cut child leaves a tombstone that the pairing skips: root 10 with children,
     * newest first, 14, 13, 12, 11 (equal keys); cutting 13 leaves the pair (14,12) ->
     * 12 and 11 alone, fold link(11, 12) -> 12 (with 13 still there: pairs (14,13) ->
     * 13 and (12,11) -> 11, fold -> 13) */
    r = gsfw_ph_insert(H, -1, 10, 0.0);
    for (int x = 11; x < 15; x++) r = gsfw_ph_link(H, r, gsfw_ph_insert(H, -1, x, 3.0));
    int r2 = gsfw_ph_insert(H, -1, 20, 5.0);
    r2 = gsfw_ph_decrease_key(H, r2, 13, 3.0, 2.0); /* 13 is cut and linked into r2 */
    assert_int_equal(r2, 13);
    assert_int_equal(gsfw_ph_delete_min(H, r), 12);
    gsfw_ph_free(H);
}

/* The arena is addressed by int: a chunk that would end beyond 2^31 slots, or a node
 * whose chunks would need a class above GSFW_PH_MAX_CLASS, fails the run cleanly (the
 * flag is set before any slot is touched; pcsf.c reports GSFW_ERR_INVALID_ARG). */
static void test_heap_size_limits(void **state)
{
    (void)state;
    static fixture f;
    fixture_init(&f);
    gsfw_ph *H = &f.H;
    int r = gsfw_ph_insert(H, -1, 0, 1.0);
    H->slot_top = GSFW_PH_MAX_SLOTS - 2; /* pretend the arena is nearly full */
    r = gsfw_ph_insert(H, r, 1, 2.0);     /* node 0 needs its first chunk */
    assert_int_equal(r, 0);
    assert_int_equal(H->failed, GSFW_PH_TOO_LARGE);
    assert_int_equal(f.nd[1].pos, -1); /* 1 was left out, not written anywhere */
    gsfw_ph_free(H);

    fixture_init(&f);
    r = gsfw_ph_insert(H, -1, 0, 1.0);
    r = gsfw_ph_insert(H, r, 1, 2.0); /* node 0 gets a real chunk */
    assert_int_equal(H->failed, GSFW_PH_OK);
    /* pretend that chunk is full at the largest class */
    f.nd[0].fill = GSFW_PH_MAX_CLASS; /* no free slot left */
    r = gsfw_ph_insert(H, r, 2, 3.0);
    assert_int_equal(H->failed, GSFW_PH_TOO_LARGE);
    assert_int_equal(f.nd[2].pos, -1);
    gsfw_ph_free(H);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heap_order_random),
        cmocka_unit_test(test_heap_matches_sibling_list),
        cmocka_unit_test(test_heap_tie_rule),
        cmocka_unit_test(test_heap_size_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
