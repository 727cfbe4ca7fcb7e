/* Convergence plot of `gsfw recover` through gnuplot (run with fork/exec; the program is
 * $GSFW_GNUPLOT when set, else "gnuplot" on PATH). */
#ifndef GSFW_CLI_RECOVER_PLOT_H
#define GSFW_CLI_RECOVER_PLOT_H

#include "gsfw.h"

/* Write a PNG with two log-scale panels against t: f(x_t) - f_star and est_err
 * (||x_t - x*||). The picture is drawn into a temporary file next to png_path and renamed
 * into place, so a failure leaves nothing behind. Returns CLI_OK or CLI_FAIL (message
 * printed; "gnuplot not found" when it cannot be run). */
int recover_plot_convergence(const char *cmd, const char *png_path, const gsfw_iterate *trace,
                             int len, double f_star, const char *title);

#endif
