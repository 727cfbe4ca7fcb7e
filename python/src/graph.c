/* gsfw._gsfw.Graph: an immutable undirected graph (gsfw_graph) shared by the oracles, the
 * PCSF and the solvers. The Python class gsfw.Graph adds the converters. */
#include "gsfwpy.h"

#include <string.h>

static void graph_dealloc(gsfwpy_Graph *self)
{
    gsfw_graph_free(self->graph);
    self->graph = NULL;
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int graph_init(gsfwpy_Graph *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"n", "edges", "costs", NULL};
    int n;
    PyObject *edges, *costs = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO|O:Graph", kwlist, &n, &edges, &costs))
        return -1;
    if (self->graph) {
        PyErr_SetString(PyExc_TypeError, "Graph objects are immutable (already initialised)");
        return -1;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "Graph: n must be >= 0, got %d", n);
        return -1;
    }
    int *u, *v, m;
    if (gsfwpy_edges(edges, &u, &v, &m) < 0) return -1;
    PyArrayObject *c = NULL;
    if (costs != Py_None && !(c = gsfwpy_vector(costs, "costs", m, 0))) {
        PyMem_Free(u);
        PyMem_Free(v);
        return -1;
    }
    gsfw_err err;
    gsfw_graph *g = NULL;
    gsfw_error e = gsfw_graph_from_edges(n, m, u, v, c ? (const double *)PyArray_DATA(c) : NULL,
                                         &g, &err);
    PyMem_Free(u);
    PyMem_Free(v);
    Py_XDECREF(c);
    if (e) {
        gsfwpy_raise(e, &err);
        return -1;
    }
    self->graph = g;
    return 0;
}

/* Graph._grid(h, w): the h x w 4-neighbour grid (classmethod; node r*w + c). */
static PyObject *graph_grid(PyTypeObject *type, PyObject *args)
{
    int h, w;
    if (!PyArg_ParseTuple(args, "ii:grid", &h, &w)) return NULL;
    gsfw_err err;
    gsfw_graph *g = NULL;
    gsfw_error e = gsfw_graph_grid(h, w, &g, &err);
    if (e) return gsfwpy_raise(e, &err);
    gsfwpy_Graph *self = (gsfwpy_Graph *)type->tp_alloc(type, 0);
    if (!self) {
        gsfw_graph_free(g);
        return NULL;
    }
    self->graph = g;
    return (PyObject *)self;
}

const gsfw_graph *gsfwpy_graph_arg(PyObject *obj, const char *what, int allow_none)
{
    if (obj == Py_None && allow_none) return NULL;
    if (!PyObject_TypeCheck(obj, &gsfwpy_GraphType)) {
        PyErr_Format(PyExc_TypeError, "%s must be a gsfw.Graph, got %s", what,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    const gsfw_graph *g = ((gsfwpy_Graph *)obj)->graph;
    if (!g) PyErr_Format(PyExc_ValueError, "%s is an uninitialised Graph", what);
    return g;
}

static const gsfw_graph *checked(gsfwpy_Graph *self)
{
    if (!self->graph) PyErr_SetString(PyExc_ValueError, "uninitialised Graph");
    return self->graph;
}

static PyObject *graph_n(gsfwpy_Graph *self, void *closure)
{
    (void)closure;
    const gsfw_graph *g = checked(self);
    return g ? PyLong_FromLong(gsfw_graph_nodes(g)) : NULL;
}

static PyObject *graph_m(gsfwpy_Graph *self, void *closure)
{
    (void)closure;
    const gsfw_graph *g = checked(self);
    return g ? PyLong_FromLong(gsfw_graph_edge_count(g)) : NULL;
}

static PyObject *graph_edges(gsfwpy_Graph *self, void *closure)
{
    (void)closure;
    const gsfw_graph *g = checked(self);
    if (!g) return NULL;
    const int *u, *v, m = gsfw_graph_edge_count(g);
    gsfw_graph_edges(g, &u, &v, NULL);
    npy_intp dims[2] = {m, 2};
    PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_INT64);
    if (!a) return NULL;
    int64_t *e = (int64_t *)PyArray_DATA(a);
    for (int k = 0; k < m; k++) {
        e[2 * k] = u[k];
        e[2 * k + 1] = v[k];
    }
    return (PyObject *)a;
}

static PyObject *graph_costs(gsfwpy_Graph *self, void *closure)
{
    (void)closure;
    const gsfw_graph *g = checked(self);
    if (!g) return NULL;
    const double *cost;
    gsfw_graph_edges(g, NULL, NULL, &cost);
    if (!cost) Py_RETURN_NONE;
    npy_intp dim = gsfw_graph_edge_count(g);
    PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(1, &dim, NPY_DOUBLE);
    if (!a) return NULL;
    if (dim) memcpy(PyArray_DATA(a), cost, (size_t)dim * sizeof(double));
    return (PyObject *)a;
}

static PyObject *graph_components(gsfwpy_Graph *self, PyObject *noargs)
{
    (void)noargs;
    const gsfw_graph *g = checked(self);
    if (!g) return NULL;
    npy_intp dim = gsfw_graph_nodes(g);
    int *label = PyMem_Malloc((size_t)(dim > 0 ? dim : 1) * sizeof(int));
    if (!label) return PyErr_NoMemory();
    int count = 0;
    gsfw_err err;
    gsfw_error e = gsfw_graph_components(g, label, &count, &err);
    if (e) {
        PyMem_Free(label);
        return gsfwpy_raise(e, &err);
    }
    PyObject *a = gsfwpy_ids(label, (int)dim);
    PyMem_Free(label);
    return a;
}

static PyGetSetDef graph_getset[] = {
    {"n", (getter)graph_n, NULL, "number of nodes", NULL},
    {"m", (getter)graph_m, NULL, "number of edges", NULL},
    {"edges", (getter)graph_edges, NULL, "(m, 2) int64 array of the edges, input order", NULL},
    {"costs", (getter)graph_costs, NULL, "edge costs (float64, m entries) or None (unit)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef graph_methods[] = {
    {"_grid", (PyCFunction)(void (*)(void))graph_grid, METH_VARARGS | METH_CLASS,
     "_grid(h, w): the h x w 4-neighbour grid"},
    {"components", (PyCFunction)(void (*)(void))graph_components, METH_NOARGS,
     "components() -> int64 label per node (labels in order of smallest node)"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject gsfwpy_GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gsfw._gsfw.Graph",
    .tp_basicsize = sizeof(gsfwpy_Graph),
    .tp_dealloc = (destructor)graph_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Graph(n, edges, costs=None): undirected graph over nodes 0..n-1.",
    .tp_methods = graph_methods,
    .tp_getset = graph_getset,
    .tp_init = (initproc)graph_init,
    .tp_new = PyType_GenericNew,
};
