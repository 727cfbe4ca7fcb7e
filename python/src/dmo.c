/* gsfw.dmo / head / tail: one oracle call through the registry's models (gsfw_spec), as
 * the command line's gsfw dmo makes it. */
#include "gsfwpy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* dmo(z, model, s, g, graph, delta, seed, tree): positional arguments in this order, or
 * keywords; z, graph and tree are objects, the rest registry parameters. */
static const char *const positional[] = {"z", "model", "s", "g", "graph", "delta", "seed",
                                         "tree", NULL};
static const char *const objects[] = {"z", "graph", "tree", NULL};
enum { O_Z, O_GRAPH, O_TREE, O_COUNT };

/* The keywords, with the positional arguments added under their names. */
static PyObject *all_keywords(PyObject *args, PyObject *kwds)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n > (Py_ssize_t)(sizeof positional / sizeof positional[0]) - 1) {
        PyErr_Format(PyExc_TypeError, "dmo() takes at most 8 arguments (%zd given)", n);
        return NULL;
    }
    PyObject *all = kwds ? PyDict_Copy(kwds) : PyDict_New();
    for (Py_ssize_t k = 0; all && k < n; k++) {
        if (PyDict_GetItemString(all, positional[k])) {
            PyErr_Format(PyExc_TypeError, "dmo() got multiple values for argument '%s'",
                         positional[k]);
            Py_CLEAR(all);
        } else if (PyDict_SetItemString(all, positional[k], PyTuple_GET_ITEM(args, k)) < 0) {
            Py_CLEAR(all);
        }
    }
    return all;
}

/* The oracle of the spec's model over z (d entries, finite; squares finite for the models
 * that read z_i^2), its selection sorted. */
static PyObject *select_sorted(gsfw_spec *spec, const gsfw_graph *gr, const gsfw_tree *tr,
                               const double *zd, int d)
{
    gsfw_err err;
    gsfw_error e;
    gsfw_dmo *dmo = NULL, *unused = NULL;
    int *support = NULL;
    PyObject *out = NULL;
    if (gsfwpy_spec_bind(spec, d, gr, tr) < 0) goto done;
    if ((e = gsfw_spec_oracles(spec, &dmo, &unused, &err))) {
        gsfwpy_raise(e, &err);
        goto done;
    }
    const gsfw_entry *model = gsfw_spec_entry(spec, GSFW_KIND_MODEL);
    const int squares = ((const gsfw_model_def *)model->def)->squares;
    if (squares) {
        for (int i = 0; i < d; i++) {
            if (!isfinite(zd[i] * zd[i])) {
                PyErr_Format(PyExc_ValueError, "z[%d] squared overflows; the model '%s' needs "
                             "|z| below 1e154", i, dmo->name);
                goto done;
            }
        }
    }
    support = PyMem_Malloc((size_t)dmo->max_support * sizeof(int));
    if (!support) {
        PyErr_NoMemory();
        goto done;
    }
    int size = 0, rc;
    Py_BEGIN_ALLOW_THREADS
    rc = dmo->select(dmo->ctx, zd, support, &size, NULL);
    Py_END_ALLOW_THREADS
    if (rc) {
        PyErr_Format(PyExc_RuntimeError, "the oracle '%s' failed (code %d)", dmo->name, rc);
        goto done;
    }
    qsort(support, (size_t)size, sizeof(int), cmp_int);
    /* a graph model's support below s: the command line's warning (gsfw dmo) */
    char shortfall[256];
    if ((model->needs & GSFW_NEEDS_GRAPH) &&
        gsfw_proj_short_support_text(gr, dmo->name, size, (int)gsfw_spec_number(spec, "s"),
                                     (int)gsfw_spec_number(spec, "g"), shortfall,
                                     sizeof shortfall) &&
        gsfwpy_warn(gsfwpy_ShortSupportWarning, shortfall) < 0)
        goto done;
    out = gsfwpy_ids(support, size);
done:
    PyMem_Free(support);
    gsfw_dmo_free(unused);
    gsfw_dmo_free(dmo);
    return out;
}

PyObject *gsfwpy_dmo(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    PyObject *all = all_keywords(args, kwds);
    if (!all) return NULL;
    PyObject *o[O_COUNT];
    gsfw_spec *spec = gsfwpy_spec_from(GSFW_USES_MODEL, all, objects, o, "dmo");
    PyObject *out = NULL;
    PyArrayObject *z = NULL;
    if (!spec) goto done;
    const gsfw_graph *gr = gsfwpy_graph_arg(o[O_GRAPH], "graph", 1);
    if (!gr && PyErr_Occurred()) goto done;
    const gsfw_tree *tr = gsfwpy_tree_arg(o[O_TREE], "tree");
    if (!tr && PyErr_Occurred()) goto done;
    if (gsfwpy_spec_check(spec, gr, tr) < 0) goto done;
    const unsigned needs = gsfw_spec_entry(spec, GSFW_KIND_MODEL)->needs;
    const int expected = gr && (needs & GSFW_NEEDS_GRAPH)  ? gsfw_graph_nodes(gr)
                         : tr && (needs & GSFW_NEEDS_TREE) ? gsfw_tree_num_nodes(tr)
                                                            : -1;
    if (!(z = gsfwpy_vector(o[O_Z], "z", expected, 1))) goto done;
    const int d = (int)PyArray_DIM(z, 0);
    if (d < 1) {
        PyErr_SetString(PyExc_ValueError, "z is empty");
        goto done;
    }
    out = select_sorted(spec, gr, tr, (const double *)PyArray_DATA(z), d);
done:
    Py_XDECREF(z);
    gsfw_spec_free(spec);
    Py_DECREF(all);
    return out;
}
