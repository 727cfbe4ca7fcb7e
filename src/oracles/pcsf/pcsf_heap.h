/* Pairing heaps of the PCSF growth phase (internal; see docs/benchmarks.md).
 *
 * Pairing heap with lazy offsets over an arena of nodes addressed by int. A heap is
 *    just the index of its root (-1 = empty); the nodes live in a caller-owned array, so
 *    the PCSF code can use "node index = edge part index". The true key of a node is its
 *    stored value plus the offset of every proper ancestor; roots store their true key.
 *    Tie rule (compatible with pcst_fast): when link() compares equal values the SECOND
 *    argument becomes the parent. delete_min pairs the root's children from the most
 *    recently linked to the oldest and folds the pairs from the last to the first
 *    (acc = link(acc, previous)).
 *
 *    The children of a node are not a linked list but arrays of node ids in a slot
 *    arena: delete_min, the memory-bound operation, reads its children's ids
 *    sequentially and so knows every child's address before it touches any of them (a
 *    sibling list makes it wait for one cache miss per child in turn). A node's children
 *    fill a chain of chunks of doubling size, the newest chunk first; chunks never move,
 *    so a node's slot address is stable and decrease_key leaves a tombstone (-1) there.
 *    The pairing skips tombstones, so the heap's shape, and with it the order of tied
 *    keys, is exactly that of the sibling-list pairing heap of the reference.
 */
#ifndef GSFW_PCSF_HEAP_H
#define GSFW_PCSF_HEAP_H

#include <stddef.h>

/* One heap node (32 bytes: two per cache line). */
typedef struct {
    double value;   /* key relative to the ancestors' offsets */
    double offset;  /* added to the true key of every descendant */
    int next;       /* slot that takes the next child (when fill != 0) */
    unsigned fill;  /* (free slots of the newest chunk) << 5 | its size class, or 0 when
                     * the node holds no chunk */
    int pos;        /* slot holding this node in its parent's chunk, or -1 for a root */
    int owner;      /* the caller's (PCSF: the graph node of the edge part); the heap
                     * never touches it */
} gsfw_ph_node;

/* Chunk size classes: a chunk of class c has 2^c slots, the first of which links the
 * next older chunk of the same node (or -1), so it holds 2^c - 1 children. A node's
 * first chunk has class GSFW_PH_MIN_CLASS and each further chunk one class more, up to
 * GSFW_PH_MAX_CLASS (a node with more children pushed since its last delete_min than
 * chunks up to that class hold, over 2^28, fails as out of memory). */
#define GSFW_PH_CLASSES 32
#define GSFW_PH_MIN_CLASS 2
#define GSFW_PH_MAX_CLASS 27
/* Slots are addressed by int: the arena never exceeds 2^31 slots. */
#define GSFW_PH_MAX_SLOTS ((size_t)1 << 31)

/* Values of gsfw_ph.failed. */
enum { GSFW_PH_OK = 0, GSFW_PH_NOMEM = 1, GSFW_PH_TOO_LARGE = 2 };

/* The heaps' shared storage: nodes, the slot arena of the children chunks, the scratch
 * of delete_min and the work counter. One instance serves any number of heaps over the
 * same nodes. */
typedef struct {
    gsfw_ph_node *nd;
    int *slot;                       /* the arena */
    size_t slot_cap;                 /* slots allocated */
    size_t slot_top;                 /* slots handed out so far (bump pointer) */
    int free_chunk[GSFW_PH_CLASSES]; /* a free chunk of each class or -1; its first slot
                                      * holds the next free chunk of the class */
    int *buf;                        /* delete_min: the children, then the pair results */
    size_t buf_cap;
    long visits;                     /* children detached by delete_min */
    int failed;                      /* GSFW_PH_NOMEM or GSFW_PH_TOO_LARGE when a chunk
                                      * could not be had: the heaps are then invalid */
} gsfw_ph;

/* Forget every heap and chunk (nodes are re-initialised by gsfw_ph_insert). */
void gsfw_ph_reset(gsfw_ph *H);
/* Make room for max_nodes nodes' worth of delete_min scratch (a root has fewer children
 * than there are nodes) and an arena of at least slots slots, at most GSFW_PH_MAX_SLOTS
 * (contents of the arena are dropped). Returns 0 or -1. */
int gsfw_ph_reserve(gsfw_ph *H, size_t max_nodes, size_t slots);
/* Free the arena and scratch (not the nodes, which the caller owns). */
void gsfw_ph_free(gsfw_ph *H);
/* Bytes held by the arena and scratch. */
size_t gsfw_ph_bytes(const gsfw_ph *H);

/* Append child x to node s's newest chunk (a new chunk when full: out of line). */
void gsfw_ph_push_slow(gsfw_ph *H, int s, int x);
static inline void gsfw_ph_push(gsfw_ph *H, int s, int x)
{
    gsfw_ph_node *p = &H->nd[s];
    const unsigned fill = p->fill;
    if (fill < 32) { /* no chunk, or no free slot */
        const int b = H->free_chunk[GSFW_PH_MIN_CLASS];
        if (fill != 0 || b < 0) {
            gsfw_ph_push_slow(H, s, x);
            return;
        }
        /* the common case: the node's first chunk, from the free list */
        H->free_chunk[GSFW_PH_MIN_CLASS] = H->slot[b];
        H->slot[b] = -1;
        H->slot[b + 1] = x;
        H->nd[x].pos = b + 1;
        p->next = b + 2;
        p->fill = ((((unsigned)1 << GSFW_PH_MIN_CLASS) - 2) << 5) | GSFW_PH_MIN_CLASS;
        return;
    }
    const int at = p->next;
    H->slot[at] = x;
    H->nd[x].pos = at;
    p->next = at + 1;
    p->fill = fill - 32;
}

/* Root l (its value not below s's) becomes the newest child of root s, its value and
 * offset made relative to s's offset. x - 0.0 == x for every x (offsets are never -0),
 * so a zero offset is skipped. */
static inline void gsfw_ph_adopt(gsfw_ph *H, int s, int l)
{
    const double so = H->nd[s].offset;
    if (so != 0.0) {
        H->nd[l].value -= so;
        H->nd[l].offset -= so;
    }
    gsfw_ph_push(H, s, l);
}

/* Link two roots (neither -1); returns the new root: y unless x's value is smaller. */
static inline int gsfw_ph_link2(gsfw_ph *H, int x, int y)
{
    if (H->nd[x].value < H->nd[y].value) {
        gsfw_ph_adopt(H, x, y);
        return x;
    }
    gsfw_ph_adopt(H, y, x);
    return y;
}

/* Link two roots (either may be -1); returns the new root. */
static inline int gsfw_ph_link(gsfw_ph *H, int x, int y)
{
    if (x < 0) return y;
    if (y < 0) return x;
    return gsfw_ph_link2(H, x, y);
}

/* Make node x a fresh singleton with key value and link it into the heap: on equal
 * keys the new node becomes the root. Returns the new root. */
static inline int gsfw_ph_insert(gsfw_ph *H, int root, int x, double value)
{
    gsfw_ph_node *n = &H->nd[x];
    n->value = value;
    n->offset = 0.0;
    n->pos = -1;
    n->fill = 0;
    return gsfw_ph_link(H, root, x);
}

/* Add delta to every key in O(1). */
static inline void gsfw_ph_add_all(gsfw_ph *H, int root, double delta)
{
    if (root < 0) return;
    H->nd[root].value += delta;
    H->nd[root].offset += delta;
}

/* Remove the root; returns the new root (-1 if empty). */
int gsfw_ph_delete_min(gsfw_ph *H, int root);

/* Request the newest chunk of root x's children, which its next delete_min reads first. */
static inline void gsfw_ph_prefetch(const gsfw_ph *H, int x)
{
#if defined(__GNUC__)
    const gsfw_ph_node *n = &H->nd[x];
    if (n->fill) __builtin_prefetch(H->slot + n->next - 1);
#else
    (void)H;
    (void)x;
#endif
}

/* Lower the key of node x from its current true key cur_key (supplied by the caller) to
 * new_key <= cur_key. Returns the new root. */
static inline int gsfw_ph_decrease_key(gsfw_ph *H, int root, int x, double cur_key,
                                       double new_key)
{
    gsfw_ph_node *n = &H->nd[x];
    n->offset += cur_key - n->value;
    n->value = new_key;
    if (n->pos < 0) return root; /* x is the root */
    H->slot[n->pos] = -1;
    n->pos = -1;
    return gsfw_ph_link(H, root, x);
}

#endif
