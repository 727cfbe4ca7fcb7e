/* The registry: every built-in method, support model, step rule, loss and sensing
 * operator is one constant row (gsfw_entry) in the file that implements it, and every
 * value a caller may set by name is one constant row (gsfw_param). Parsing names,
 * listing them (usage texts, Python, `gsfw help`), checking combinations and estimating
 * memory all read these rows; gsfw_spec turns names and values into the objects and
 * settings of a solve:
 *
 *     gsfw_spec *spec;
 *     gsfw_spec_create(GSFW_USES_SOLVE, &spec, &err);
 *     gsfw_spec_set(spec, "method", "accfw", &err);     // or a number: gsfw_spec_set_number
 *     gsfw_spec_set(spec, "model", "head", &err);
 *     gsfw_spec_set(spec, "s", "24", &err);
 *     gsfw_spec_check(spec, &err);                        // names, ranges, combinations
 *     gsfw_spec_bind(spec, d, graph, NULL, &err);         // against the problem's size
 *     gsfw_spec_oracles(spec, &dmo, &tail, &err);
 *     gsfw_spec_objective(spec, A, n, y, NULL, &obj, &err);
 *     gsfw_spec_settings(spec, &settings);                // then x0, x_true, callback
 *     gsfw_spec_solve(spec, obj, dmo, tail, &settings, &result, &info, &err);
 *
 * Rows are read-only static data; a spec holds values and the caller's own rows
 * (gsfw_spec_add_entry): nothing is global, so specs may be used from several threads.
 * docs/extending.md shows how to add a row, a parameter or an entry of one's own. */
#ifndef GSFW_REGISTRY_H
#define GSFW_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "gsfw/core.h"
#include "gsfw/dmo.h"
#include "gsfw/graph.h"
#include "gsfw/loss.h"
#include "gsfw/objective.h"
#include "gsfw/operator.h"
#include "gsfw/solve.h"
#include "gsfw/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds of entries. */
typedef enum {
    GSFW_KIND_METHOD = 0, /* a solver: the Frank-Wolfe family and the baselines */
    GSFW_KIND_MODEL,      /* a support model, i.e. its dual maximisation oracle */
    GSFW_KIND_STEP,       /* a step rule of the Frank-Wolfe family */
    GSFW_KIND_LOSS,       /* a loss over a linear operator */
    GSFW_KIND_SENSING,    /* a sensing operator of compressive-sensing recovery */
    GSFW_KIND_BASIS,      /* a basis the unknowns are the coefficients in (recovery) */
    GSFW_KIND_COUNT
} gsfw_kind;

/* What an entry needs beyond numbers (gsfw_entry.needs). */
enum { GSFW_NEEDS_GRAPH = 1, GSFW_NEEDS_TREE = 2 };

/* gsfw_entry.flags */
enum {
    GSFW_ENTRY_DEFAULT = 1 /* the kind's default when no name is given (for models: the
                              default among those whose needs match what is available) */
};

/* One entry. `def` points to the kind's definition: a gsfw_model_def, a gsfw_step_rule,
 * a gsfw_loss_def, a gsfw_sensing_def, a gsfw_basis_def, or (methods) the library's
 * internal table. */
typedef struct gsfw_entry {
    gsfw_kind kind;
    const char *name;     /* what callers select it by ("accfw", "head", "huber", ...) */
    const char *summary;  /* one line, for listings */
    const char *uses;     /* the parameters it reads, space-separated ("s g delta seed") */
    unsigned needs;       /* GSFW_NEEDS_* */
    unsigned flags;       /* GSFW_ENTRY_* */
    const void *def;
    const char *aliases;  /* other names it answers to, space-separated, or NULL */
} gsfw_entry;

/* ---- parameters */

typedef enum {
    GSFW_PARAM_INT = 0,
    GSFW_PARAM_UINT64,  /* an integer stored as uint64_t (seeds) */
    GSFW_PARAM_DOUBLE,
    GSFW_PARAM_BOOL,    /* text: on|off (also 1|0, true|false) */
    GSFW_PARAM_CHOICE,  /* one of `choices`: "I:1 II:2 1:1 2:2" (name:code; the first name
                           of a code is the one listed, messages add the others) */
    GSFW_PARAM_ENTRY,   /* the name of an entry of `kind` */
    GSFW_PARAM_VECTOR   /* a vector the caller passes itself (in gsfw_settings): the spec
                           only records that it is given, for the checks */
} gsfw_param_type;

/* Where a value goes when the spec fills a structure (gsfw_param.target). */
typedef enum {
    GSFW_TARGET_NONE = 0,  /* read with gsfw_spec_number only */
    GSFW_TARGET_SETTINGS,  /* gsfw_settings (the Frank-Wolfe family) */
    GSFW_TARGET_BASELINE,  /* gsfw_baseline_settings */
    GSFW_TARGET_MODEL,     /* gsfw_model_spec */
    GSFW_TARGET_LOSS,      /* gsfw_loss_options */
    GSFW_TARGET_SENSING    /* gsfw_sensing_spec */
} gsfw_param_target;

/* gsfw_param.flags */
enum {
    GSFW_PARAM_LO_OPEN = 1,   /* value > lo (else >= lo) */
    GSFW_PARAM_HI_OPEN = 2,   /* value < hi (else <= hi) */
    GSFW_PARAM_GENERAL = 4,   /* read by every run: never reported as unused */
    GSFW_PARAM_STRICT = 8,    /* given while no selected entry uses it: an error (else a
                                 warning) */
    GSFW_PARAM_ZERO_UNSET = 16 /* a number 0 means "not given" (gsfw_spec_set_number only) */
};

/* One value callers may set by name. Adding a setting is one row of this type (in the
 * file that owns the structure it fills) and, for a new field, the field itself. */
typedef struct gsfw_param {
    const char *name;     /* "s", "max_iter", "huber_delta", ... */
    gsfw_param_type type;
    double lo, hi;        /* INT and DOUBLE: the range (see the flags) */
    unsigned flags;       /* GSFW_PARAM_* */
    double def;           /* the default (BOOL 0/1, CHOICE its code) */
    const char *choices;  /* CHOICE: the spellings */
    gsfw_kind kind;       /* ENTRY: the kind named */
    const char *help;     /* one line, for listings */
    gsfw_param_target target; /* where gsfw_spec_* puts the value (INT, BOOL and
                                 CHOICE: int, UINT64: uint64_t, DOUBLE: double, ENTRY:
                                 const char *, the entry's name) */
    size_t offset;        /* offsetof the field in the target structure */
    const char *unused;   /* the warning's reason when no selected entry uses it
                             ("it is deterministic"), or NULL */
    gsfw_param_target target2; /* a second structure it fills (GSFW_TARGET_NONE: none) */
    size_t offset2;
} gsfw_param;

/* ---- listing (the built-ins; a spec lists its own entries as well) */

/* The i-th built-in entry of a kind in listing order, NULL past the last. */
GSFW_API const gsfw_entry *gsfw_registry_entry(gsfw_kind kind, int i);
/* The built-in entry of a kind called name, or NULL. */
GSFW_API const gsfw_entry *gsfw_registry_find(gsfw_kind kind, const char *name);
/* "methods", "models", "steps", "losses", "sensing", "bases"; NULL for an unknown kind. */
GSFW_API const char *gsfw_kind_name(gsfw_kind kind);
/* The parameter that selects an entry of the kind: "method", "model", "step", "loss",
 * "sensing", "basis". */
GSFW_API const char *gsfw_kind_param(gsfw_kind kind);
/* The kind whose gsfw_kind_name is name (also its singular: "method", "model", "step",
 * "loss", "basis"), or -1. */
GSFW_API int gsfw_kind_parse(const char *name);
/* The names of a kind's built-ins joined by sep ("fw, accfw, ..."), written into buf
 * (cap bytes, truncated with "..."); returns buf. */
GSFW_API const char *gsfw_registry_names(gsfw_kind kind, const char *sep, char *buf,
                                         size_t cap);
/* The i-th parameter in listing order, NULL past the last (the general ones, then each
 * entry's own). */
GSFW_API const gsfw_param *gsfw_registry_param(int i);
/* The parameter called name, or NULL. */
GSFW_API const gsfw_param *gsfw_registry_find_param(const char *name);
/* The parameters an entry defines for itself (a loss's, e.g. huber_delta): *count rows
 * (count may be NULL), or NULL with *count = 0. */
GSFW_API const gsfw_param *gsfw_entry_params_of(const gsfw_entry *entry, int *count);
/* 1 if the entry reads the parameter (its `uses` lists it, or it defines it), else 0. */
GSFW_API int gsfw_entry_uses(const gsfw_entry *entry, const char *param);

/* ---- specs */

typedef struct gsfw_spec gsfw_spec;

/* The kinds a caller puts in play (gsfw_spec_create). */
enum {
    GSFW_USES_METHOD = 1 << GSFW_KIND_METHOD,
    GSFW_USES_MODEL = 1 << GSFW_KIND_MODEL,
    GSFW_USES_STEP = 1 << GSFW_KIND_STEP,
    GSFW_USES_LOSS = 1 << GSFW_KIND_LOSS,
    GSFW_USES_SENSING = 1 << GSFW_KIND_SENSING,
    GSFW_USES_BASIS = 1 << GSFW_KIND_BASIS,
    GSFW_USES_SOLVE = GSFW_USES_METHOD | GSFW_USES_MODEL | GSFW_USES_STEP | GSFW_USES_LOSS
};

/* A spec with every value at its default, for the kinds in `uses` (GSFW_USES_*: the
 * parameters of other kinds are refused, and their checks skipped). Free with
 * gsfw_spec_free. */
GSFW_API gsfw_error gsfw_spec_create(unsigned uses, gsfw_spec **out, gsfw_err *err);
GSFW_API void gsfw_spec_free(gsfw_spec *spec);

/* How messages spell a parameter: spell(ctx, name) returns the caller's spelling of it
 * ("--iters" for "max_iter" on a command line), or NULL for the name itself. */
GSFW_API void gsfw_spec_set_spelling(gsfw_spec *spec,
                                     const char *(*spell)(void *ctx, const char *param),
                                     void *ctx);
/* Add an entry of the caller's (a loss, step rule, model or sensing kind; not a
 * method): selectable by name in this spec only. The entry and what it points to must
 * outlive the spec. Its name must be new. */
GSFW_API gsfw_error gsfw_spec_add_entry(gsfw_spec *spec, const gsfw_entry *entry,
                                        gsfw_err *err);
/* The entry of a kind called name in this spec (its own, then the built-ins), or NULL. */
GSFW_API const gsfw_entry *gsfw_spec_find(const gsfw_spec *spec, gsfw_kind kind,
                                          const char *name);

/* Set a parameter from text (a command line): parsed as its type, range-checked. */
GSFW_API gsfw_error gsfw_spec_set(gsfw_spec *spec, const char *name, const char *text,
                                  gsfw_err *err);
/* Set an INT, DOUBLE, BOOL or CHOICE (its code) parameter from a number. With
 * GSFW_PARAM_ZERO_UNSET, 0 returns it to "not given". */
GSFW_API gsfw_error gsfw_spec_set_number(gsfw_spec *spec, const char *name, double value,
                                         gsfw_err *err);
/* 1 if the spec takes the parameter (it is known and of a kind in play), else 0. */
GSFW_API int gsfw_spec_accepts(const gsfw_spec *spec, const char *name);
/* 1 if an entry in play reads the parameter (the method, the model its oracles use, the
 * step rule of a Frank-Wolfe method, the loss, the sensing kind), else 0. */
GSFW_API int gsfw_spec_uses(const gsfw_spec *spec, const char *name);
/* 1 if the parameter was set, 0 if not (or unknown). */
GSFW_API int gsfw_spec_given(const gsfw_spec *spec, const char *name);
/* The value of an INT, DOUBLE, BOOL or CHOICE parameter (its default when not given);
 * NaN for an unknown name. */
GSFW_API double gsfw_spec_number(const gsfw_spec *spec, const char *name);
/* The entry of a kind in use: the named one, else the kind's default (for models the
 * default for what gsfw_spec_bind was given, or gsfw_spec_available declares). */
GSFW_API const gsfw_entry *gsfw_spec_entry(const gsfw_spec *spec, gsfw_kind kind);
/* The iterations the recovery experiments run with the spec's method (gsfw recover's
 * default). */
GSFW_API int gsfw_spec_typical_iters(const gsfw_spec *spec);
/* Declare what structure the problem offers (GSFW_NEEDS_*) before gsfw_spec_check, so
 * that the default model is chosen for it and models needing something else are
 * refused. */
GSFW_API void gsfw_spec_available(gsfw_spec *spec, unsigned needs);

/* The checks of everything set so far: each name known, each value in range, and the
 * combinations (a parameter given that no selected entry uses is an error for strict
 * parameters, else a warning; each entry's own checks, e.g. the l1 model's s = 1).
 * liblinear's check_parameter in spirit. Warnings are kept: gsfw_spec_warning. */
GSFW_API gsfw_error gsfw_spec_check(gsfw_spec *spec, gsfw_err *err);
/* The i-th warning since the last gsfw_spec_check (its own, then those of the binds
 * after it), or NULL. */
GSFW_API const char *gsfw_spec_warning(const gsfw_spec *spec, int i);
/* Against the problem: d unknowns (s <= d), the graph or tree the model needs (d nodes;
 * borrowed: they must outlive the spec's oracles). A graph or tree the model does not
 * need is ignored with a warning; a graph and a tree with no model named are an error
 * (the default model could be either one's; gsfw_spec_check refuses it already when
 * gsfw_spec_available declares both). */
GSFW_API gsfw_error gsfw_spec_bind(gsfw_spec *spec, int d, const gsfw_graph *graph,
                                   const struct gsfw_tree *tree, gsfw_err *err);
/* The caller's spelling of a parameter in messages (see gsfw_spec_set_spelling). */
GSFW_API const char *gsfw_spec_spell(const gsfw_spec *spec, const char *param);

/* ---- what a checked and bound spec builds */

/* The model parameters (model, d, s, g, delta, seed, graph, tree). */
GSFW_API void gsfw_spec_model(const gsfw_spec *spec, gsfw_model_spec *out);
/* The oracles of the method over the model: a Frank-Wolfe method's DMO (*tail = NULL),
 * or a baseline's head and tail by its recipe (gsfw_baseline_oracles). */
GSFW_API gsfw_error gsfw_spec_oracles(const gsfw_spec *spec, gsfw_dmo **dmo, gsfw_dmo **tail,
                                      gsfw_err *err);
/* The loss options (loss, its parameters, intercept) with the given reducer (NULL: one
 * process). */
GSFW_API void gsfw_spec_loss(const gsfw_spec *spec, const gsfw_reducer *reducer,
                             gsfw_loss_options *out);
/* loss(A x, y) over the operator (gsfw_objective_linear with gsfw_spec_loss). */
GSFW_API gsfw_error gsfw_spec_objective(const gsfw_spec *spec, const gsfw_operator *A, int n,
                                        const double *y, const gsfw_reducer *reducer,
                                        gsfw_objective **out, gsfw_err *err);
/* loss(A x, y) over a dense n x d matrix: for a quadratic loss the least-squares
 * constructor (gsfw_objective_least_squares: a column-major copy, residuals in one
 * gemv, or through the nonzeros' columns at sparse points), otherwise a dense operator
 * (flags GSFW_OP_COPY or GSFW_OP_BORROW, as for gsfw_operator_dense) that the objective
 * owns. */
GSFW_API gsfw_error gsfw_spec_objective_dense(const gsfw_spec *spec, int n, int d,
                                              const double *A, gsfw_layout layout, int flags,
                                              const double *y, gsfw_objective **out,
                                              gsfw_err *err);
/* The Frank-Wolfe settings: the defaults, then every parameter given, and the selected
 * step rule. The caller adds x0, x_true, callback and polish_oracle. */
GSFW_API void gsfw_spec_settings(const gsfw_spec *spec, gsfw_settings *out);
/* The baseline settings from settings (C, L, max_iter, time_limit, x_true, callback)
 * and the baseline parameters given. */
GSFW_API void gsfw_spec_baseline_settings(const gsfw_spec *spec, const gsfw_settings *settings,
                                          gsfw_baseline_settings *out);
/* gsfw_solve or gsfw_baseline_solve, as the method is; settings as from
 * gsfw_spec_settings (with the caller's pointers). */
GSFW_API gsfw_error gsfw_spec_solve(const gsfw_spec *spec, gsfw_objective *obj, gsfw_dmo *dmo,
                                    gsfw_dmo *tail, const gsfw_settings *settings,
                                    gsfw_result *result, gsfw_info *info, gsfw_err *err);
/* The name of the model the method's oracles select on (a method with an oracle of its
 * own, such as iht's top-s, names that). */
GSFW_API const char *gsfw_spec_model_used(const gsfw_spec *spec);
/* 1 if the method is one of the baselines (gsfw_baseline_solve). */
GSFW_API int gsfw_spec_is_baseline(const gsfw_spec *spec);

/* ---- memory */

/* The sizes a memory estimate depends on. */
typedef struct {
    double n, d;         /* rows of A (measurements) and unknowns */
    double nodes, edges; /* of the model's graph or tree (0 when none) */
    double iters;        /* iterates kept in a trace (0: none) */
} gsfw_sizes;

/* Bytes the selected entries allocate for a problem of these sizes: the oracles (the
 * PCSF workspaces of head and tail projections, tree tables), the sensing operator, the
 * objective's vectors and the trace. Not the caller's own arrays (A, y). */
GSFW_API double gsfw_spec_memory(const gsfw_spec *spec, const gsfw_sizes *sizes);

/* ---- definitions of the kinds other than methods */

/* A support model: builds its oracle from the model parameters (spec->graph / tree set
 * when the entry needs them). memory (optional): bytes one oracle allocates. squares: 1
 * if select() works on z_i^2 (|z| must stay below 1e154). tail (optional): the model
 * whose oracle the baselines use as this one's tail projection (NULL: itself). */
typedef struct gsfw_model_def {
    gsfw_error (*build)(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err);
    double (*memory)(const gsfw_model_spec *spec, const gsfw_sizes *sizes);
    int squares;
    const struct gsfw_model_def *tail;
} gsfw_model_def;

/* The sizes of a sensing operator. */
typedef struct {
    int n;             /* measurements */
    int height, width; /* the image: d = height * width unknowns */
    uint64_t seed;
    int float32;       /* explicit matrices: single-precision storage */
    int threads;       /* threads a product may use, 0..64 (0 and 1: one); results do
                          not depend on it */
} gsfw_sensing_spec;

/* A sensing operator. measure (optional): build the operator and measure y = A x + sigma
 * e (e ~ N(0, I_n)) with the kind's own noise stream, *noise_sq = ||sigma e||^2; without
 * it gsfw_sensing_measure builds, applies and draws e from its seed. */
typedef struct gsfw_sensing_def {
    gsfw_error (*build)(const gsfw_sensing_spec *spec, gsfw_operator **out, gsfw_err *err);
    double (*memory)(const gsfw_sensing_spec *spec);
    gsfw_error (*measure)(const gsfw_sensing_spec *spec, const double *x, double sigma,
                          double *y, double *noise_sq, gsfw_operator **out, gsfw_err *err);
    int explicit_matrix; /* 1: the operator stores the n x d matrix (its columns are cheap
                            to copy; a process holding rows would still draw it whole) */
    /* optional: rows row0..row0+rows-1 of the operator alone (a process's block), for
     * kinds that can generate them without the rest */
    gsfw_error (*build_rows)(const gsfw_sensing_spec *spec, int row0, int rows,
                             gsfw_operator **out, gsfw_err *err);
} gsfw_sensing_def;

/* A basis of side x side images: build gives the synthesis operator Psi (x = Psi theta,
 * orthonormal), or is NULL for the pixels themselves; structure says how the
 * coefficients are organised: GSFW_NEEDS_GRAPH (the pixel grid) or GSFW_NEEDS_TREE
 * (the wavelet quadtree, gsfw_tree_quadtree), which decides the models that fit. */
typedef struct gsfw_basis_def {
    gsfw_error (*build)(int side, gsfw_operator **out, gsfw_err *err);
    unsigned structure;
} gsfw_basis_def;

/* The sensing operator of a kind from every field of s (gsfw_sensing_operator, which
 * takes the sizes, seed and float32 only, with a thread count as well). */
GSFW_API gsfw_error gsfw_sensing_operator_spec(const char *kind, const gsfw_sensing_spec *s,
                                               gsfw_operator **out, gsfw_err *err);
/* The sensing operator of the spec's kind (gsfw_sensing_operator by name), and with
 * measure, y (n entries) = A x + sigma e. */
GSFW_API gsfw_error gsfw_spec_sensing(const gsfw_spec *spec, const gsfw_sensing_spec *sizes,
                                      gsfw_operator **out, gsfw_err *err);
GSFW_API gsfw_error gsfw_spec_measure(const gsfw_spec *spec, const gsfw_sensing_spec *sizes,
                                      const double *x, double sigma, double *y,
                                      double *noise_sq, gsfw_operator **out, gsfw_err *err);

#ifdef __cplusplus
}
#endif

#endif
