/* Helpers shared by the DMO implementations in src/oracles (not public API).
 *
 * Ownership convention: a DMO built here is one malloc'd gsfw_dmo plus a zeroed ctx of
 * the oracle's own type; the oracle's destroy frees the arrays it hung on ctx and then
 * calls gsfw_dmo_release(self), which frees ctx and the struct. All workspace is
 * allocated by the constructor so that select() never allocates. */
#ifndef GSFW_DMO_INTERNAL_H
#define GSFW_DMO_INTERNAL_H

#include "core/internal.h"

/* Value select() returns when z contains NaN or Inf (the solver maps any nonzero value
 * to GSFW_ERR_CALLBACK). */
#define GSFW_DMO_BAD_INPUT 1

/* Allocate a DMO and a zeroed context of ctx_size bytes; fills d, max_support, delta,
 * name, model (static strings or strings living in ctx), select and destroy. On failure
 * returns GSFW_ERR_NOMEM with a message naming `name`. */
gsfw_error gsfw_dmo_new(int d, int max_support, double delta, const char *name,
                        const char *model, size_t ctx_size,
                        int (*select)(void *, const double *, int *, int *, gsfw_dmo_stats *),
                        void (*destroy)(gsfw_dmo *), gsfw_dmo **out, gsfw_err *err);
/* Free ctx and the struct (the final step of every oracle's destroy). */
void gsfw_dmo_release(gsfw_dmo *dmo);

/* sum_{i in S} z_i^2 over the k ids in S, in list order. */
double gsfw_dmo_sum_sq(const double *z, const int *S, int k);

/* Checks shared by the constructors, with messages that name the oracle:
 * 1 <= s <= d ("s = 0 ...", "s = 11 exceeds the dimension/number of nodes 10"). */
gsfw_error gsfw_dmo_check_sparsity(const char *who, int s, int d, const char *d_name,
                                   gsfw_err *err);
/* 1 <= g <= s ("g = 5 exceeds s = 3"). */
gsfw_error gsfw_dmo_check_components(const char *who, int g, int s, gsfw_err *err);
/* A usable graph (non-NULL, at least one node). */
gsfw_error gsfw_dmo_check_graph(const char *who, const gsfw_graph *g, gsfw_err *err);
/* The contains hook of the s-sparse models: at most s ids. */
int gsfw_dmo_contains_size(int s, int size);
/* The contains hook of M(G, s, g): at most s nodes inducing at most g connected pieces of
 * the graph (allocates its scratch: a check, not an inner-loop call). -1 when out of memory. */
int gsfw_dmo_contains_graph(const gsfw_graph *g, int s, int g_components, const int *support,
                            int size);
/* delta in (0, 1] (rejects NaN). */
gsfw_error gsfw_dmo_check_delta(const char *who, double delta, gsfw_err *err);

#endif
