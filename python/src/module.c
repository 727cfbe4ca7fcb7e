/* The gsfw._gsfw module: initialisation, error mapping and array conversions. */
#define GSFWPY_MODULE_MAIN
#include "gsfwpy.h"

#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

PyObject *gsfwpy_raise(gsfw_error code, const gsfw_err *err)
{
    PyObject *type;
    switch (code) {
    case GSFW_ERR_NOMEM: type = PyExc_MemoryError; break;
    case GSFW_ERR_IO: type = PyExc_OSError; break;
    case GSFW_ERR_INVALID_ARG:
    case GSFW_ERR_DIMENSION:
    case GSFW_ERR_NONFINITE:
    case GSFW_ERR_GRAPH:
    case GSFW_ERR_FORMAT: type = PyExc_ValueError; break;
    default: type = PyExc_RuntimeError; break;
    }
    const char *msg = err && err->message[0] ? err->message : gsfw_error_message(code);
    PyErr_SetString(type, msg);
    return NULL;
}

const char *gsfwpy_shape(PyArrayObject *a, char *buf, size_t cap)
{
    const int nd = PyArray_NDIM(a);
    size_t used = (size_t)snprintf(buf, cap, "(");
    for (int k = 0; k < nd && used < cap; k++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%zd", k ? ", " : "",
                                 (Py_ssize_t)PyArray_DIM(a, k));
    if (used < cap) snprintf(buf + used, cap - used, nd == 1 ? ",)" : ")");
    return buf;
}

PyArrayObject *gsfwpy_doubles_or(PyObject *obj, const char *what, int flags, PyObject *error)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 0, flags);
    if (!a && !PyErr_ExceptionMatches(PyExc_MemoryError)) {
        /* numpy's cast error does not say which argument it was */
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyObject *s = v ? PyObject_Str(v) : NULL;
        PyErr_Format(error, "%s must be an array of real numbers (%s)", what,
                     s ? PyUnicode_AsUTF8(s) : "not convertible to float64");
        Py_XDECREF(s);
        Py_XDECREF(t);
        Py_XDECREF(v);
        Py_XDECREF(tb);
    }
    return a;
}

PyArrayObject *gsfwpy_doubles(PyObject *obj, const char *what, int flags)
{
    return gsfwpy_doubles_or(obj, what, flags, PyExc_ValueError);
}

PyArrayObject *gsfwpy_vector(PyObject *obj, const char *what, npy_intp expected, int finite)
{
    if (obj == Py_None) {
        PyErr_Format(PyExc_ValueError, "%s is None; an array of numbers is required", what);
        return NULL;
    }
    PyArrayObject *a = gsfwpy_doubles(obj, what, NPY_ARRAY_IN_ARRAY);
    if (!a) return NULL;
    if (PyArray_NDIM(a) != 1) {
        PyErr_Format(PyExc_ValueError, "%s must be 1-D, got an array of %d dimensions", what,
                     PyArray_NDIM(a));
        Py_DECREF(a);
        return NULL;
    }
    npy_intp len = PyArray_DIM(a, 0);
    if (expected >= 0 && len != expected) {
        PyErr_Format(PyExc_ValueError, "%s has %zd entries, expected %zd", what, (Py_ssize_t)len,
                     (Py_ssize_t)expected);
        Py_DECREF(a);
        return NULL;
    }
    if (len > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "%s has %zd entries, more than gsfw supports", what,
                     (Py_ssize_t)len);
        Py_DECREF(a);
        return NULL;
    }
    if (finite) {
        const double *x = (const double *)PyArray_DATA(a);
        for (npy_intp i = 0; i < len; i++) {
            if (!isfinite(x[i])) {
                char buf[32];
                snprintf(buf, sizeof buf, "%g", x[i]);
                PyErr_Format(PyExc_ValueError, "%s[%zd] is %s; it must be finite", what,
                             (Py_ssize_t)i, buf);
                Py_DECREF(a);
                return NULL;
            }
        }
    }
    return a;
}

int gsfwpy_edges(PyObject *obj, int **u, int **v, int *m)
{
    *u = *v = NULL;
    *m = 0;
    PyArrayObject *raw = (PyArrayObject *)PyArray_FROMANY(obj, NPY_NOTYPE, 0, 0, 0);
    if (!raw) return -1;
    if (PyArray_SIZE(raw) == 0 && (PyArray_NDIM(raw) == 1 ||
                                   (PyArray_NDIM(raw) == 2 && PyArray_DIM(raw, 1) == 2))) {
        Py_DECREF(raw);
        *u = PyMem_Malloc(sizeof(int));
        *v = PyMem_Malloc(sizeof(int));
        if (!*u || !*v) {
            PyMem_Free(*u);
            PyMem_Free(*v);
            *u = *v = NULL;
            PyErr_NoMemory();
            return -1;
        }
        return 0;
    }
    /* the kind first (an empty array of any other shape is a shape error), as pcst_fast's
     * binding converts before it checks the shape: None or 'abc' are not an edge array */
    if (PyArray_SIZE(raw) > 0 && !PyArray_ISINTEGER(raw)) {
        PyObject *dtype = PyObject_Str((PyObject *)PyArray_DESCR(raw));
        PyErr_Format(PyExc_TypeError, "edges must hold integer node ids, got dtype %s",
                     dtype ? PyUnicode_AsUTF8(dtype) : "?");
        Py_XDECREF(dtype);
        Py_DECREF(raw);
        return -1;
    }
    if (PyArray_NDIM(raw) != 2 || PyArray_DIM(raw, 1) != 2) {
        char shape[96];
        PyErr_Format(PyExc_ValueError, "edges must be an (m, 2) array of node ids, got an "
                     "array of shape %s", gsfwpy_shape(raw, shape, sizeof shape));
        Py_DECREF(raw);
        return -1;
    }
    if (PyArray_ISUNSIGNED(raw)) {
        /* range-check unsigned ids in their own type before the cast, which would wrap
         * 2^64 - 1 to -1 */
        PyArrayObject *w = (PyArrayObject *)PyArray_FROM_OTF((PyObject *)raw, NPY_UINT64,
                                                             NPY_ARRAY_IN_ARRAY);
        if (!w) {
            Py_DECREF(raw);
            return -1;
        }
        const uint64_t *id = (const uint64_t *)PyArray_DATA(w);
        const npy_intp count = PyArray_SIZE(w);
        for (npy_intp i = 0; i < count; i++)
            if (id[i] > (uint64_t)INT_MAX) {
                PyErr_Format(PyExc_ValueError, "edges[%zd, %d] = %llu is out of range for a "
                             "node id", (Py_ssize_t)(i / 2), (int)(i % 2),
                             (unsigned long long)id[i]);
                Py_DECREF(w);
                Py_DECREF(raw);
                return -1;
            }
        Py_DECREF(w);
    }
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_OTF((PyObject *)raw, NPY_INT64,
                                                         NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(raw);
    if (!a) return -1;
    npy_intp mm = PyArray_DIM(a, 0);
    if (mm > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "%zd edges, more than gsfw supports", (Py_ssize_t)mm);
        Py_DECREF(a);
        return -1;
    }
    const int64_t *e = (const int64_t *)PyArray_DATA(a);
    *u = PyMem_Malloc((size_t)mm * sizeof(int));
    *v = PyMem_Malloc((size_t)mm * sizeof(int));
    if (!*u || !*v) {
        PyMem_Free(*u);
        PyMem_Free(*v);
        *u = *v = NULL;
        Py_DECREF(a);
        PyErr_NoMemory();
        return -1;
    }
    for (npy_intp k = 0; k < mm; k++) {
        int64_t a0 = e[2 * k], a1 = e[2 * k + 1];
        if (a0 < INT_MIN || a0 > INT_MAX || a1 < INT_MIN || a1 > INT_MAX) {
            PyErr_Format(PyExc_ValueError, "edge %zd = (%lld, %lld): node id out of range",
                         (Py_ssize_t)k, (long long)a0, (long long)a1);
            PyMem_Free(*u);
            PyMem_Free(*v);
            *u = *v = NULL;
            Py_DECREF(a);
            return -1;
        }
        (*u)[k] = (int)a0;
        (*v)[k] = (int)a1;
    }
    Py_DECREF(a);
    *m = (int)mm;
    return 0;
}

PyObject *gsfwpy_ids(const int *ids, int count)
{
    npy_intp dim = count;
    PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(1, &dim, NPY_INT64);
    if (!a) return NULL;
    int64_t *out = (int64_t *)PyArray_DATA(a);
    for (int k = 0; k < count; k++) out[k] = ids[k];
    return (PyObject *)a;
}

PyObject *gsfwpy_UnusedArgumentWarning, *gsfwpy_ShortSupportWarning;

int gsfwpy_warn(PyObject *category, const char *message)
{
    return PyErr_WarnEx(category, message, 2);
}

/* The warning classes, gsfw.UnusedArgumentWarning and gsfw.ShortSupportWarning. */
static int add_warnings(PyObject *m)
{
    static const struct {
        const char *name, *doc;
        PyObject **type;
    } classes[] = {
        {"gsfw.UnusedArgumentWarning",
         "An argument that the chosen model, method, step rule or loss does not read (a seed "
         "with a deterministic model, a graph with a model that needs none): it is ignored. "
         "The command line warns about the same options, in the same words.",
         &gsfwpy_UnusedArgumentWarning},
        {"gsfw.ShortSupportWarning",
         "A projection onto a graph model (gsfw.dmo and its helpers) returned fewer than s "
         "nodes: the graph has no set of s nodes in g connected pieces (the message says how "
         "many its g largest components hold).",
         &gsfwpy_ShortSupportWarning},
    };
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        PyObject *type = PyErr_NewExceptionWithDoc(classes[k].name, classes[k].doc,
                                                   PyExc_UserWarning, NULL);
        if (!type) return -1;
        *classes[k].type = type; /* kept for the module's life; the module holds another */
        Py_INCREF(type);
        if (PyModule_AddObject(m, classes[k].name + strlen("gsfw."), type) < 0) {
            Py_DECREF(type);
            return -1;
        }
    }
    return 0;
}

static PyObject *version(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    return PyUnicode_FromString(gsfw_version());
}

static PyObject *model_names(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    return PyUnicode_FromString(gsfw_model_names());
}

static PyMethodDef methods[] = {
    {"version", version, METH_NOARGS, "gsfw_version(): the library's version string."},
    {"model_names", model_names, METH_NOARGS, "Comma-separated list of the support models."},
    {"pcsf_arrays", gsfwpy_pcsf_arrays, METH_VARARGS,
     "pcsf_arrays(edges, prizes, costs, root, target_clusters, pruning) -> (nodes, edges) "
     "int32"},
    {"pcsf", gsfwpy_pcsf, METH_VARARGS,
     "pcsf(graph, prizes, root, target_clusters, pruning) -> (nodes, edges) int32"},
    {"dmo", (PyCFunction)(void (*)(void))gsfwpy_dmo, METH_VARARGS | METH_KEYWORDS,
     "dmo(z, model, s, g, graph, delta, seed) -> sorted int64 support"},
    {"solve", (PyCFunction)(void (*)(void))gsfwpy_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(...) -> dict (see gsfw.solve)"},
    {"default_model", gsfwpy_default_model, METH_VARARGS,
     "default_model(graph, tree) -> the model the library takes when none is named"},
    {"registry", gsfwpy_registry, METH_VARARGS,
     "registry(kind) -> the library's methods, models, steps, losses, sensing, bases or "
     "params, one dict each"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_gsfw",
    "C extension of gsfw: graph-structured Frank-Wolfe (use the gsfw package).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__gsfw(void)
{
    import_array();
    if (PyType_Ready(&gsfwpy_GraphType) < 0 || PyType_Ready(&gsfwpy_OperatorType) < 0 ||
        PyType_Ready(&gsfwpy_TreeType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&gsfwpy_GraphType);
    if (PyModule_AddObject(m, "Graph", (PyObject *)&gsfwpy_GraphType) < 0) {
        Py_DECREF(&gsfwpy_GraphType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&gsfwpy_TreeType);
    if (PyModule_AddObject(m, "Tree", (PyObject *)&gsfwpy_TreeType) < 0) {
        Py_DECREF(&gsfwpy_TreeType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&gsfwpy_OperatorType);
    if (PyModule_AddObject(m, "Operator", (PyObject *)&gsfwpy_OperatorType) < 0) {
        Py_DECREF(&gsfwpy_OperatorType);
        Py_DECREF(m);
        return NULL;
    }
    if (add_warnings(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
