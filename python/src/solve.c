/* gsfw.solve: the Frank-Wolfe family (gsfw_solve) and the baselines (gsfw_baseline_solve)
 * with the GIL released. Python code runs only inside callbacks, which take the GIL back:
 * the user's callback, a gsfw.Objective's callables, and a check for signals about every
 * 0.1 s so that Ctrl-C stops a long solve with KeyboardInterrupt. */
#include "gsfwpy.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* The trace keeps at most this many iterates (the first ones). */
#define TRACE_CAP 1000000

typedef struct {
    PyObject *callback; /* the user's callback or NULL */
    int d;
    double last_check;
    gsfwpy_pending *pending;
    double verbose;     /* seconds between progress lines, 0 for none */
    double last_print;
    const gsfw_spec *header; /* verbose: the spec whose header is still to print, or NULL */
} run_ctx;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static PyObject *iterate_dict(const gsfw_iterate *it)
{
    return Py_BuildValue("{s:i,s:d,s:d,s:d,s:d,s:d,s:d,s:i,s:i}", "iter", it->iter, "time_s",
                         it->time_s, "f", it->f, "gap", it->gap, "gap_bound", it->gap_bound,
                         "est_err", it->est_err, "step", it->step, "support", it->support,
                         "active", it->active);
}

static int run_callback(const gsfw_iterate *it, const double *x, void *user)
{
    run_ctx *r = user;
    if (r->pending->type) return 1;
    if (!r->callback && !r->header) {
        double t = now_s();
        if (t - r->last_check < 0.1) return 0;
        r->last_check = t;
    }
    PyGILState_STATE st = PyGILState_Ensure();
    int stop = 0;
    if (r->header) { /* the first iterate: the library has accepted the call */
        gsfwpy_progress_header(r->header);
        r->header = NULL;
    }
    if (r->verbose > 0 && now_s() - r->last_print >= r->verbose) {
        r->last_print = now_s();
        gsfwpy_progress_line(it);
    }
    if (PyErr_CheckSignals() < 0) {
        stop = 1;
    } else if (r->callback) {
        npy_intp dim = r->d;
        PyObject *info = iterate_dict(it);
        PyArrayObject *xa = (PyArrayObject *)PyArray_SimpleNew(1, &dim, NPY_DOUBLE);
        PyObject *res = NULL;
        if (info && xa) {
            memcpy(PyArray_DATA(xa), x, (size_t)r->d * sizeof(double));
            res = PyObject_CallFunctionObjArgs(r->callback, info, (PyObject *)xa, NULL);
        }
        if (!res) {
            stop = 1;
        } else {
            int truth = PyObject_IsTrue(res);
            stop = truth != 0; /* -1 (error) stops too */
        }
        Py_XDECREF(res);
        Py_XDECREF(info);
        Py_XDECREF(xa);
    }
    if (PyErr_Occurred()) gsfwpy_pending_store(r->pending);
    PyGILState_Release(st);
    return stop;
}

static PyObject *new_vector(int d, double **data)
{
    npy_intp dim = d;
    PyArrayObject *a = (PyArrayObject *)PyArray_ZEROS(1, &dim, NPY_DOUBLE, 0);
    *data = a ? (double *)PyArray_DATA(a) : NULL;
    return (PyObject *)a;
}

static PyObject *trace_dict(const gsfw_iterate *tr, int len)
{
    static const char *names[] = {"iter", "time_s", "f", "gap", "gap_bound", "est_err",
                                  "support", "step", "active"};
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    npy_intp dim = len;
    for (int c = 0; c < 9; c++) {
        const int is_int = c == 0 || c == 6 || c == 8;
        PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(1, &dim,
                                                              is_int ? NPY_INT64 : NPY_DOUBLE);
        if (!a) {
            Py_DECREF(out);
            return NULL;
        }
        for (int k = 0; k < len; k++) {
            const gsfw_iterate *it = &tr[k];
            if (is_int) {
                int64_t v = c == 0 ? it->iter : c == 6 ? it->support : it->active;
                ((int64_t *)PyArray_DATA(a))[k] = v;
            } else {
                double v = c == 1 ? it->time_s : c == 2 ? it->f : c == 3 ? it->gap
                         : c == 4 ? it->gap_bound : c == 5 ? it->est_err : it->step;
                ((double *)PyArray_DATA(a))[k] = v;
            }
        }
        int rc = PyDict_SetItemString(out, names[c], (PyObject *)a);
        Py_DECREF(a);
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

static const char *l_source_name(const gsfw_info *info)
{
    switch (info->L_source) {
    case GSFW_L_SPECTRAL: return "spectral";
    case GSFW_L_ATOM: return "atom";
    case GSFW_L_GIVEN: return "given";
    default: return "none";
    }
}

static PyObject *info_dict(const gsfw_info *in)
{
    return Py_BuildValue(
        "{s:s,s:i,s:i,s:d,s:d,s:d,s:d,s:d,s:s,s:s,s:d,s:l,s:l,s:l,s:l,s:l,s:i,s:i,"
        "s:d,s:d,s:d,s:d,s:d,s:i,s:i}",
        "status", gsfw_status_name(in->status), "iterations", in->iterations, "best_iter",
        in->best_iter, "f_best", in->f_best, "f_last", in->f_last, "f_polished",
        in->f_polished, "gap_bound", in->gap_bound, "L", in->L, "L_source", l_source_name(in),
        "step", in->step_rule ? in->step_rule->name : "none", "delta", in->delta,
        "oracle_calls", in->oracle_calls, "pcsf_calls", gsfw_info_count(in, "pcsf_calls"),
        "window_missed", gsfw_info_count(in, "window_missed"), "gradient_calls",
        in->gradient_calls, "drop_steps", in->drop_steps,
        "active_size", in->active_size, "polished_size", in->polished_size, "setup_time",
        in->setup_time, "solve_time", in->solve_time, "polish_time", in->polish_time,
        "oracle_time", in->oracle_time, "gradient_time", in->gradient_time, "restarts",
        in->restarts, "restart_best", in->restart_best);
}

/* The objects solve() takes by keyword, and verbose (seconds between progress lines, a
 * front-end matter); every other keyword is a registry parameter. */
static const char *const objects[] = {"A", "y", "objective", "graph", "tree", "x_true", "x0",
                                      "callback", "verbose", NULL};
enum { O_A, O_Y, O_OBJECTIVE, O_GRAPH, O_TREE, O_X_TRUE, O_X0, O_CALLBACK, O_VERBOSE, O_COUNT };

/* The run: the spec's settings with the caller's vectors and the callback, through
 * gsfw_spec_solve with the GIL released. */
static gsfw_error run(const gsfw_spec *spec, gsfw_objective *obj, gsfw_dmo *dmo, gsfw_dmo *tail,
                      const double *x0, const double *x_true, run_ctx *rc, gsfw_result *res,
                      gsfw_info *info, gsfw_err *err)
{
    gsfw_settings st;
    gsfw_spec_settings(spec, &st);
    st.x0 = x0;
    st.x_true = x_true;
    st.callback = run_callback;
    st.callback_data = rc;
    gsfw_error e;
    Py_BEGIN_ALLOW_THREADS
    e = gsfw_spec_solve(spec, obj, dmo, tail, &st, res, info, err);
    Py_END_ALLOW_THREADS
    return e;
}

/* The dict solve() returns. */
static PyObject *result_dict(PyObject *xb, PyObject *xl, PyObject *xp, PyObject *icpt,
                             const gsfw_iterate *trace, int trace_len, const gsfw_info *info)
{
    PyObject *out = NULL;
    PyObject *trd = trace_dict(trace, trace_len);
    PyObject *inf = trd ? info_dict(info) : NULL;
    if (trd && inf)
        out = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:O}", "x_best", xb, "x_last", xl,
                            "x_polished", xp ? xp : Py_None, "trace", trd, "info", inf,
                            "intercept", icpt);
    Py_XDECREF(trd);
    Py_XDECREF(inf);
    return out;
}

/* The intercept at the answer (the polished point, else the best iterate), or None. */
static PyObject *intercept_at(const gsfw_spec *spec, gsfw_objective *obj, const double *x)
{
    if (!gsfw_spec_number(spec, "intercept")) Py_RETURN_NONE;
    double b;
    gsfw_err err;
    gsfw_error e = gsfw_objective_intercept(obj, x, &b, &err);
    return e ? gsfwpy_raise(e, &err) : PyFloat_FromDouble(b);
}

PyObject *gsfwpy_solve(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    if (PyTuple_GET_SIZE(args) != 0)
        return PyErr_Format(PyExc_TypeError, "solve() takes keyword arguments only");
    PyObject *o[O_COUNT];
    gsfw_spec *spec = gsfwpy_spec_from(GSFW_USES_SOLVE, kwds, objects, o, "solve");
    if (!spec) return NULL;
    PyObject *callback = o[O_CALLBACK];
    gsfwpy_pending pending = {NULL, NULL, NULL};
    gsfwpy_callables calls;
    calls.pending = &pending;
    gsfwpy_objective objective_parts = {NULL, NULL, NULL};
    gsfw_dmo *dmo = NULL, *tail = NULL;
    PyArrayObject *x_true = NULL, *x0 = NULL;
    PyObject *xb = NULL, *xl = NULL, *xp = NULL, *out = NULL;
    gsfw_iterate *trace = NULL;
    gsfw_err err;
    gsfw_error e;
    if (callback != Py_None && !PyCallable_Check(callback)) {
        PyErr_Format(PyExc_TypeError, "callback must be callable, got %s",
                     Py_TYPE(callback)->tp_name);
        goto done;
    }
    const gsfw_graph *gr = gsfwpy_graph_arg(o[O_GRAPH], "graph", 1);
    if (!gr && PyErr_Occurred()) goto done;
    const gsfw_tree *tr = gsfwpy_tree_arg(o[O_TREE], "tree");
    if (!tr && PyErr_Occurred()) goto done;
    /* x0 and x_true are the caller's arrays; the spec checks who may take them */
    if ((o[O_X0] != Py_None && gsfw_spec_set(spec, "x0", "", &err)) ||
        (o[O_X_TRUE] != Py_None && gsfw_spec_set(spec, "x_true", "", &err))) {
        gsfwpy_raise(err.code, &err);
        goto done;
    }
    if (gsfwpy_spec_check(spec, gr, tr) < 0) goto done;
    if (gsfwpy_build_objective(o[O_A], o[O_Y], o[O_OBJECTIVE], spec, &calls,
                               &objective_parts) < 0)
        goto done;
    gsfw_objective *obj = objective_parts.obj;
    const int d = obj->d;
    if (o[O_X_TRUE] != Py_None && !(x_true = gsfwpy_vector(o[O_X_TRUE], "x_true", d, 1)))
        goto done;
    if (o[O_X0] != Py_None && !(x0 = gsfwpy_vector(o[O_X0], "x0", d, 1))) goto done;
    if (gsfwpy_spec_bind(spec, d, gr, tr) < 0) goto done;
    if ((e = gsfw_spec_oracles(spec, &dmo, &tail, &err))) {
        gsfwpy_raise(e, &err);
        goto done;
    }
    const int polish = (int)gsfw_spec_number(spec, "polish");
    const int max_iter = (int)gsfw_spec_number(spec, "max_iter");
    double *x_best, *x_last, *x_pol = NULL;
    if (!(xb = new_vector(d, &x_best)) || !(xl = new_vector(d, &x_last))) goto done;
    if (polish && !(xp = new_vector(d, &x_pol))) goto done;
    const int cap = max_iter < TRACE_CAP ? max_iter + 1 : TRACE_CAP;
    if (!(trace = PyMem_Malloc((size_t)cap * sizeof *trace))) {
        PyErr_NoMemory();
        goto done;
    }
    gsfw_result res = {.x_best = x_best, .x_last = x_last, .trace = trace,
                       .trace_capacity = cap, .x_polished = x_pol};
    gsfw_info info;
    memset(&info, 0, sizeof info);
    const double verbose = o[O_VERBOSE] == Py_None ? 0.0 : PyFloat_AsDouble(o[O_VERBOSE]);
    if (verbose == -1.0 && PyErr_Occurred()) goto done;
    /* verbose: the header is printed at the first iterate, once the library has checked
     * everything (x0 included), so that a call it refuses prints nothing */
    run_ctx rc = {.callback = callback == Py_None ? NULL : callback, .d = d,
                  .last_check = now_s(), .pending = &pending, .verbose = verbose,
                  .last_print = now_s(), .header = verbose > 0 ? spec : NULL};
    e = run(spec, obj, dmo, tail, x0 ? (const double *)PyArray_DATA(x0) : NULL,
            x_true ? (const double *)PyArray_DATA(x_true) : NULL, &rc, &res, &info, &err);
    if (gsfwpy_pending_restore(&pending)) goto done;
    if (e) {
        gsfwpy_raise(e, &err);
        goto done;
    }
    if (rc.header) gsfwpy_progress_header(spec); /* a run that recorded no iterate */
    PyObject *icpt = intercept_at(spec, obj, x_pol ? x_pol : x_best);
    if (!icpt) goto done;
    out = result_dict(xb, xl, xp, icpt, trace, res.trace_len, &info);
    Py_DECREF(icpt);
done:
    Py_CLEAR(pending.type); /* set only if the function left before restoring it */
    Py_CLEAR(pending.value);
    Py_CLEAR(pending.traceback);
    PyMem_Free(trace);
    Py_XDECREF(xb);
    Py_XDECREF(xl);
    Py_XDECREF(xp);
    Py_XDECREF(x_true);
    Py_XDECREF(x0);
    gsfw_dmo_free(tail);
    gsfw_dmo_free(dmo);
    gsfwpy_objective_release(&objective_parts);
    gsfw_spec_free(spec);
    return out;
}
