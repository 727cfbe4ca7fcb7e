/* Prize-collecting Steiner forest over arrays (gsfw.pcst_fast) and over a gsfw.Graph
 * (gsfw.pcsf). pcst_fast's argument rules (a rooted call asks for one cluster) are applied
 * by the Python layer; these functions take the library's target number of clusters. */
#include "gsfwpy.h"

#include <string.h>

/* A new int32 1-D array holding ids[0..count-1] (the dtype pcst_fast returns). */
static PyObject *ids32(const int *ids, int count)
{
    npy_intp dim = count;
    PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(1, &dim, NPY_INT32);
    if (a && count > 0) memcpy(PyArray_DATA(a), ids, (size_t)count * sizeof(int));
    return (PyObject *)a;
}

/* Run the PCSF with the GIL released and return (nodes, edges) as int32 arrays. */
static PyObject *run_pcsf(int n, int m, const int *u, const int *v, const double *prizes,
                          const double *costs, int root, int clusters, const char *pruning_name)
{
    int pruning = gsfw_pruning_parse(pruning_name);
    if (pruning < 0) {
        PyErr_Format(PyExc_ValueError, "unknown pruning '%s' (known: none, simple, gw, strong)",
                     pruning_name);
        return NULL;
    }
    int *nodes = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    int *edges = PyMem_Malloc((size_t)(m > 0 ? m : 1) * sizeof(int));
    if (!nodes || !edges) {
        PyMem_Free(nodes);
        PyMem_Free(edges);
        return PyErr_NoMemory();
    }
    gsfw_err err;
    gsfw_error e;
    int nn = 0, ne = 0;
    Py_BEGIN_ALLOW_THREADS
    gsfw_pcsf *ws = NULL;
    e = gsfw_pcsf_create(&ws, &err);
    if (!e)
        e = gsfw_pcsf_run(ws, n, m, u, v, prizes, costs, root, clusters,
                          (gsfw_pruning)pruning, nodes, &nn, edges, &ne, &err);
    gsfw_pcsf_free(ws);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (e) {
        gsfwpy_raise(e, &err);
    } else {
        PyObject *a = ids32(nodes, nn), *b = a ? ids32(edges, ne) : NULL;
        if (a && b) out = PyTuple_Pack(2, a, b);
        Py_XDECREF(a);
        Py_XDECREF(b);
    }
    PyMem_Free(nodes);
    PyMem_Free(edges);
    return out;
}

/* prizes or costs of gsfw.pcst_fast as a float64 vector: TypeError when they cannot be
 * converted (complex, object or string entries), as pcst_fast's binding raises, then
 * gsfwpy_vector's checks (None, the shape and the length: ValueError). */
static PyArrayObject *pcst_fast_reals(PyObject *obj, const char *what, npy_intp expected)
{
    if (obj == Py_None) return gsfwpy_vector(obj, what, expected, 0);
    PyArrayObject *a = gsfwpy_doubles_or(obj, what, NPY_ARRAY_IN_ARRAY, PyExc_TypeError);
    if (!a) return NULL;
    PyArrayObject *v = gsfwpy_vector((PyObject *)a, what, expected, 0);
    Py_DECREF(a);
    return v;
}

PyObject *gsfwpy_pcsf_arrays(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *edges, *prizes, *costs;
    int root, clusters;
    const char *pruning;
    if (!PyArg_ParseTuple(args, "OOOiis:pcsf_arrays", &edges, &prizes, &costs, &root, &clusters,
                          &pruning))
        return NULL;
    PyArrayObject *p = pcst_fast_reals(prizes, "prizes", -1);
    if (!p) return NULL;
    int *u, *v, m;
    if (gsfwpy_edges(edges, &u, &v, &m) < 0) {
        Py_DECREF(p);
        return NULL;
    }
    PyObject *out = NULL;
    PyArrayObject *c = pcst_fast_reals(costs, "costs", m);
    if (c)
        out = run_pcsf((int)PyArray_DIM(p, 0), m, u, v, (const double *)PyArray_DATA(p),
                       (const double *)PyArray_DATA(c), root, clusters, pruning);
    Py_XDECREF(c);
    Py_DECREF(p);
    PyMem_Free(u);
    PyMem_Free(v);
    return out;
}

PyObject *gsfwpy_pcsf(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *graph, *prizes;
    int root, clusters;
    const char *pruning;
    if (!PyArg_ParseTuple(args, "OOiis:pcsf", &graph, &prizes, &root, &clusters, &pruning))
        return NULL;
    const gsfw_graph *g = gsfwpy_graph_arg(graph, "graph", 0);
    if (!g) return NULL;
    const int *u, *v;
    const double *cost;
    gsfw_graph_edges(g, &u, &v, &cost);
    PyArrayObject *p = gsfwpy_vector(prizes, "prizes", gsfw_graph_nodes(g), 0);
    if (!p) return NULL;
    PyObject *out = run_pcsf(gsfw_graph_nodes(g), gsfw_graph_edge_count(g), u, v,
                             (const double *)PyArray_DATA(p), cost, root, clusters, pruning);
    Py_DECREF(p);
    return out;
}
