#include "solve_outputs.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "io/npy.h"
#include "outputs.h"
#include "trace_csv.h"

int cli_solve_distinct_outputs(const char *cmd, const char *out_path, const char *best_path,
                               const char *trace_path, const char *pol_path)
{
    const char *flags[4] = {"--out", "--best-out", "--trace", "--polished-out"};
    const char *paths[4] = {out_path, best_path, trace_path, pol_path};
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < i; j++) {
            if (!paths[i] || !paths[j]) continue;
            /* written in place (/dev/null may repeat), or a directory (refused at open) */
            struct stat a;
            if (gsfw_atomic_in_place(paths[i]) ||
                (stat(paths[i], &a) == 0 && S_ISDIR(a.st_mode)))
                continue;
            if (cli_same_file(paths[i], paths[j]))
                return cli_usage_error(cmd, "%s and %s name the same file '%s'", flags[j],
                                       flags[i], paths[i]);
        }
    }
    return CLI_OK;
}

int cli_solve_plan_outputs(const char *cmd, const char **const paths[4], FILE **summary)
{
    /* two outputs on standard output would interleave */
    int dashes = 0;
    for (int k = 0; k < 4; k++) dashes += *paths[k] && !strcmp(*paths[k], "-");
    if (dashes > 1)
        return cli_usage_error(cmd, "only one of --out, --best-out, --trace and --polished-out "
                               "can be '-' (standard output)");
    *summary = dashes ? stderr : stdout; /* stdout is taken */
    for (int k = 0; k < 4; k++) *paths[k] = cli_output_path(*paths[k]);
    return cli_solve_distinct_outputs(cmd, *paths[0], *paths[1], *paths[2], *paths[3]);
}

/* How long a run waits for another that is moving its outputs into the same directory
 * (a recover run holds its directory for its whole run) */
#define SOLVE_LOCK_WAIT_S 30

int cli_solve_write_outputs(const char *cmd, const char *out_path, const char *best_path,
                            const char *trace_path, const char *pol_path, const double *x_last,
                            const double *x_best, const double *x_pol, int d,
                            const gsfw_iterate *trace, int trace_len, int with_est_err)
{
    const char *flags[4] = {"--out", "--best-out", "--trace", "--polished-out"};
    const char *paths[4] = {out_path, best_path, trace_path, pol_path};
    const double *vecs[4] = {x_last, x_best, NULL, x_pol};
    gsfw_atomic_file files[4];
    memset(files, 0, sizeof files);
    gsfw_err err;
    int shape[2] = {d, 1};
    int rc = CLI_OK, k;
    /* open every output before writing any: an output written in place (/dev/stdout)
     * cannot be taken back when a later one turns out unusable */
    for (k = 0; k < 4 && rc == CLI_OK; k++) {
        if (paths[k] && gsfw_atomic_open(&files[k], paths[k], &err))
            rc = cli_fail(cmd, "%s: %s", flags[k], err.message);
    }
    for (k = 0; k < 4 && rc == CLI_OK; k++) {
        if (!paths[k]) continue;
        if (k != 2) {
            if (gsfw_npy_write_stream(files[k].fp, paths[k], vecs[k], 1, shape, &err))
                rc = cli_fail(cmd, "%s: %s", flags[k], err.message);
        } else if (cli_write_trace_stream(files[k].fp, trace, trace_len, with_est_err)) {
            rc = cli_fail(cmd, "--trace: error writing '%s': %s", paths[k], strerror(errno));
        }
    }
    if (rc != CLI_OK) {
        for (k = 0; k < 4; k++) gsfw_atomic_abort(&files[k]);
        return rc;
    }
    /* the move into place: one run at a time per directory, SIGINT / SIGTERM held */
    return cli_commit_outputs(cmd, files, 4, SOLVE_LOCK_WAIT_S);
}
