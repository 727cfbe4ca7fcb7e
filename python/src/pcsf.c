/* Prize-collecting Steiner forest: pcst_fast's Python signature and the native spelling
 * over a gsfw.Graph. */
#include "gsfwpy.h"

/* Run the PCSF with the GIL released and return (nodes, edges) as int64 arrays. */
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
        PyObject *a = gsfwpy_ids(nodes, nn), *b = a ? gsfwpy_ids(edges, ne) : NULL;
        if (a && b) out = PyTuple_Pack(2, a, b);
        Py_XDECREF(a);
        Py_XDECREF(b);
    }
    PyMem_Free(nodes);
    PyMem_Free(edges);
    return out;
}

PyObject *gsfwpy_pcst_fast(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"edges", "prizes", "costs", "root", "num_clusters", "pruning",
                             "verbosity_level", NULL};
    PyObject *edges, *prizes, *costs;
    int root, clusters, verbosity = 0;
    const char *pruning;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOiis|i:pcst_fast", kwlist, &edges, &prizes,
                                     &costs, &root, &clusters, &pruning, &verbosity))
        return NULL;
    PyArrayObject *p = gsfwpy_vector(prizes, "prizes", -1, 0);
    if (!p) return NULL;
    int *u, *v, m;
    if (gsfwpy_edges(edges, &u, &v, &m) < 0) {
        Py_DECREF(p);
        return NULL;
    }
    PyObject *out = NULL;
    PyArrayObject *c = gsfwpy_vector(costs, "costs", m, 0);
    if (c)
        out = run_pcsf((int)PyArray_DIM(p, 0), m, u, v, (const double *)PyArray_DATA(p),
                       (const double *)PyArray_DATA(c), root, clusters, pruning);
    Py_XDECREF(c);
    Py_DECREF(p);
    PyMem_Free(u);
    PyMem_Free(v);
    return out;
}

PyObject *gsfwpy_pcsf(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"graph", "prizes", "root", "num_clusters", "pruning", NULL};
    PyObject *graph, *prizes;
    int root, clusters;
    const char *pruning;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOiis:pcsf", kwlist, &graph, &prizes, &root,
                                     &clusters, &pruning))
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
