/* The event queue of the PCSF growth phase (src/oracles/pcsf/pcsf_queue.h): the indexed
 * 4-ary heap and the queue with bitmaps for two times, against a brute-force minimum
 * over (key, kind, id) under random operations with many ties. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "util/splitmix.h"
#include "oracles/pcsf/pcsf_queue.h"

static int rng_int(uint64_t *s, int n) { return (int)(gsfw_splitmix64(s) % (uint64_t)n); }

/* Every slot's entry is no smaller than its parent's in (key, id) order (the entries
 * here all have aux = -1, so the kind plays no part), and pos maps each id to its slot. */
static void assert_heap_order(const gsfw_pq *q)
{
    for (int i = 0; i < q->size; i++) {
        const gsfw_pq_entry *e = &q->heap[i];
        assert_int_equal(q->pos[e->id], i);
        if (i > 0) {
            const gsfw_pq_entry *p = &q->heap[(i - 1) / 4];
            assert_true(p->key < e->key || (p->key == e->key && p->id < e->id));
        }
    }
}

/* The indexed 4-ary heap, keys from 20 values (many ties): its minimum is the smallest
 * (key, id), and the heap order holds after every operation (removals from any slot,
 * keys raised and lowered). */
static void test_queue_random(void **state)
{
    (void)state;
    enum { N = 300 };
    gsfw_pq q;
    memset(&q, 0, sizeof q);
    assert_int_equal(gsfw_pq_reserve(&q, N, N), 0);
    double key[N];
    int in[N] = {0};
    uint64_t seed = 5;
    for (int step = 0; step < 30000; step++) {
        int id = rng_int(&seed, N);
        int op = rng_int(&seed, 4);
        if (op < 2) {
            key[id] = (double)rng_int(&seed, 20); /* many ties */
            gsfw_pq_set(&q, id, key[id]);
            in[id] = 1;
        } else if (op == 2) {
            gsfw_pq_remove(&q, id);
            in[id] = 0;
        } else {
            double k;
            int mid;
            if (gsfw_pq_min(&q, &k, &mid)) {
                gsfw_pq_remove(&q, mid);
                assert_true(in[mid]);
                assert_true(k == key[mid]);
                for (int i = 0; i < N; i++)
                    if (in[i]) assert_true(key[i] > k || (key[i] == k && i >= mid));
                in[mid] = 0;
            }
        }
        int count = 0;
        for (int i = 0; i < N; i++) {
            count += in[i];
            assert_int_equal(gsfw_pq_contains(&q, i), in[i]);
        }
        assert_int_equal(count, q.size);
        assert_heap_order(&q);
    }
    gsfw_pq_clear(&q, N);
    assert_int_equal(q.size, 0);
    for (int i = 0; i < N; i++) assert_false(gsfw_pq_contains(&q, i));
    gsfw_pq_free(&q);
}

/* The queue with bitmaps: keys from a small set that contains its two bitmap times, so
 * that entries move between the bitmaps and the heap and tie everywhere; after each
 * operation the minimum must be the brute-force one. Entries are processed as the
 * growth phase does: the minimum is read, then moved or removed. */
static void test_event_queue_random(void **state)
{
    (void)state;
    enum { N = 200 };
    static gsfw_evq q;
    /* ids 0..2N-1, all of them possibly in the heap: room for 4N ids */
    assert_int_equal(gsfw_evq_reserve(&q, 4 * N), 0);
    for (int round = 0; round < 3; round++) {
        const double now = 1.0 + round, later = 2.0 + round;
        gsfw_evq_clear(&q, now, round == 1 ? now : later); /* round 1: one level only */
        double key[2 * N];
        int kind[2 * N], in[2 * N] = {0};
        uint64_t seed = 77 + (uint64_t)round;
        for (int step = 0; step < 40000; step++) {
            int id = rng_int(&seed, 2 * N);
            int op = rng_int(&seed, 5);
            if (op < 3) {
                /* keys around the two bitmap times, below and above them */
                static const double keys[] = {0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0};
                key[id] = keys[rng_int(&seed, 8)];
                kind[id] = rng_int(&seed, 2);
                gsfw_evq_set(&q, id, key[id], kind[id]);
                in[id] = 1;
            } else if (op == 3) {
                gsfw_evq_remove(&q, id);
                in[id] = 0;
            }
            int best = -1;
            for (int i = 0; i < 2 * N; i++) {
                if (!in[i]) continue;
                if (best < 0 || key[i] < key[best] ||
                    (key[i] == key[best] && (kind[i] < kind[best] ||
                                             (kind[i] == kind[best] && i < best))))
                    best = i;
            }
            double k;
            int kd, x;
            int found = gsfw_evq_min(&q, &k, &kd, &x);
            assert_int_equal(found, best >= 0);
            if (best < 0) continue;
            assert_int_equal(x, best);
            assert_true(k == key[best]);
            assert_int_equal(kd, kind[best]);
            if (op == 4) { /* the event happens: the entry moves on or goes */
                if (rng_int(&seed, 2)) {
                    key[x] += 0.5 * rng_int(&seed, 3);
                    kind[x] = rng_int(&seed, 2);
                    gsfw_evq_set(&q, x, key[x], kind[x]);
                } else {
                    gsfw_evq_remove(&q, x);
                    in[x] = 0;
                }
            }
        }
    }
    gsfw_evq_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queue_random),
        cmocka_unit_test(test_event_queue_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
