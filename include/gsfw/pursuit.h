/* Graph subspace pursuit and coarse-to-fine recovery: solvers for large problems that
 * call their support oracles tens of times rather than hundreds (docs/pursuit.md).
 * Included by gsfw.h.
 *
 * gsfw_pursuit_solve, one level, from x_0 (below) for t = 0, 1, ...:
 *
 *     g = grad f(x_t)
 *     H = head(g)                          identify: where the gradient is large
 *     T = supp(x_t) u H                    merge
 *     b = argmin f over vectors on T       refit (the objective's minimize_on)
 *     P = tail(b)                          prune: a support of the model
 *     x_{t+1} = argmin f over vectors on P polish (minimize_on again, from b)
 *
 * Subspace pursuit (Dai & Milenkovic 2009) with the graph model's head and tail
 * projections in place of top-s (as Graph-CoSaMP does for CoSaMP, Hegde, Indyk &
 * Schmidt 2015), and a merge of s rather than 2s new coordinates, so that the refit on T
 * stays well posed when the measurements are few (n = 3 s). Every iterate after x_0 is a
 * polished answer: its support is one the tail projection returned, and f is minimised
 * on it. That answer also decides the stop: the run ends when f(x_t) <= tol + tol_rel f(0)
 * (converged), or when f(x_t) has stayed above (1 - stall) times the best value so far
 * for `patience` iterations in a row (stalled: a noise floor, or no further progress;
 * coarse levels use coarse_stall and coarse_patience),
 * at max_iter or the time limit. Before it stalls, a level whose oracles have a cheaper
 * first mode (gsfw_dmo.refine) switches them to their accurate one and goes on. The
 * best iterate is returned (argmin f).
 *
 * x_0 is 0, or, from a nonzero start x0, the polished point of T = supp(x0): b = the
 * refit on supp(x0), P = tail(b), x_0 = the refit on P.
 *
 * gsfw_multilevel_solve runs it on a sequence of levels, coarse to fine: level k starts
 * from level k-1's best point carried up by its prolong operator. A coarse level is a
 * cheap problem whose answer locates the support (gsfw_pyramid_image: block-constant
 * images measured through A U, on a grid with a quarter or a sixteenth of the nodes), so
 * that the finest level, where each oracle call is expensive, needs few iterations.
 *
 * The pieces are the small interfaces of the rest of the library: an objective with a
 * minimize_on hook, two gsfw_dmo oracles and an operator per level; nothing here knows
 * which. Nothing is allocated inside the iterations (the oracles allocate on their first
 * call). Deterministic: the oracles' reset hooks are called first. */
#ifndef GSFW_PURSUIT_H
#define GSFW_PURSUIT_H

#include "gsfw/core.h"
#include "gsfw/dmo.h"
#include "gsfw/loss.h"
#include "gsfw/objective.h"
#include "gsfw/operator.h"
#include "gsfw/solve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One level of a multilevel solve. */
typedef struct {
    gsfw_objective *obj;          /* f over this level's unknowns (needs minimize_on) */
    gsfw_dmo *head;               /* identification, called on the gradient */
    gsfw_dmo *tail;               /* projection onto the model, called on the refit */
    const gsfw_operator *prolong; /* the previous level's unknowns -> this level's
                                     (prolong->d = previous d, prolong->n = this d);
                                     ignored on level 0 */
} gsfw_level;

/* Called once per iterate of every level (level 0 first, the last level is the finest);
 * x holds that level's obj->d entries; it->iter counts the level's iterations. Return
 * nonzero to stop the whole run (GSFW_STATUS_CALLBACK_STOP). */
typedef int (*gsfw_level_callback)(int level, const gsfw_iterate *it, const double *x,
                                   void *user);

typedef struct {
    int max_iter;           /* iterations per level (default 50) */
    int inner_iters;        /* minimize_on iterations per refit on the finest level
                               (default 30) */
    int coarse_inner_iters; /* the same on coarser levels, whose answers are only a start
                               (default 10) */
    double inner_tol;       /* minimize_on's tolerance (default 1e-10) */
    double tol, tol_rel;    /* converged when f(x_t) <= tol + tol_rel f(0) (defaults 0 and
                               1e-12: with exact data, the support is found) */
    double stall;           /* finest level: no progress when f(x_t) > (1 - stall) f_best
                               (default 1e-3) */
    double coarse_stall;    /* the same on coarser levels (default 1e-2: a coarse answer is
                               only a start, small gains there are not worth an iteration) */
    int patience;           /* iterations without progress in a row that end the finest
                               level (default 6: near the fewest measurements the pursuit
                               can wander above its best for a few iterations before it
                               finds the support) */
    int coarse_patience;    /* the same on coarser levels (default 2) */
    double time_limit;      /* seconds for the whole run, <= 0 for none */
    const double *x0;       /* start of the first level (its d entries), NULL for 0 */
    const double *x_true;   /* the finest level's truth, for est_err (NULL: none) */
    gsfw_level_callback callback;
    void *callback_data;
} gsfw_pursuit_settings;

GSFW_API void gsfw_pursuit_settings_default(gsfw_pursuit_settings *settings);

/* One level (the finest one: inner_iters and stall apply). result holds the finest
 * level's outputs: x_best = x_polished = the best iterate, x_last, the trace (iterates
 * 0..T); info: status (GSFW_STATUS_CONVERGED, GSFW_STATUS_STALLED, ...), iterations,
 * best_iter, f_best = f_polished, oracle and PCSF calls, oracle_time, and gradient_time
 * = every objective call, the refits included; gap_bound is NaN. The status is
 * GSFW_STATUS_UNBOUNDED when the best or last iterate shows f to have no minimiser (as
 * gsfw_baseline_solve's: the objective's no_minimiser hook, not after a callback stop; a
 * failing check leaves the status). tail may equal head (one oracle for both roles), but
 * two objects keep their warm starts apart. */
GSFW_API gsfw_error gsfw_pursuit_solve(gsfw_objective *obj, gsfw_dmo *head, gsfw_dmo *tail,
                                       const gsfw_pursuit_settings *settings,
                                       gsfw_result *result, gsfw_info *info, gsfw_err *err);

/* Coarse to fine over levels[0..n_levels-1] (the last is the finest; result, x_true and
 * the trace refer to it). info sums the calls and times of all levels (iterations,
 * status and best_iter are the finest level's); level_info (n_levels entries, may be
 * NULL) receives each level's own. A level that ends by the time limit or the callback
 * ends the run; the result is then the best point of the last level reached carried
 * up to the finest level (not polished there), and the status that level's (the check
 * for a loss without a minimiser, see gsfw_pursuit_solve, is the finest level's only). */
GSFW_API gsfw_error gsfw_multilevel_solve(const gsfw_level *levels, int n_levels,
                                          const gsfw_pursuit_settings *settings,
                                          gsfw_result *result, gsfw_info *info,
                                          gsfw_info *level_info, gsfw_err *err);

/* ---- the levels of an image recovery */

#define GSFW_PYRAMID_MAX_COARSE 6

typedef struct {
    int n_coarse;                        /* coarse levels, 0..GSFW_PYRAMID_MAX_COARSE */
    int blocks[GSFW_PYRAMID_MAX_COARSE]; /* their block sides, decreasing, each >= 2 and
                                            a multiple of the next (e.g. {4, 2}) */
    double sparsity_exponent;            /* a coarse level's sparsity s_k = ceil(s /
                                            block^e): between a blob (e = 2) and a line
                                            one pixel wide (e = 1) (default 1.75) */
    double window;                       /* every projection keeps between s_k and
                                            floor(window s_k) nodes (default 1.05) */
    int first_calls;                     /* PCSF runs per projection until a level stops
                                            making progress, then full lambda-searches
                                            (gsfw_proj_settings.first_calls; default 1:
                                            one run and the size repair; 0: full
                                            searches throughout) */
} gsfw_pyramid_settings;

/* No coarse level below GSFW_PYRAMID_MIN_PIXELS pixels; one (block 2) up to 2^21
 * pixels, two (blocks 4, 2) above (docs/pursuit.md has the measurements). */
#define GSFW_PYRAMID_MIN_PIXELS (1 << 18)
GSFW_API void gsfw_pyramid_settings_default(gsfw_pyramid_settings *settings, int height,
                                            int width);

typedef struct gsfw_pyramid gsfw_pyramid;

/* The levels of recovering a height x width image x (row-major, d = height * width) with
 * at most s nonzero pixels in at most g 4-connected pieces from y = A x (n = A->n
 * entries): the finest level is f(x) = loss(A x, y) (loss: NULL for the squared loss) on
 * the 4-neighbour grid with head and tail projections over M(grid, s, g) (the practical
 * lambda-searches, window [s, floor(window s)]); coarse level k has the unknowns of a
 * ceil(height / b_k) x ceil(width / b_k) image, f_k(u) = loss(A U_k u, y) with U_k the
 * block upsampling (gsfw_operator_upsample), the same projections on its grid with s_k
 * and g nodes, and prolong = the upsampling by b_{k-1} / b_k (by b_k into the finest).
 * A is borrowed (it must outlive the pyramid, and not be used elsewhere during a
 * solve); y is copied. */
GSFW_API gsfw_error gsfw_pyramid_image(const gsfw_operator *A, const double *y, int height,
                                       int width, int s, int g,
                                       const gsfw_loss_options *loss,
                                       const gsfw_pyramid_settings *settings,
                                       gsfw_pyramid **out, gsfw_err *err);
/* Its levels (coarsest first, the finest last) and their number. */
GSFW_API const gsfw_level *gsfw_pyramid_levels(const gsfw_pyramid *pyramid, int *n_levels);
/* The sparsity of level k (0 = coarsest), 0 when out of range. */
GSFW_API int gsfw_pyramid_sparsity(const gsfw_pyramid *pyramid, int level);
GSFW_API void gsfw_pyramid_free(gsfw_pyramid *pyramid);

#ifdef __cplusplus
}
#endif

#endif /* GSFW_PURSUIT_H */
