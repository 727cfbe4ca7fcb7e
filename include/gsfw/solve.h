/* Solvers: methods, step rules, settings, results and information; the Frank-Wolfe
 * family (gsfw_solve) and the baselines (gsfw_baseline_solve). Included by gsfw.h. */
#ifndef GSFW_SOLVE_H
#define GSFW_SOLVE_H

#include <stddef.h>

#include "gsfw/core.h"
#include "gsfw/dmo.h"
#include "gsfw/objective.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    GSFW_METHOD_BPCG,       /* blended pairwise conditional gradients (Tsuji et al. 2022) */
    /* a baseline (gsfw_baseline_solve), appended so that the values above keep theirs */
    GSFW_METHOD_GRAPH_SP    /* graph subspace pursuit: gsfw_pursuit_solve (gsfw/pursuit.h) */
} gsfw_method;

/* "fw", "accfw", "iht", "cosamp", "graph-iht", "graph-cosamp", "gen-mp", "afw", "pfw",
 * "bpcg", "graph-sp"; -1 if unknown. */
GSFW_API int gsfw_method_parse(const char *name);
GSFW_API const char *gsfw_method_name(gsfw_method method);
/* 1 for the baselines (gsfw_baseline_solve), 0 for the Frank-Wolfe family (gsfw_solve). */
GSFW_API int gsfw_method_is_baseline(gsfw_method method);

typedef enum { GSFW_OPTION_I = 1, GSFW_OPTION_II = 2 } gsfw_option;

typedef enum {
    GSFW_STATUS_MAX_ITER = 0,     /* ran the requested number of iterations */
    GSFW_STATUS_TIME_LIMIT,       /* stopped by settings.time_limit */
    GSFW_STATUS_CALLBACK_STOP,    /* the callback asked to stop */
    GSFW_STATUS_ZERO_DIRECTION,   /* the gradient vanishes on the oracle's support (for the
                                     pursuits, on the head projection's) */
    GSFW_STATUS_CONVERGED,        /* the certified bound fell below the tolerance (the
                                     pursuit solvers: f of the polished answer did) */
    GSFW_STATUS_STALLED,          /* the pursuit solvers (gsfw/pursuit.h): f stopped
                                     decreasing */
    GSFW_STATUS_UNBOUNDED         /* the baselines (gsfw_baseline_solve, gsfw_pursuit_solve):
                                     the answer shows that f has no minimiser (the
                                     objective's no_minimiser hook: a logistic loss whose
                                     labels the best or last iterate, or CoSaMP's last
                                     refit, separates, every margin positive), so its
                                     norm grows with the iterations (and the refits' inner
                                     iterations) without bound and its scale means
                                     nothing; use a Frank-Wolfe method, whose C-ball
                                     bounds it. Whatever else stopped the run, except the
                                     callback */
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
    int restarts;        /* with polish: at most this many warm restarts from the polished
                            point (default 0: none). Each round runs DMO-AccFW with the line
                            step for restart_iters iterations from the best polished point
                            so far (L kept from the first run) and polishes again; the
                            polished point of lowest f is returned. The rounds stop at an
                            exact fit (0 <= f <= 1e-24 f(0)) or at a round that does not
                            lower f (a repeat would give the same round again) */
    int restart_iters;   /* iterations of each restart round (default 20) */
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
    gsfw_step step;       /* the rule used (GSFW_STEP_AUTO resolved; GSFW_STEP_AUTO for
                             a rule without an enum value: see step_rule) */
    double delta;         /* delta used for Option II scaling and the bound */
    long oracle_calls;
    long gradient_calls;
    long drop_steps;      /* active-set methods: atoms removed by a full step */
    int active_size;      /* active-set methods: atoms at the end */
    int polished_size;    /* nonzeros of the polished point (0 without polish) */
    double setup_time;    /* seconds: L estimate, allocation (counted once) */
    double solve_time;    /* seconds: the iterations */
    double polish_time;   /* seconds: the polish */
    double oracle_time;   /* seconds inside the DMO */
    double gradient_time; /* seconds inside the objective */
    const struct gsfw_step_rule *step_rule; /* the rule used, with its name (NULL for the
                                               baselines) */
    int restarts;         /* restart rounds run (settings.restarts); iterations, status,
                             f_best, f_last and the trace describe the first run, the
                             counts and times cover every round */
    int restart_best;     /* the round whose polished point is returned (0: the first run's) */
    /* the oracles' own counters (gsfw_dmo.counters), summed over their calls: read them
     * with gsfw_info_count */
    const char *counter_names[GSFW_DMO_COUNTERS];
    long counters[GSFW_DMO_COUNTERS];
} gsfw_info;

/* The total of the oracles' counter `name` over a run ("pcsf_calls", "window_missed"
 * for the head and tail projections); 0 when no oracle of the run has such a counter. */
GSFW_API long gsfw_info_count(const gsfw_info *info, const char *name);

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
    gsfw_method method;  /* iht, cosamp, graph-iht, graph-cosamp, gen-mp or graph-sp */
    double L;            /* step 1/L; <= 0: the objective's estimate (L_rule spectral) */
    double C;            /* gen-mp with reference_compat: atom norm */
    int max_iter;        /* default 100 */
    double time_limit;
    int inner_iters;     /* cosamp, graph-sp: iterations of the objective's minimize_on per
                            refit when it is iterative (default 10; small least-squares
                            supports are solved exactly whatever this is) */
    int reference_compat;/* 1 = the reference scripts' settings (docs/baselines.md) */
    const double *x_true;
    gsfw_callback callback;
    void *callback_data;
    double tol, tol_rel; /* graph-sp: converged when f(x_t) <= tol + tol_rel f(0) (both 0:
                            the pursuit's own rule, an exact fit, tol_rel 1e-12); the other
                            baselines run max_iter iterations */
} gsfw_baseline_settings;

GSFW_API void gsfw_baseline_settings_default(gsfw_baseline_settings *settings);

/* IHT / CoSaMP and their graph versions, Gen-MP and graph-sp, from x_0 = 0. head is the
 * identification oracle (the DMO of Gen-MP, the head of the graph methods; unused by
 * iht), tail the pruning projection (NULL: head). gsfw_baseline_oracles builds both. */
/* The head and tail oracles a baseline needs for a model (spec: d, s, g, graph or tree;
 * s is clamped to d, g to s): iht: tail = top-s; cosamp: head top-2s, tail top-s;
 * graph-iht: head over M(G, 2s, 2g) of the model (reference_compat: d/2 nodes in g
 * pieces, the reference scripts' window), tail over M(G, s, g); graph-cosamp: head
 * M(G, 2s, 2g) (compat: 2s, g), tail M(G, s, g); gen-mp: head = the model's DMO, no tail;
 * graph-sp: head and tail M(G, s, g) (top-s for both with topk: subspace pursuit).
 * For "head" models the tail is the PCSF tail projection. *tail may be NULL on return
 * (then the head is used). Free both with gsfw_dmo_free. */
GSFW_API gsfw_error gsfw_baseline_oracles(gsfw_method method, const gsfw_model_spec *spec,
                                          int reference_compat, gsfw_dmo **head,
                                          gsfw_dmo **tail, gsfw_err *err);

/* The baselines bound no norm: when the objective has a no_minimiser hook and it finds
 * that the best or the last iterate (or, for cosamp and graph-cosamp, whose answer is a
 * refit pruned, the last refit on a merged support) shows f to have no minimiser
 * (logistic labels separated by it), info.status is GSFW_STATUS_UNBOUNDED, whatever
 * stopped the run (except the callback). The check is advisory: when the hook fails, the run's own
 * status and answer stand and the call still returns GSFW_OK. */
GSFW_API gsfw_error gsfw_baseline_solve(gsfw_objective *obj, gsfw_dmo *head, gsfw_dmo *tail,
                               const gsfw_baseline_settings *settings, gsfw_result *result,
                               gsfw_info *info, gsfw_err *err);

#ifdef __cplusplus
}
#endif

#endif /* GSFW_SOLVE_H */
