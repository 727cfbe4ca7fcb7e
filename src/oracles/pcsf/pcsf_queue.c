/* The (time, kind, id) event queue of the PCSF growth phase: bitmaps for two times, a
 * 4-ary heap for the others (pcsf_queue.h). */
#include "oracles/pcsf/pcsf_queue.h"

#include "oracles/pcsf/pcsf_mem.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- indexed 4-ary heap */

static inline int pq_less(const gsfw_pq_entry *a, const gsfw_pq_entry *b)
{
    if (a->key != b->key) return a->key < b->key;
    if ((a->aux < 0) != (b->aux < 0)) return a->aux < 0;
    return a->id < b->id;
}

int gsfw_pq_reserve(gsfw_pq *q, int ids, int entries)
{
    if (ids <= q->cap && entries <= q->entries) return 0;
    gsfw_pq_free(q);
    q->mem = gsfw_pcsf_big_alloc((size_t)entries + 3, sizeof *q->mem);
    q->pos = gsfw_pcsf_big_alloc((size_t)ids, sizeof *q->pos);
    if (!q->mem || !q->pos) {
        gsfw_pq_free(q);
        return -1;
    }
    q->heap = q->mem + 3;
    for (int i = 0; i < ids; i++) q->pos[i] = -1;
    q->cap = ids;
    q->entries = entries;
    return 0;
}

void gsfw_pq_clear(gsfw_pq *q, int used)
{
    for (int i = 0; i < q->size; i++) q->pos[q->heap[i].id] = -1;
    (void)used;
    q->size = 0;
}

void gsfw_pq_free(gsfw_pq *q)
{
    free(q->mem);
    free(q->pos);
    memset(q, 0, sizeof *q);
}

static void sift_up(gsfw_pq *q, int i)
{
    gsfw_pq_entry e = q->heap[i];
    while (i > 0) {
        int p = (i - 1) >> 2;
        if (!pq_less(&e, &q->heap[p])) break;
        q->heap[i] = q->heap[p];
        q->pos[q->heap[i].id] = i;
        i = p;
    }
    q->heap[i] = e;
    q->pos[e.id] = i;
}

/* Put entry e at slot i, whose entry leaves or grows: the hole moves down to a leaf
 * along the smallest children (three comparisons a level, none with e) and e rises from
 * there, as far as it must. The entries put here come from the bottom of the heap or are
 * events later than most, so they rarely rise far: fewer comparisons than sifting e down
 * from i. */
static void sink(gsfw_pq *q, int i, gsfw_pq_entry e)
{
    gsfw_pq_entry *h = q->heap;
    const int n = q->size;
    for (;;) {
        int c = 4 * i + 1;
        if (c >= n) break;
        int best = c, end = c + 4 < n ? c + 4 : n;
        for (int k = c + 1; k < end; k++)
            if (pq_less(&h[k], &h[best])) best = k;
        h[i] = h[best];
        q->pos[h[i].id] = i;
        i = best;
    }
    h[i] = e;
    q->pos[e.id] = i;
    sift_up(q, i);
}

void gsfw_pq_set_aux(gsfw_pq *q, int id, double key, int aux)
{
    int i = q->pos[id];
    if (i < 0) {
        i = q->size++;
        q->heap[i].key = key;
        q->heap[i].id = id;
        q->heap[i].aux = aux;
        q->pos[id] = i;
        sift_up(q, i);
        return;
    }
    gsfw_pq_entry old = q->heap[i];
    q->heap[i].key = key;
    q->heap[i].aux = aux;
    if (pq_less(&q->heap[i], &old))
        sift_up(q, i);
    else if (pq_less(&old, &q->heap[i]))
        sink(q, i, q->heap[i]);
}

void gsfw_pq_set(gsfw_pq *q, int id, double key) { gsfw_pq_set_aux(q, id, key, -1); }

void gsfw_pq_remove(gsfw_pq *q, int id)
{
    int i = q->pos[id];
    if (i < 0) return;
    q->pos[id] = -1;
    const int last = --q->size;
    if (i < last) sink(q, i, q->heap[last]);
}

/* ------------------------------------------------------------ event queue */

static int summary_words(int words) { return (words + 63) / 64 + 1; }

int gsfw_evq_reserve(gsfw_evq *q, int cap)
{
    if (cap <= q->cap) return 0;
    gsfw_evq_free(q);
    size_t words = (size_t)(cap + 63) / 64, sw = (size_t)summary_words((int)words);
    /* the heap holds active clusters only, at most half the ids */
    if (gsfw_pq_reserve(&q->heap, cap, cap / 2 + 1)) return -1;
    uint64_t *mem = calloc(4 * (words + sw), sizeof *mem);
    if (!mem) {
        gsfw_pq_free(&q->heap);
        return -1;
    }
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < 2; k++) {
            q->lv[l].bits[k] = mem + (2 * l + k) * words;
            q->lv[l].sum[k] = mem + 4 * words + (2 * l + k) * sw;
        }
    q->words = (int)words;
    q->cap = cap;
    gsfw_evq_clear(q, 0.0, 0.0);
    return 0;
}

void gsfw_evq_free(gsfw_evq *q)
{
    gsfw_pq_free(&q->heap);
    free(q->lv[0].bits[0]);
    memset(q, 0, sizeof *q);
}

void gsfw_evq_clear(gsfw_evq *q, double now, double later)
{
    gsfw_pq_clear(&q->heap, q->cap);
    for (int l = 0; l < 2; l++) {
        gsfw_evq_level *L = &q->lv[l];
        for (int k = 0; k < 2; k++) {
            if (L->count[k]) {
                memset(L->bits[k], 0, (size_t)q->words * sizeof(uint64_t));
                memset(L->sum[k], 0, (size_t)summary_words(q->words) * sizeof(uint64_t));
            }
            L->count[k] = L->cursor[k] = 0;
        }
    }
    q->lv[0].key = now;
    q->lv[0].used = 1;
    q->lv[1].key = later;
    q->lv[1].used = later > now;
}

size_t gsfw_evq_bytes(const gsfw_evq *q)
{
    size_t n = (size_t)q->cap;
    return ((size_t)q->heap.entries + 3) * sizeof(gsfw_pq_entry) + n * sizeof(int) +
           4 * ((size_t)q->words + (size_t)summary_words(q->words)) * sizeof(uint64_t);
}

void gsfw_evq_bits_set(gsfw_evq_level *L, int kind, int id)
{
    int w = id >> 6;
    L->bits[kind][w] |= (uint64_t)1 << (id & 63);
    L->sum[kind][w >> 6] |= (uint64_t)1 << (w & 63);
    if (w < L->cursor[kind]) L->cursor[kind] = w;
    L->count[kind]++;
}

void gsfw_evq_bits_clear(gsfw_evq_level *L, int kind, int id)
{
    int w = id >> 6;
    uint64_t left = L->bits[kind][w] &= ~((uint64_t)1 << (id & 63));
    if (!left) L->sum[kind][w >> 6] &= ~((uint64_t)1 << (w & 63));
    L->count[kind]--;
}

/* Smallest id with its bit set in L->bits[kind] (there is one); moves the cursor to its
 * word. */
static int first_id(gsfw_evq_level *L, int kind)
{
    const uint64_t *b = L->bits[kind], *s = L->sum[kind];
    int w = L->cursor[kind];
    if (b[w]) return w * 64 + __builtin_ctzll(b[w]);
    int sw = (w + 1) >> 6;
    uint64_t m = s[sw] & (~(uint64_t)0 << ((w + 1) & 63));
    while (!m) m = s[++sw];
    w = sw * 64 + __builtin_ctzll(m);
    L->cursor[kind] = w;
    return w * 64 + __builtin_ctzll(b[w]);
}

/* (key, kind, id) < (key2, kind2, id2) */
static inline int before(double key, int kind, int id, double key2, int kind2, int id2)
{
    if (key != key2) return key < key2;
    if (kind != kind2) return kind < kind2;
    return id < id2;
}

int gsfw_evq_min(gsfw_evq *q, double *key, int *kind, int *id)
{
    /* the common case: the next event is at the current time, alone there */
    gsfw_evq_level *L0 = &q->lv[0], *L1 = &q->lv[1];
    if (L0->count[0] + L0->count[1] && (L1->count[0] + L1->count[1] == 0 || L0->key < L1->key) &&
        (q->heap.size == 0 || L0->key < q->heap.heap[0].key)) {
        const int k = L0->count[0] == 0;
        *key = L0->key;
        *kind = k;
        *id = first_id(L0, k);
        return 1;
    }
    int found = 0;
    double bk = 0.0;
    int bkind = 0, bid = 0;
    gsfw_evq_level *lv0 = &q->lv[0];
    for (int l = 0; l < 2; l++) {
        gsfw_evq_level *L = &q->lv[l];
        if (L->count[0] + L->count[1] == 0) continue;
        int k = L->count[0] == 0, x = first_id(L, k);
        if (!found || before(L->key, k, x, bk, bkind, bid)) {
            found = 1;
            bk = L->key;
            bkind = k;
            bid = x;
        }
    }
    if (q->heap.size > 0) {
        const gsfw_pq_entry *t = &q->heap.heap[0];
        int tk = t->aux >= 0;
        if (!found || before(t->key, tk, t->id, bk, bkind, bid)) {
            found = 1;
            bk = t->key;
            bkind = tk;
            bid = t->id;
            /* the current time moves on when its level is empty */
            if (lv0->count[0] + lv0->count[1] == 0) lv0->key = t->key;
        }
    }
    *key = bk;
    *kind = bkind;
    *id = bid;
    return found;
}
