#include "recover_checks.h"

#include <string.h>

#include "cli.h"

void recover_warn_ignored(const char *cmd, int method, const char *model_text,
                          const char *g_text, const char *l_text, int compat)
{
    const char *name = gsfw_method_name((gsfw_method)method);
    const int plain = method == GSFW_METHOD_IHT || method == GSFW_METHOD_COSAMP;
    if (plain && model_text)
        cli_warn(cmd, "--model is ignored by --method %s (it always uses top-s)", name);
    if (g_text && (plain || (model_text && !strcmp(model_text, "topk"))))
        cli_warn(cmd, "--g is ignored by %s%s (top-s has no components)",
                 plain ? "--method " : "--model ", plain ? name : "topk");
    const int uses_L = method == GSFW_METHOD_ACCFW || method == GSFW_METHOD_IHT ||
                       method == GSFW_METHOD_GRAPH_IHT || method == GSFW_METHOD_GEN_MP;
    if (l_text && !uses_L)
        cli_warn(cmd, "--L is ignored by --method %s (only accfw, iht, graph-iht and gen-mp "
                 "use it)", name);
    const int uses_compat = method == GSFW_METHOD_GRAPH_IHT ||
                            method == GSFW_METHOD_GRAPH_COSAMP || method == GSFW_METHOD_GEN_MP;
    if (compat && !uses_compat)
        cli_warn(cmd, "--reference-compat is ignored by --method %s (it changes graph-iht, "
                 "graph-cosamp and gen-mp only)", name);
}

void recover_warn_dense(const char *cmd, int nnz, int d, int s, int n)
{
    if (2 * (long)nnz <= d) return;
    cli_warn(cmd, "the image is not sparse: %d of its %d pixels (%.0f%%) are nonzero, so "
             "s = %d and n = %d measurements%s; compressive sensing needs few nonzero "
             "pixels: for a dark drawing on a light background pass the inverted image "
             "(1 - img), or threshold the faint pixels to 0", nnz, d, 100.0 * nnz / d, s, n,
             n >= d ? ", more than the pixels" : "");
}
