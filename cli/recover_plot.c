/* gnuplot driver for the pictures of `gsfw recover`: the convergence plot and the
 * truth | recovered | |error| panel.
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

/* Run gnuplot on the script at script_path, which draws into tmp_png; rename tmp_png to
 * png_path when gnuplot succeeded. */
static int run_gnuplot(const char *cmd, const char *script_path, const char *tmp_png,
                       const char *png_path)
{
    const char *prog = getenv("GSFW_GNUPLOT");
    if (!prog || !*prog) prog = "gnuplot";
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return cli_fail(cmd, "cannot start gnuplot: %s", strerror(errno));
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
        if (errno != EINTR) return cli_fail(cmd, "waiting for gnuplot failed: %s", strerror(errno));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return cli_fail(cmd, "gnuplot not found (looked for '%s'); install gnuplot to get "
                        "convergence.png and panel.png, or pass --no-plot", prog);
    struct stat st;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(tmp_png, &st) || st.st_size == 0)
        return cli_fail(cmd, "gnuplot ('%s') failed to draw '%s'", prog, png_path);
    if (rename(tmp_png, png_path))
        return cli_fail(cmd, "cannot write '%s': %s", png_path, strerror(errno));
    return CLI_OK;
}

/* A picture drawn by a script that write_script writes (given the open script, the
 * temporary PNG name to draw into and ctx), with an optional data file that write_data
 * fills first (its path is passed on to write_script). */
typedef int (*data_writer)(FILE *fp, const void *ctx);
typedef void (*script_writer)(FILE *fp, const char *tmp_png, const char *data_path,
                              const void *ctx);

static int draw(const char *cmd, const char *png_path, data_writer write_data,
                script_writer write_script, const void *ctx)
{
    char data_path[4096], script_path[4096], tmp_png[4096];
    FILE *data = NULL, *script = NULL;
    int rc = CLI_FAIL;
    data_path[0] = script_path[0] = '\0';
    if ((size_t)snprintf(tmp_png, sizeof tmp_png, "%s.tmp-%ld", png_path, (long)getpid())
        >= sizeof tmp_png)
        return cli_fail(cmd, "output path '%s' is too long", png_path);
    if (write_data) {
        if (make_temp(data_path, sizeof data_path, "data", &data)) {
            data_path[0] = '\0';
            rc = cli_fail(cmd, "cannot create a temporary file for the plot data: %s",
                          strerror(errno));
            goto done;
        }
        int bad = write_data(data, ctx);
        int closed = fclose(data);
        data = NULL;
        if (bad || closed) {
            rc = cli_fail(cmd, "cannot write the plot data '%s'", data_path);
            goto done;
        }
    }
    if (make_temp(script_path, sizeof script_path, "plot", &script)) {
        script_path[0] = '\0';
        rc = cli_fail(cmd, "cannot create a temporary gnuplot script: %s", strerror(errno));
        goto done;
    }
    write_script(script, tmp_png, data_path, ctx);
    int closed = fclose(script);
    script = NULL;
    if (closed) {
        rc = cli_fail(cmd, "cannot write the gnuplot script '%s'", script_path);
        goto done;
    }
    rc = run_gnuplot(cmd, script_path, tmp_png, png_path);

done:
    if (data) fclose(data);
    if (script) fclose(script);
    if (data_path[0]) unlink(data_path);
    if (script_path[0]) unlink(script_path);
    if (rc != CLI_OK) unlink(tmp_png);
    return rc;
}

/* ------------------------------------------------------------ convergence */

typedef struct {
    const char *trace_csv;
    double f_star;
    const char *title;
    int has_gap_bound;
} convergence_ctx;

/* One curve of the convergence plot: column name, legend, colour. */
static void curve(FILE *fp, const char *csv, const char *x, const char *expr, const char *legend,
                  int colour, int first)
{
    if (!first) fputs(", \\\n     ", fp);
    put_quoted(fp, csv);
    fprintf(fp, " using (column('%s')):(pos(%s)) with lines lw 2 lc %d title '%s'", x, expr,
            colour, legend);
}

static void convergence_panel(FILE *fp, const convergence_ctx *c, const char *x,
                              const char *xlabel)
{
    fprintf(fp, "set xlabel '%s'\n", xlabel);
    fputs("plot ", fp);
    curve(fp, c->trace_csv, x, "column('f') - fstar", "f(x_t) - f(x^*)", 1, 1);
    curve(fp, c->trace_csv, x, "column('gap')", "Frank-Wolfe gap", 2, 0);
    if (c->has_gap_bound)
        curve(fp, c->trace_csv, x, "column('gap_bound')", "certified gap bound", 4, 0);
    curve(fp, c->trace_csv, x, "column('est_err')", "||x_t - x^*||_2", 3, 0);
    fputc('\n', fp);
}

static void convergence_script(FILE *fp, const char *tmp_png, const char *data_path,
                               const void *ctx)
{
    (void)data_path;
    const convergence_ctx *c = ctx;
    fputs("set terminal pngcairo size 1200,460 font 'sans,10'\nset output ", fp);
    put_quoted(fp, tmp_png);
    fprintf(fp, "\nfstar = %.17g\n", c->f_star);
    /* non-positive values cannot be drawn on a log axis: left out of the curves */
    fputs("pos(v) = v > 0 ? v : NaN\n"
          "set datafile separator ','\nset datafile missing 'nan'\n"
          "set logscale y\nset format y '10^{%L}'\nset grid\n"
          "set key top right box opaque\n"
          "set ylabel 'value (log scale; f = 0.5 ||A x - y||_2^2)'\n"
          "set multiplot layout 1,2 title ", fp);
    put_quoted(fp, c->title);
    fputc('\n', fp);
    fputs("set title 'against iterations'\n", fp);
    convergence_panel(fp, c, "iter", "iteration t");
    fputs("set title 'against solve time'\n", fp);
    convergence_panel(fp, c, "time_s", "time since the start of the solve (s)");
    fputs("unset multiplot\nset output\n", fp);
}

/* Whether the CSV's header line names a column `name`. */
static int csv_has_column(const char *path, const char *name)
{
    FILE *fp = fopen(path, "r");
    if (!fp) return 0;
    char line[1024];
    int found = 0;
    if (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\r\n")] = '\0';
        for (char *tok = strtok(line, ","); tok && !found; tok = strtok(NULL, ","))
            found = !strcmp(tok, name);
    }
    fclose(fp);
    return found;
}

int recover_plot_convergence(const char *cmd, const char *png_path, const char *trace_csv,
                             double f_star, const char *title)
{
    convergence_ctx c = {trace_csv, f_star, title, csv_has_column(trace_csv, "gap_bound")};
    return draw(cmd, png_path, NULL, convergence_script, &c);
}

/* ------------------------------------------------------------------ panel */

/* Pixels of each image in screen pixels (an integer, so that the nearest-neighbour
 * rendering is exact) and the layout around the three images, in screen pixels. */
enum { PANEL_MIN_HEIGHT = 300, PANEL_LEFT = 20, PANEL_GAP = 170, PANEL_RIGHT = 170,
       PANEL_TOP = 70, PANEL_BOTTOM = 20 };

typedef struct {
    const double *truth, *recovered;
    int H, W, k;
    double peak, err_max;
    const char *title;
} panel_ctx;

static int panel_data(FILE *fp, const void *ctx)
{
    const panel_ctx *p = ctx;
    for (int r = 0; r < p->H; r++) {
        for (int c = 0; c < p->W; c++) {
            int i = r * p->W + c;
            fprintf(fp, "%d %d %.9g %.9g %.9g\n", c, r, p->truth[i], p->recovered[i],
                    fabs(p->recovered[i] - p->truth[i]));
        }
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

static void panel_script(FILE *fp, const char *tmp_png, const char *data_path, const void *ctx)
{
    const panel_ctx *p = ctx;
    const int w = p->W * p->k, h = p->H * p->k;
    const int cw = PANEL_LEFT + 3 * w + 2 * PANEL_GAP + PANEL_RIGHT;
    const int ch = PANEL_TOP + h + PANEL_BOTTOM;
    fprintf(fp, "set terminal pngcairo size %d,%d font 'sans,10'\nset output ", cw, ch);
    put_quoted(fp, tmp_png);
    fprintf(fp, "\nset palette defined (0 'black', 1 'white')\nunset tics\nunset key\nset border 0\n"
                "set xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
                "set multiplot title ",
            p->W - 1, p->H - 1);
    put_quoted(fp, p->title);
    fputc('\n', fp);
    const char *titles[3] = {"truth x^*", "recovered x", "|x - x^*|"};
    for (int k = 0; k < 3; k++) {
        const int x0 = PANEL_LEFT + k * (w + PANEL_GAP);
        fprintf(fp, "set lmargin at screen %.6f\nset rmargin at screen %.6f\n"
                    "set tmargin at screen %.6f\nset bmargin at screen %.6f\n",
                (double)x0 / cw, (double)(x0 + w) / cw, 1.0 - (double)PANEL_TOP / ch,
                (double)PANEL_BOTTOM / ch);
        fprintf(fp, "set title '%s'\n", titles[k]);
        const double hi = k < 2 ? p->peak : (p->err_max > 0 ? p->err_max : 1.0);
        fprintf(fp, "set cbrange [0:%.9g]\n", hi);
        if (k == 0) {
            fputs("unset colorbox\n", fp);
        } else {
            fprintf(fp, "set colorbox user origin screen %.6f, screen %.6f size screen %.6f, "
                        "screen %.6f\nset cbtics\nset format cb '%%.2g'\n",
                    (double)(x0 + w + 12) / cw, (double)PANEL_BOTTOM / ch, 16.0 / cw,
                    (double)h / ch);
            fprintf(fp, "set cblabel '%s' offset 1,0\n",
                    k == 1 ? "pixel value of x^* and x (both panels)" : "absolute error");
        }
        fputs("plot ", fp);
        put_quoted(fp, data_path);
        fprintf(fp, " using 1:2:%d with image\n", 3 + k);
    }
    fputs("unset multiplot\nset output\n", fp);
}

int recover_plot_panel(const char *cmd, const char *png_path, const double *truth,
                       const double *recovered, int H, int W, const char *title)
{
    panel_ctx p = {truth, recovered, H, W, 1, 0.0, 0.0, title};
    for (int i = 0; i < H * W; i++) {
        p.peak = fmax(p.peak, truth[i]);
        p.err_max = fmax(p.err_max, fabs(recovered[i] - truth[i]));
    }
    if (!(p.peak > 0)) p.peak = 1.0;
    p.k = (PANEL_MIN_HEIGHT + H - 1) / H;
    if (p.k < 1) p.k = 1;
    return draw(cmd, png_path, panel_data, panel_script, &p);
}
