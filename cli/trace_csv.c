#include "trace_csv.h"

#include <errno.h>
#include <string.h>

#include "cli.h"
#include "io/atomic.h"

int cli_write_trace_stream(FILE *fp, const gsfw_iterate *trace, int len, int with_est_err)
{
    /* new columns go at the end, so that scripts reading columns by position keep
     * working */
    fprintf(fp, with_est_err ? "iter,time_s,f,gap,est_err,support,gap_bound,step,active\n"
                             : "iter,time_s,f,gap,support,gap_bound,step,active\n");
    for (int t = 0; t < len; t++) {
        const gsfw_iterate *it = &trace[t];
        fprintf(fp, "%d,%.17g,%.17g,%.17g,", it->iter, it->time_s, it->f, it->gap);
        if (with_est_err) fprintf(fp, "%.17g,", it->est_err);
        fprintf(fp, "%d,%.17g,%.17g,%d\n", it->support, it->gap_bound, it->step, it->active);
    }
    return ferror(fp) ? -1 : 0;
}

int cli_write_trace(const char *cmd, const char *path, const gsfw_iterate *trace, int len,
                    int with_est_err)
{
    gsfw_atomic_file f;
    gsfw_err err;
    if (gsfw_atomic_open(&f, path, &err)) return cli_fail(cmd, "%s", err.message);
    if (cli_write_trace_stream(f.fp, trace, len, with_est_err)) {
        int e = errno;
        gsfw_atomic_abort(&f);
        return cli_fail(cmd, "error writing '%s': %s", path, strerror(e));
    }
    if (gsfw_atomic_commit(&f, &err)) return cli_fail(cmd, "%s", err.message);
    return CLI_OK;
}
