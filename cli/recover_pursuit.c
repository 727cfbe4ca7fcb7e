/* gsfw recover's pursuit path (see recover_pursuit.h). */
#include "recover_pursuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outputs.h"

#define RECOVER_PURSUIT_ITERS 50

/* the flags of the Frank-Wolfe methods' path, as given on the command line (the spec
 * also holds recover's own defaults): with one of them, the user asked for that path;
 * skip_method: --method names the pursuit's own method, which asks for the pursuit */
static int fw_path_asked(const cli_params *cp, int skip_method)
{
    static const char *const asked[] = {"method", "model", "step", "polish", "L", "restarts",
                                        NULL};
    for (int k = 0; asked[k]; k++) {
        if (skip_method && !strcmp(asked[k], "method")) continue;
        if (cli_params_text(cp, asked[k])) return 1;
    }
    return 0;
}

/* the method of the pursuit path (the registry's one-level graph-sp row) */
static const gsfw_entry *pursuit_method(void)
{
    return gsfw_registry_find(GSFW_KIND_METHOD, gsfw_method_name(GSFW_METHOD_GRAPH_SP));
}

int recover_pursuit_choose(const char *cmd, recover_args *a, int height, int width)
{
    const gsfw_spec *spec = a->params.spec;
    const cli_params *cp = &a->params;
    const char *mode = a->pursuit_text; /* NULL: chosen by the image's size */
    const int pixels_default_model =
        !a->wavelet && !cli_params_text(cp, "model") &&
        (gsfw_spec_entry(spec, GSFW_KIND_MODEL)->needs & GSFW_NEEDS_GRAPH) != 0;
    const int sp = cli_params_text(cp, "method") &&
                   gsfw_spec_entry(spec, GSFW_KIND_METHOD) == pursuit_method();
    /* --method graph-sp on the pixels of the default model asks for the pursuit at every
       size (the coarse levels come by the image's size, none below
       GSFW_PYRAMID_MIN_PIXELS); elsewhere it runs one level, as in `gsfw solve` */
    if (!mode && sp && pixels_default_model) mode = "on";
    int take;
    if (!mode) {
        take = pixels_default_model && !fw_path_asked(cp, 0) &&
               (double)height * width >= (double)GSFW_PYRAMID_MIN_PIXELS;
    } else if (!strcmp(mode, "off")) {
        take = 0;
    } else if (!strcmp(mode, "on")) {
        if (!pixels_default_model)
            return cli_usage_error(cmd, "--pursuit on works on pixels with the grid's projections "
                                   "of its default model: drop --basis and --model");
        if (fw_path_asked(cp, sp))
            return cli_usage_error(cmd, a->pursuit_text
                                   ? "--pursuit on takes no --method other than %s, no "
                                     "--step, --polish, --L or --restarts (it always polishes "
                                     "and needs no L)"
                                   : "--method %s on pixels takes the pursuit path, which "
                                     "takes no --step, --polish, --L or --restarts (it always "
                                     "polishes and needs no L); --pursuit off runs it on one "
                                     "level", pursuit_method()->name);
        take = 1;
    } else {
        return cli_usage_error(cmd, "--pursuit must be on or off, got '%s'", mode);
    }
    if (!take) {
        if (a->levels_text)
            return cli_usage_error(cmd, "--levels sets the coarse levels of the pursuit path, "
                                   "which this run does not take (see --pursuit)");
        return CLI_OK;
    }
    a->pursuit = 1;
    a->method = pursuit_method()->name;
    a->baseline = 0;
    a->polish = 1;
    a->iters = gsfw_spec_given(spec, "max_iter") ? (int)gsfw_spec_number(spec, "max_iter")
                                                 : RECOVER_PURSUIT_ITERS;
    return CLI_OK;
}

/* --levels: none, or block sides "4,2"; not given: the defaults of the image's size */
static int parse_levels(const char *cmd, const char *text, int height, int width,
                        gsfw_pyramid_settings *st)
{
    gsfw_pyramid_settings_default(st, height, width);
    if (!text) return CLI_OK;
    st->n_coarse = 0;
    if (!strcmp(text, "none")) return CLI_OK;
    for (const char *p = text;;) {
        char *end;
        long b = strtol(p, &end, 10);
        if (end == p || b < 2 || b > 65536 || (*end && *end != ','))
            return cli_usage_error(cmd, "--levels: '%s' is neither none nor a list of block "
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
    int rc = parse_levels(cmd, a->levels_text, height, width, &st);
    if (rc) return rc;
    gsfw_err err;
    if (gsfw_pyramid_image(A, y, height, width, s, g, NULL, &st, out, &err))
        return cli_fail(cmd, "%s: %s", pursuit_method()->name, err.message);
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
    const gsfw_spec *spec = a->params.spec;
    gsfw_pursuit_settings set;
    gsfw_pursuit_settings_default(&set);
    set.max_iter = a->iters;
    /* only what the user typed: recover's defaults for the Frank-Wolfe path (tol_rel
     * 1e-3, a stop at a good-enough iterate before the polish) would end a level long
     * before the exact fit the pursuit's own default asks for */
    const cli_params *cp = &a->params;
    if (cli_params_text(cp, "tol")) set.tol = gsfw_spec_number(spec, "tol");
    if (cli_params_text(cp, "tol_rel")) set.tol_rel = gsfw_spec_number(spec, "tol_rel");
    if (cli_params_text(cp, "time_limit")) set.time_limit = gsfw_spec_number(spec, "time_limit");
    /* graph-sp's own setting (under --pursuit on the spec holds a Frank-Wolfe method,
       which has warned that it ignores it) */
    if (gsfw_spec_entry(spec, GSFW_KIND_METHOD) == pursuit_method() &&
        cli_params_text(cp, "inner_iters"))
        set.inner_iters = (int)gsfw_spec_number(spec, "inner_iters");
    set.x_true = truth;
    set.callback = interrupt_any_level;
    int n_levels = 0;
    const gsfw_level *levels = gsfw_pyramid_levels(pyr, &n_levels);
    return gsfw_multilevel_solve(levels, n_levels, &set, res, info, level_info, err);
}

void recover_pursuit_fields(const gsfw_pyramid *pyr, const gsfw_info *level_info, char *buf,
                            size_t cap)
{
    int n = 0;
    gsfw_pyramid_levels(pyr, &n);
    size_t used = 0;
#define PUT(...)                                                                           \
    do {                                                                                   \
        int w_ = snprintf(buf + used, cap - used, __VA_ARGS__);                            \
        if (w_ > 0 && (size_t)w_ < cap - used) used += (size_t)w_;                         \
    } while (0)
    buf[0] = '\0';
    PUT(" levels=%d", n);
    static const char *const names[] = {"level_s", "level_iters", "level_oracle_calls",
                                        "level_pcsf_calls", "level_oracle_s",
                                        "level_gradient_s"};
    for (int f = 0; f < 6; f++) {
        PUT(" %s=", names[f]);
        for (int k = 0; k < n; k++) {
            const gsfw_info *li = &level_info[k];
            if (k) PUT(",");
            switch (f) {
            case 0: PUT("%d", gsfw_pyramid_sparsity(pyr, k)); break;
            case 1: PUT("%d", li->iterations); break;
            case 2: PUT("%ld", li->oracle_calls); break;
            case 3: PUT("%ld", gsfw_info_count(li, "pcsf_calls")); break;
            case 4: PUT("%.3f", li->oracle_time); break;
            default: PUT("%.3f", li->gradient_time); break;
            }
        }
    }
#undef PUT
}
