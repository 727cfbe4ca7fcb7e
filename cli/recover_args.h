/* The flags of `gsfw recover`, parsed and checked (usage errors exit 2). */
#ifndef GSFW_CLI_RECOVER_ARGS_H
#define GSFW_CLI_RECOVER_ARGS_H

#include "gsfw.h"
#include "params.h"

typedef struct {
    const char *image, *out_dir;
    const char *ratio_text;   /* as given, for messages */
    const char *l_text;       /* --L as given, or NULL */
    /* the registry's choices (names from their rows) */
    const char *method, *model, *sensing, *basis;
    const gsfw_basis_def *basis_def;
    double ratio, noise, C;
    double L;                 /* --L as a number, else 0 */
    gsfw_lipschitz_rule l_rule; /* the rule that estimates L when it is not given */
    int seed;
    int baseline;             /* the method is a baseline */
    int polish;
    int s_given, g_given;     /* 0 when not given */
    int iters;                /* the given count, else the method's typical one (or the cap
                                 of a run stopped by --tol / --tol-rel) */
    int float32, wavelet, no_plot;
    int explicit_matrix;      /* the sensing kind stores the n x d matrix */
    int max_pixels;
    cli_params params;        /* the spec: method, model, step, sensing, basis and values */
    /* graph subspace pursuit, coarse to fine (recover_pursuit.h) */
    const char *pursuit_text; /* --pursuit on|off as given, or NULL (by the image's size) */
    const char *levels_text;  /* --levels as given, or NULL (by the image's size) */
    int pursuit;              /* the run takes it (method is then its name) */
} recover_args;

/* Parse argv (after the subcommand) into a; usage is printed for --help. Returns CLI_OK,
 * or CLI_USAGE / CLI_FAIL with the message printed. Also applies --max-memory. Free with
 * recover_args_free (also after a failure). */
int recover_args_parse(int argc, char **argv, recover_args *a);
void recover_args_free(recover_args *a);

#endif
