/* Losses over a linear operator: what the core (linear.c) shares with the command-line
 * tools and the tests. A loss is a gsfw_loss_def (gsfw/loss.h); every sum it returns
 * is over this process's rows only (the core passes it through the reducer). Not part of
 * the public API. */
#ifndef GSFW_OBJECTIVES_LINEAR_H
#define GSFW_OBJECTIVES_LINEAR_H

#include "core/internal.h"


/* Build a linear objective that owns `owned` (freed in destroy, also on failure). */
gsfw_error gsfw_objective_linear_owning(gsfw_operator *owned, int n, const double *y,
                                        const gsfw_loss_options *opt, gsfw_objective **out,
                                        gsfw_err *err);
/* The operator and targets behind the ctx of a linear objective (obj->ctx of an objective
 * built by gsfw_objective_linear*, nothing else). */
const gsfw_operator *gsfw_linear_operator(const void *ctx, const double **y);

/* gsfw_objective_least_squares over a column-major n x d array it takes over (freed with
 * the objective, also on failure): the command line's way to hold a large matrix once.
 * A and y must be finite (not checked again). */
gsfw_error gsfw_objective_least_squares_adopt(int n, int d, double *A_col_major,
                                              const double *y, gsfw_objective **out,
                                              gsfw_err *err);

/* 1 if a row of zeros with target 0 adds exactly nothing to the loss and its gradient
 * (the residual losses; not the logistic loss, log 2 per row): a process holding no rows
 * of a distributed problem can then stand in with one such row. */
int gsfw_loss_zero_row_free(const gsfw_loss_options *opt);

/* Bytes a linear objective over n rows and d unknowns allocates (its vectors; not the
 * operator's). */
double gsfw_objective_linear_memory(double n, double d);

#endif
