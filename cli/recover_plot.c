/* gnuplot driver for the convergence picture of `gsfw recover`.
 *
 * The data and the script go to temporary files (mkstemp in $TMPDIR or /tmp), gnuplot is
 * run with fork/execvp on the script with its output discarded, and the picture is
 * written to a temporary name beside the destination and renamed into place. */
#include "recover_plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

static int make_temp(char *buf, size_t size, const char *name, FILE **fp)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    if ((size_t)snprintf(buf, size, "%s/gsfw-%s-XXXXXX", dir, name) >= size) return -1;
    int fd = mkstemp(buf);
    if (fd < 0) return -1;
    *fp = fdopen(fd, "w");
    if (!*fp) {
        close(fd);
        unlink(buf);
        return -1;
    }
    return 0;
}

/* gnuplot string literal: single quotes, with ' doubled. */
static void put_quoted(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', fp);
        fputc(*s, fp);
    }
    fputc('\'', fp);
}

int recover_plot_convergence(const char *cmd, const char *png_path, const gsfw_iterate *trace,
                             int len, double f_star, const char *title)
{
    char data_path[4096], script_path[4096], tmp_png[4096];
    FILE *data = NULL, *script = NULL;
    int rc = CLI_FAIL;
    data_path[0] = script_path[0] = '\0';
    if ((size_t)snprintf(tmp_png, sizeof tmp_png, "%s.tmp-%ld", png_path, (long)getpid())
        >= sizeof tmp_png)
        return cli_fail(cmd, "output path '%s' is too long", png_path);
    if (make_temp(data_path, sizeof data_path, "trace", &data)) {
        data_path[0] = '\0';
        rc = cli_fail(cmd, "cannot create a temporary file for the plot data: %s",
                      strerror(errno));
        goto done;
    }
    /* t, f - f*, est_err; non-positive values become NaN (not drawn on a log axis) */
    for (int t = 0; t < len; t++) {
        double h = trace[t].f - f_star;
        double e = trace[t].est_err;
        fprintf(data, "%d %.17g %.17g\n", trace[t].iter, h > 0 ? h : NAN,
                e > 0 && isfinite(e) ? e : NAN);
    }
    if (fclose(data)) {
        data = NULL;
        rc = cli_fail(cmd, "cannot write the plot data '%s'", data_path);
        goto done;
    }
    data = NULL;
    if (make_temp(script_path, sizeof script_path, "plot", &script)) {
        script_path[0] = '\0';
        rc = cli_fail(cmd, "cannot create a temporary gnuplot script: %s", strerror(errno));
        goto done;
    }
    fputs("set terminal pngcairo size 1000,420 font 'sans,10'\nset output ", script);
    put_quoted(script, tmp_png);
    fputs("\nset datafile missing 'nan'\nset logscale y\nset grid\nset key off\n"
          "set format y '%.0e'\nset xlabel 't'\nset multiplot layout 1,2 title ", script);
    put_quoted(script, title);
    fputs("\nset title 'f(x_t) - f(x^*)'\nplot ", script);
    put_quoted(script, data_path);
    fputs(" using 1:2 with linespoints pt 7 ps 0.4 lw 1.5\n"
          "set title '||x_t - x^*||_2'\nplot ", script);
    put_quoted(script, data_path);
    fputs(" using 1:3 with linespoints pt 7 ps 0.4 lw 1.5 lc 2\nunset multiplot\nset output\n",
          script);
    if (fclose(script)) {
        script = NULL;
        rc = cli_fail(cmd, "cannot write the gnuplot script '%s'", script_path);
        goto done;
    }
    script = NULL;

    const char *prog = getenv("GSFW_GNUPLOT");
    if (!prog || !*prog) prog = "gnuplot";
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        rc = cli_fail(cmd, "cannot start gnuplot: %s", strerror(errno));
        goto done;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        execlp(prog, prog, script_path, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            rc = cli_fail(cmd, "waiting for gnuplot failed: %s", strerror(errno));
            goto done;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        rc = cli_fail(cmd, "gnuplot not found (looked for '%s'); install gnuplot to get "
                      "convergence.png, or pass --no-plot", prog);
        goto done;
    }
    struct stat st;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(tmp_png, &st) || st.st_size == 0) {
        rc = cli_fail(cmd, "gnuplot ('%s') failed to draw '%s'", prog, png_path);
        goto done;
    }
    if (rename(tmp_png, png_path)) {
        rc = cli_fail(cmd, "cannot write '%s': %s", png_path, strerror(errno));
        goto done;
    }
    rc = CLI_OK;

done:
    if (data) fclose(data);
    if (script) fclose(script);
    if (data_path[0]) unlink(data_path);
    if (script_path[0]) unlink(script_path);
    if (rc != CLI_OK) unlink(tmp_png);
    return rc;
}
