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

#include <stddef.h>
#include <stdint.h>

#include "gsfw/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#include "gsfw/core.h"

/* ------------------------------------------------------------------ graphs */

/* Undirected graph in CSR form. Edge e joins edge_u[e] and edge_v[e] (input order is
 * kept: PCSF outputs refer to it). adj_ptr has n+1 entries; the neighbours of node i are
 * adj_node[adj_ptr[i] .. adj_ptr[i+1]-1], reached through edges adj_edge[...].
 * cost is NULL for unit costs. Build with the constructors, free with gsfw_graph_free. */
typedef struct {
    int n;
    int m;
    int *edge_u;
    int *edge_v;
    double *cost;       /* m entries or NULL (all costs 1) */
    int *adj_ptr;
    int *adj_node;
    int *adj_edge;
} gsfw_graph;

/* Validates ids (0 <= id < n) and costs (finite, >= 0). cost may be NULL. */
GSFW_API gsfw_error gsfw_graph_from_edges(int n, int m, const int *u, const int *v,
                                 const double *cost, gsfw_graph **out, gsfw_err *err);
/* H x W 4-neighbour grid, node r*W + c, unit costs. Edge order: nodes in row-major order,
 * each emits (i, i+1) if not in the last column, then (i, i+W) if not in the last row. */
GSFW_API gsfw_error gsfw_graph_grid(int height, int width, gsfw_graph **out, gsfw_err *err);
GSFW_API void gsfw_graph_free(gsfw_graph *g);
/* Connected components: label[i] in 0..count-1 (labels in order of smallest node). */
GSFW_API gsfw_error gsfw_graph_components(const gsfw_graph *g, int *label, int *count, gsfw_err *err);
/* Number of connected components of the subgraph induced by the nodes with
 * mask[i] != 0 (nodes outside the mask are ignored; mask NULL selects every node).
 * work: 2n ints of scratch; on return work[i] is the component label of node i (-1
 * outside the mask). Returns -1 for a NULL graph or work array, or a graph that was not
 * built by the constructors above (no adjacency arrays). */
GSFW_API int gsfw_graph_induced_components(const gsfw_graph *g, const unsigned char *mask, int *work);

/* --------------------------------------------------------------- objective */

/* A smooth convex objective over R^d. Callbacks return 0 on success, nonzero on failure.
 * value_grad may be NULL (value then gradient are called).
 *
 * Incremental interface (optional; reset, cached_value_grad, set_direction, along and step
 * go together). The objective keeps a cached point x_c, so that a loss over a linear
 * operator keeps A x_c and never recomputes it from scratch:
 *  - reset(x):                 x_c <- x
 *  - cached_value_grad(f, g):  f(x_c) and/or its gradient (either pointer may be NULL)
 *  - set_direction(cx, u):     fix the direction d = cx * x_c + u, u sparse (u[idx[k]] = val[k],
 *                              k < nnz, distinct ids): a Frank-Wolfe step (cx = -1, u = v), an
 *                              away step (cx = 1, u = -a), a pairwise step (cx = 0, u = v - a),
 *                              any move x -> x_new (cx = 0, u = x_new - x_c)
 *  - along(gamma, f, slope):   f(x_c + gamma d) and its derivative <grad f(x_c + gamma d), d>
 *                              (either pointer may be NULL), without moving x_c: what a line
 *                              search needs (O(n) for a loss over an n-row operator)
 *  - step(gamma):              x_c <- x_c + gamma d
 * An objective with a cache must not be shared by concurrent solves.
 *
 * minimize_on (optional): minimise f over the vectors supported on `support` (k distinct ids),
 * unconstrained within that span, starting from w (k entries, in/out), for at most max_iter
 * inner iterations or until the restricted gradient falls below tol times its initial norm;
 * *f receives the value at the result. Least squares over an operator runs CGLS
 * (Craig's method when the support is wider than the rows); after reserve, over an
 * operator with cheap_columns, it does so on a copy of the support's columns, and solves
 * supports of few rows or columns exactly (a rank-revealing QR of that copy). Used by
 * CoSaMP-type baselines and by polishing.
 * reserve (optional): the solvers call it once, before their loop, with the largest
 * support they will pass to minimize_on, so that it can allocate its workspace there
 * rather than inside the loop. It may be called again: a larger size grows the
 * workspace, 0 frees it. Returns 0, or nonzero when out of memory (the linear objectives
 * never fail for lack of memory here: they keep working without the copy).
 * quadratic = 1 declares f quadratic (a line search is then exact from two slopes). */
typedef struct gsfw_objective {
    int d;
    void *ctx;
    int (*value)(void *ctx, const double *x, double *f);
    int (*gradient)(void *ctx, const double *x, double *grad);
    int (*value_grad)(void *ctx, const double *x, double *f, double *grad);
    /* incremental interface (optional, all-or-nothing) */
    int (*reset)(void *ctx, const double *x);
    int (*cached_value_grad)(void *ctx, double *f, double *grad);
    int (*set_direction)(void *ctx, double cx, int nnz, const int *idx, const double *val);
    int (*along)(void *ctx, double gamma, double *f, double *slope);
    int (*step)(void *ctx, double gamma);
    /* optional: an upper bound on the Lipschitz constant of the gradient */
    int (*lipschitz)(void *ctx, double *L);
    /* optional: restricted minimisation (see above) */
    int (*minimize_on)(void *ctx, int k, const int *support, double *w, int max_iter,
                       double tol, double *f);
    int (*reserve)(void *ctx, int max_support);
    /* optional: what a nonzero code returned by this objective's callbacks means (a
     * constant string), or NULL; the solvers' error messages quote it */
    const char *(*code_text)(int code);
    int quadratic;     /* 1: f is quadratic */
    const char *name;  /* "least-squares", "logistic", "huber", "callback", ... */
    void (*destroy)(struct gsfw_objective *self);
} gsfw_objective;

#include "gsfw/operator.h"

/* f(x) = 0.5 * ||A x - y||^2 with a dense n x d matrix A (copied; the caller's arrays
 * can be freed afterwards). Rejects NaN/Inf in A or y. The gradient A^T (A x - y) costs
 * two gemv (one with the incremental interface); A^T A is never formed. The lipschitz
 * hook returns ||A||_2^2 estimated by power iteration (deterministic start vector);
 * minimize_on runs CGLS, or QR on small supports after reserve. It is the squared loss
 * of gsfw_objective_linear over a dense column-major copy of A that the objective owns. */
GSFW_API gsfw_error gsfw_objective_least_squares(int n, int d, const double *A, gsfw_layout layout,
                                        const double *y, gsfw_objective **out,
                                        gsfw_err *err);
/* Wrap user callbacks (value and gradient required, value_grad optional). */
GSFW_API gsfw_error gsfw_objective_callback(int d, void *ctx,
                                   int (*value)(void *, const double *, double *),
                                   int (*gradient)(void *, const double *, double *),
                                   int (*value_grad)(void *, const double *, double *, double *),
                                   gsfw_objective **out, gsfw_err *err);
/* Frees an objective: through its destroy hook, or with free() when it has none (so an
 * objective built by hand must be malloc'ed or carry a destroy hook). NULL is a no-op. */
GSFW_API void gsfw_objective_free(gsfw_objective *obj);

/* Power-iteration estimate of ||A||_2^2 for a dense n x d matrix (column-major, lda = n).
 * Returns the Rayleigh quotient after `iters` iterations or when the relative change is
 * below tol. work: n + 2d doubles. An empty matrix gives 0; NaN answers bad arguments
 * (negative sizes, iters < 1, A or work NULL). */
GSFW_API double gsfw_power_iteration_col_major(int n, int d, const double *A, int iters, double tol,
                                      double *work);

/* ------------------------------------------------ losses over a linear operator */

/* Sum over processes for row-distributed objectives: sum(ctx, buf, count) replaces the
 * count doubles of buf by their sum over all processes holding rows of the operator
 * (MPI_Allreduce with MPI_SUM); 0 on success. sum = NULL means one process. The linear
 * objectives send every sum over rows through it, so a process holding rows i0..i1 of A
 * and y computes the same value and gradient as one process holding all of them. */
typedef struct {
    void *ctx;
    int (*sum)(void *ctx, double *buf, int count);
} gsfw_reducer;

typedef enum {
    GSFW_LOSS_SQUARED = 0,  /* 0.5 ||A x - y||^2 */
    GSFW_LOSS_LOGISTIC = 1, /* sum_i log(1 + exp(-y_i (A x)_i)), y_i in {-1, +1} */
    GSFW_LOSS_HUBER = 2     /* sum_i h((A x - y)_i), h(t) = t^2/2 (|t| <= delta), else
                               delta (|t| - delta/2) */
} gsfw_loss;

typedef struct {
    gsfw_loss loss;       /* default GSFW_LOSS_SQUARED */
    double huber_delta;   /* Huber threshold, finite and > 0 (default 1) */
    int intercept;        /* logistic only: 1 = fit an unpenalised intercept b, profiled
                             out: f(x) = min_b sum_i log(1 + exp(-y_i ((A x)_i + b))) */
    gsfw_reducer reducer; /* default {NULL, NULL}: one process */
} gsfw_loss_options;

GSFW_API void gsfw_loss_options_default(gsfw_loss_options *opt);
/* "ls" (or "squared"), "logistic", "huber"; -1 if unknown. */
GSFW_API int gsfw_loss_parse(const char *name);
GSFW_API const char *gsfw_loss_name(gsfw_loss loss);

/* f(x) = loss(A x, y) over an operator A (n x d; borrowed: it must outlive the objective)
 * and n targets y (copied; labels in {-1, +1} for the logistic loss). opt NULL means the
 * defaults. Every hook of gsfw_objective is provided (docs/objectives.md gives the cost
 * of each); quadratic = 1 for the squared loss only. */
GSFW_API gsfw_error gsfw_objective_linear(const gsfw_operator *A, int n, const double *y,
                                          const gsfw_loss_options *opt,
                                          gsfw_objective **out, gsfw_err *err);
/* The intercept b*(x) of a logistic objective with opt.intercept = 1 at x (d entries),
 * or at the objective's cached point when x is NULL (the last point of a solve). */
GSFW_API gsfw_error gsfw_objective_intercept(gsfw_objective *obj, const double *x, double *b,
                                             gsfw_err *err);

/* -------------------------------------------------------------------- DMO */

/* Statistics a DMO may report per call (added to the solver's totals). */
typedef struct {
    long pcsf_calls;     /* PCSF runs made by graph oracles */
    int window_missed;   /* 1 if a size-window search failed to hit its window */
} gsfw_dmo_stats;

/* A (delta-approximate) dual maximisation oracle: given z, select S in the model with
 * ||z_S|| >= delta * max_{S' in M} ||z_S'||. select writes at most max_support distinct
 * node ids into support (caller buffer of max_support ints, 1 <= max_support <= d) and
 * their number into *size.
 * stats may be NULL. Returns 0 on success. delta is the proven guarantee (0 = none);
 * model describes the support model it is proven for. */
typedef struct gsfw_dmo {
    int d;
    int max_support;
    double delta;
    const char *name;
    const char *model;
    void *ctx;
    int (*select)(void *ctx, const double *z, int *support, int *size, gsfw_dmo_stats *stats);
    void (*destroy)(struct gsfw_dmo *self);
    /* optional: return the oracle to its state right after construction (warm-started
     * searches, seeded random generators), so that a second solve repeats the first bit
     * for bit; gsfw_solve calls it before the first iteration. 0 on success. */
    int (*reset)(void *ctx);
    /* optional: 1 if support (size distinct ids) is a set of the model, 0 if not (used to
     * check a starting point x0). */
    int (*contains)(void *ctx, const int *support, int size);
    /* the largest number of nodes of a set of the model that delta refers to (s for the
     * s-sparse and M(G, s, g) models), 0 if unknown: with it the solvers certify
     * f(x) - f* <= <grad f(x), x> + C ||top_model_size(grad f(x))|| for any oracle */
    int model_size;
} gsfw_dmo;

/* Frees an oracle through its destroy hook; an oracle without one belongs to its creator
 * (a user struct, possibly on the stack) and is left alone. NULL is a no-op. */
GSFW_API void gsfw_dmo_free(gsfw_dmo *dmo);

/* Exact top-s: the s largest |z_i| (linear-time selection). delta = 1. */
GSFW_API gsfw_error gsfw_dmo_topk(int d, int s, gsfw_dmo **out, gsfw_err *err);
/* The delta-approximate top-s oracle of the paper's App. C (Alg. 3), deterministic
 * given seed: starts from the s smallest |z_i| and swaps in top-s entries (in a seeded
 * random order, never removing an inserted one) until ||z_S|| >= delta ||top_s(z)||. */
GSFW_API gsfw_error gsfw_dmo_topk_approx(int d, int s, double delta, uint64_t seed, gsfw_dmo **out,
                                gsfw_err *err);
/* l1 ball (s = 1). delta = 1 picks argmax |z_i|; delta < 1 scans a seeded random
 * permutation and returns the first i with |z_i| >= delta * max |z| (the reference code's
 * test without its missing factor C). */
GSFW_API gsfw_error gsfw_dmo_l1(int d, double delta, uint64_t seed, gsfw_dmo **out, gsfw_err *err);
/* Top-g seeds + best-neighbour-first growth for M(G, s, g): feasible (<= s nodes in
 * <= g connected pieces), delta = sqrt(g/s) >= sqrt(1/ceil(s/g)). The graph must outlive
 * the oracle. */
GSFW_API gsfw_error gsfw_dmo_subgraph(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                             gsfw_err *err);
/* Exact oracle over M(G, s, g) by enumeration; for tests on tiny graphs (refuses when
 * the enumeration would exceed about 1e8 subsets). */
GSFW_API gsfw_error gsfw_dmo_brute_force(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                                gsfw_err *err);

/* ---- oracles by model name (one table for the C API, the CLI and Python) */

struct gsfw_tree;

/* What a model name needs. Fields a model does not use are ignored. */
typedef struct {
    const char *model;        /* "topk", "topk-approx", "l1", "subgraph", "head", "tail",
                                 "tree" (g rooted subtrees), "tree-connected" */
    int d;                    /* vector length (the graph's node count for graph models) */
    int s;                    /* sparsity */
    int g;                    /* components (graph models; default 1 when <= 0) */
    const gsfw_graph *graph;  /* graph models */
    const struct gsfw_tree *tree; /* tree models */
    double delta;             /* topk-approx, l1: target delta in (0, 1] (<= 0: 1) */
    uint64_t seed;            /* randomised oracles */
} gsfw_model_spec;

/* 1 if the model needs a graph, 2 if it needs a tree, 0 if neither, -1 if unknown. */
GSFW_API int gsfw_model_needs_graph(const char *model);
/* Comma-separated list of the model names, for messages. */
GSFW_API const char *gsfw_model_names(void);
/* The oracle of a model (the graph / tree must outlive it). */
GSFW_API gsfw_error gsfw_dmo_from_model(const gsfw_model_spec *spec, gsfw_dmo **out,
                                        gsfw_err *err);

/* ----------------------------------------------------------------- solvers */

typedef enum {
    GSFW_METHOD_FW = 0,     /* DMO-FW: S = DMO(grad f(x)), v = -C grad_S/||grad_S|| */
    GSFW_METHOD_ACCFW = 1,  /* DMO-AccFW: w = x - grad/(L eta), S = DMO(w), v = +C w_S/||w_S|| */
    /* baselines (gsfw_baseline_solve) */
    GSFW_METHOD_IHT,
    GSFW_METHOD_COSAMP,
    GSFW_METHOD_GRAPH_IHT,
    GSFW_METHOD_GRAPH_COSAMP,
    GSFW_METHOD_GEN_MP,
    /* active-set Frank-Wolfe variants over the DMO's atoms (gsfw_solve) */
    GSFW_METHOD_AFW,        /* away-step FW (Lacoste-Julien & Jaggi 2015) */
    GSFW_METHOD_PFW,        /* pairwise FW */
    GSFW_METHOD_BPCG        /* blended pairwise conditional gradients (Tsuji et al. 2022) */
} gsfw_method;

/* "fw", "accfw", "iht", "cosamp", "graph-iht", "graph-cosamp", "gen-mp", "afw", "pfw",
 * "bpcg"; -1 if unknown. */
GSFW_API int gsfw_method_parse(const char *name);
GSFW_API const char *gsfw_method_name(gsfw_method method);
/* 1 for the baselines (gsfw_baseline_solve), 0 for the Frank-Wolfe family (gsfw_solve). */
GSFW_API int gsfw_method_is_baseline(gsfw_method method);

typedef enum { GSFW_OPTION_I = 1, GSFW_OPTION_II = 2 } gsfw_option;

typedef enum {
    GSFW_STATUS_MAX_ITER = 0,     /* ran the requested number of iterations */
    GSFW_STATUS_TIME_LIMIT,       /* stopped by settings.time_limit */
    GSFW_STATUS_CALLBACK_STOP,    /* the callback asked to stop */
    GSFW_STATUS_ZERO_DIRECTION,   /* ||z_S|| = 0: the oracle input vanishes on its support */
    GSFW_STATUS_CONVERGED         /* the certified bound fell below the tolerance */
} gsfw_status;

GSFW_API const char *gsfw_status_name(gsfw_status status);

/* Figures of one iterate x_t, passed to the callback and stored in the trace. */
typedef struct {
    int iter;          /* t */
    double time_s;     /* solve time since the start of the iterations */
    double f;          /* f(x_t) */
    double gap;        /* <grad f(x_t), x_t - v_t> with the atom v_t used at step t: the
                          FW gap estimate for DMO-FW (negative only with an inexact DMO); for
                          DMO-AccFW v_t is the nearest extreme point, not the FW vertex, so
                          the value can be negative even with an exact oracle. NaN for the
                          final iterate and for the baselines */
    double gap_bound;  /* certified: f(x_t) - min_D f <= gap_bound (see gsfw_solve); NaN
                          when no bound is available (baselines, oracles without model_size
                          or delta) */
    double est_err;    /* ||x_t - x_true|| when settings.x_true is set, else NaN */
    double step;       /* the step gamma_t taken from x_t (NaN for the final iterate) */
    int support;       /* number of nonzeros of x_t */
    int active;        /* active-set methods: atoms in the active set of x_t, else 0 */
} gsfw_iterate;

/* Called once per iterate x_t (t = 0..T). Return nonzero to stop the run. */
typedef int (*gsfw_callback)(const gsfw_iterate *it, const double *x, void *user);

/* Where L (the smoothness constant of AccFW's step point, the short step and the
 * baselines' 1/L steps) comes from when settings.L <= 0. */
typedef enum {
    GSFW_L_SPECTRAL = 0, /* the objective's lipschitz hook: ||A||_2^2 for least squares, a
                            global upper bound on the curvature */
    GSFW_L_ATOM = 1,     /* the curvature of f along the first atom from x_0,
                            2 (f(v_0) - f(x_0) - <grad f(x_0), v_0 - x_0>) / ||v_0 - x_0||^2
                            (= ||A v_0||^2 / ||v_0||^2 for least squares): the curvature
                            over the model's supports rather than over all of R^d. The
                            default of gsfw_solve (several times smaller than the spectral
                            bound, and better for AccFW) */
    GSFW_L_GIVEN = 2,    /* reported in info.L_source when settings.L > 0 */
    GSFW_L_NONE = 3      /* reported in info.L_source when the run uses no L */
} gsfw_lipschitz_rule;

/* ---- step rules */

/* The step gamma taken along a direction d from x_t (x_{t+1} = x_t + gamma d). */
typedef enum {
    GSFW_STEP_AUTO = 0,   /* agnostic for fw/accfw (the paper's), line for the active-set
                             methods on a quadratic objective, adaptive otherwise */
    GSFW_STEP_AGNOSTIC,   /* 2/(t+2) (clipped to gamma_max) */
    GSFW_STEP_SHORT,      /* min(gamma_max, -<grad, d> / (L ||d||^2)) */
    GSFW_STEP_ADAPTIVE,   /* backtracking on a local L (Pedregosa, Negiar, Askari & Jaggi
                             2020): no L needed, f decreases monotonically */
    GSFW_STEP_LINE        /* exact line search: closed form for quadratic objectives,
                             safeguarded secant on the directional derivative otherwise */
} gsfw_step;

/* "auto", "agnostic", "short", "adaptive", "line"; -1 if unknown. */
GSFW_API int gsfw_step_parse(const char *name);
GSFW_API const char *gsfw_step_name(gsfw_step step);

/* What a step rule is told about the step to choose. */
typedef struct {
    int iter;           /* t */
    double f;           /* f(x_t) */
    double slope;       /* <grad f(x_t), d> (< 0 for a descent direction) */
    double d_norm2;     /* ||d||^2 */
    double gamma_max;   /* the largest step that keeps the iterate feasible */
    double L;           /* the run's smoothness constant (0 when the method needs none) */
    int quadratic;      /* the objective is quadratic */
} gsfw_step_query;

/* f(x_t + gamma d) and its derivative in gamma (either pointer may be NULL); 0 on success. */
typedef int (*gsfw_line_eval)(void *line, double gamma, double *f, double *slope);

/* A step rule: a new one is a table like this (src/solvers/steps/ has the built-in ones).
 * state_size bytes of zeroed per-run state are allocated by the solver (so one rule may
 * serve concurrent solves); choose sets *gamma in [0, gamma_max] and may evaluate the
 * objective along d through line(line_ctx, ...). *L_estimate (may be left alone) reports a
 * smoothness estimate: a local curvature along d (the line rule), or, when the table sets
 * estimates_L, the rule's running estimate of L itself (the adaptive rule), which then
 * becomes info.L of a run that has no L of its own. Returns 0 on success. */
typedef struct gsfw_step_rule {
    const char *name;
    size_t state_size;
    int needs_L;        /* 1: query.L must be known (the short step) */
    int (*choose)(void *state, const gsfw_step_query *query, gsfw_line_eval line,
                  void *line_ctx, double *gamma, double *L_estimate);
    int estimates_L;    /* 1: *L_estimate is the rule's estimate of L (see above) */
} gsfw_step_rule;

/* The built-in rule behind a gsfw_step value (NULL for GSFW_STEP_AUTO or unknown values). */
GSFW_API const gsfw_step_rule *gsfw_step_rule_builtin(gsfw_step step);

/* ---- the Frank-Wolfe family: gsfw_solve */

typedef struct {
    gsfw_method method;  /* fw, accfw, afw, pfw or bpcg (default accfw) */
    gsfw_option option;  /* I: atoms of norm C (iterates in D); II: atoms scaled by 1/delta */
    gsfw_step step;      /* default GSFW_STEP_AUTO */
    const gsfw_step_rule *step_rule; /* a rule of your own (overrides step); NULL */
    double C;            /* radius, > 0 (default 1) */
    double L;            /* smoothness; <= 0: estimate with L_rule */
    gsfw_lipschitz_rule L_rule; /* default GSFW_L_ATOM */
    double delta;        /* Option II scale and the certified bound's delta; <= 0: the
                            oracle's */
    int max_iter;        /* T >= 0: iterates x_0..x_T are produced (default 100) */
    double time_limit;   /* seconds, <= 0 for none */
    double tol;          /* stop (GSFW_STATUS_CONVERGED) when the certified bound
                            gap_bound <= tol + tol_rel * gap_bound(x_0): an absolute bound on
                            f(x_t) - f*, or one relative to the first (scale-free, also when
                            f* = 0); both 0 (default): off */
    double tol_rel;
    const double *x0;    /* starting point (d entries), NULL for 0. Checked: finite,
                            ||x0|| <= C (C/delta for Option II) and supp(x0) a set of the
                            oracle's model (its contains hook; refused when it has none) */
    int polish;          /* 1: end by projecting onto the model and refitting (see
                            gsfw_result.x_polished); default 0 */
    int polish_iters;    /* inner iterations of the refit (default 200) */
    gsfw_dmo *polish_oracle; /* the projection polish uses; NULL: the solve's oracle */
    int max_active;      /* active-set methods: capacity of the active set (default 500);
                            when full, the smallest weight is merged into the iterate's
                            pseudo-atom */
    int lazy;            /* bpcg: call the DMO only when local steps stop paying (default 0) */
    const double *x_true;/* optional ground truth (d entries) for est_err */
    gsfw_callback callback;
    void *callback_data;
} gsfw_settings;

GSFW_API void gsfw_settings_default(gsfw_settings *settings);

typedef struct {
    gsfw_status status;
    int iterations;       /* T actually reached (index of the last iterate) */
    int best_iter;        /* argmin_t f(x_t) (first one on ties) */
    double f_best;
    double f_last;
    double f_polished;    /* f at the polished point (NaN without polish) */
    double gap_bound;     /* the smallest certified bound seen (NaN if none) */
    double L;             /* L used by AccFW, the short step and the baselines' 1/L steps
                             (given or estimated); the adaptive rule's last local estimate;
                             0 when the run uses none */
    gsfw_lipschitz_rule L_source; /* GSFW_L_GIVEN, GSFW_L_SPECTRAL or GSFW_L_ATOM */
    gsfw_step step;       /* the rule used (GSFW_STEP_AUTO resolved) */
    double delta;         /* delta used for Option II scaling and the bound */
    long oracle_calls;
    long pcsf_calls;
    long window_missed;   /* oracle calls whose size-window search missed its window */
    long gradient_calls;
    long drop_steps;      /* active-set methods: atoms removed by a full step */
    int active_size;      /* active-set methods: atoms at the end */
    int polished_size;    /* nonzeros of the polished point (0 without polish) */
    double setup_time;    /* seconds: L estimate, allocation (counted once) */
    double solve_time;    /* seconds: the iterations */
    double polish_time;   /* seconds: the polish */
    double oracle_time;   /* seconds inside the DMO */
    double gradient_time; /* seconds inside the objective */
} gsfw_info;

/* Caller-owned outputs; every pointer may be NULL. trace must hold trace_capacity
 * entries; the solver stores iterates 0..min(T, trace_capacity-1) and sets trace_len. */
typedef struct {
    double *x_best;       /* d entries: argmin_t f(x_t) */
    double *x_last;       /* d entries: x_T */
    gsfw_iterate *trace;
    int trace_capacity;
    int trace_len;
    double *x_polished;   /* d entries: with settings.polish, the polished point: S = the
                             polish oracle's selection on x_best, then f minimised over
                             vectors supported on S, scaled into the C-ball; a set of the
                             model by construction */
} gsfw_result;

/* The Frank-Wolfe family from x_0 = settings.x0 (or 0): DMO-FW / DMO-AccFW (the paper's
 * Algorithm 1, Options I and II) and the active-set variants, with a pluggable step rule.
 * Certified bound: with g = grad f(x_t), S the support the oracle selects on g and
 * model_size s_M of the oracle, f(x_t) - min_D f <= <g, x_t> + C min(||g_S|| / delta,
 * ||top_{s_M}(g)||) (the first term only for fw, whose oracle sees g; for a delta-DMO,
 * exact when delta = 1). The oracle's reset hook is called first, so two solves with the
 * same objects give the same result bit for bit. */
GSFW_API gsfw_error gsfw_solve(gsfw_objective *obj, gsfw_dmo *dmo, const gsfw_settings *settings,
                      gsfw_result *result, gsfw_info *info, gsfw_err *err);

/* ---- the baselines: gsfw_baseline_solve */

typedef struct {
    gsfw_method method;  /* iht, cosamp, graph-iht, graph-cosamp or gen-mp */
    double L;            /* step 1/L; <= 0: the objective's estimate (L_rule spectral) */
    double C;            /* gen-mp with reference_compat: atom norm */
    int max_iter;        /* default 100 */
    double time_limit;
    int inner_iters;     /* cosamp: iterations of the objective's minimize_on per step when it
                            is iterative (default 10; small least-squares supports are solved
                            exactly whatever this is) */
    int reference_compat;/* 1 = the reference scripts' settings (docs/baselines.md) */
    const double *x_true;
    gsfw_callback callback;
    void *callback_data;
} gsfw_baseline_settings;

GSFW_API void gsfw_baseline_settings_default(gsfw_baseline_settings *settings);

/* IHT / CoSaMP and their graph versions, Gen-MP, from x_0 = 0. head is the
 * identification oracle (the DMO of Gen-MP, the head of the graph methods; unused by
 * iht), tail the pruning projection (NULL: head). gsfw_baseline_oracles builds both. */
/* The head and tail oracles a baseline needs for a model (spec: d, s, g, graph or tree;
 * s is clamped to d, g to s): iht: tail = top-s; cosamp: head top-2s, tail top-s;
 * graph-iht: head over M(G, 2s, 2g) of the model (reference_compat: d/2 nodes in g
 * pieces, the reference scripts' window), tail over M(G, s, g); graph-cosamp: head
 * M(G, 2s, 2g) (compat: 2s, g), tail M(G, s, g); gen-mp: head = the model's DMO, no tail.
 * For "head" models the tail is the PCSF tail projection. *tail may be NULL on return
 * (then the head is used). Free both with gsfw_dmo_free. */
GSFW_API gsfw_error gsfw_baseline_oracles(gsfw_method method, const gsfw_model_spec *spec,
                                          int reference_compat, gsfw_dmo **head,
                                          gsfw_dmo **tail, gsfw_err *err);

GSFW_API gsfw_error gsfw_baseline_solve(gsfw_objective *obj, gsfw_dmo *head, gsfw_dmo *tail,
                               const gsfw_baseline_settings *settings, gsfw_result *result,
                               gsfw_info *info, gsfw_err *err);

/* -------------------------------------------------------------------- PCSF */

typedef enum {
    GSFW_PRUNING_NONE = 0,
    GSFW_PRUNING_SIMPLE,
    GSFW_PRUNING_GW,
    GSFW_PRUNING_STRONG
} gsfw_pruning;

/* Parse "none" | "simple" | "gw" | "strong"; returns -1 when unknown. */
GSFW_API int gsfw_pruning_parse(const char *name);

/* Reusable PCSF workspace (Goemans-Williamson growth + pruning, compatible with
 * pcst_fast). Memory grows to the largest instance seen and is reused across calls. */
typedef struct gsfw_pcsf gsfw_pcsf;

GSFW_API gsfw_error gsfw_pcsf_create(gsfw_pcsf **out, gsfw_err *err);
GSFW_API void gsfw_pcsf_free(gsfw_pcsf *ws);

/* Solve one PCSF instance. root = -1 for unrooted (target_clusters active clusters kept),
 * root >= 0 requires target_clusters == 0. costs may be NULL (unit costs); prizes and
 * costs must be finite and >= 0. out_nodes: n ints, out_edges: m ints (edge indices
 * into the input list). Outputs are in the order the pruning visits them. */
GSFW_API gsfw_error gsfw_pcsf_run(gsfw_pcsf *ws, int n, int m, const int *edge_u, const int *edge_v,
                         const double *prizes, const double *costs, int root,
                         int target_clusters, gsfw_pruning pruning, int *out_nodes,
                         int *n_out_nodes, int *out_edges, int *n_out_edges, gsfw_err *err);

/* Merge tolerance of the growth phase: an edge whose uncovered remainder r is below
 * eps * cost (or exactly 0) is tight. The default, GSFW_PCSF_DEFAULT_TOLERANCE = 1e-6, is
 * the tolerance of pcst_fast as released (PyPI, fraenkel-lab); 1e-10 gives the outputs of
 * the original cluster_approx sources. eps must be finite and in [0, 1). The setting stays
 * with the workspace for every later run. */
#define GSFW_PCSF_DEFAULT_TOLERANCE 1e-6
GSFW_API gsfw_error gsfw_pcsf_set_tolerance(gsfw_pcsf *ws, double eps, gsfw_err *err);

/* ---------------------------------------------------------------- file I/O */

/* .npy (format 1.0/2.0/3.0), float64 little-endian, C or Fortran order, 1-D or 2-D.
 * *data is returned in C (row-major) order and freed with gsfw_free. shape[1] = 1 for
 * 1-D arrays; *ndim tells which. */
GSFW_API gsfw_error gsfw_npy_read(const char *path, double **data, int *ndim, int shape[2],
                         gsfw_err *err);
/* Writes through a temporary file renamed into place (no partial file on failure). */
GSFW_API gsfw_error gsfw_npy_write(const char *path, const double *data, int ndim, const int shape[2],
                          gsfw_err *err);

/* .npy of any common numeric dtype, converted to double: float64, float32, int8/16/32/64,
 * uint8/16/32/64, either byte order, C or Fortran order, 1-D or 2-D. Otherwise as
 * gsfw_npy_read (which keeps accepting float64 only). Integers above 2^53 in magnitude
 * are rounded to the nearest double. *data freed with gsfw_free. */
GSFW_API gsfw_error gsfw_npy_read_numeric(const char *path, double **data, int *ndim, int shape[2],
                                          gsfw_err *err);
/* Matrix Market coordinate file ("%%MatrixMarket matrix coordinate real|integer|pattern
 * general|symmetric") as 0-based triplets: *n rows, *d columns, *nnz entries (pattern
 * entries are 1; a symmetric file's off-diagonal entries are mirrored, so *nnz counts
 * both). Refuses array format, complex and hermitian fields, indices past the header's
 * size, non-finite values and a header whose entry count is wrong. Arrays freed with
 * gsfw_free (the three are NULL when *nnz is 0). */
GSFW_API gsfw_error gsfw_mtx_read(const char *path, int *n, int *d, long *nnz, int **rows, int **cols,
                                  double **vals, gsfw_err *err);

/* Edge list: one "u v" or "u v cost" per line, 0-based ids, '#' comments and blank lines
 * allowed; all lines must have the same number of fields. *cost is NULL when the file has
 * no costs. When n >= 0, ids must be < n. Arrays freed with gsfw_free. */
GSFW_API gsfw_error gsfw_edges_read(const char *path, int n, int *m, int **u, int **v, double **cost,
                           gsfw_err *err);

/* Images: the library reads and writes no image format. The command-line tools read and
 * write PNG (with libpng); a program using the library passes pixels as a row-major
 * array of doubles (gsfw_npy_read for a .npy file, or any image library). */

/* ------------------------------------------------- Head / tail projections */

/* Head and tail projections over M(G, s, g) (and weighted graph models) built on the PCSF
 * (docs/pcsf.md). Prizes are pi_i = z_i^2, edge costs the graph's costs (unit if NULL).
 *  - GSFW_PROJ_PRACTICAL: the lambda-search of the paper's experiments: PCSF with costs
 *    lambda * c, lambda searched until the number of output nodes lies in
 *    [s_low, s_high]; "window missed" is reported when k(lambda) jumps over the window.
 *    The support then comes from the size repair (repair_size = 1, default): the closest
 *    forests on either side are grown best-neighbour-first or pruned leaf by leaf into
 *    the window and the one of larger energy is kept, so the output has between s_low and
 *    s_high nodes in at most g components whenever the graph has such a set.
 *    warm_start = 0: the reference search (first guess 2 x the s_high-th largest prize,
 *    doubling, then bisection until the interval collapses), cold on every call.
 *    warm_start = 1 (default): a safeguarded secant search on log k against log lambda,
 *    started from the previous call's lambda relative to the s_high-th largest prize, so
 *    an iterative solver usually needs one to three PCSF calls per projection.
 *  - GSFW_PROJ_THEORY: Hegde, Indyk & Schmidt (2015): HEAD by prize scaling + prune
 *    (support in M(G, 2s + g, g), ||z_S|| >= sqrt(1/14) max over M(G, s, g)), TAIL by
 *    cost scaling, with costs c(e) = w(e) + B/s and cost budget C = 2B. */
typedef enum { GSFW_PROJ_HEAD = 0, GSFW_PROJ_TAIL = 1 } gsfw_proj_kind;
typedef enum { GSFW_PROJ_PRACTICAL = 0, GSFW_PROJ_THEORY = 1 } gsfw_proj_method;

typedef struct {
    gsfw_proj_kind kind;
    gsfw_proj_method method;
    int s;                /* sparsity s >= 1 */
    int g;                /* number of components g >= 1 */
    int s_low, s_high;    /* practical: window on the output size (default [s, floor(1.05 s)]) */
    int max_calls;        /* PCSF calls per projection (default 50) */
    gsfw_pruning pruning; /* default GSFW_PRUNING_GW */
    int warm_start;       /* practical: 1 = gsfw's warm-started search (default), 0 = the
                             reference's cold search */
    double budget;        /* theory: B; <= 0 means s - g (unit edge weights) */
    double delta;         /* theory head: bisection tolerance factor (default 1/169) */
    double nu;            /* theory tail: nu > 2 (default 2.5) */
    double err_tol;       /* theory: lower clamp of the smallest positive prize (1e-6) */
    int repair_size;      /* practical: 1 (default) = when the lambda-search misses the
                             window, grow or prune the closest forests into it (see
                             gsfw_proj_info.size_repaired); 0 = return the search's answer */
} gsfw_proj_settings;

/* Defaults for a head or tail projection with sparsity s and g components. */
GSFW_API void gsfw_proj_settings_default(gsfw_proj_settings *settings, gsfw_proj_kind kind, int s, int g);

/* What one projection did. */
typedef struct {
    int pcsf_calls;       /* PCSF runs of this call */
    int window_missed;    /* practical: 1 if the lambda-search alone found no lambda whose
                             forest has a size in [s_low, s_high] (k(lambda) jumped over it,
                             or, with repair_size = 1, no set of that size exists: the
                             search is then skipped, pcsf_calls = 0) */
    double lambda;        /* the final scale (costs for practical / tail, prizes for head) */
    int size;             /* number of support nodes */
    double cost;          /* cost of the returned forest (graph costs) */
    double energy;        /* sum of z_i^2 over the support */
    int size_repaired;    /* practical: 1 if the window was missed and the support is the
                             repair's (grown or pruned forest), not a PCSF forest */
    int target_met;       /* practical: 1 if size lies in [s_low, s_high]. With repair_size
                             = 1 it is 0 only when no set of s_low nodes in g components
                             exists (the g largest components of G are too small); the
                             support is then the g components of largest energy, whole:
                             the exact maximum over sets in g components.
                             Theory: always 1 (no size window) */
} gsfw_proj_info;

typedef struct gsfw_headtail gsfw_headtail;

/* The graph must outlive the object. Allocates every buffer (n + m sized) up front. */
GSFW_API gsfw_error gsfw_headtail_create(const gsfw_graph *graph, const gsfw_proj_settings *settings,
                                gsfw_headtail **out, gsfw_err *err);
GSFW_API void gsfw_headtail_free(gsfw_headtail *ht);
/* Forget the warm-start state. */
GSFW_API void gsfw_headtail_reset(gsfw_headtail *ht);
/* Project z (n entries, finite): support receives the node ids (caller buffer of n
 * ints, ascending), *size their number. info may be NULL. */
GSFW_API gsfw_error gsfw_headtail_project(gsfw_headtail *ht, const double *z, int *support, int *size,
                                 gsfw_proj_info *info, gsfw_err *err);

/* Head projection as a DMO for M(G, s, g): practical lambda-search with window
 * [s, floor(1.05 s)], warm-started across calls, GW pruning. delta is reported as
 * sqrt(1/14), the guarantee of the theory head for the model M(G, 2s + g, g) (the
 * model string says so; the practical search itself has no proven delta).
 * max_support = n. The graph must outlive the oracle. */
GSFW_API gsfw_error gsfw_dmo_head(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                         gsfw_err *err);
/* Tail projection through the DMO interface (select returns the support; delta = 0):
 * practical lambda-search with window [s, floor(1.05 s)], for Graph-IHT / Graph-CoSaMP. */
GSFW_API gsfw_error gsfw_dmo_tail(const gsfw_graph *g, int s, int g_components, gsfw_dmo **out,
                         gsfw_err *err);
/* Either projection with explicit settings (method, window, budget, ...). */
GSFW_API gsfw_error gsfw_dmo_headtail(const gsfw_graph *g, const gsfw_proj_settings *settings,
                             gsfw_dmo **out, gsfw_err *err);

#ifdef __cplusplus
}
#endif

/* Trees, the wavelet quadtree and the exact tree-sparse DMOs. */
#include "gsfw/tree.h"

#endif /* GSFW_H */
