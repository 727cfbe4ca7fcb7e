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

/* ------------------------------------------------------------ pairing heap */

void gsfw_ph_reset(gsfw_ph *H)
{
    H->slot_top = 0;
    for (int c = 0; c < GSFW_PH_CLASSES; c++) H->free_chunk[c] = -1;
    H->failed = GSFW_PH_OK;
}

/* Make *a hold at least want ints (contents dropped). Returns 0 or -1. */
static int reserve_ints(int **a, size_t *cap, size_t want)
{
    if (*cap >= want) return 0;
    free(*a);
    *a = gsfw_pcsf_big_alloc(want, sizeof(int));
    *cap = *a ? want : 0;
    return *a ? 0 : -1;
}

int gsfw_ph_reserve(gsfw_ph *H, size_t max_nodes, size_t slots)
{
    if (slots > GSFW_PH_MAX_SLOTS) slots = GSFW_PH_MAX_SLOTS;
    if (reserve_ints(&H->buf, &H->buf_cap, max_nodes) ||
        reserve_ints(&H->slot, &H->slot_cap, slots))
        return -1;
    gsfw_ph_reset(H);
    return 0;
}

void gsfw_ph_free(gsfw_ph *H)
{
    free(H->buf);
    free(H->slot);
    H->buf = H->slot = NULL;
    H->buf_cap = H->slot_cap = 0;
}

size_t gsfw_ph_bytes(const gsfw_ph *H) { return (H->buf_cap + H->slot_cap) * sizeof(int); }

static inline void chunk_free(gsfw_ph *H, int b, int cls)
{
    H->slot[b] = H->free_chunk[cls];
    H->free_chunk[cls] = b;
}

/* A chunk of 2^cls slots, or -1 with H->failed set when there is none. */
static int chunk_alloc(gsfw_ph *H, int cls)
{
    int b = H->free_chunk[cls];
    if (b >= 0) {
        H->free_chunk[cls] = H->slot[b];
        return b;
    }
    size_t size = (size_t)1 << cls;
    if (H->slot_top + size > GSFW_PH_MAX_SLOTS) {
        H->failed = GSFW_PH_TOO_LARGE;
        return -1;
    }
    if (H->slot_top + size > H->slot_cap) {
        size_t cap = 2 * H->slot_cap;
        if (cap < H->slot_top + size) cap = H->slot_top + size;
        if (cap > GSFW_PH_MAX_SLOTS) cap = GSFW_PH_MAX_SLOTS;
        int *grown = gsfw_pcsf_big_alloc(cap, sizeof(int));
        if (!grown) {
            H->failed = GSFW_PH_NOMEM;
            return -1;
        }
        if (H->slot_top) memcpy(grown, H->slot, H->slot_top * sizeof(int));
        free(H->slot);
        H->slot = grown;
        H->slot_cap = cap;
    }
    b = (int)H->slot_top;
    H->slot_top += size;
    return b;
}

void gsfw_ph_push_slow(gsfw_ph *H, int s, int x)
{
    gsfw_ph_node *p = &H->nd[s];
    int cls = p->kids < 0 ? GSFW_PH_MIN_CLASS : (int)(p->fill & 31) + 1;
    if (cls > GSFW_PH_MAX_CLASS) H->failed = GSFW_PH_TOO_LARGE;
    int b = H->failed ? -1 : chunk_alloc(H, cls);
    if (b < 0) return; /* x stays out of every heap; the caller sees H->failed and
                        * abandons the run */
    H->slot[b] = p->kids;
    p->kids = b;
    p->fill = (1u << 5) | (unsigned)cls;
    H->slot[b + 1] = x;
    H->nd[x].pos = b + 1;
}

/* Children visited ahead of the pairing: their nodes are requested this many entries
 * early, so that the misses overlap instead of following one another. */
#define PH_AHEAD 16

int gsfw_ph_delete_min(gsfw_ph *H, int root)
{
    if (root < 0) return -1;
    gsfw_ph_node *nd = H->nd, *R = &nd[root];
    /* the live children, most recently linked first; the root's chunks are free from
     * here (the pairing may reuse them at once) */
    int *buf = H->buf;
    size_t k = 0;
    int cls = (int)(R->fill & 31), used = (int)(R->fill >> 5);
    for (int b = R->kids; b >= 0;) {
        const int *s = H->slot + b;
        for (int i = used; i >= 1; i--) {
            int c = s[i];
            buf[k] = c;
            k += c >= 0;
        }
        int older = s[0];
        chunk_free(H, b, cls);
        b = older;
        cls--;
        used = (1 << cls) - 1;
    }
    R->kids = -1;
    R->fill = 0;
    H->visits += (long)k;
    if (k == 0) return -1;
    const double off = R->offset;
#if defined(__GNUC__)
    for (size_t j = 0; j < k && j < PH_AHEAD; j++) __builtin_prefetch(&nd[buf[j]], 1);
#endif
    /* First pass: detach the children (pushing the root's offset into them) and link
     * consecutive pairs; the results overwrite the front of buf. */
    size_t np = 0, j = 0;
    for (; j + 1 < k; j += 2) {
#if defined(__GNUC__)
        if (j + PH_AHEAD + 1 < k) {
            __builtin_prefetch(&nd[buf[j + PH_AHEAD]], 1);
            __builtin_prefetch(&nd[buf[j + PH_AHEAD + 1]], 1);
        }
#endif
        int a = buf[j], b = buf[j + 1];
        gsfw_ph_node *na = &nd[a], *nb = &nd[b];
        na->value += off;
        na->offset += off;
        na->pos = -1;
        nb->value += off;
        nb->offset += off;
        nb->pos = -1;
        buf[np++] = gsfw_ph_link(H, a, b);
    }
    if (j < k) {
        gsfw_ph_node *na = &nd[buf[j]];
        na->value += off;
        na->offset += off;
        na->pos = -1;
        buf[np++] = buf[j];
    }
    /* Second pass: fold from the last pair result to the first. */
    int r = buf[np - 1];
    for (size_t i = np - 1; i-- > 0;) r = gsfw_ph_link(H, r, buf[i]);
    return r;
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
