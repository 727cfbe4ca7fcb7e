/* The active set of the active-set Frank-Wolfe variants: atoms (sparse vectors) with
 * convex weights, x = sum_i weight_i atom_i. Atoms live in one arena of (id, value)
 * pairs, compacted when dropped atoms leave more holes than live entries; nothing is
 * allocated per iteration unless the arena or the atom table must grow (geometrically). */
#ifndef GSFW_ACTIVE_SET_H
#define GSFW_ACTIVE_SET_H

#include "core/internal.h"

typedef struct {
    int count, capacity;     /* atoms in use, slots */
    long *start;             /* capacity: offset of atom i in the arena */
    int *size;               /* capacity: its number of entries */
    double *weight;          /* capacity */
    long used, arena_cap;    /* entries in use (holes included), arena size */
    long live;               /* entries of live atoms */
    int *ids;                /* arena_cap */
    double *vals;            /* arena_cap */
} gsfw_active_set;

gsfw_error gsfw_active_set_init(gsfw_active_set *as, int capacity, long arena_cap,
                                gsfw_err *err);
void gsfw_active_set_free(gsfw_active_set *as);
/* Remove every atom. */
void gsfw_active_set_clear(gsfw_active_set *as);
/* Append an atom of `size` entries (ids, vals) with weight w; -1 on allocation failure,
 * else its index. */
int gsfw_active_set_add(gsfw_active_set *as, const int *ids, const double *vals, int size,
                        double w);
/* Add the nonzeros of a dense d-vector as an atom. */
int gsfw_active_set_add_dense(gsfw_active_set *as, const double *x, int d, double w);
/* Remove atom i (the last atom takes its index). */
void gsfw_active_set_drop(gsfw_active_set *as, int i);
/* <g, atom i> and ||atom i||^2, <x, atom i>. */
double gsfw_active_set_dot(const gsfw_active_set *as, int i, const double *g);
double gsfw_active_set_norm2(const gsfw_active_set *as, int i);
/* x = sum_i weight_i atom_i (dense, d entries). */
void gsfw_active_set_compose(const gsfw_active_set *as, double *x, int d);
/* Rescale the weights to sum to 1. */
void gsfw_active_set_renormalize(gsfw_active_set *as);

#endif
