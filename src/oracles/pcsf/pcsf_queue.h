/* The event queue of the PCSF growth phase (internal): one entry per active cluster, its
 * next event (a deactivation, kind 0, or an edge event, kind 1), ordered by
 * (time, kind, id). The order is total, so the minimum does not depend on how the
 * entries are stored.
 *
 * Storage follows the workload: on graphs with one edge cost most events happen at one
 * time (half the cost: every part starts there), hundreds of thousands of clusters in a
 * row. Entries at two chosen times, the current time and one later time (the most
 * common time of the initial entries), are bits in bitmaps over the cluster ids, one
 * bitmap per kind, so that they are set, cleared and found in the order of the ids
 * without a comparison; the other entries are in a 4-ary heap (gsfw_pq). The minimum is
 * the smallest of the three candidates. */
#ifndef GSFW_PCSF_QUEUE_H
#define GSFW_PCSF_QUEUE_H

#include <stdint.h>

#include <stddef.h>

/* ------------------------------------------------------- indexed 4-ary heap */

/* Indexed 4-ary min-heap over ids 0..cap-1 ordered lexicographically by (key, kind, id),
 * where the kind of an entry is 0 when its payload aux is negative and 1 otherwise
 * (gsfw_pq_set stores aux = -1): equal keys resolve to the smaller id (the order is
 * total, so the minimum does not depend on the heap's shape). The four children of a
 * slot share one cache line. */

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
    int entries; /* at most this many entries at a time */
} gsfw_pq;

/* Allocate for ids 0..ids-1, at most `entries` of them present at a time (reuses memory
 * when large enough; the queue is emptied when it grows). Returns 0 or -1. */
int gsfw_pq_reserve(gsfw_pq *q, int ids, int entries);
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

/* ------------------------------------------------------------ event queue */

/* The entries at one time: a bitmap per kind, with a summary bit per word. */
typedef struct {
    uint64_t *bits[2];
    uint64_t *sum[2];
    int cursor[2];         /* per kind, no set bit in the words below */
    int count[2];          /* per kind, entries */
    double key;            /* their time */
    int used;              /* the level holds a time (else it takes no entries) */
} gsfw_evq_level;

typedef struct {
    gsfw_pq heap;          /* entries at other times; aux = kind - 1 (-1 deactivation) */
    gsfw_evq_level lv[2];  /* lv[0]: the current time; lv[1]: a later time */
    int words;             /* words of each bitmap */
    int cap;               /* ids are 0..cap-1 */
} gsfw_evq;

/* Allocate for ids 0..cap-1, at most cap / 2 + 1 of them in the heap at a time (the
 * PCSF: cluster ids < 2n, active clusters <= n; reuses the memory when large enough).
 * Returns 0 or -1. */
int gsfw_evq_reserve(gsfw_evq *q, int cap);
void gsfw_evq_free(gsfw_evq *q);
/* Empty the queue; the current time becomes now and, when later > now, the second level
 * takes the entries at time later. */
void gsfw_evq_clear(gsfw_evq *q, double now, double later);
/* Bytes held. */
size_t gsfw_evq_bytes(const gsfw_evq *q);

static inline int gsfw_evq_bit(const uint64_t *b, int id)
{
    return (int)((b[id >> 6] >> (id & 63)) & 1u);
}

void gsfw_evq_bits_set(gsfw_evq_level *L, int kind, int id);
void gsfw_evq_bits_clear(gsfw_evq_level *L, int kind, int id);

/* Where id is: 0 nowhere or in the heap, else 1 + 2 * level + kind. */
static inline int gsfw_evq_where(const gsfw_evq *q, int id)
{
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < 2; k++)
            if (gsfw_evq_bit(q->lv[l].bits[k], id)) return 1 + 2 * l + k;
    return 0;
}

static inline void gsfw_evq_take_out(gsfw_evq *q, int id, int where)
{
    if (where) gsfw_evq_bits_clear(&q->lv[(where - 1) >> 1], (where - 1) & 1, id);
    else gsfw_pq_remove(&q->heap, id);
}

/* Insert cluster id with (key, kind) or move it there. */
static inline void gsfw_evq_set(gsfw_evq *q, int id, double key, int kind)
{
    const int where = gsfw_evq_where(q, id);
    for (int l = 0; l < 2; l++) {
        if (q->lv[l].used && key == q->lv[l].key) {
            if (where == 1 + 2 * l + kind) return; /* already there */
            gsfw_evq_take_out(q, id, where);
            gsfw_evq_bits_set(&q->lv[l], kind, id);
            return;
        }
    }
    if (where) gsfw_evq_take_out(q, id, where);
    gsfw_pq_set_aux(&q->heap, id, key, kind - 1);
}

/* Remove cluster id if present. */
static inline void gsfw_evq_remove(gsfw_evq *q, int id)
{
    gsfw_evq_take_out(q, id, gsfw_evq_where(q, id));
}

/* The smallest entry: returns 0 when the queue is empty. */
int gsfw_evq_min(gsfw_evq *q, double *key, int *kind, int *id);

#endif
