/* Objectives of solve(): a loss over a dense array or a gsfw.Operator, or Python
 * callables (a gsfw.Objective) called back with the GIL reacquired. */
#include "gsfwpy.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>

void gsfwpy_pending_store(gsfwpy_pending *p)
{
    if (!PyErr_Occurred()) return;
    if (p->type) {
        PyErr_Clear(); /* an earlier exception is the one the caller sees */
        return;
    }
    PyErr_Fetch(&p->type, &p->value, &p->traceback);
    if (!p->type) { /* should not happen: keep a marker so the solve still fails */
        p->type = PyExc_RuntimeError;
        Py_INCREF(p->type);
    }
}

int gsfwpy_pending_restore(gsfwpy_pending *p)
{
    if (!p->type) return 0;
    PyErr_Restore(p->type, p->value, p->traceback);
    p->type = p->value = p->traceback = NULL;
    return 1;
}

/* A fresh copy of x: the solver's buffer must not escape into Python objects. */
static PyObject *copy_point(const gsfwpy_callables *c, const double *x)
{
    npy_intp dim = c->d;
    PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(1, &dim, NPY_DOUBLE);
    if (a) memcpy(PyArray_DATA(a), x, (size_t)c->d * sizeof(double));
    return (PyObject *)a;
}

static int read_value(PyObject *res, double *f)
{
    double v = PyFloat_AsDouble(res);
    if (v == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) { /* "must be real number, not str" */
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "Objective value returned %s %R; expected a real "
                         "number", Py_TYPE(res)->tp_name, res);
        }
        return -1;
    }
    *f = v;
    return 0;
}

static int read_gradient(const gsfwpy_callables *c, PyObject *res, double *grad)
{
    if (res == Py_None) {
        PyErr_Format(PyExc_ValueError, "Objective gradient returned None; expected an array "
                     "of %d entries", c->d);
        return -1;
    }
    PyArrayObject *g = gsfwpy_doubles(res, "the Objective's gradient", NPY_ARRAY_IN_ARRAY);
    if (!g) return -1;
    if (PyArray_NDIM(g) != 1 || PyArray_DIM(g, 0) != c->d) {
        char shape[96];
        PyErr_Format(PyExc_ValueError, "Objective gradient returned an array of shape %s; "
                     "expected shape (%d,)", gsfwpy_shape(g, shape, sizeof shape), c->d);
        Py_DECREF(g);
        return -1;
    }
    memcpy(grad, PyArray_DATA(g), (size_t)c->d * sizeof(double));
    Py_DECREF(g);
    return 0;
}

/* What a call returned, read into f and/or grad; -1 with a Python exception. */
typedef int (*result_reader)(const gsfwpy_callables *c, PyObject *res, double *f,
                             double *grad);

static int read_f(const gsfwpy_callables *c, PyObject *res, double *f, double *grad)
{
    (void)c;
    (void)grad;
    return read_value(res, f);
}

static int read_g(const gsfwpy_callables *c, PyObject *res, double *f, double *grad)
{
    (void)f;
    return read_gradient(c, res, grad);
}

static int read_fg(const gsfwpy_callables *c, PyObject *res, double *f, double *grad)
{
    if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != 2) {
        PyErr_SetString(PyExc_ValueError, "Objective value_grad must return a tuple "
                        "(f, gradient)");
        return -1;
    }
    if (read_value(PyTuple_GET_ITEM(res, 0), f)) return -1;
    return read_gradient(c, PyTuple_GET_ITEM(res, 1), grad);
}

/* fn(a copy of x) with the GIL reacquired, its result read by read. Nonzero as soon as
 * an exception is pending (the solve then stops with GSFW_ERR_CALLBACK and solve()
 * raises the stored exception unchanged). */
static int call_at(gsfwpy_callables *c, PyObject *fn, const double *x, result_reader read,
                   double *f, double *grad)
{
    if (c->pending->type) return 1;
    PyGILState_STATE st = PyGILState_Ensure();
    int rc = -1;
    PyObject *xa = copy_point(c, x);
    PyObject *res = xa ? PyObject_CallOneArg(fn, xa) : NULL;
    if (res) rc = read(c, res, f, grad);
    Py_XDECREF(res);
    Py_XDECREF(xa);
    if (rc) gsfwpy_pending_store(c->pending);
    PyGILState_Release(st);
    return rc ? 1 : 0;
}

static int call_value(void *ctx, const double *x, double *f)
{
    gsfwpy_callables *c = ctx;
    return call_at(c, c->value, x, read_f, f, NULL);
}

static int call_gradient(void *ctx, const double *x, double *grad)
{
    gsfwpy_callables *c = ctx;
    return call_at(c, c->gradient, x, read_g, NULL, grad);
}

static int call_value_grad(void *ctx, const double *x, double *f, double *grad)
{
    gsfwpy_callables *c = ctx;
    return call_at(c, c->value_grad, x, read_fg, f, grad);
}

static int build_callables(PyObject *objective, gsfwpy_callables *calls, gsfw_objective **out)
{
    int d;
    PyObject *value, *gradient, *value_grad;
    if (!PyArg_ParseTuple(objective, "iOOO:Objective", &d, &value, &gradient, &value_grad))
        return -1;
    if (d < 1) {
        PyErr_Format(PyExc_ValueError, "Objective: d must be >= 1, got %d", d);
        return -1;
    }
    if (!PyCallable_Check(value) || !PyCallable_Check(gradient) ||
        (value_grad != Py_None && !PyCallable_Check(value_grad))) {
        PyErr_SetString(PyExc_TypeError, "Objective: value, gradient (and value_grad when "
                        "given) must be callable");
        return -1;
    }
    calls->d = d;
    calls->value = value;
    calls->gradient = gradient;
    calls->value_grad = value_grad == Py_None ? NULL : value_grad;
    gsfw_err err;
    gsfw_error e = gsfw_objective_callback(d, calls, call_value, call_gradient,
                                           calls->value_grad ? call_value_grad : NULL, out,
                                           &err);
    if (e) {
        gsfwpy_raise(e, &err);
        return -1;
    }
    return 0;
}

/* Targets y of an n-row objective (finite checks are the library's). */
static PyArrayObject *targets(PyObject *y, npy_intp n)
{
    PyArrayObject *yv = gsfwpy_vector(y, "y", n, 0);
    if (!yv && y != Py_None && PyErr_ExceptionMatches(PyExc_ValueError)) {
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyErr_Format(PyExc_ValueError, "%S (A has %zd rows)", v, (Py_ssize_t)n);
        Py_XDECREF(t);
        Py_XDECREF(v);
        Py_XDECREF(tb);
    }
    return yv;
}

/* A dense matrix argument as a 2-D float64 array in C or Fortran order (other dtypes and
 * strided views are converted), with its layout; NULL with a ValueError otherwise. */
static PyArrayObject *dense_matrix(PyObject *A, gsfw_layout *layout)
{
    if (A == Py_None) {
        PyErr_SetString(PyExc_ValueError, "A is None; pass a 2-D array, a gsfw.Operator or "
                        "a gsfw.Objective");
        return NULL;
    }
    PyArrayObject *a = gsfwpy_doubles(A, "A", NPY_ARRAY_ALIGNED);
    if (!a) return NULL;
    if (PyArray_NDIM(a) != 2) {
        PyErr_Format(PyExc_ValueError, "A must be 2-D (n x d), a gsfw.Operator or a "
                     "gsfw.Objective, got an array of %d dimensions", PyArray_NDIM(a));
        Py_DECREF(a);
        return NULL;
    }
    *layout = GSFW_ROW_MAJOR;
    if (!PyArray_IS_C_CONTIGUOUS(a)) {
        if (PyArray_IS_F_CONTIGUOUS(a)) {
            *layout = GSFW_COL_MAJOR;
        } else {
            PyArrayObject *c = (PyArrayObject *)PyArray_NewCopy(a, NPY_CORDER);
            Py_DECREF(a);
            if (!c) return NULL;
            a = c;
        }
    }
    if (PyArray_DIM(a, 0) > INT_MAX || PyArray_DIM(a, 1) > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "A is %zd x %zd, larger than gsfw supports",
                     (Py_ssize_t)PyArray_DIM(a, 0), (Py_ssize_t)PyArray_DIM(a, 1));
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

/* loss(A x, y) with A a gsfw.Operator as it is, or a dense array, built as the command
 * line builds it (gsfw_spec_objective_dense): for the squared loss the least-squares
 * objective's column-major copy, so that both give the same iterates bit for bit (a
 * gsfw.Operator.dense(A, copy=False) avoids the copy); for the others a dense operator
 * that borrows a Fortran-ordered array (its columns are already contiguous) or copies a
 * C-ordered one. */
static int build_linear(PyObject *A, PyObject *y, const gsfw_spec *spec, gsfwpy_objective *out)
{
    gsfw_operator *op = gsfwpy_operator_arg(A);
    gsfw_err err;
    gsfw_error e;
    PyArrayObject *yv;
    if (op) {
        gsfwpy_Operator *po = (gsfwpy_Operator *)A;
        if (po->busy) {
            PyErr_SetString(PyExc_RuntimeError, "this gsfw.Operator is in use by a running "
                            "solve (an operator serves one solve at a time)");
            return -1;
        }
        po->busy = 1;
        out->busy_op = po;
        Py_INCREF(A);
        out->keep = A;
        if (!(yv = targets(y, op->n))) return -1;
        e = gsfw_spec_objective(spec, op, op->n, (const double *)PyArray_DATA(yv), NULL,
                                &out->obj, &err);
    } else {
        gsfw_layout layout;
        PyArrayObject *a = dense_matrix(A, &layout);
        if (!a) return -1;
        int n = (int)PyArray_DIM(a, 0), d = (int)PyArray_DIM(a, 1);
        if (!(yv = targets(y, n))) {
            Py_DECREF(a);
            return -1;
        }
        /* borrowed by a dense operator in Fortran order, unless the squared loss's
         * least-squares objective takes its own copy anyway */
        gsfw_loss_options loss;
        gsfw_spec_loss(spec, NULL, &loss);
        const int borrow = layout == GSFW_COL_MAJOR && !(loss.def->quadratic && !loss.intercept);
        e = gsfw_spec_objective_dense(spec, n, d, (const double *)PyArray_DATA(a), layout,
                                      borrow ? GSFW_OP_BORROW : GSFW_OP_COPY,
                                      (const double *)PyArray_DATA(yv), &out->obj, &err);
        if (borrow)
            out->keep = (PyObject *)a; /* released after the objective, which borrows it */
        else
            Py_DECREF(a);
    }
    Py_DECREF(yv);
    if (e) {
        gsfwpy_raise(e, &err);
        return -1;
    }
    return 0;
}

void gsfwpy_objective_release(gsfwpy_objective *o)
{
    gsfw_objective_free(o->obj);
    if (o->busy_op) o->busy_op->busy = 0;
    Py_CLEAR(o->keep);
    memset(o, 0, sizeof *o);
}

int gsfwpy_build_objective(PyObject *A, PyObject *y, PyObject *objective,
                           const gsfw_spec *spec, gsfwpy_callables *calls,
                           gsfwpy_objective *out)
{
    memset(out, 0, sizeof *out);
    memset(calls, 0, offsetof(gsfwpy_callables, pending));
    const gsfw_entry *loss = gsfw_spec_entry(spec, GSFW_KIND_LOSS);
    if (objective != Py_None && !(loss->flags & GSFW_ENTRY_DEFAULT)) {
        PyErr_SetString(PyExc_ValueError, "loss applies to A and y, not to a gsfw.Objective");
        return -1;
    }
    int rc = objective != Py_None ? build_callables(objective, calls, &out->obj)
                                  : build_linear(A, y, spec, out);
    if (rc) gsfwpy_objective_release(out);
    return rc;
}
