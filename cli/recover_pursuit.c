/* `gsfw recover --method graph-sp` (see recover_pursuit.h). */
#include "recover_pursuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"

int recover_pursuit_wanted(const recover_args *a, int height, int width)
{
    return !a->wavelet && !strcmp(a->model, "head") &&
           (double)height * width >= (double)GSFW_PYRAMID_MIN_PIXELS;
}

int recover_parse_levels(const char *cmd, const char *text, int height, int width,
                         gsfw_pyramid_settings *st)
{
    gsfw_pyramid_settings_default(st, height, width);
    if (!text || !strcmp(text, "auto")) return CLI_OK;
    st->n_coarse = 0;
    if (!strcmp(text, "none")) return CLI_OK;
    for (const char *p = text;;) {
        char *end;
        long b = strtol(p, &end, 10);
        if (end == p || b < 2 || b > 65536 || (*end && *end != ','))
            return cli_usage_error(cmd, "--levels: '%s' is not auto, none or a list of block "
                                   "sides >= 2 such as 4,2", text);
        if (st->n_coarse == GSFW_PYRAMID_MAX_COARSE)
            return cli_usage_error(cmd, "--levels: at most %d coarse levels, got '%s'",
                                   GSFW_PYRAMID_MAX_COARSE, text);
        if (st->n_coarse > 0 && (b >= st->blocks[st->n_coarse - 1] ||
                                 st->blocks[st->n_coarse - 1] % b))
            return cli_usage_error(cmd, "--levels: the block sides must decrease, each a "
                                   "multiple of the next; got %d then %ld in '%s'",
                                   st->blocks[st->n_coarse - 1], b, text);
        st->blocks[st->n_coarse++] = (int)b;
        if (!*end) return CLI_OK;
        p = end + 1;
    }
}

int recover_pursuit_setup(const char *cmd, const recover_args *a, const gsfw_operator *A,
                          const double *y, int height, int width, int s, int g,
                          gsfw_pyramid **out)
{
    gsfw_pyramid_settings st;
    int rc = recover_parse_levels(cmd, a->levels_text, height, width, &st);
    if (rc) return rc;
    gsfw_err err;
    if (gsfw_pyramid_image(A, y, height, width, s, g, NULL, &st, out, &err))
        return cli_fail(cmd, "graph-sp: %s", err.message);
    return CLI_OK;
}

/* SIGINT / SIGTERM stop the run between iterations of any level. */
static int interrupt_any_level(int level, const gsfw_iterate *it, const double *x, void *user)
{
    (void)level;
    return cli_interrupt_callback(it, x, user);
}

gsfw_error recover_pursuit_run(const gsfw_pyramid *pyr, const recover_args *a,
                               const double *truth, gsfw_result *res, gsfw_info *info,
                               gsfw_info *level_info, gsfw_err *err)
{
    gsfw_pursuit_settings set;
    gsfw_pursuit_settings_default(&set);
    set.max_iter = a->iters;
    set.tol = a->tol;
    if (a->tol_rel > 0) set.tol_rel = a->tol_rel;
    set.x_true = truth;
    set.callback = interrupt_any_level;
    int n_levels = 0;
    const gsfw_level *levels = gsfw_pyramid_levels(pyr, &n_levels);
    return gsfw_multilevel_solve(levels, n_levels, &set, res, info, level_info, err);
}

void recover_pursuit_fields(const gsfw_pyramid *pyr, const gsfw_info *level_info)
{
    int n = 0;
    gsfw_pyramid_levels(pyr, &n);
    printf(" levels=%d", n);
    static const char *const names[] = {"level_s", "level_iters", "level_oracle_calls",
                                        "level_pcsf_calls", "level_oracle_s",
                                        "level_gradient_s"};
    for (int f = 0; f < 6; f++) {
        printf(" %s=", names[f]);
        for (int k = 0; k < n; k++) {
            const gsfw_info *li = &level_info[k];
            if (k) putchar(',');
            switch (f) {
            case 0: printf("%d", gsfw_pyramid_sparsity(pyr, k)); break;
            case 1: printf("%d", li->iterations); break;
            case 2: printf("%ld", li->oracle_calls); break;
            case 3: printf("%ld", li->pcsf_calls); break;
            case 4: printf("%.3f", li->oracle_time); break;
            default: printf("%.3f", li->gradient_time); break;
            }
        }
    }
}
