/* Shared declarations of the gsfw._gsfw extension module (CPython + numpy C APIs). */
#ifndef GSFWPY_H
#define GSFWPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL gsfwpy_ARRAY_API
#ifndef GSFWPY_MODULE_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "gsfw.h"

/* ---- errors (module.c) */

/* Raise the Python exception of a gsfw error code carrying the library's message:
 * ValueError (invalid argument, dimension, non-finite, graph, format), OSError (I/O),
 * MemoryError, RuntimeError (internal, callback). Returns NULL. */
PyObject *gsfwpy_raise(gsfw_error code, const gsfw_err *err);

/* ---- warnings (module.c) */

/* gsfw.UnusedArgumentWarning (an argument nothing chosen reads: the spec's warnings) and
 * gsfw.ShortSupportWarning (a projection below s nodes), both UserWarnings. */
extern PyObject *gsfwpy_UnusedArgumentWarning, *gsfwpy_ShortSupportWarning;
/* Warn with the message, pointing at the caller of the package's function (the frame
 * above the one that called the extension). 0, or -1 when a filter made it an error. */
int gsfwpy_warn(PyObject *category, const char *message);

/* ---- arrays (module.c) */

/* An array's shape as numpy prints it, "(2, 3)", "(5,)" or "()", in buf. */
const char *gsfwpy_shape(PyArrayObject *a, char *buf, size_t cap);
/* obj as a float64 array (numpy flags), or NULL with a ValueError naming what. */
PyArrayObject *gsfwpy_doubles(PyObject *obj, const char *what, int flags);
/* gsfwpy_doubles, with error (e.g. PyExc_TypeError, as pcst_fast's binding raises) in place
 * of the ValueError; a MemoryError stays one. */
PyArrayObject *gsfwpy_doubles_or(PyObject *obj, const char *what, int flags, PyObject *error);
/* A C-contiguous float64 1-D array from any array-like (new reference), or NULL with
 * ValueError naming `what`. expected >= 0 also checks the length; finite = 1 rejects NaN
 * and Inf. */
PyArrayObject *gsfwpy_vector(PyObject *obj, const char *what, npy_intp expected, int finite);
/* (m, 2) integer array-like -> two int arrays (PyMem_Malloc'ed, freed by the caller with
 * PyMem_Free). An empty sequence gives m = 0. Ids must fit an int; the graph constructor
 * and the PCSF check the range [0, n). TypeError for entries that are not integers (None,
 * a string, floats), checked before the shape (ValueError), as pcst_fast's binding does. */
int gsfwpy_edges(PyObject *obj, int **u, int **v, int *m);
/* A new int64 1-D array holding ids[0..count-1]. */
PyObject *gsfwpy_ids(const int *ids, int count);

/* ---- graphs (graph.c) */

typedef struct {
    PyObject_HEAD
    gsfw_graph *graph;
} gsfwpy_Graph;

extern PyTypeObject gsfwpy_GraphType;
/* The graph behind a gsfw.Graph, or NULL with TypeError naming `what` (None gives NULL
 * without an exception when allow_none). */
const gsfw_graph *gsfwpy_graph_arg(PyObject *obj, const char *what, int allow_none);

/* ---- trees (tree.c) */

typedef struct {
    PyObject_HEAD
    struct gsfw_tree *tree;
} gsfwpy_Tree;

extern PyTypeObject gsfwpy_TreeType;
/* The tree behind a gsfw.Tree; NULL for None (no exception) or with TypeError. */
const struct gsfw_tree *gsfwpy_tree_arg(PyObject *obj, const char *what);

/* ---- operators (operator.c) */

typedef struct {
    PyObject_HEAD
    gsfw_operator *op;
    PyObject *keep; /* an array the operator borrows, or NULL */
    int busy;       /* 1 while a solve (GIL released) uses the operator's scratch */
} gsfwpy_Operator;

extern PyTypeObject gsfwpy_OperatorType;
/* The operator behind a gsfw.Operator, or NULL (no exception) for anything else. */
gsfw_operator *gsfwpy_operator_arg(PyObject *obj);

/* ---- keyword arguments as registry parameters (spec.c) */

/* A spec for the kinds in `uses` with every keyword of kwds set, but those named in
 * objects (NULL-terminated), which are returned in found[k] (Py_None when absent). None
 * values are left at the library's default; an unknown keyword is a TypeError naming fn.
 * NULL with a Python exception on error. */
gsfw_spec *gsfwpy_spec_from(unsigned uses, PyObject *kwds, const char *const *objects,
                            PyObject **found, const char *fn);
/* One parameter from a Python value (str, bool, int or float; None: skipped). 0, or -1
 * with a Python exception. */
int gsfwpy_spec_set(gsfw_spec *spec, const char *name, PyObject *value, const char *fn);
/* gsfw_spec_check for a call given this graph and tree (either may be NULL: declared
 * with gsfw_spec_available, so that the default model, and the warnings about what it
 * does not read, are the ones of the model the call will bind), then its warnings
 * (gsfw.UnusedArgumentWarning, the command line's texts); -1 with ValueError naming the
 * problem. */
int gsfwpy_spec_check(gsfw_spec *spec, const gsfw_graph *graph, const struct gsfw_tree *tree);
/* gsfw_spec_bind, then the warnings it added (a graph or tree the model ignores); -1
 * with a Python exception. */
int gsfwpy_spec_bind(gsfw_spec *spec, int d, const gsfw_graph *graph,
                     const struct gsfw_tree *tree);
/* registry(kind): the library's list of a kind, or of the parameters. */
PyObject *gsfwpy_registry(PyObject *self, PyObject *args);
PyObject *gsfwpy_default_model(PyObject *self, PyObject *args);

/* ---- progress (progress.c) */

/* Print the header of a verbose solve to sys.stdout (GIL held): the method and model the
 * checked and bound spec resolved, s and max_iter. solve.c prints it at the first
 * iterate, once the library has checked every argument, so that it never names a call
 * the library then refuses. */
void gsfwpy_progress_header(const gsfw_spec *spec);
/* Print one progress line of a solve to sys.stdout (GIL held): the iterate's figures. */
void gsfwpy_progress_line(const gsfw_iterate *it);

/* ---- module functions */

PyObject *gsfwpy_pcsf_arrays(PyObject *self, PyObject *args);
PyObject *gsfwpy_pcsf(PyObject *self, PyObject *args);
PyObject *gsfwpy_dmo(PyObject *self, PyObject *args, PyObject *kwds);
PyObject *gsfwpy_solve(PyObject *self, PyObject *args, PyObject *kwds);

/* ---- objectives (objective.c) */

/* Exceptions raised by Python code called from inside a solve (objective callables, the
 * user's callback, signal handlers) are stored here while the GIL is released and raised
 * again when the solve returns. */
typedef struct {
    PyObject *type, *value, *traceback;
} gsfwpy_pending;

/* Store the current Python exception (GIL held); the first one wins. */
void gsfwpy_pending_store(gsfwpy_pending *p);
/* Raise the stored exception again (GIL held); returns 1 if there was one. */
int gsfwpy_pending_restore(gsfwpy_pending *p);

/* What solve() binds as the objective: the Python callables of a gsfw.Objective (called
 * with the GIL reacquired), or arrays the library copies (dense least squares). */
typedef struct {
    int d;
    PyObject *value, *gradient, *value_grad; /* borrowed, NULL unless callables */
    gsfwpy_pending *pending;
} gsfwpy_callables;

/* The objective of one solve and what it borrows, released by gsfwpy_objective_release
 * (GIL held) in the right order: the objective (with an operator made for it), then the
 * Python objects it kept alive. */
typedef struct {
    gsfw_objective *obj;
    PyObject *keep;            /* an array or gsfw.Operator the objective borrows */
    gsfwpy_Operator *busy_op;  /* a gsfw.Operator marked busy for the solve */
} gsfwpy_objective;

/* Build the objective of solve(A, y, objective=..., loss=...): objective is None or a
 * tuple (d, value, gradient, value_grad) of a gsfw.Objective; otherwise A is an array or
 * a gsfw.Operator and y the targets, with the spec's loss and its parameters (as the
 * command line builds it: gsfw_spec_objective_dense for an array, gsfw_spec_objective
 * for an operator). Returns 0, or -1 with a Python exception (out released). */
int gsfwpy_build_objective(PyObject *A, PyObject *y, PyObject *objective,
                           const gsfw_spec *spec, gsfwpy_callables *calls,
                           gsfwpy_objective *out);
void gsfwpy_objective_release(gsfwpy_objective *o);

#endif
