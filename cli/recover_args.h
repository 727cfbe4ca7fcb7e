/* The flags of `gsfw recover`, parsed and checked (usage errors exit 2). */
#ifndef GSFW_CLI_RECOVER_ARGS_H
#define GSFW_CLI_RECOVER_ARGS_H

#include "gsfw.h"

typedef struct {
    const char *image, *out_dir;
    const char *ratio_text;   /* as given, for messages */
    const char *method_text;  /* as given (NULL: accfw), for messages */
    const char *l_text;       /* --L as given, or NULL */
    const char *sensing;      /* gaussian (default), implicit-gaussian, dct, ... */
    const char *basis;        /* pixel (default), haar, db4 */
    const char *model;        /* head/subgraph/topk, or tree/topk with a wavelet basis */
    double ratio, noise, C;
    double L;                 /* --L as a number, else 0 */
    gsfw_lipschitz_rule l_rule;
    int seed;
    int method, baseline;     /* gsfw_method; 1 for iht, cosamp, graph-*, gen-mp */
    gsfw_step step;
    double tol, tol_rel;      /* 0 when not given; tol_rel 1e-3 when polishing by default */
    int polish;
    int s_given, g_given;     /* 0 when not given */
    int iters;                /* the given count, else the method's default (or the cap of
                                 a run stopped by --tol / --tol-rel) */
    int float32, wavelet, compat, no_plot;
    int max_pixels;
    /* graph subspace pursuit, coarse to fine (recover_pursuit.h): --method graph-sp, or
     * the default for large images; method is then -1 */
    int pursuit;
    int method_auto;          /* --method not given: the image's size may choose graph-sp */
    int fw_only_given;        /* --step, --polish, --L or --reference-compat given */
    int iters_given, tol_given; /* --iters; --tol or --tol-rel */
    const char *levels_text;  /* --levels as given, or NULL (auto) */
} recover_args;

/* The name of the method that runs ("graph-sp" for the pursuit). */
const char *recover_method_name(const recover_args *a);

/* Switch a to graph-sp: --iters (default 50) per level, --tol and --tol-rel on f of the
 * polished answer (default: the library's), always polished. */
void recover_args_use_pursuit(recover_args *a);

/* Parse argv (after the subcommand) into a; usage is printed for --help. Returns CLI_OK,
 * or CLI_USAGE / CLI_FAIL with the message printed. Also applies --max-memory. */
int recover_args_parse(int argc, char **argv, const char *usage, recover_args *a);

#endif
