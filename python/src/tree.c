/* gsfw._gsfw.Tree: an immutable rooted forest (gsfw_tree) for the tree-sparse models. */
#include "gsfwpy.h"

#include "gsfw/tree.h"

static void tree_dealloc(gsfwpy_Tree *self)
{
    gsfw_tree_free(self->tree);
    self->tree = NULL;
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int tree_init(gsfwpy_Tree *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"parents", NULL};
    PyObject *parents;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:Tree", kwlist, &parents)) return -1;
    if (self->tree) {
        PyErr_SetString(PyExc_TypeError, "Tree objects are immutable (already initialised)");
        return -1;
    }
    PyArrayObject *raw = (PyArrayObject *)PyArray_FROMANY(parents, NPY_NOTYPE, 0, 0, 0);
    if (!raw) return -1;
    if (PyArray_NDIM(raw) != 1) { /* numpy's depth message would not name the argument */
        char shape[96];
        PyErr_Format(PyExc_ValueError, "parents must be a 1-D array of parent ids (-1 for a "
                     "root), got an array of shape %s", gsfwpy_shape(raw, shape, sizeof shape));
        Py_DECREF(raw);
        return -1;
    }
    if (PyArray_SIZE(raw) > 0 && !PyArray_ISINTEGER(raw)) {
        PyErr_SetString(PyExc_ValueError, "parents must hold integer node ids (-1 for a root)");
        Py_DECREF(raw);
        return -1;
    }
    /* every id is range-checked in 64 bits (unsigned ones in their own type) before it is
     * narrowed to an int: a cast would wrap 2^32 to 0 and 2^32 - 1 to -1 (a root) */
    const npy_intp n = PyArray_DIM(raw, 0);
    const int is_unsigned = PyArray_ISUNSIGNED(raw);
    PyArrayObject *wide = (PyArrayObject *)PyArray_FROM_OTF(
        (PyObject *)raw, is_unsigned ? NPY_UINT64 : NPY_INT64,
        NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    Py_DECREF(raw);
    if (!wide) return -1;
    if (n > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "parents has %zd entries, more than gsfw supports",
                     (Py_ssize_t)n);
        Py_DECREF(wide);
        return -1;
    }
    int *ids = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (!ids) {
        Py_DECREF(wide);
        PyErr_NoMemory();
        return -1;
    }
    for (npy_intp i = 0; i < n; i++) {
        const void *item = PyArray_GETPTR1(wide, i);
        long long v = 0;
        int fits;
        if (is_unsigned) {
            unsigned long long u = *(const unsigned long long *)item;
            fits = u <= (unsigned long long)INT_MAX;
            v = fits ? (long long)u : 0;
            if (!fits)
                PyErr_Format(PyExc_ValueError, "parents[%zd] = %llu is out of range: a parent "
                             "is a node id (0..%zd) or -1 for a root", (Py_ssize_t)i, u,
                             (Py_ssize_t)(n - 1));
        } else {
            v = *(const long long *)item;
            fits = v >= -1 && v <= INT_MAX;
            if (!fits)
                PyErr_Format(PyExc_ValueError, "parents[%zd] = %lld is out of range: a parent "
                             "is a node id (0..%zd) or -1 for a root", (Py_ssize_t)i, v,
                             (Py_ssize_t)(n - 1));
        }
        if (!fits) {
            PyMem_Free(ids);
            Py_DECREF(wide);
            return -1;
        }
        ids[i] = (int)v;
    }
    Py_DECREF(wide);
    gsfw_err err;
    gsfw_tree *t = NULL;
    gsfw_error e = gsfw_tree_from_parents((int)n, ids, &t, &err);
    PyMem_Free(ids);
    if (e) {
        gsfwpy_raise(e, &err);
        return -1;
    }
    self->tree = t;
    return 0;
}

static PyObject *tree_quadtree(PyTypeObject *type, PyObject *args)
{
    int h, w;
    if (!PyArg_ParseTuple(args, "ii:quadtree", &h, &w)) return NULL;
    gsfw_err err;
    gsfw_tree *t = NULL;
    gsfw_error e = gsfw_tree_quadtree(h, w, &t, &err);
    if (e) return gsfwpy_raise(e, &err);
    gsfwpy_Tree *self = (gsfwpy_Tree *)type->tp_alloc(type, 0);
    if (!self) {
        gsfw_tree_free(t);
        return NULL;
    }
    self->tree = t;
    return (PyObject *)self;
}

const struct gsfw_tree *gsfwpy_tree_arg(PyObject *obj, const char *what)
{
    if (obj == Py_None) return NULL;
    if (!PyObject_TypeCheck(obj, &gsfwpy_TreeType)) {
        PyErr_Format(PyExc_TypeError, "%s must be a gsfw.Tree, got %s", what,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    const gsfw_tree *t = ((gsfwpy_Tree *)obj)->tree;
    if (!t) PyErr_Format(PyExc_ValueError, "%s is an uninitialised Tree", what);
    return t;
}

static PyObject *tree_n(gsfwpy_Tree *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(gsfw_tree_num_nodes(self->tree));
}

static PyObject *tree_roots(gsfwpy_Tree *self, void *closure)
{
    (void)closure;
    if (!self->tree) return PyErr_Format(PyExc_ValueError, "uninitialised Tree");
    return PyLong_FromLong(gsfw_tree_num_roots(self->tree));
}

static PyObject *tree_parents(gsfwpy_Tree *self, void *closure)
{
    (void)closure;
    if (!self->tree) return PyErr_Format(PyExc_ValueError, "uninitialised Tree");
    return gsfwpy_ids(gsfw_tree_parents(self->tree), gsfw_tree_num_nodes(self->tree));
}

static PyGetSetDef tree_getset[] = {
    {"n", (getter)tree_n, NULL, "number of nodes", NULL},
    {"num_roots", (getter)tree_roots, NULL, "number of roots (trees of the forest)", NULL},
    {"parents", (getter)tree_parents, NULL, "int64 parent of each node (-1 for roots)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef tree_methods[] = {
    {"_quadtree", (PyCFunction)(void (*)(void))tree_quadtree, METH_VARARGS | METH_CLASS,
     "_quadtree(h, w): the wavelet quadtree of an h x w image (h = w, a power of two)"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject gsfwpy_TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gsfw._gsfw.Tree",
    .tp_basicsize = sizeof(gsfwpy_Tree),
    .tp_dealloc = (destructor)tree_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Tree(parents): rooted forest on nodes 0..n-1 (parents[i] = -1 for a root).",
    .tp_methods = tree_methods,
    .tp_getset = tree_getset,
    .tp_init = (initproc)tree_init,
    .tp_new = PyType_GenericNew,
};
