/* Pictures of `gsfw recover` through gnuplot (run with fork/exec; the program is
 * $GSFW_GNUPLOT when set, else "gnuplot" on PATH). Each is drawn into a temporary file
 * next to png_path and renamed into place, so a failure leaves nothing behind. Both
 * return CLI_OK or CLI_FAIL (message printed; "gnuplot not found" when it cannot run). */
#ifndef GSFW_CLI_RECOVER_PLOT_H
#define GSFW_CLI_RECOVER_PLOT_H

/* Convergence of a run from its trace CSV (columns iter, time_s, f, gap, est_err and,
 * when present, gap_bound): f(x_t) - f_star, the Frank-Wolfe gap, the certified gap
 * bound and ||x_t - x*|| on a log axis, against iterations (left) and solve time
 * (right). */
int recover_plot_convergence(const char *cmd, const char *png_path, const char *trace_csv,
                             double f_star, const char *title);

/* truth | recovered | |recovered - truth| side by side (H x W row-major images), each
 * image pixel drawn as a k x k block with k the smallest integer making the images at
 * least 300 pixels tall; truth and recovered share one grey scale from 0 to max(truth),
 * labelled by a colour bar, the error has its own bar from 0 to its maximum. */
int recover_plot_panel(const char *cmd, const char *png_path, const double *truth,
                       const double *recovered, int H, int W, const char *title);

#endif
