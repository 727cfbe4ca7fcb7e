/* Keyword arguments as registry parameters: what Python passes by name beyond the objects
 * (arrays, graphs, callables) goes to gsfw_spec_set / gsfw_spec_set_number, which parse
 * and check it as for any caller. Python's "not given" is None, so a number 0 is a value
 * like any other (set_number). */
#include "gsfwpy.h"

#include <string.h>

static int is_object(const char *name, const char *const *objects)
{
    for (int k = 0; objects && objects[k]; k++)
        if (!strcmp(name, objects[k])) return 1;
    return 0;
}

/* The kind of Python value a parameter of this type takes: integers for INT and UINT64
 * (not bool, float or str: s=True, s=4.5, s='4' are refused rather than read as 1, 4 or
 * parsed), numbers for DOUBLE (not bool or str), bool (or 0/1) for BOOL, str for ENTRY
 * and str or int for CHOICE. Returns 0, or -1 with TypeError naming the parameter. */
static int check_kind(const char *name, gsfw_param_type type, PyObject *value)
{
    const int is_bool = PyBool_Check(value) || PyArray_IsScalar(value, Bool);
    const int is_int = !is_bool && (PyLong_Check(value) || PyArray_IsScalar(value, Integer));
    const int is_number = is_int || (!is_bool && (PyFloat_Check(value) ||
                                                  PyArray_IsScalar(value, Floating)));
    const char *want = NULL;
    switch (type) {
    case GSFW_PARAM_INT:
    case GSFW_PARAM_UINT64:
        if (!is_int) want = "an integer";
        break;
    case GSFW_PARAM_DOUBLE:
        if (!is_number) want = "a number";
        break;
    case GSFW_PARAM_BOOL:
        if (!is_bool && !is_int) want = "True or False";
        break;
    case GSFW_PARAM_ENTRY:
        if (!PyUnicode_Check(value)) want = "a name (str)";
        break;
    case GSFW_PARAM_CHOICE:
        if (!PyUnicode_Check(value) && !is_int) want = "a name (str)";
        break;
    default:
        break;
    }
    if (!want) return 0;
    PyObject *shown = PyObject_Repr(value);
    PyErr_Format(PyExc_TypeError, "%s must be %s, got %s %s", name, want,
                 Py_TYPE(value)->tp_name, shown ? PyUnicode_AsUTF8(shown) : "?");
    Py_XDECREF(shown);
    return -1;
}

/* A number for a parameter. gsfw_spec_set_number reads 0 as "not given" for the
 * parameters flagged GSFW_PARAM_ZERO_UNSET (L, delta, tol, tol_rel, time_limit,
 * near_miss): Python has None for that, so 0 goes as the text "0" instead, which is
 * range-checked as the command line's --L 0 is (L=0 raises "L must be > 0, got 0", as
 * L=-1 raises "... got -1"; near_miss=0 is in range and means automatic, as there). */
static gsfw_error set_number(gsfw_spec *spec, const char *name, double value, gsfw_err *err)
{
    const gsfw_param *p = gsfw_registry_find_param(name);
    if (value == 0.0 && p && (p->flags & GSFW_PARAM_ZERO_UNSET))
        return gsfw_spec_set(spec, name, "0", err);
    return gsfw_spec_set_number(spec, name, value, err);
}

/* The largest integer below which every integer is a double (2^53). */
#define EXACT_IN_DOUBLE 9007199254740992LL

/* A Python int (or a numpy integer, as one): as a number while the double holds it
 * exactly, else as its decimal text, which the library parses, range-checks and quotes as
 * given: seed=2**53 + 1 says "got 9007199254740993", and seed=10**400 is a ValueError
 * naming seed and its range rather than float()'s OverflowError without a name. */
static gsfw_error set_integer(gsfw_spec *spec, const char *name, PyObject *value,
                              gsfw_err *err, int *raised)
{
    int overflow = 0;
    long long k = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (k == -1 && PyErr_Occurred()) goto raised;
    if (!overflow && k >= -EXACT_IN_DOUBLE && k <= EXACT_IN_DOUBLE)
        return set_number(spec, name, (double)k, err);
    PyObject *digits = PyObject_Str(value);
    if (!digits) { /* beyond sys.get_int_max_str_digits(): its size instead */
        PyErr_Clear();
        PyObject *bits = PyObject_CallMethod(value, "bit_length", NULL);
        if (bits) {
            PyErr_Format(PyExc_ValueError, "%s is out of range: an integer of %S bits", name,
                         bits);
            Py_DECREF(bits);
        }
        goto raised;
    }
    const char *text = PyUnicode_AsUTF8(digits);
    gsfw_error e = text ? gsfw_spec_set(spec, name, text, err) : GSFW_OK;
    Py_DECREF(digits);
    if (text) return e;
raised:
    *raised = 1;
    return GSFW_ERR_INVALID_ARG;
}

int gsfwpy_spec_set(gsfw_spec *spec, const char *name, PyObject *value, const char *fn)
{
    if (value == Py_None) return 0; /* not given: the library's default */
    if (!gsfw_spec_accepts(spec, name)) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fn, name);
        return -1;
    }
    const gsfw_param *param = gsfw_registry_find_param(name);
    if (param && check_kind(name, param->type, value) < 0) return -1;
    gsfw_err err;
    gsfw_error e;
    int raised = 0;
    const int numeric = param && param->type != GSFW_PARAM_ENTRY &&
                        param->type != GSFW_PARAM_VECTOR; /* those take no numbers */
    if (numeric && PyArray_IsScalar(value, Integer)) { /* np.uint64(2**64 - 1) exactly */
        PyObject *index = PyNumber_Index(value);
        if (!index) return -1;
        e = set_integer(spec, name, index, &err, &raised);
        Py_DECREF(index);
        if (raised) return -1;
    } else if (numeric && PyLong_Check(value) && !PyBool_Check(value)) {
        e = set_integer(spec, name, value, &err, &raised);
        if (raised) return -1;
    } else if (PyArray_IsScalar(value, Number) || PyArray_IsScalar(value, Bool)) {
        double number = PyFloat_AsDouble(value); /* numpy scalars: as numbers */
        if (number == -1.0 && PyErr_Occurred()) return -1;
        e = set_number(spec, name, number, &err);
    } else if (PyUnicode_Check(value)) {
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(value, &size);
        if (!text) return -1;
        if (strlen(text) != (size_t)size) { /* the library would read the text up to the NUL */
            PyErr_Format(PyExc_ValueError, "%s must not contain a NUL character, got %R", name,
                         value);
            return -1;
        }
        e = gsfw_spec_set(spec, name, text, &err);
    } else if (PyBool_Check(value) || PyLong_Check(value) || PyFloat_Check(value)) {
        double number = PyFloat_AsDouble(value);
        if (number == -1.0 && PyErr_Occurred()) return -1;
        e = set_number(spec, name, number, &err);
    } else {
        PyErr_Format(PyExc_TypeError, "%s must be a number or a string, got %s", name,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    if (e) {
        gsfwpy_raise(e, &err);
        return -1;
    }
    return 0;
}

gsfw_spec *gsfwpy_spec_from(unsigned uses, PyObject *kwds, const char *const *objects,
                            PyObject **found, const char *fn)
{
    gsfw_spec *spec;
    gsfw_err err;
    if (gsfw_spec_create(uses, &spec, &err)) {
        gsfwpy_raise(err.code, &err);
        return NULL;
    }
    for (int k = 0; objects && objects[k]; k++) found[k] = Py_None;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (kwds && PyDict_Next(kwds, &pos, &key, &value)) {
        const char *name = PyUnicode_AsUTF8(key);
        if (!name) goto fail;
        if (is_object(name, objects)) {
            for (int k = 0; objects[k]; k++)
                if (!strcmp(name, objects[k])) found[k] = value;
        } else if (gsfwpy_spec_set(spec, name, value, fn)) {
            goto fail;
        }
    }
    return spec;
fail:
    gsfw_spec_free(spec);
    return NULL;
}

/* The spec's warnings from the first-th on, as gsfw.UnusedArgumentWarning. */
static int warn_from(const gsfw_spec *spec, int first)
{
    const char *w;
    for (int i = first; (w = gsfw_spec_warning(spec, i)); i++)
        if (gsfwpy_warn(gsfwpy_UnusedArgumentWarning, w) < 0) return -1;
    return 0;
}

int gsfwpy_spec_check(gsfw_spec *spec, const gsfw_graph *graph, const struct gsfw_tree *tree)
{
    gsfw_spec_available(spec, (graph ? GSFW_NEEDS_GRAPH : 0u) | (tree ? GSFW_NEEDS_TREE : 0u));
    gsfw_err err;
    if (gsfw_spec_check(spec, &err)) {
        gsfwpy_raise(err.code, &err);
        return -1;
    }
    return warn_from(spec, 0);
}

int gsfwpy_spec_bind(gsfw_spec *spec, int d, const gsfw_graph *graph,
                     const struct gsfw_tree *tree)
{
    int known = 0; /* the check's, issued already */
    while (gsfw_spec_warning(spec, known)) known++;
    gsfw_err err;
    gsfw_error e = gsfw_spec_bind(spec, d, graph, tree, &err);
    if (e) {
        gsfwpy_raise(e, &err);
        return -1;
    }
    return warn_from(spec, known);
}

/* default_model(graph, tree): the model the library takes when none is named, for a call
 * that provides a graph and/or a tree (gsfw_spec_entry's rule, not a copy of it). */
PyObject *gsfwpy_default_model(PyObject *self, PyObject *args)
{
    (void)self;
    int graph, tree;
    if (!PyArg_ParseTuple(args, "pp:default_model", &graph, &tree)) return NULL;
    gsfw_spec *spec;
    gsfw_err err;
    if (gsfw_spec_create(GSFW_USES_MODEL, &spec, &err)) return gsfwpy_raise(err.code, &err);
    gsfw_spec_available(spec, (graph ? GSFW_NEEDS_GRAPH : 0u) | (tree ? GSFW_NEEDS_TREE : 0u));
    const gsfw_entry *e = gsfw_spec_entry(spec, GSFW_KIND_MODEL);
    PyObject *name = PyUnicode_FromString(e->name); /* every kind has a default row */
    gsfw_spec_free(spec);
    return name;
}

/* registry(kind): the entries of a kind ("methods", "models", "steps", "losses", "sensing",
 * "bases") as dicts {name, summary, reads, needs}, or ("params") the parameters as dicts
 * {name, help, default}: what Python lists, as `gsfw help` does. */
PyObject *gsfwpy_registry(PyObject *self, PyObject *args)
{
    (void)self;
    const char *topic;
    if (!PyArg_ParseTuple(args, "s:registry", &topic)) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    if (!strcmp(topic, "params")) {
        const gsfw_param *p;
        for (int i = 0; (p = gsfw_registry_param(i)); i++) {
            PyObject *row = Py_BuildValue("{s:s,s:s,s:d}", "name", p->name, "help",
                                          p->help ? p->help : "", "default", p->def);
            if (!row || PyList_Append(out, row) < 0) {
                Py_XDECREF(row);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(row);
        }
        return out;
    }
    const int kind = gsfw_kind_parse(topic);
    if (kind < 0) {
        Py_DECREF(out);
        return PyErr_Format(PyExc_ValueError, "unknown kind '%s'", topic);
    }
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry((gsfw_kind)kind, i)); i++) {
        const char *needs = e->needs & GSFW_NEEDS_GRAPH ? "graph"
                            : e->needs & GSFW_NEEDS_TREE ? "tree" : "";
        PyObject *row = Py_BuildValue("{s:s,s:s,s:s,s:s,s:O}", "name", e->name, "summary",
                                      e->summary, "reads", e->uses ? e->uses : "", "needs",
                                      needs, "default",
                                      e->flags & GSFW_ENTRY_DEFAULT ? Py_True : Py_False);
        if (!row || PyList_Append(out, row) < 0) {
            Py_XDECREF(row);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(row);
    }
    return out;
}
