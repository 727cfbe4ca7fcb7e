/* The progress lines of gsfw.solve(..., verbose=...): one line per interval, written to
 * Python's sys.stdout (so that notebooks and redirections see it) and flushed. */
#include "gsfwpy.h"

#include <math.h>
#include <stdio.h>

static void flush_stdout(void)
{
    PyObject *out = PySys_GetObject("stdout"); /* borrowed */
    if (out && out != Py_None) {
        PyObject *r = PyObject_CallMethod(out, "flush", NULL);
        if (r)
            Py_DECREF(r);
        else
            PyErr_Clear(); /* a stream without flush: the line is written all the same */
    }
}

void gsfwpy_progress_header(const gsfw_spec *spec)
{
    /* PySys_WriteStdout truncates at 1000 bytes: the names are short */
    PySys_WriteStdout("gsfw solve: method %s, model %s, s=%d, max_iter=%d\n",
                      gsfw_spec_entry(spec, GSFW_KIND_METHOD)->name,
                      gsfw_spec_entry(spec, GSFW_KIND_MODEL)->name,
                      (int)gsfw_spec_number(spec, "s"), (int)gsfw_spec_number(spec, "max_iter"));
    flush_stdout();
}

void gsfwpy_progress_line(const gsfw_iterate *it)
{
    char bound[32] = "n/a";
    if (!isnan(it->gap_bound)) snprintf(bound, sizeof bound, "%.3e", it->gap_bound);
    /* PySys_WriteStdout truncates at 1000 bytes: one short line */
    PySys_WriteStdout("gsfw solve: iter %d  f %.6e  gap_bound %s  support %d  %.1f s\n",
                      it->iter, it->f, bound, it->support, it->time_s);
    flush_stdout();
}
