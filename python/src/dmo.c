/* gsfw.dmo / head / tail: one oracle call through the model table (gsfw_dmo_from_model),
 * the same table the command line's --model uses. */
#include "gsfwpy.h"

#include "gsfw/tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

PyObject *gsfwpy_dmo(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"z", "model", "s", "g", "graph", "delta", "seed", "tree", NULL};
    PyObject *zobj, *graph, *tree = Py_None;
    const char *model;
    int s, g;
    double delta;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OsiiOdK|O:dmo", kwlist, &zobj, &model, &s,
                                     &g, &graph, &delta, &seed, &tree))
        return NULL;
    int needs = gsfw_model_needs_graph(model);
    if (needs < 0)
        return PyErr_Format(PyExc_ValueError, "unknown model '%s' (known: %s)", model,
                            gsfw_model_names());
    const gsfw_graph *gr = gsfwpy_graph_arg(graph, "graph", 1);
    if (!gr && PyErr_Occurred()) return NULL;
    if (needs == 1 && !gr)
        return PyErr_Format(PyExc_ValueError, "model '%s' needs a graph (graph=gsfw.Graph)",
                            model);
    const gsfw_tree *tr = gsfwpy_tree_arg(tree, "tree");
    if (!tr && PyErr_Occurred()) return NULL;
    if (needs == 2 && !tr)
        return PyErr_Format(PyExc_ValueError, "model '%s' needs a tree (tree=gsfw.Tree)", model);
    const npy_intp n = gr ? gsfw_graph_nodes(gr) : tr ? gsfw_tree_num_nodes(tr) : -1;
    PyArrayObject *z = gsfwpy_vector(zobj, "z", n, 1);
    if (!z) return NULL;
    int d = (int)PyArray_DIM(z, 0);
    const double *zd = (const double *)PyArray_DATA(z);
    PyObject *out = NULL;
    int *support = NULL;
    gsfw_dmo *dmo = NULL;
    if (d < 1) {
        PyErr_SetString(PyExc_ValueError, "z is empty");
        goto done;
    }
    if (s < 1 || s > d) {
        PyErr_Format(PyExc_ValueError, "s = %d must be in [1, d] with d = %d", s, d);
        goto done;
    }
    if (g < 1 || g > s) {
        PyErr_Format(PyExc_ValueError, "g = %d must be in [1, s] with s = %d (at most s nodes "
                     "in at most g components)", g, s);
        goto done;
    }
    if (!strcmp(model, "l1") && s != 1) {
        PyErr_Format(PyExc_ValueError, "model 'l1' is the s = 1 model; got s = %d", s);
        goto done;
    }
    if (!(delta > 0 && delta <= 1)) {
        PyErr_Format(PyExc_ValueError, "delta must be in (0, 1], got %g", delta);
        goto done;
    }
    if (needs >= 1) {
        for (int i = 0; i < d; i++) {
            if (!isfinite(zd[i] * zd[i])) {
                PyErr_Format(PyExc_ValueError, "z[%d] squared overflows; the graph models "
                             "need |z| below 1e154", i);
                goto done;
            }
        }
    }
    gsfw_model_spec spec = {.model = model, .d = d, .s = s, .g = g, .graph = gr,
                            .tree = tr, .delta = delta, .seed = (uint64_t)seed};
    gsfw_err err;
    gsfw_error e = gsfw_dmo_from_model(&spec, &dmo, &err);
    if (e) {
        gsfwpy_raise(e, &err);
        goto done;
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
    out = gsfwpy_ids(support, size);
done:
    PyMem_Free(support);
    gsfw_dmo_free(dmo);
    Py_DECREF(z);
    return out;
}
