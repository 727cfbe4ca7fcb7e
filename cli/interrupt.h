/* SIGINT and SIGTERM end a run at the next safe point instead of killing it midway.
 *
 * The handler only records the signal; the commands poll cli_interrupted() between
 * iterations (through the solver's callback) and around their final output move, then
 * clean up and return cli_interrupted_exit(). A second signal of the same kind while the
 * first is still being acted on is ignored (the run is already ending). */
#ifndef GSFW_CLI_INTERRUPT_H
#define GSFW_CLI_INTERRUPT_H

#include "gsfw.h"

/* Install the handler for SIGINT and SIGTERM (signals ignored at start, as under nohup,
 * stay ignored). Returns 0, or -1 when sigaction fails. */
int cli_interrupt_install(void);
/* The signal received so far (SIGINT or SIGTERM), or 0. */
int cli_interrupted(void);
/* Block (block = 1) or unblock SIGINT and SIGTERM for a step that must complete as a
 * unit; a signal arriving meanwhile is delivered, and recorded, at the unblock. */
void cli_interrupt_block(int block);
/* Print "gsfw CMD: interrupted (SIGINT); WHAT" and return the shell's status for the
 * signal, 128 + its number (130 for SIGINT, 143 for SIGTERM). */
int cli_interrupted_exit(const char *cmd, const char *what);
/* A gsfw_settings callback that stops the solver once a signal was recorded. */
int cli_interrupt_callback(const gsfw_iterate *it, const double *x, void *user);

#endif
