/* Internal PCSF interface shared by the PCSF module, the head/tail projections, tests
 * and benchmarks (not part of the public API). */
#ifndef GSFW_PCSF_INTERNAL_H
#define GSFW_PCSF_INTERNAL_H

#include "gsfw.h"

/* Counters of the last gsfw_pcsf_run. */
typedef struct {
    long edge_events;      /* edge events popped (dropped ones included) */
    long dropped_events;   /* popped parts that were already dropped / internal */
    long growth_events;    /* re-scheduled edge parts */
    long merges;           /* merge events (= |L1|) */
    long active_inactive;  /* merges of an active with an inactive (non-root) cluster */
    long deactivations;    /* cluster deactivation events */
    long clusters;         /* clusters created (n + merges) */
    long good_nodes;
    long heap_visits;      /* children detached by delete_min (its memory-bound work) */
    long livelocks;        /* merges made where pcst_fast would loop forever */
    long heap_slots;       /* slots of the heaps' chunk arena in use at the end (its
                            * peak: chunks are reused, the arena never shrinks in a run) */
} gsfw_pcsf_stats;

void gsfw_pcsf_get_stats(const gsfw_pcsf *ws, gsfw_pcsf_stats *stats);

/* Bytes currently allocated by the workspace (capacity, not touched pages). */
size_t gsfw_pcsf_bytes(const gsfw_pcsf *ws);


#endif
