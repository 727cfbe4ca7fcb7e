#include "recover_checks.h"

#include "cli.h"

void recover_warn_dense(const char *cmd, int nnz, int d, int s, int n)
{
    if (2 * (long)nnz <= d) return;
    cli_warn(cmd, "the image is not sparse: %d of its %d pixels (%.0f%%) are nonzero, so "
             "s = %d and n = %d measurements%s; compressive sensing needs few nonzero "
             "pixels: for a dark drawing on a light background pass the inverted image "
             "(1 - img), or threshold the faint pixels to 0", nnz, d, 100.0 * nnz / d, s, n,
             n >= d ? ", more than the pixels" : "");
}
