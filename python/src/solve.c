/* gsfw.solve: the Frank-Wolfe family (gsfw_solve) and the baselines (gsfw_baseline_solve)
 * with the GIL released. Python code runs only inside callbacks, which take the GIL back:
 * the user's callback, a gsfw.Objective's callables, and a check for signals about every
 * 0.1 s so that Ctrl-C stops a long solve with KeyboardInterrupt. */
#include "gsfwpy.h"

#include "gsfw/tree.h"

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
    if (!r->callback) {
        double t = now_s();
        if (t - r->last_check < 0.1) return 0;
        r->last_check = t;
    }
    PyGILState_STATE st = PyGILState_Ensure();
    int stop = 0;
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

static PyObject *info_dict(const gsfw_info *in, int baseline)
{
    return Py_BuildValue(
        "{s:s,s:i,s:i,s:d,s:d,s:d,s:d,s:d,s:s,s:s,s:d,s:l,s:l,s:l,s:l,s:l,s:i,s:i,"
        "s:d,s:d,s:d,s:d,s:d}",
        "status", gsfw_status_name(in->status), "iterations", in->iterations, "best_iter",
        in->best_iter, "f_best", in->f_best, "f_last", in->f_last, "f_polished",
        in->f_polished, "gap_bound", in->gap_bound, "L", in->L, "L_source", l_source_name(in),
        "step", baseline ? "none" : gsfw_step_name(in->step), "delta", in->delta,
        "oracle_calls", in->oracle_calls, "pcsf_calls", in->pcsf_calls, "window_missed",
        in->window_missed, "gradient_calls", in->gradient_calls, "drop_steps", in->drop_steps,
        "active_size", in->active_size, "polished_size", in->polished_size, "setup_time",
        in->setup_time, "solve_time", in->solve_time, "polish_time", in->polish_time,
        "oracle_time", in->oracle_time, "gradient_time", in->gradient_time);
}

/* Checks of the model arguments against the dimension d, with the CLI's wording. */
static int check_model(const char *model, int d, int s, int g, const gsfw_graph *graph,
                       const gsfw_tree *tree, double delta)
{
    int needs = gsfw_model_needs_graph(model);
    if (needs < 0) {
        PyErr_Format(PyExc_ValueError, "unknown model '%s' (known: %s)", model,
                     gsfw_model_names());
        return -1;
    }
    if (needs == 1 && !graph) {
        PyErr_Format(PyExc_ValueError, "model '%s' needs a graph (graph=gsfw.Graph)", model);
        return -1;
    }
    if (needs == 2 && !tree) {
        PyErr_Format(PyExc_ValueError, "model '%s' needs a tree (tree=gsfw.Tree)", model);
        return -1;
    }
    if (tree && gsfw_tree_num_nodes(tree) != d) {
        PyErr_Format(PyExc_ValueError, "the tree has %d nodes but the problem has d = %d "
                     "unknowns", gsfw_tree_num_nodes(tree), d);
        return -1;
    }
    if (graph && gsfw_graph_nodes(graph) != d) {
        PyErr_Format(PyExc_ValueError, "the graph has %d nodes but the problem has d = %d "
                     "unknowns", gsfw_graph_nodes(graph), d);
        return -1;
    }
    if (s < 1 || s > d) {
        PyErr_Format(PyExc_ValueError, "s = %d must be in [1, d] with d = %d", s, d);
        return -1;
    }
    if (g < 1 || g > s) {
        PyErr_Format(PyExc_ValueError, "g = %d must be in [1, s] with s = %d (at most s nodes "
                     "in at most g components)", g, s);
        return -1;
    }
    if (!strcmp(model, "l1") && s != 1) {
        PyErr_Format(PyExc_ValueError, "model 'l1' is the s = 1 model; got s = %d", s);
        return -1;
    }
    if (delta != 0 && !(delta > 0 && delta <= 1)) {
        PyErr_Format(PyExc_ValueError, "delta must be in (0, 1], got %g", delta);
        return -1;
    }
    return 0;
}

PyObject *gsfwpy_solve(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"A", "y", "objective", "model", "s", "g", "graph", "C", "method",
                             "option", "L", "L_rule", "max_iter", "tol", "time_limit",
                             "x_true", "callback", "delta", "step", "x0", "polish", "seed",
                             "loss", "huber_delta", "intercept", "tree", "tol_rel", "verbose",
                             NULL};
    PyObject *A, *y, *objective, *graph, *x_true_obj, *callback, *x0_obj, *tree = Py_None;
    const char *model, *method_name, *L_rule_name, *step_name, *loss = "ls";
    int s, g, option, max_iter, polish, intercept = 0;
    double C, L, tol, time_limit, delta, huber_delta = 1.0, tol_rel = 0.0, verbose = 0.0;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOsiiOdsidziddOOdsOpK|sdpOdd:solve", kwlist,
                                     &A, &y, &objective, &model, &s, &g, &graph, &C,
                                     &method_name, &option, &L, &L_rule_name, &max_iter, &tol,
                                     &time_limit, &x_true_obj, &callback, &delta, &step_name,
                                     &x0_obj, &polish, &seed, &loss, &huber_delta, &intercept,
                                     &tree, &tol_rel, &verbose))
        return NULL;

    int method = gsfw_method_parse(method_name);
    if (method < 0)
        return PyErr_Format(PyExc_ValueError, "unknown method '%s' (known: fw, accfw, afw, pfw, "
                            "bpcg, iht, cosamp, graph-iht, graph-cosamp, gen-mp)", method_name);
    const int baseline = gsfw_method_is_baseline((gsfw_method)method);
    int step = gsfw_step_parse(step_name);
    if (step < 0)
        return PyErr_Format(PyExc_ValueError, "unknown step rule '%s' (known: auto, agnostic, "
                            "short, adaptive, line)", step_name);
    if (baseline && (step != GSFW_STEP_AUTO || tol > 0 || tol_rel > 0 || x0_obj != Py_None ||
                     polish || option != 1))
        return PyErr_Format(PyExc_ValueError, "step, tol, tol_rel, x0, polish and option belong "
                            "to the Frank-Wolfe methods, not to %s", method_name);
    if (option != 1 && option != 2)
        return PyErr_Format(PyExc_ValueError, "option must be 'I' or 'II', got %d", option);
    gsfw_lipschitz_rule l_rule = baseline ? GSFW_L_SPECTRAL : GSFW_L_ATOM;
    if (L_rule_name) {
        if (!strcmp(L_rule_name, "spectral"))
            l_rule = GSFW_L_SPECTRAL;
        else if (!strcmp(L_rule_name, "atom"))
            l_rule = GSFW_L_ATOM;
        else
            return PyErr_Format(PyExc_ValueError, "L_rule must be 'atom' or 'spectral', got "
                                "'%s'", L_rule_name);
        if (baseline && l_rule == GSFW_L_ATOM)
            return PyErr_Format(PyExc_ValueError, "L_rule 'atom' is a rule of the Frank-Wolfe "
                                "family; %s takes a number L or 'spectral'", method_name);
    }
    if (!(C > 0)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%g", C);
        return PyErr_Format(PyExc_ValueError, "C must be > 0, got %s", buf);
    }
    if (max_iter < 0)
        return PyErr_Format(PyExc_ValueError, "max_iter must be >= 0, got %d", max_iter);
    if (L < 0 || L != L)
        return PyErr_Format(PyExc_ValueError, "L must be > 0 (or None to estimate it)");
    if (tol < 0 || tol != tol)
        return PyErr_Format(PyExc_ValueError, "tol must be > 0 (or None)");
    if (tol_rel < 0 || tol_rel != tol_rel)
        return PyErr_Format(PyExc_ValueError, "tol_rel must be > 0 (or None)");
    if (time_limit < 0 || time_limit != time_limit)
        return PyErr_Format(PyExc_ValueError, "time_limit must be > 0 (or None)");
    if (callback != Py_None && !PyCallable_Check(callback))
        return PyErr_Format(PyExc_TypeError, "callback must be callable, got %s",
                            Py_TYPE(callback)->tp_name);
    const gsfw_graph *gr = gsfwpy_graph_arg(graph, "graph", 1);
    if (!gr && PyErr_Occurred()) return NULL;
    const gsfw_tree *tr = gsfwpy_tree_arg(tree, "tree");
    if (!tr && PyErr_Occurred()) return NULL;

    gsfwpy_pending pending = {NULL, NULL, NULL};
    gsfwpy_callables calls;
    calls.pending = &pending;
    gsfwpy_objective objective_parts = {NULL, NULL, NULL, NULL};
    gsfw_objective *obj = NULL;
    gsfw_dmo *dmo = NULL, *tail = NULL;
    PyArrayObject *x_true = NULL, *x0 = NULL;
    PyObject *xb = NULL, *xl = NULL, *xp = NULL, *out = NULL;
    gsfw_iterate *trace = NULL;
    if (gsfwpy_build_objective(A, y, objective, loss, huber_delta, intercept, &calls,
                               &objective_parts) < 0)
        goto done;
    obj = objective_parts.obj;
    const int d = obj->d;
    if (check_model(model, d, s, g, gr, tr, delta) < 0) goto done;
    if (x_true_obj != Py_None && !(x_true = gsfwpy_vector(x_true_obj, "x_true", d, 1))) goto done;
    if (x0_obj != Py_None && !(x0 = gsfwpy_vector(x0_obj, "x0", d, 1))) goto done;

    gsfw_err err;
    gsfw_error e;
    gsfw_model_spec spec = {.model = model, .d = d, .s = s, .g = g, .graph = gr,
                            .tree = tr, .delta = delta > 0 ? delta : 1.0, .seed = (uint64_t)seed};
    e = baseline ? gsfw_baseline_oracles((gsfw_method)method, &spec, 0, &dmo, &tail, &err)
                 : gsfw_dmo_from_model(&spec, &dmo, &err);
    if (e) {
        gsfwpy_raise(e, &err);
        goto done;
    }
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
    run_ctx rc = {.callback = callback == Py_None ? NULL : callback, .d = d,
                  .last_check = now_s(), .pending = &pending, .verbose = verbose,
                  .last_print = now_s()};
    const double *xt = x_true ? (const double *)PyArray_DATA(x_true) : NULL;
    if (baseline) {
        gsfw_baseline_settings bs;
        gsfw_baseline_settings_default(&bs);
        bs.method = (gsfw_method)method;
        bs.C = C;
        bs.L = L;
        bs.max_iter = max_iter;
        bs.time_limit = time_limit;
        bs.x_true = xt;
        bs.callback = run_callback;
        bs.callback_data = &rc;
        Py_BEGIN_ALLOW_THREADS
        e = gsfw_baseline_solve(obj, dmo, tail, &bs, &res, &info, &err);
        Py_END_ALLOW_THREADS
    } else {
        gsfw_settings st;
        gsfw_settings_default(&st);
        st.method = (gsfw_method)method;
        st.option = option == 2 ? GSFW_OPTION_II : GSFW_OPTION_I;
        st.step = (gsfw_step)step;
        st.C = C;
        st.L = L;
        st.L_rule = l_rule;
        st.delta = delta;
        st.max_iter = max_iter;
        st.time_limit = time_limit;
        st.tol = tol;
        st.tol_rel = tol_rel;
        st.x0 = x0 ? (const double *)PyArray_DATA(x0) : NULL;
        st.polish = polish;
        st.x_true = xt;
        st.callback = run_callback;
        st.callback_data = &rc;
        Py_BEGIN_ALLOW_THREADS
        e = gsfw_solve(obj, dmo, &st, &res, &info, &err);
        Py_END_ALLOW_THREADS
    }
    if (gsfwpy_pending_restore(&pending)) goto done;
    if (e) {
        gsfwpy_raise(e, &err);
        goto done;
    }
    PyObject *icpt = Py_None;
    Py_INCREF(icpt);
    if (intercept) {
        double b;
        /* at the answer (the polished point, else the best iterate) */
        e = gsfw_objective_intercept(obj, x_pol ? x_pol : x_best, &b, &err);
        Py_DECREF(icpt);
        icpt = e ? gsfwpy_raise(e, &err) : PyFloat_FromDouble(b);
        if (!icpt) goto done;
    }
    PyObject *trd = trace_dict(trace, res.trace_len);
    PyObject *inf = trd ? info_dict(&info, baseline) : NULL;
    if (trd && inf)
        out = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:O}", "x_best", xb, "x_last", xl,
                            "x_polished", xp ? xp : Py_None, "trace", trd, "info", inf,
                            "intercept", icpt);
    Py_DECREF(icpt);
    Py_XDECREF(trd);
    Py_XDECREF(inf);
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
    return out;
}
