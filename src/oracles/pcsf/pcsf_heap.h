/* Data structures of the PCSF growth phase (internal; see docs/pcsf.md).
 *
 * 1. Pairing heap with lazy offsets over an arena of nodes addressed by int. A heap is
 *    just the index of its root (-1 = empty); the nodes live in a caller-owned array, so
 *    the PCSF code can use "node index = edge part index" and never allocates per insert.
 *    Every node also keeps next2 = the right sibling of its right sibling (or -1), so
 *    that delete_min, whose first pass walks the root's child list (18 children on
 *    average on the 1000x1000 benchmark, each usually a cache miss), waits for one miss
 *    per pair instead of two: it fetches b = a.next and the next pair's a = a.next2 in
 *    parallel.
 *    The true key of a node is its stored value plus the child_offset of every proper
 *    ancestor; roots store their true key. Tie rule (compatible with pcst_fast): when
 *    link() compares equal values the SECOND argument becomes the parent. delete_min
 *    pairs the root's children left to right and folds the pairs from the last to the
 *    first (acc = link(acc, previous)).
 *
 * 2. Indexed 4-ary min-heap over ids 0..cap-1 ordered lexicographically by (key, kind,
 *    id), where the kind of an entry is 0 when its payload aux is negative and 1 otherwise
 *    (gsfw_pq_set stores aux = -1):
 *    equal keys resolve to the smaller id (the order is total, so the minimum does not
 *    depend on the heap's shape). The four children of a slot share one cache line.
 */
#ifndef GSFW_PCSF_HEAP_H
#define GSFW_PCSF_HEAP_H

#include <stddef.h>

/* One arena node (32 bytes: two per cache line). */
typedef struct {
    double value;   /* key relative to the ancestors' child_offsets */
    double offset;  /* child_offset: added to the true key of every descendant */
    int child;      /* leftmost child or -1 */
    int next;       /* right sibling or -1 */
    int prev;       /* left sibling, or the parent when leftmost; -1 for a root */
    int next2;      /* nd[next].next when next >= 0, else -1 */
} gsfw_ph_node;

/* Growable scratch for delete_min, and the number of children its first passes have
 * detached (the heap's work measure, for the benchmarks). */
typedef struct {
    int *a;
    size_t cap;
    long visits;
} gsfw_ph_scratch;

/* Link two roots (either may be -1); returns the new root. */
static inline int gsfw_ph_link(gsfw_ph_node *nd, int x, int y)
{
    if (x < 0) return y;
    if (y < 0) return x;
    int small = y, large = x;
    if (nd[x].value < nd[y].value) {
        small = x;
        large = y;
    }
    gsfw_ph_node *s = &nd[small], *l = &nd[large];
    l->next = s->child;
    l->next2 = -1;
    if (l->next >= 0) {
        gsfw_ph_node *f = &nd[l->next];
        f->prev = large;
        l->next2 = f->next;
    }
    l->prev = small;
    s->child = large;
    l->value -= s->offset;
    l->offset -= s->offset;
    return small;
}

/* Make node x a fresh singleton with key value and link it into the heap: on equal
 * keys the new node becomes the root. Returns the new root. */
static inline int gsfw_ph_insert(gsfw_ph_node *nd, int root, int x, double value)
{
    gsfw_ph_node *n = &nd[x];
    n->value = value;
    n->offset = 0.0;
    n->child = n->next = n->prev = n->next2 = -1;
    return gsfw_ph_link(nd, root, x);
}

/* Add delta to every key in O(1). */
static inline void gsfw_ph_add_all(gsfw_ph_node *nd, int root, double delta)
{
    if (root < 0) return;
    nd[root].value += delta;
    nd[root].offset += delta;
}

/* Remove the root; *new_root receives the new root (-1 if empty). The scratch buffer
 * grows as needed (at most one entry per two children). Returns 0, or -1 if it could not
 * grow: the heap is then still valid (the remaining children are linked one by one) but
 * its shape differs from the reference rule, so callers should report the failure. */
int gsfw_ph_delete_min(gsfw_ph_node *nd, int root, gsfw_ph_scratch *scratch, int *new_root);

/* Lower the key of node x from its current true key cur_key (supplied by the caller) to
 * new_key <= cur_key. Returns the new root. */
static inline int gsfw_ph_decrease_key(gsfw_ph_node *nd, int root, int x, double cur_key,
                                       double new_key)
{
    gsfw_ph_node *n = &nd[x];
    n->offset += cur_key - n->value;
    n->value = new_key;
    if (n->prev < 0) return root; /* x is the root */
    int P = n->prev;
    gsfw_ph_node *p = &nd[P];
    if (p->child == x) {
        p->child = n->next;
    } else {
        /* P is the left sibling; its own left neighbour (when a sibling, not the
         * parent) had next2 == x */
        p->next = n->next;
        p->next2 = n->next2;
        gsfw_ph_node *pp = &nd[p->prev];
        if (pp->child != P) pp->next2 = n->next;
    }
    if (n->next >= 0) nd[n->next].prev = P;
    n->prev = n->next = n->next2 = -1;
    return gsfw_ph_link(nd, root, x);
}

void gsfw_ph_scratch_free(gsfw_ph_scratch *s);
/* Make room for cap pair results (a heap of N nodes never needs more than N/2 + 1). */
int gsfw_ph_scratch_reserve(gsfw_ph_scratch *s, size_t cap);

/* Allocation for large randomly accessed arrays: 2 MB aligned and advised for
 * transparent huge pages on Linux (TLB misses otherwise dominate on large instances).
 * Released with free(). */
void *gsfw_pcsf_big_alloc(size_t count, size_t size);

/* Map the pages of [begin, begin + bytes) in one system call (Linux: MADV_POPULATE_WRITE;
 * elsewhere a no-op). Contents are unchanged. */
void gsfw_pcsf_populate(void *begin, size_t bytes);

/* ---------------------------------------------------------- indexed queue */

typedef struct {
    double key;
    int id;
    int aux;  /* payload; order (key, aux >= 0, id) */
} gsfw_pq_entry;

typedef struct {
    gsfw_pq_entry *heap; /* heap[0] is the minimum; heap = mem + 3, so that children
                          * 4i+1..4i+4 start on a 64-byte boundary */
    gsfw_pq_entry *mem;
    int *pos;   /* pos[id] = index in heap or -1 */
    int size;
    int cap;    /* ids are 0..cap-1 */
} gsfw_pq;

/* Allocate for ids 0..cap-1 (reuses memory when large enough; the queue is emptied when
 * it grows). Returns 0 or -1. */
int gsfw_pq_reserve(gsfw_pq *q, int cap);
/* Empty the queue (pos entries of ids below `used` are reset). */
void gsfw_pq_clear(gsfw_pq *q, int used);
void gsfw_pq_free(gsfw_pq *q);
/* Insert id with key, or change its key when present (aux = -1). */
void gsfw_pq_set(gsfw_pq *q, int id, double key);
/* Same with a payload aux: on equal keys, entries with aux < 0 come first, then the
 * smaller id. */
void gsfw_pq_set_aux(gsfw_pq *q, int id, double key, int aux);
/* Remove id if present. */
void gsfw_pq_remove(gsfw_pq *q, int id);
static inline int gsfw_pq_contains(const gsfw_pq *q, int id) { return q->pos[id] >= 0; }
/* Smallest entry's key and id; returns 0 when empty. */
static inline int gsfw_pq_min(const gsfw_pq *q, double *key, int *id)
{
    if (q->size == 0) return 0;
    *key = q->heap[0].key;
    *id = q->heap[0].id;
    return 1;
}

#endif
