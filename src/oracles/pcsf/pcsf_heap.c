/* Pairing heaps of the PCSF growth phase: chunks, delete_min (pcsf_heap.h). */
#include "oracles/pcsf/pcsf_heap.h"

#include "oracles/pcsf/pcsf_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    if (H->buf_cap < max_nodes) {
        /* plain pages: a pop touches as many as it has children */
        free(H->buf);
        H->buf = malloc(max_nodes * sizeof *H->buf);
        H->buf_cap = H->buf ? max_nodes : 0;
        if (!H->buf) return -1;
    }
    if (reserve_ints(&H->slot, &H->slot_cap, slots)) return -1;
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
    const unsigned fill = p->fill;
    const int cls = fill == 0 ? GSFW_PH_MIN_CLASS : (int)(fill & 31) + 1;
    if (cls > GSFW_PH_MAX_CLASS) H->failed = GSFW_PH_TOO_LARGE;
    const int b = H->failed ? -1 : chunk_alloc(H, cls);
    if (b < 0) return; /* x stays out of every heap; the caller sees H->failed and
                        * abandons the run */
    /* a full chunk of class c ends where the next child would have gone */
    H->slot[b] = fill == 0 ? -1 : p->next - (1 << (fill & 31));
    H->slot[b + 1] = x;
    H->nd[x].pos = b + 1;
    p->next = b + 2;
    p->fill = ((((unsigned)1 << cls) - 2) << 5) | (unsigned)cls;
}

/* Children visited ahead of the pairing: their nodes are requested this many entries
 * early, so that the misses overlap instead of following one another. */
#define PH_AHEAD 16

int gsfw_ph_delete_min(gsfw_ph *H, int root)
{
    if (root < 0) return -1;
    gsfw_ph_node *nd = H->nd, *R = &nd[root];
    const unsigned fill = R->fill;
    if (fill == 0) return -1;
    /* the live children, most recently linked first; the root's chunks are free from
     * here (the pairing may reuse them at once) */
    int cls = (int)(fill & 31), used = (1 << cls) - 1 - (int)(fill >> 5);
    int *buf = H->buf;
    size_t k = 0;
    for (int b = R->next - 1 - used; b >= 0;) {
        const int *s = H->slot + b;
        for (int i = used; i >= 1; i--) {
            const int c = s[i];
            buf[k] = c;
            k += c >= 0;
        }
        const int older = s[0];
        chunk_free(H, b, cls);
        b = older;
        cls--;
        used = (1 << cls) - 1;
    }
    R->fill = 0;
    H->visits += (long)k;
    if (k == 0) return -1;
    const double off = R->offset;
    if (off != 0.0) /* rare: the root was shifted or decreased; + 0.0 would change at
                     * most the sign of a zero */
        for (size_t j = 0; j < k; j++) {
            gsfw_ph_node *c = &nd[buf[j]];
            c->value += off;
            c->offset += off;
        }
#if defined(__GNUC__)
    for (size_t j = 0; j < k && j < PH_AHEAD; j++) __builtin_prefetch(&nd[buf[j]], 1);
#endif
    /* First pass: link consecutive pairs; the results overwrite the front of buf. */
    size_t np = 0, j = 0;
    for (; j + 1 < k; j += 2) {
#if defined(__GNUC__)
        if (j + PH_AHEAD + 1 < k) {
            __builtin_prefetch(&nd[buf[j + PH_AHEAD]], 1);
            __builtin_prefetch(&nd[buf[j + PH_AHEAD + 1]], 1);
        }
#endif
        buf[np++] = gsfw_ph_link2(H, buf[j], buf[j + 1]);
    }
    if (j < k) buf[np++] = buf[j];
    /* Second pass: fold from the last pair result to the first. */
    int r = buf[np - 1];
    for (size_t i = np - 1; i-- > 0;) r = gsfw_ph_link2(H, r, buf[i]);
    nd[r].pos = -1; /* the other children got theirs when they lost a link */
    return r;
}
