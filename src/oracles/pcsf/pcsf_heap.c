/* Pairing heap delete_min and the indexed (key, kind, id) 4-ary heap of the PCSF module. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#endif
#include "oracles/pcsf/pcsf_heap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void *gsfw_pcsf_big_alloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    size_t bytes = count * size;
    const size_t huge = (size_t)2 << 20;
    if (bytes < 2 * huge) return malloc(bytes ? bytes : 1);
    size_t rounded = (bytes + huge - 1) / huge * huge;
    void *p = aligned_alloc(huge, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p) (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}

void gsfw_pcsf_populate(void *begin, size_t bytes)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const uintptr_t page = 4096;
    uintptr_t lo = ((uintptr_t)begin + page - 1) & ~(page - 1);
    uintptr_t hi = ((uintptr_t)begin + bytes) & ~(page - 1);
    if (begin && hi > lo) (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)begin;
    (void)bytes;
#endif
}

static int scratch_grow(gsfw_ph_scratch *s)
{
    size_t cap = s->cap ? 2 * s->cap : 64;
    int *a = realloc(s->a, cap * sizeof(int));
    if (!a) return -1;
    s->a = a;
    s->cap = cap;
    return 0;
}

void gsfw_ph_scratch_free(gsfw_ph_scratch *s)
{
    free(s->a);
    s->a = NULL;
    s->cap = 0;
}

int gsfw_ph_delete_min(gsfw_ph_node *nd, int root, gsfw_ph_scratch *scratch, int *new_root)
{
    if (root < 0) {
        *new_root = -1;
        return 0;
    }
    const double off = nd[root].offset;
    int *buf = scratch->a;
    size_t np = 0, cap = scratch->cap;
    int c = nd[root].child;
    long kids = 0;
    /* First pass: detach the children left to right (pushing the root's offset into
     * them) and link consecutive pairs. Detaching a later child does not touch earlier
     * ones, so interleaving detaching and pairing gives the same values as detaching
     * all children first. The child list is a chain of cache misses: a.next2 names the
     * next pair's first child, so it is requested together with a.next. */
    while (c >= 0) {
        int a = c;
        gsfw_ph_node *na = &nd[a];
        int b = na->next;
        int after = na->next2;
#if defined(__GNUC__)
        if (after >= 0) __builtin_prefetch(&nd[after], 1);
        if (b >= 0) __builtin_prefetch(&nd[b], 1);
#endif
        na->prev = na->next = na->next2 = -1;
        na->value += off;
        na->offset += off;
        int w = a;
        kids++;
        if (b >= 0) {
            kids++;
            gsfw_ph_node *nb = &nd[b];
            nb->prev = nb->next = nb->next2 = -1;
            nb->value += off;
            nb->offset += off;
            w = gsfw_ph_link(nd, a, b);
        }
        if (np == cap) {
            if (scratch_grow(scratch)) {
                /* keep a valid heap: fold what we have, then link the rest one by one */
                int r = w;
                if (np > 0) {
                    r = buf[np - 1];
                    for (size_t i = np - 1; i-- > 0;) r = gsfw_ph_link(nd, r, buf[i]);
                    r = gsfw_ph_link(nd, r, w);
                }
                for (c = after; c >= 0;) {
                    int x = c;
                    c = nd[x].next;
                    nd[x].prev = nd[x].next = nd[x].next2 = -1;
                    nd[x].value += off;
                    nd[x].offset += off;
                    r = gsfw_ph_link(nd, r, x);
                }
                nd[root].child = nd[root].next = nd[root].prev = nd[root].next2 = -1;
                *new_root = r;
                return -1;
            }
            buf = scratch->a;
            cap = scratch->cap;
        }
        buf[np++] = w;
        c = after;
    }
    scratch->visits += kids;
    /* Second pass: fold from the last pair result to the first. */
    int r = -1;
    if (np > 0) {
        r = buf[np - 1];
        for (size_t i = np - 1; i-- > 0;) r = gsfw_ph_link(nd, r, buf[i]);
    }
    nd[root].child = nd[root].next = nd[root].prev = nd[root].next2 = -1;
    *new_root = r;
    return 0;
}

int gsfw_ph_scratch_reserve(gsfw_ph_scratch *s, size_t cap)
{
    if (s->cap >= cap) return 0;
    int *a = realloc(s->a, cap * sizeof(int));
    if (!a) return -1;
    s->a = a;
    s->cap = cap;
    return 0;
}

/* ---------------------------------------------------------- indexed queue */

static inline int pq_less(const gsfw_pq_entry *a, const gsfw_pq_entry *b)
{
    if (a->key != b->key) return a->key < b->key;
    if ((a->aux < 0) != (b->aux < 0)) return a->aux < 0;
    return a->id < b->id;
}

int gsfw_pq_reserve(gsfw_pq *q, int cap)
{
    if (cap <= q->cap) return 0;
    gsfw_pq_free(q);
    q->mem = gsfw_pcsf_big_alloc((size_t)cap + 3, sizeof *q->mem);
    q->pos = gsfw_pcsf_big_alloc((size_t)cap, sizeof *q->pos);
    if (!q->mem || !q->pos) {
        gsfw_pq_free(q);
        return -1;
    }
    q->heap = q->mem + 3;
    for (int i = 0; i < cap; i++) q->pos[i] = -1;
    q->cap = cap;
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

static void sift_down(gsfw_pq *q, int i)
{
    gsfw_pq_entry e = q->heap[i];
    const int n = q->size;
    gsfw_pq_entry *h = q->heap;
    for (;;) {
        int c = 4 * i + 1;
        if (c >= n) break;
        int best = c, end = c + 4 < n ? c + 4 : n;
        for (int k = c + 1; k < end; k++)
            if (pq_less(&h[k], &h[best])) best = k;
        if (!pq_less(&h[best], &e)) break;
        h[i] = h[best];
        q->pos[h[i].id] = i;
        i = best;
    }
    h[i] = e;
    q->pos[e.id] = i;
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
        sift_down(q, i);
}

void gsfw_pq_set(gsfw_pq *q, int id, double key) { gsfw_pq_set_aux(q, id, key, -1); }

void gsfw_pq_remove(gsfw_pq *q, int id)
{
    int i = q->pos[id];
    if (i < 0) return;
    q->pos[id] = -1;
    int last = --q->size;
    if (i == last) return;
    q->heap[i] = q->heap[last];
    q->pos[q->heap[i].id] = i;
    if (i > 0 && pq_less(&q->heap[i], &q->heap[(i - 1) >> 2]))
        sift_up(q, i);
    else
        sift_down(q, i);
}
