/* gsfw._gsfw.Operator: a linear operator A : R^d -> R^n of the library (dense, float32,
 * CSR, DCT, Hadamard, implicit Gaussian, sensing matrices). An operator keeps scratch
 * space, so its products run with the GIL held (one Python thread at a time). */
#include "gsfwpy.h"

#include <limits.h>
#include <math.h>
#include <string.h>

static void op_dealloc(gsfwpy_Operator *self)
{
    gsfw_operator_free(self->op);
    self->op = NULL;
    Py_CLEAR(self->keep);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *wrap(PyTypeObject *type, gsfw_error e, gsfw_err *err, gsfw_operator *op,
                      PyObject *keep)
{
    if (e) return gsfwpy_raise(e, err);
    gsfwpy_Operator *self = (gsfwpy_Operator *)type->tp_alloc(type, 0);
    if (!self) {
        gsfw_operator_free(op);
        return NULL;
    }
    self->op = op;
    Py_XINCREF(keep);
    self->keep = keep;
    return (PyObject *)self;
}

gsfw_operator *gsfwpy_operator_arg(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &gsfwpy_OperatorType)) return NULL;
    return ((gsfwpy_Operator *)obj)->op;
}

/* _dense(A, copy, float32): A a 2-D array; float64 in C or Fortran order is used as it
 * is (borrowed when copy is false: the operator keeps a reference to it). */
static PyObject *op_dense(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"A", "copy", "float32", NULL};
    PyObject *Aobj;
    int copy = 1, f32 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|pp:dense", kwlist, &Aobj, &copy, &f32))
        return NULL;
    PyArrayObject *a = gsfwpy_doubles(Aobj, "A", NPY_ARRAY_ALIGNED);
    if (!a) return NULL;
    if (PyArray_NDIM(a) != 2) {
        PyErr_Format(PyExc_ValueError, "A must be 2-D (n x d), got %d dimensions", PyArray_NDIM(a));
        Py_DECREF(a);
        return NULL;
    }
    gsfw_layout layout = GSFW_ROW_MAJOR;
    if (!PyArray_IS_C_CONTIGUOUS(a)) {
        if (PyArray_IS_F_CONTIGUOUS(a)) {
            layout = GSFW_COL_MAJOR;
        } else {
            PyArrayObject *c = (PyArrayObject *)PyArray_NewCopy(a, NPY_CORDER);
            Py_DECREF(a);
            if (!(a = c)) return NULL;
        }
    }
    npy_intp n = PyArray_DIM(a, 0), d = PyArray_DIM(a, 1);
    if (n > INT_MAX || d > INT_MAX) {
        Py_DECREF(a);
        return PyErr_Format(PyExc_ValueError, "A is %zd x %zd, larger than gsfw supports",
                            (Py_ssize_t)n, (Py_ssize_t)d);
    }
    gsfw_err err;
    gsfw_operator *op = NULL;
    gsfw_error e;
    const double *data = (const double *)PyArray_DATA(a);
    if (f32)
        e = gsfw_operator_dense_to_f32((int)n, (int)d, data, layout, &op, &err);
    else
        e = gsfw_operator_dense((int)n, (int)d, data, layout, copy ? GSFW_OP_COPY : GSFW_OP_BORROW,
                                &op, &err);
    PyObject *out = wrap(type, e, &err, op, (!f32 && !copy) ? (PyObject *)a : NULL);
    Py_DECREF(a);
    return out;
}

/* _csr(n, d, rows, cols, vals): triplets (duplicates summed). */
static PyObject *op_csr(PyTypeObject *type, PyObject *args)
{
    int n, d;
    PyObject *ro, *co, *vo;
    if (!PyArg_ParseTuple(args, "iiOOO:csr", &n, &d, &ro, &co, &vo)) return NULL;
    PyArrayObject *r = (PyArrayObject *)PyArray_FROMANY(ro, NPY_INT, 1, 1, NPY_ARRAY_IN_ARRAY);
    PyArrayObject *c = r ? (PyArrayObject *)PyArray_FROMANY(co, NPY_INT, 1, 1, NPY_ARRAY_IN_ARRAY)
                         : NULL;
    PyArrayObject *v = c ? gsfwpy_vector(vo, "vals", PyArray_DIM(r, 0), 0) : NULL;
    PyObject *out = NULL;
    if (v && PyArray_DIM(c, 0) != PyArray_DIM(r, 0)) {
        PyErr_SetString(PyExc_ValueError, "rows, cols and vals must have the same length");
    } else if (v) {
        gsfw_err err;
        gsfw_operator *op = NULL;
        gsfw_error e = gsfw_operator_csr(n, d, (long)PyArray_DIM(r, 0), (const int *)PyArray_DATA(r),
                                         (const int *)PyArray_DATA(c),
                                         (const double *)PyArray_DATA(v), &op, &err);
        out = wrap(type, e, &err, op, NULL);
    }
    Py_XDECREF(r);
    Py_XDECREF(c);
    Py_XDECREF(v);
    return out;
}

/* _centered(base, mu): base - 1 mu^T over a gsfw.Operator base, which it keeps alive. */
static PyObject *op_centered(PyTypeObject *type, PyObject *args)
{
    PyObject *base, *muo;
    if (!PyArg_ParseTuple(args, "OO:centered", &base, &muo)) return NULL;
    gsfw_operator *B = gsfwpy_operator_arg(base);
    if (!B)
        return PyErr_Format(PyExc_TypeError, "centered: the base must be a gsfw.Operator, got %s",
                            Py_TYPE(base)->tp_name);
    PyArrayObject *mu = gsfwpy_vector(muo, "mu", B->d, 1);
    if (!mu) return NULL;
    gsfw_err err;
    gsfw_operator *op = NULL;
    gsfw_error e = gsfw_operator_centered(B, (const double *)PyArray_DATA(mu), &op, &err);
    Py_DECREF(mu);
    return wrap(type, e, &err, op, base);
}

static PyObject *op_dct(PyTypeObject *type, PyObject *args)
{
    int d, n;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iiK:dct", &d, &n, &seed)) return NULL;
    gsfw_err err;
    gsfw_operator *op = NULL;
    gsfw_error e = gsfw_operator_dct(d, n, (uint64_t)seed, &op, &err);
    return wrap(type, e, &err, op, NULL);
}

static PyObject *op_dct2(PyTypeObject *type, PyObject *args)
{
    int h, w, n;
    unsigned long long seed;
    int threads;
    if (!PyArg_ParseTuple(args, "iiiKi:dct2", &h, &w, &n, &seed, &threads)) return NULL;
    gsfw_err err;
    gsfw_operator *op = NULL;
    gsfw_error e = gsfw_operator_dct2_threads(h, w, n, (uint64_t)seed, threads, &op, &err);
    return wrap(type, e, &err, op, NULL);
}

static PyObject *op_hadamard(PyTypeObject *type, PyObject *args)
{
    int d, n;
    unsigned long long seed;
    int threads;
    if (!PyArg_ParseTuple(args, "iiKi:hadamard", &d, &n, &seed, &threads)) return NULL;
    gsfw_err err;
    gsfw_operator *op = NULL;
    gsfw_error e = gsfw_operator_hadamard_threads(d, n, (uint64_t)seed, threads, &op, &err);
    return wrap(type, e, &err, op, NULL);
}

static PyObject *op_implicit_gaussian(PyTypeObject *type, PyObject *args)
{
    int n, d;
    unsigned long long seed;
    double sd;
    int threads;
    if (!PyArg_ParseTuple(args, "iiKdi:implicit_gaussian", &n, &d, &seed, &sd, &threads))
        return NULL;
    gsfw_err err;
    gsfw_operator *op = NULL;
    gsfw_error e = gsfw_operator_implicit_gaussian_threads(n, d, (uint64_t)seed, sd, 0, n, threads,
                                                           &op, &err);
    return wrap(type, e, &err, op, NULL);
}

static PyObject *op_sensing(PyTypeObject *type, PyObject *args)
{
    const char *kind;
    int n, h, w, f32, threads;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "siiiKpi:sensing", &kind, &n, &h, &w, &seed, &f32, &threads))
        return NULL;
    gsfw_err err;
    gsfw_operator *op = NULL;
    const gsfw_sensing_spec s = {.n = n, .height = h, .width = w, .seed = (uint64_t)seed,
                                 .float32 = f32, .threads = threads};
    gsfw_error e = gsfw_sensing_operator_spec(kind, &s, &op, &err);
    return wrap(type, e, &err, op, NULL);
}

/* apply (transpose = 0) or adjoint (1) on a vector. */
static PyObject *product(gsfwpy_Operator *self, PyObject *arg, int transpose)
{
    const gsfw_operator *op = self->op;
    if (!op) return PyErr_Format(PyExc_ValueError, "uninitialised Operator");
    if (self->busy)
        return PyErr_Format(PyExc_RuntimeError, "this gsfw.Operator is in use by a running "
                            "solve (its scratch space serves one user at a time)");
    PyArrayObject *x = gsfwpy_vector(arg, transpose ? "r" : "x", transpose ? op->n : op->d, 0);
    if (!x) return NULL;
    npy_intp dim = transpose ? op->d : op->n;
    PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(1, &dim, NPY_DOUBLE);
    if (!out) {
        Py_DECREF(x);
        return NULL;
    }
    int rc = transpose ? op->adjoint(op->ctx, PyArray_DATA(x), PyArray_DATA(out))
                       : op->apply(op->ctx, PyArray_DATA(x), PyArray_DATA(out));
    Py_DECREF(x);
    if (rc) {
        Py_DECREF(out);
        return PyErr_Format(PyExc_RuntimeError, "the operator '%s' failed (code %d)", op->name, rc);
    }
    return (PyObject *)out;
}

static PyObject *op_apply(gsfwpy_Operator *self, PyObject *x) { return product(self, x, 0); }
static PyObject *op_adjoint(gsfwpy_Operator *self, PyObject *r) { return product(self, r, 1); }

static PyObject *op_norm2(gsfwpy_Operator *self, PyObject *noargs)
{
    (void)noargs;
    const gsfw_operator *op = self->op;
    if (!op) return PyErr_Format(PyExc_ValueError, "uninitialised Operator");
    if (!op->norm2) Py_RETURN_NONE;
    double v;
    int rc = op->norm2(op->ctx, &v);
    if (rc) return PyErr_Format(PyExc_RuntimeError, "the operator '%s' failed (code %d)", op->name, rc);
    return PyFloat_FromDouble(v);
}

static PyObject *op_shape(gsfwpy_Operator *self, void *closure)
{
    (void)closure;
    if (!self->op) return PyErr_Format(PyExc_ValueError, "uninitialised Operator");
    return Py_BuildValue("(ii)", self->op->n, self->op->d);
}

static PyObject *op_name(gsfwpy_Operator *self, void *closure)
{
    (void)closure;
    if (!self->op) return PyErr_Format(PyExc_ValueError, "uninitialised Operator");
    return PyUnicode_FromString(self->op->name ? self->op->name : "");
}

static PyGetSetDef op_getset[] = {
    {"shape", (getter)op_shape, NULL, "(n, d)", NULL},
    {"name", (getter)op_name, NULL, "the operator's name ('dense', 'csr', ...)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define CLASS_METHOD(name, fn, flags, doc) \
    {name, (PyCFunction)(void (*)(void))fn, flags | METH_CLASS, doc}

static PyMethodDef op_methods[] = {
    CLASS_METHOD("_dense", op_dense, METH_VARARGS | METH_KEYWORDS, "_dense(A, copy, float32)"),
    CLASS_METHOD("_csr", op_csr, METH_VARARGS, "_csr(n, d, rows, cols, vals)"),
    CLASS_METHOD("_centered", op_centered, METH_VARARGS, "_centered(base, mu): base - 1 mu^T"),
    CLASS_METHOD("_dct", op_dct, METH_VARARGS, "_dct(d, n, seed)"),
    CLASS_METHOD("_dct2", op_dct2, METH_VARARGS, "_dct2(h, w, n, seed)"),
    CLASS_METHOD("_hadamard", op_hadamard, METH_VARARGS, "_hadamard(d, n, seed)"),
    CLASS_METHOD("_implicit_gaussian", op_implicit_gaussian, METH_VARARGS,
                 "_implicit_gaussian(n, d, seed, sd, threads)"),
    CLASS_METHOD("_sensing", op_sensing, METH_VARARGS, "_sensing(kind, n, h, w, seed, float32, threads)"),
    {"apply", (PyCFunction)op_apply, METH_O, "apply(x) -> A x"},
    {"adjoint", (PyCFunction)op_adjoint, METH_O, "adjoint(r) -> A^T r"},
    {"norm2", (PyCFunction)op_norm2, METH_NOARGS,
     "norm2() -> an upper estimate of ||A||_2^2, or None when the operator has none"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject gsfwpy_OperatorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gsfw._gsfw.Operator",
    .tp_basicsize = sizeof(gsfwpy_Operator),
    .tp_dealloc = (destructor)op_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A linear operator of the library; build it with the gsfw.Operator class methods.",
    .tp_methods = op_methods,
    .tp_getset = op_getset,
};
