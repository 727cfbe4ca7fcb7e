/*
 * gsfw — graph-structured Frank-Wolfe.
 *
 * Minimise a smooth convex f(x) over D(C, M) = conv{x : ||x||_2 <= C, supp(x) in M}
 * where M is a support model (s-sparse sets, unions of g connected subgraphs of a
 * graph, ...), with the DMO-FW / DMO-AccFW methods of Zhou & Sun (ICML 2022).
 *
 * Conventions of this API
 *  - Every function that can fail returns a gsfw_error (GSFW_OK == 0) and, when the
 *    caller passes a non-NULL gsfw_err*, fills it with a message naming the problem.
 *  - Output arrays are owned by the caller (sizes are documented per call); the only
 *    exceptions are the file readers and object constructors, whose results are freed
 *    with gsfw_free() or the matching *_free().
 *  - No global state: objects may be used from several threads as long as one object
 *    (objective, DMO, PCSF workspace) is not used by two solves at the same time;
 *    graphs and input arrays may be shared read-only (tests/test_threads.c). Running
 *    solves in several threads, limit OpenBLAS to one thread of its own
 *    (OPENBLAS_NUM_THREADS=1, or openblas_set_num_threads(1) before the first solve):
 *    otherwise concurrent products queue for OpenBLAS's thread pool, which waits by
 *    spinning (results stay the same, but 8 threads of small least-squares solves ran
 *    100 times slower on 2 cores).
 *  - Node ids and indices are 0-based ints.
 */
#ifndef GSFW_H
#define GSFW_H

/* One header per topic; this one includes them all. */
#include "gsfw/core.h"      /* version, errors, memory, layouts */
#include "gsfw/graph.h"     /* graphs */
#include "gsfw/objective.h" /* objectives */
#include "gsfw/operator.h"  /* linear operators */
#include "gsfw/dmo.h"       /* dual maximisation oracles, models by name */
#include "gsfw/solve.h"     /* methods, step rules, gsfw_solve, the baselines */
#include "gsfw/pursuit.h"   /* graph subspace pursuit, coarse-to-fine recovery */
#include "gsfw/pcsf.h"      /* PCSF, head and tail projections */
#include "gsfw/io.h"        /* .npy, Matrix Market, edge lists */
#include "gsfw/tree.h"      /* trees, the wavelet quadtree, tree-sparse DMOs */
#include "gsfw/loss.h"      /* losses over a linear operator, and their definitions */
#include "gsfw/registry.h"  /* the registry of methods, models, step rules, losses, sensing
                               kinds and bases, and the spec that turns names into a solve */

#endif /* GSFW_H */
