/* The registry: its rows are consistent (names, parameters, defaults), the spec parses,
 * checks and builds what the rows say, entries of one's own stay in their spec, and every
 * built-in of each kind honours its kind's contract, checked here generically so that a
 * new row is tested the moment it is listed:
 *  - a loss: value, gradient and second derivative agree with central differences, the
 *    objective's value is the sum of the row-wise losses, bad targets are refused;
 *  - a step rule: gsfw_solve with it decreases f on a least-squares problem and stays in
 *    the feasible set (the steps it returns lie in [0, gamma_max]);
 *  - a model: select returns distinct ids within its bound, a set its contains hook
 *    accepts, and an exact model (delta = 1) reaches the brute-force optimum of ||z_S||
 *    among the sets the contains hook accepts on a tiny instance;
 *  - a sensing kind: a linear operator whose adjoint and sparse products agree with its
 *    apply (<A x, r> = <x, A^T r>).
 * Specific properties of single built-ins are at the end. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gsfw.h"
#include "support/ref_operator.h"
#include "util/rng.h"

static const char *spell_identity(void *ctx, const char *param)
{
    (void)ctx;
    return param;
}

/* ---- the rows */

static void test_rows_are_consistent(void **state)
{
    (void)state;
    for (int k = 0; k < GSFW_KIND_COUNT; k++) {
        const gsfw_entry *e, *f;
        int defaults = 0, count = 0;
        for (int i = 0; (e = gsfw_registry_entry((gsfw_kind)k, i)); i++, count++) {
            assert_int_equal(e->kind, k);
            assert_non_null(e->summary);
            assert_true(strlen(e->summary) > 10);
            defaults += (e->flags & GSFW_ENTRY_DEFAULT) != 0;
            assert_ptr_equal(gsfw_registry_find((gsfw_kind)k, e->name), e);
            for (int j = 0; j < i; j++) {
                f = gsfw_registry_entry((gsfw_kind)k, j);
                if (!strcmp(e->name, f->name)) fail_msg("two %s called %s", gsfw_kind_name(k), e->name);
            }
            /* every parameter an entry reads is a known one */
            char uses[256];
            snprintf(uses, sizeof uses, "%s", e->uses ? e->uses : "");
            for (char *w = strtok(uses, " "); w; w = strtok(NULL, " ")) {
                w[strcspn(w, "=")] = '\0';
                if (!gsfw_registry_find_param(w))
                    fail_msg("%s %s reads an unknown parameter '%s'", gsfw_kind_name(k), e->name, w);
            }
        }
        assert_true(count >= 2);
        /* one default, except the models: one per structure a problem may offer */
        if (k == GSFW_KIND_MODEL) assert_int_equal(defaults, 3);
        else assert_int_equal(defaults, 1);
        char names[512];
        gsfw_registry_names((gsfw_kind)k, ", ", names, sizeof names);
        assert_non_null(strstr(names, gsfw_registry_entry((gsfw_kind)k, 0)->name));
    }
    const gsfw_param *p, *q;
    for (int i = 0; (p = gsfw_registry_param(i)); i++) {
        for (int j = 0; j < i; j++) {
            q = gsfw_registry_param(j);
            if (!strcmp(p->name, q->name)) fail_msg("two parameters called %s", p->name);
        }
        assert_non_null(p->help);
        if (p->type == GSFW_PARAM_INT || p->type == GSFW_PARAM_DOUBLE)
            assert_true(p->lo <= p->hi);
    }
    /* the enum names of the older API come from the rows */
    assert_string_equal(gsfw_method_name(GSFW_METHOD_GRAPH_COSAMP), "graph-cosamp");
    assert_int_equal(gsfw_method_parse("bpcg"), GSFW_METHOD_BPCG);
    assert_int_equal(gsfw_step_parse("line"), GSFW_STEP_LINE);
    assert_int_equal(gsfw_loss_parse("squared"), GSFW_LOSS_SQUARED);
    assert_string_equal(gsfw_loss_name(GSFW_LOSS_HUBER), "huber");
    assert_int_equal(gsfw_model_needs_graph("head"), 1);
    assert_int_equal(gsfw_model_needs_graph("tree"), 2);
    assert_int_equal(gsfw_model_needs_graph("nope"), -1);
}

static void test_settings_defaults_from_rows(void **state)
{
    (void)state;
    gsfw_settings s;
    gsfw_settings_default(&s);
    assert_int_equal(s.method, GSFW_METHOD_ACCFW);
    assert_int_equal(s.option, GSFW_OPTION_I);
    assert_int_equal(s.step, GSFW_STEP_AUTO);
    assert_true(s.C == 1.0 && s.L == 0.0 && s.delta == 0.0 && s.tol == 0.0);
    assert_int_equal(s.L_rule, GSFW_L_ATOM);
    assert_int_equal(s.max_iter, 100);
    assert_int_equal(s.polish_iters, 200);
    assert_int_equal(s.max_active, 500);
    gsfw_baseline_settings b;
    gsfw_baseline_settings_default(&b);
    assert_int_equal(b.method, GSFW_METHOD_IHT);
    assert_true(b.C == 1.0 && b.L == 0.0);
    assert_int_equal(b.max_iter, 100);
    assert_int_equal(b.inner_iters, 10);
    gsfw_loss_options o;
    gsfw_loss_options_default(&o);
    assert_true(o.loss == GSFW_LOSS_SQUARED && o.huber_delta == 1.0 && !o.intercept);
}

/* ---- the spec */

static gsfw_spec *new_spec(unsigned uses)
{
    gsfw_spec *spec = NULL;
    gsfw_err err;
    assert_int_equal(gsfw_spec_create(uses, &spec, &err), GSFW_OK);
    gsfw_spec_set_spelling(spec, spell_identity, NULL);
    return spec;
}

static void set_ok(gsfw_spec *spec, const char *name, const char *text)
{
    gsfw_err err;
    if (gsfw_spec_set(spec, name, text, &err)) fail_msg("%s=%s: %s", name, text, err.message);
}

static void expect_set_error(gsfw_spec *spec, const char *name, const char *text,
                             const char *phrase)
{
    gsfw_err err;
    assert_int_equal(gsfw_spec_set(spec, name, text, &err), GSFW_ERR_INVALID_ARG);
    if (!strstr(err.message, phrase)) fail_msg("'%s' lacks '%s'", err.message, phrase);
}

static void expect_check_error(gsfw_spec *spec, const char *phrase)
{
    gsfw_err err;
    assert_int_equal(gsfw_spec_check(spec, &err), GSFW_ERR_INVALID_ARG);
    if (!strstr(err.message, phrase)) fail_msg("'%s' lacks '%s'", err.message, phrase);
}

static int has_warning(const gsfw_spec *spec, const char *phrase)
{
    const char *w;
    for (int i = 0; (w = gsfw_spec_warning(spec, i)); i++)
        if (strstr(w, phrase)) return 1;
    return 0;
}

static void test_spec_parses_and_checks(void **state)
{
    (void)state;
    gsfw_spec *spec = new_spec(GSFW_USES_SOLVE);
    expect_set_error(spec, "s", "0", "s must be between 1 and");
    expect_set_error(spec, "s", " 3", "s expects an integer");
    expect_set_error(spec, "C", "-1", "C must be > 0, got -1");
    expect_set_error(spec, "C", "inf", "C expects a finite number");
    expect_set_error(spec, "tol_rel", "1", "tol_rel must be in (0, 1), got 1");
    expect_set_error(spec, "option", "III", "option must be I or II (or 1 or 2), got 'III'");
    expect_set_error(spec, "polish", "maybe", "polish must be on or off");
    expect_set_error(spec, "method", "newton", "unknown method 'newton'");
    expect_set_error(spec, "nope", "1", "unknown parameter 'nope'");
    expect_set_error(spec, "sensing", "dct", "does not apply here");
    /* the values and the entries as set */
    set_ok(spec, "method", "iht");
    set_ok(spec, "model", "topk");
    set_ok(spec, "s", "5");
    set_ok(spec, "loss", "squared"); /* an alias */
    assert_string_equal(gsfw_spec_entry(spec, GSFW_KIND_LOSS)->name, "ls");
    assert_true(gsfw_spec_number(spec, "s") == 5 && gsfw_spec_given(spec, "s"));
    assert_true(gsfw_spec_number(spec, "max_iter") == 100 && !gsfw_spec_given(spec, "max_iter"));
    /* strict parameters of the Frank-Wolfe methods are refused for a baseline; tol is
       also graph-sp's, and the message lists its users */
    set_ok(spec, "polish", "on");
    expect_check_error(spec, "polish belongs to the Frank-Wolfe methods, not to iht");
    set_ok(spec, "tol", "1e-3");
    expect_check_error(spec, "tol needs method fw or accfw or afw or pfw or bpcg or graph-sp");
    gsfw_err err;
    assert_int_equal(gsfw_spec_set_number(spec, "tol", 0, &err), GSFW_OK); /* 0: not given */
    assert_int_equal(gsfw_spec_set_number(spec, "polish", 0, &err), GSFW_OK); /* the default */
    set_ok(spec, "huber_delta", "0.5");
    expect_check_error(spec, "huber_delta needs loss huber");
    set_ok(spec, "loss", "huber");
    /* a value no entry reads: a warning naming who ignores it, and why */
    set_ok(spec, "seed", "3");
    set_ok(spec, "L_rule", "atom");
    expect_check_error(spec, "L_rule atom is a rule of the Frank-Wolfe family");
    set_ok(spec, "method", "fw");
    set_ok(spec, "L_rule", "spectral");
    assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
    assert_true(has_warning(spec, "seed is ignored by model topk (it is deterministic)"));
    assert_true(has_warning(spec, "L_rule is ignored by method fw with step auto"));
    /* values an entry fixes, and the sizes */
    set_ok(spec, "model", "l1");
    expect_check_error(spec, "model l1 needs s 1, got 5");
    set_ok(spec, "s", "1");
    set_ok(spec, "g", "2");
    expect_check_error(spec, "g 2 exceeds s 1");
    set_ok(spec, "g", "1");
    assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
    assert_int_equal(gsfw_spec_bind(spec, 10, NULL, NULL, &err), GSFW_OK);
    gsfw_settings st;
    gsfw_spec_settings(spec, &st);
    assert_int_equal(st.method, GSFW_METHOD_FW);
    assert_int_equal(st.L_rule, GSFW_L_SPECTRAL);
    gsfw_loss_options lo;
    gsfw_spec_loss(spec, NULL, &lo);
    assert_int_equal(lo.loss, GSFW_LOSS_HUBER);
    assert_true(lo.huber_delta == 0.5);
    gsfw_spec_free(spec);

    /* models fit what the problem offers; the default follows it */
    spec = new_spec(GSFW_USES_MODEL);
    gsfw_spec_available(spec, GSFW_NEEDS_TREE);
    assert_string_equal(gsfw_spec_entry(spec, GSFW_KIND_MODEL)->name, "tree");
    set_ok(spec, "model", "head");
    expect_check_error(spec, "model head needs a graph, which this problem does not have");
    gsfw_spec_free(spec);
    spec = new_spec(GSFW_USES_MODEL);
    set_ok(spec, "model", "head");
    set_ok(spec, "s", "4");
    assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
    assert_int_equal(gsfw_spec_bind(spec, 9, NULL, NULL, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "model head needs a graph"));
    assert_int_equal(gsfw_spec_bind(spec, 3, NULL, NULL, &err), GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "s 4 exceeds the dimension d = 3"));
    gsfw_spec_free(spec);

    /* a graph and a tree: the model decides which one is used (the other is ignored with
       a warning); with no model named neither is taken */
    gsfw_graph *graph = NULL;
    gsfw_tree *tree = NULL;
    assert_int_equal(gsfw_graph_grid(4, 4, &graph, &err), GSFW_OK);
    assert_int_equal(gsfw_tree_quadtree(4, 4, &tree, &err), GSFW_OK);
    spec = new_spec(GSFW_USES_MODEL);
    set_ok(spec, "s", "3");
    assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
    assert_int_equal(gsfw_spec_bind(spec, 16, graph, tree, &err), GSFW_ERR_INVALID_ARG);
    assert_string_equal(err.message, "a graph and a tree are given but no model: name one (the "
                                     "graph's: subgraph, head, tail; the tree's: tree, "
                                     "tree-connected)");
    set_ok(spec, "model", "head");
    assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
    assert_int_equal(gsfw_spec_bind(spec, 16, graph, tree, &err), GSFW_OK);
    assert_true(has_warning(spec, "tree is ignored by model head"));
    gsfw_spec_free(spec);
    gsfw_tree_free(tree);
    gsfw_graph_free(graph);
}

/* an oracle of one's own: the first s coordinates, whatever z is */
static int first_select(void *ctx, const double *z, int *support, int *size, gsfw_dmo_stats *st)
{
    (void)z;
    (void)st;
    const int s = *(const int *)ctx;
    for (int k = 0; k < s; k++) support[k] = k;
    *size = s;
    return 0;
}

static void first_destroy(gsfw_dmo *dmo)
{
    free(dmo->ctx);
    free(dmo);
}

static gsfw_error first_build(const gsfw_model_spec *spec, gsfw_dmo **out, gsfw_err *err)
{
    (void)err;
    gsfw_dmo *dmo = calloc(1, sizeof *dmo);
    int *s = malloc(sizeof *s);
    if (!dmo || !s) {
        free(dmo);
        free(s);
        return GSFW_ERR_NOMEM;
    }
    *s = spec->s;
    *dmo = (gsfw_dmo){.d = spec->d, .max_support = spec->s, .delta = 0, .name = "first",
                      .ctx = s, .select = first_select, .destroy = first_destroy};
    *out = dmo;
    return GSFW_OK;
}

static const gsfw_entry first_model = {GSFW_KIND_MODEL, "first", "the first s coordinates",
                                       "s", 0, 0,
                                       &(const gsfw_model_def){.build = first_build}, NULL};

/* An out-of-range integer is quoted as given (the text) or as its exact value (a number),
 * not rounded by %g ("4.29497e+09"); a long text is abbreviated with its digit count. */
static void expect_exact_error(gsfw_spec *spec, const char *name, const char *text,
                               double value, const char *message)
{
    gsfw_err err;
    gsfw_error e = text ? gsfw_spec_set(spec, name, text, &err)
                        : gsfw_spec_set_number(spec, name, value, &err);
    assert_int_equal(e, GSFW_ERR_INVALID_ARG);
    assert_string_equal(err.message, message);
}

static void test_spec_quotes_out_of_range_integers_exactly(void **state)
{
    (void)state;
    gsfw_spec *spec = new_spec(GSFW_USES_SOLVE);
    const char *seed = "seed must be between 0 and 2147483647, got ";
    char want[256], digits[402];
    snprintf(want, sizeof want, "%s4294967296", seed);
    expect_exact_error(spec, "seed", NULL, 4294967296.0, want);
    snprintf(want, sizeof want, "%s18446744073709551616", seed);
    expect_exact_error(spec, "seed", NULL, 18446744073709551616.0, want);
    snprintf(want, sizeof want, "%s1e+300", seed); /* beyond 21 digits: the shortest form */
    expect_exact_error(spec, "seed", NULL, 1e300, want);
    expect_exact_error(spec, "s", NULL, 2147483648.0,
                       "s must be between 1 and 2147483647, got 2147483648");
    expect_exact_error(spec, "max_iter", NULL, -1.0,
                       "max_iter must be between 0 and 100000000, got -1");
    /* texts: beyond a double's exact integers and beyond a long long, as given */
    snprintf(want, sizeof want, "%s9007199254740993", seed);
    expect_exact_error(spec, "seed", "9007199254740993", 0, want);
    snprintf(want, sizeof want, "%s18446744073709551617", seed);
    expect_exact_error(spec, "seed", "18446744073709551617", 0, want);
    memset(digits, '0', sizeof digits - 1);
    digits[0] = '1';
    digits[sizeof digits - 1] = '\0'; /* 10^400 */
    snprintf(want, sizeof want, "%s10000000000000000000...0000 (401 digits)", seed);
    expect_exact_error(spec, "seed", digits, 0, want);
    /* a real parameter's text is counted whole, not after a cut: -10^60 has 61 digits;
       and a choice's code beyond int is quoted, not converted */
    char minus[64] = "-1";
    memset(minus + 2, '0', 60);
    minus[62] = '\0';
    expect_exact_error(spec, "C", minus, 0,
                       "C must be > 0, got -1000000000000000000...0000 (61 digits)");
    expect_exact_error(spec, "option", NULL, 1099511627776.0,
                       "option must be I or II (or 1 or 2), got 1099511627776");
    gsfw_spec_free(spec);
}

static void test_own_entries_stay_in_their_spec(void **state)
{
    (void)state;
    gsfw_spec *mine = new_spec(GSFW_USES_MODEL), *other = new_spec(GSFW_USES_MODEL);
    gsfw_err err;
    assert_int_equal(gsfw_spec_add_entry(mine, &first_model, &err), GSFW_OK);
    assert_int_equal(gsfw_spec_add_entry(mine, &first_model, &err), GSFW_ERR_INVALID_ARG);
    set_ok(mine, "model", "first");
    set_ok(mine, "s", "3");
    expect_set_error(other, "model", "first", "unknown model 'first'");
    assert_null(gsfw_registry_find(GSFW_KIND_MODEL, "first"));
    assert_int_equal(gsfw_spec_check(mine, &err), GSFW_OK);
    assert_int_equal(gsfw_spec_bind(mine, 8, NULL, NULL, &err), GSFW_OK);
    gsfw_dmo *dmo = NULL, *tail = NULL;
    assert_int_equal(gsfw_spec_oracles(mine, &dmo, &tail, &err), GSFW_OK);
    double z[8] = {0, 0, 0, 0, 0, 0, 0, 1};
    int support[3], size = 0;
    assert_int_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0);
    assert_int_equal(size, 3);
    assert_int_equal(support[2], 2);
    gsfw_dmo_free(dmo);
    /* a method of one's own is refused (a method is a solver loop of the library) */
    const gsfw_entry method = {GSFW_KIND_METHOD, "mine", "no", "", 0, 0, &first_model, NULL};
    assert_int_equal(gsfw_spec_add_entry(other, &method, &err), GSFW_ERR_INVALID_ARG);
    gsfw_spec_free(mine);
    gsfw_spec_free(other);
}

/* ---- every loss */

enum { N = 30, D = 8 };

static void random_problem(uint64_t seed, double *A, double *x, double *labels, double *y)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, seed);
    for (int k = 0; k < N * D; k++) A[k] = gsfw_rng_normal(&rng) / sqrt((double)N);
    for (int j = 0; j < D; j++) x[j] = gsfw_rng_normal(&rng);
    for (int i = 0; i < N; i++) {
        labels[i] = gsfw_rng_uniform(&rng) < 0.5 ? -1.0 : 1.0;
        y[i] = 0.5 * gsfw_rng_normal(&rng);
    }
}

/* the targets a loss takes: labels when it refuses plain numbers */
static const double *targets_for(const gsfw_loss_def *def, const double *labels, const double *y)
{
    return def->target_problem && def->target_problem(0.5) ? labels : y;
}

static void test_every_loss_matches_differences(void **state)
{
    (void)state;
    double A[N * D], x[D], labels[N], y[N], g[D], xp[D];
    random_problem(17, A, x, labels, y);
    gsfw_operator *op = ref_dense_operator(N, D, A);
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_LOSS, i)); i++) {
        const gsfw_loss_def *def = e->def;
        const double *t = targets_for(def, labels, y);
        for (int icpt = 0; icpt <= def->intercept; icpt++) {
            gsfw_loss_options opt;
            gsfw_loss_options_def(&opt, def);
            opt.intercept = icpt;
            gsfw_objective *obj = NULL;
            gsfw_err err;
            if (gsfw_objective_linear(op, N, t, &opt, &obj, &err))
                fail_msg("%s: %s", e->name, err.message);
            double f;
            assert_int_equal(obj->value_grad(obj->ctx, x, &f, g), 0);
            /* without an intercept the value is the sum of the row-wise losses */
            if (!icpt) {
                double u[N], sum = 0.0, param[GSFW_LOSS_MAX_PARAMS];
                for (int k = 0; k < def->n_params; k++)
                    param[k] = *(const double *)((const char *)&opt + def->params[k].offset);
                for (int r = 0; r < N; r++) {
                    u[r] = 0.0;
                    for (int j = 0; j < D; j++) u[r] += A[r * D + j] * x[j];
                    if (def->residual) u[r] -= t[r];
                    gsfw_loss_params p = {.y = t + r, .param = param};
                    sum += def->sum(&p, 1, &u[r], NULL, 0.0, 0.0, NULL);
                }
                if (fabs(f - sum) > 1e-12 * (1 + fabs(sum))) fail_msg("%s: f %g, rows %g", e->name, f, sum);
            }
            for (int j = 0; j < D; j++) {
                const double h = 1e-6 * (1 + fabs(x[j]));
                double fp, fm;
                memcpy(xp, x, sizeof xp);
                xp[j] = x[j] + h;
                assert_int_equal(obj->value(obj->ctx, xp, &fp), 0);
                xp[j] = x[j] - h;
                assert_int_equal(obj->value(obj->ctx, xp, &fm), 0);
                const double fd = (fp - fm) / (2 * h);
                if (fabs(fd - g[j]) > 1e-5 * (1 + fabs(g[j])))
                    fail_msg("%s%s: d f / d x_%d = %g, differences %g", e->name,
                             icpt ? "+intercept" : "", j, g[j], fd);
            }
            gsfw_objective_free(obj);
        }
        /* the second derivative the restricted Newton steps use */
        double param[GSFW_LOSS_MAX_PARAMS] = {0};
        for (int k = 0; k < def->n_params; k++) param[k] = def->params[k].def;
        for (int r = 0; r < 5; r++) {
            gsfw_loss_params p = {.y = t + r, .param = param};
            const double z0 = 0.3 * r - 0.7, h = 1e-6;
            double gp, gm, hh, zp = z0 + h, zm = z0 - h;
            def->deriv(&p, 1, &zp, 0.0, &gp, NULL);
            def->deriv(&p, 1, &zm, 0.0, &gm, NULL);
            def->deriv(&p, 1, &z0, 0.0, NULL, &hh);
            if (fabs((gp - gm) / (2 * h) - hh) > 1e-4 * (1 + fabs(hh)))
                fail_msg("%s: l''(%g) = %g, differences %g", e->name, z0, hh, (gp - gm) / (2 * h));
        }
    }
    ref_operator_free(op);
}

/* ---- every step rule */

static void test_every_step_rule_decreases_f(void **state)
{
    (void)state;
    double A[N * D], x[D], labels[N], y[N];
    random_problem(29, A, x, labels, y);
    for (int i = 0; i < N; i++) {
        y[i] = 0.0;
        for (int j = 0; j < 3; j++) y[i] += A[i * D + j];
    }
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_STEP, i)); i++) {
        gsfw_spec *spec = new_spec(GSFW_USES_SOLVE);
        gsfw_err err;
        set_ok(spec, "method", "fw");
        set_ok(spec, "model", "topk");
        set_ok(spec, "s", "3");
        set_ok(spec, "C", "2");
        set_ok(spec, "max_iter", "60");
        set_ok(spec, "step", e->name);
        assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
        assert_int_equal(gsfw_spec_bind(spec, D, NULL, NULL, &err), GSFW_OK);
        gsfw_objective *obj = NULL;
        gsfw_dmo *dmo = NULL;
        assert_int_equal(gsfw_spec_objective_dense(spec, N, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY, y,
                                                   &obj, &err), GSFW_OK);
        assert_int_equal(gsfw_spec_oracles(spec, &dmo, NULL, &err), GSFW_OK);
        gsfw_settings set;
        gsfw_spec_settings(spec, &set);
        double x_last[D];
        gsfw_iterate trace[61];
        gsfw_result res = {.x_last = x_last, .trace = trace, .trace_capacity = 61};
        gsfw_info info;
        if (gsfw_spec_solve(spec, obj, dmo, NULL, &set, &res, &info, &err))
            fail_msg("step %s: %s", e->name, err.message);
        assert_non_null(info.step_rule);
        if (e->def) assert_string_equal(info.step_rule->name, e->name);
        /* f fell well below f(0), and x stays in the C-ball */
        if (!(info.f_best < 0.1 * trace[0].f)) fail_msg("step %s: f_best %g from %g", e->name, info.f_best, trace[0].f);
        double nrm = 0.0;
        for (int j = 0; j < D; j++) nrm += x_last[j] * x_last[j];
        assert_true(sqrt(nrm) <= 2.0 * (1 + 1e-12));
        for (int t = 0; t + 1 < res.trace_len; t++)
            assert_true(trace[t].step >= 0.0 && trace[t].step <= 1.0);
        gsfw_dmo_free(dmo);
        gsfw_objective_free(obj);
        gsfw_spec_free(spec);
    }
}

/* ---- every model */

/* the largest ||z_S||^2 over the supports of at most s nodes that contains() accepts
 * (d <= 12: every subset enumerated) */
static double brute_best(gsfw_dmo *dmo, const double *z, int d, int s)
{
    double best = 0.0;
    int ids[16];
    for (unsigned mask = 1; mask < (1u << d); mask++) {
        int k = 0;
        double e = 0.0;
        for (int i = 0; i < d; i++)
            if (mask & (1u << i)) {
                ids[k++] = i;
                e += z[i] * z[i];
            }
        if (k <= s && e > best && dmo->contains(dmo->ctx, ids, k) == 1) best = e;
    }
    return best;
}

static void test_every_model_selects_sets_of_the_model(void **state)
{
    (void)state;
    enum { SIDE = 3, DM = SIDE * SIDE };
    gsfw_graph *graph = NULL;
    gsfw_tree *tree = NULL;
    gsfw_err err;
    assert_int_equal(gsfw_graph_grid(SIDE, SIDE, &graph, &err), GSFW_OK);
    const int parent[DM] = {-1, 0, 0, 1, 1, 2, 2, 3, 3};
    assert_int_equal(gsfw_tree_from_parents(DM, parent, &tree, &err), GSFW_OK);
    const double z[DM] = {0.3, -2.0, 0.1, 1.5, 0.2, -0.4, 0.9, -1.1, 0.05};
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_MODEL, i)); i++) {
        gsfw_spec *spec = new_spec(GSFW_USES_MODEL);
        set_ok(spec, "model", e->name);
        const char *s_text = strstr(e->uses, "s=1") ? "1" : "3";
        set_ok(spec, "s", s_text);
        assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
        if (gsfw_spec_bind(spec, DM, (e->needs & GSFW_NEEDS_GRAPH) ? graph : NULL,
                           (e->needs & GSFW_NEEDS_TREE) ? tree : NULL, &err))
            fail_msg("model %s: %s", e->name, err.message);
        gsfw_dmo *dmo = NULL;
        if (gsfw_spec_oracles(spec, &dmo, NULL, &err)) fail_msg("model %s: %s", e->name, err.message);
        int support[DM], size = -1;
        assert_int_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0);
        assert_true(size >= 1 && size <= dmo->max_support);
        int seen[DM] = {0};
        double energy = 0.0;
        for (int k = 0; k < size; k++) {
            assert_true(support[k] >= 0 && support[k] < DM);
            assert_int_equal(seen[support[k]]++, 0);
            energy += z[support[k]] * z[support[k]];
        }
        if (dmo->contains) {
            if (dmo->delta > 0) assert_int_equal(dmo->contains(dmo->ctx, support, size), 1);
            if (dmo->delta == 1.0) {
                const double best = brute_best(dmo, z, DM, dmo->model_size ? dmo->model_size : atoi(s_text));
                if (energy < best * (1 - 1e-12)) fail_msg("model %s: %g below the best %g", e->name, energy, best);
            }
        }
        gsfw_dmo_free(dmo);
        gsfw_spec_free(spec);
    }
    gsfw_graph_free(graph);
    gsfw_tree_free(tree);
}

/* ---- every sensing kind */

static void test_every_sensing_kind_is_linear(void **state)
{
    (void)state;
    enum { SIDE = 8, DS = SIDE * SIDE, NS = 20 };
    const gsfw_entry *e;
    for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_SENSING, i)); i++) {
        gsfw_spec *spec = new_spec(GSFW_USES_SENSING);
        gsfw_err err;
        set_ok(spec, "sensing", e->name);
        set_ok(spec, "seed", "5");
        assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
        const gsfw_sensing_spec sizes = {.n = NS, .height = SIDE, .width = SIDE};
        gsfw_operator *op = NULL;
        if (gsfw_spec_sensing(spec, &sizes, &op, &err)) fail_msg("%s: %s", e->name, err.message);
        assert_int_equal(op->n, NS);
        assert_int_equal(op->d, DS);
        double x[DS], r[NS], ax[NS], atr[DS], some[3];
        gsfw_rng rng;
        gsfw_rng_seed(&rng, 11);
        for (int j = 0; j < DS; j++) x[j] = gsfw_rng_normal(&rng);
        for (int k = 0; k < NS; k++) r[k] = gsfw_rng_normal(&rng);
        assert_int_equal(op->apply(op->ctx, x, ax), 0);
        assert_int_equal(op->adjoint(op->ctx, r, atr), 0);
        double lhs = 0.0, rhs = 0.0, scale = 0.0;
        for (int k = 0; k < NS; k++) lhs += ax[k] * r[k];
        for (int j = 0; j < DS; j++) {
            rhs += x[j] * atr[j];
            scale += fabs(x[j] * atr[j]);
        }
        if (fabs(lhs - rhs) > 1e-5 * scale) fail_msg("%s: <Ax, r> = %g, <x, A^T r> = %g", e->name, lhs, rhs);
        /* the sparse products are restrictions of the full ones */
        const int idx[3] = {2, 17, 40};
        const double val[3] = {1.5, -0.5, 2.0};
        double ys[NS] = {0}, col[DS] = {0}, yd[NS];
        for (int k = 0; k < 3; k++) col[idx[k]] = val[k];
        assert_int_equal(op->apply_sparse(op->ctx, 3, idx, val, 1.0, ys), 0);
        assert_int_equal(op->apply(op->ctx, col, yd), 0);
        for (int k = 0; k < NS; k++) assert_true(fabs(ys[k] - yd[k]) <= 1e-5 * (1 + fabs(yd[k])));
        assert_int_equal(op->adjoint_sparse(op->ctx, r, 3, idx, some), 0);
        for (int k = 0; k < 3; k++) assert_true(fabs(some[k] - atr[idx[k]]) <= 1e-5 * (1 + fabs(atr[idx[k]])));
        gsfw_operator_free(op);
        gsfw_spec_free(spec);
    }
}

/* ---- memory estimates */

static void test_memory_estimates_grow_with_the_problem(void **state)
{
    (void)state;
    gsfw_spec *spec = new_spec(GSFW_USES_SOLVE | GSFW_USES_SENSING);
    set_ok(spec, "model", "head");
    set_ok(spec, "method", "graph-iht");
    const gsfw_sizes small = {.n = 100, .d = 400, .nodes = 400, .edges = 760, .iters = 10};
    const gsfw_sizes big = {.n = 1000, .d = 40000, .nodes = 40000, .edges = 79600, .iters = 10};
    const double a = gsfw_spec_memory(spec, &small), b = gsfw_spec_memory(spec, &big);
    /* two PCSF projections, the explicit Gaussian matrix and the objective, at least */
    assert_true(a >= 2 * gsfw_headtail_memory(400, 760) + 8.0 * 100 * 400);
    assert_true(b > 50 * a);
    gsfw_spec_free(spec);
}

/* ---- single built-ins */

/* The squared hinge against its formula; with an intercept, labels of one sign are
 * separable by the intercept alone: f = 0 (the logistic loss has no minimiser there). */
static void test_squared_hinge(void **state)
{
    (void)state;
    double A[N * D], x[D], labels[N], y[N];
    random_problem(41, A, x, labels, y);
    gsfw_spec *spec = new_spec(GSFW_USES_LOSS);
    gsfw_err err;
    set_ok(spec, "loss", "squared-hinge");
    gsfw_operator *op = ref_dense_operator(N, D, A);
    gsfw_objective *obj = NULL;
    assert_int_equal(gsfw_spec_objective(spec, op, N, labels, NULL, &obj, &err), GSFW_OK);
    double f, want = 0.0;
    assert_int_equal(obj->value(obj->ctx, x, &f), 0);
    for (int i = 0; i < N; i++) {
        double t = 0.0;
        for (int j = 0; j < D; j++) t += A[i * D + j] * x[j];
        const double m = fmax(0.0, 1.0 - labels[i] * t);
        want += 0.5 * m * m;
    }
    assert_true(fabs(f - want) <= 1e-12 * want);
    gsfw_objective_free(obj);
    for (int i = 0; i < N; i++) labels[i] = 1.0;
    set_ok(spec, "intercept", "on");
    assert_int_equal(gsfw_spec_objective(spec, op, N, labels, NULL, &obj, &err), GSFW_OK);
    assert_int_equal(obj->value(obj->ctx, x, &f), 0);
    assert_true(f == 0.0);
    double b;
    assert_int_equal(gsfw_objective_intercept(obj, x, &b, &err), GSFW_OK);
    assert_true(b > 0);
    gsfw_objective_free(obj);
    labels[3] = 0.5;
    assert_int_equal(gsfw_spec_objective(spec, op, N, labels, NULL, &obj, &err),
                     GSFW_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "squared-hinge label y[3] = 0.5 is not -1 or +1"));
    ref_operator_free(op);
    gsfw_spec_free(spec);
}

/* Armijo's steps decrease f at every iterate, on an objective that is not quadratic too. */
static void test_armijo_is_monotone(void **state)
{
    (void)state;
    double A[N * D], x[D], labels[N], y[N];
    random_problem(53, A, x, labels, y);
    for (int i = 0; i < N; i++) y[i] = A[i * D] - A[i * D + 1] + A[i * D + 2];
    for (int l = 0; l < 2; l++) {
        gsfw_spec *spec = new_spec(GSFW_USES_SOLVE);
        gsfw_err err;
        set_ok(spec, "method", "fw");
        set_ok(spec, "step", "armijo");
        set_ok(spec, "loss", l ? "logistic" : "ls");
        set_ok(spec, "model", "topk");
        set_ok(spec, "s", "3");
        set_ok(spec, "C", "3");
        set_ok(spec, "max_iter", "40");
        assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
        assert_int_equal(gsfw_spec_bind(spec, D, NULL, NULL, &err), GSFW_OK);
        gsfw_objective *obj = NULL;
        gsfw_dmo *dmo = NULL;
        assert_int_equal(gsfw_spec_objective_dense(spec, N, D, A, GSFW_ROW_MAJOR, GSFW_OP_COPY,
                                                   l ? labels : y, &obj, &err), GSFW_OK);
        assert_int_equal(gsfw_spec_oracles(spec, &dmo, NULL, &err), GSFW_OK);
        gsfw_settings set;
        gsfw_spec_settings(spec, &set);
        assert_int_equal(set.step, GSFW_STEP_AUTO); /* no enum value: by its rule */
        assert_non_null(set.step_rule);
        gsfw_iterate trace[41];
        gsfw_result res = {.trace = trace, .trace_capacity = 41};
        gsfw_info info;
        assert_int_equal(gsfw_spec_solve(spec, obj, dmo, NULL, &set, &res, &info, &err), GSFW_OK);
        assert_string_equal(info.step_rule->name, "armijo");
        for (int t = 0; t + 1 < res.trace_len; t++) assert_true(trace[t + 1].f <= trace[t].f);
        if (!l) assert_true(trace[res.trace_len - 1].f < 0.5 * trace[0].f);
        gsfw_dmo_free(dmo);
        gsfw_objective_free(obj);
        gsfw_spec_free(spec);
    }
}

/* The interval model finds a planted burst among louder isolated spikes, and its
 * contains hook accepts runs only. */
static void test_interval_finds_a_burst(void **state)
{
    (void)state;
    enum { DI = 200 };
    double z[DI];
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 61);
    for (int i = 0; i < DI; i++) z[i] = 0.1 * gsfw_rng_normal(&rng);
    for (int i = 120; i < 130; i++) z[i] += 1.0;
    z[10] = z[50] = 2.5; /* top-10 would take these */
    gsfw_spec *spec = new_spec(GSFW_USES_MODEL);
    gsfw_err err;
    set_ok(spec, "model", "interval");
    set_ok(spec, "s", "10");
    assert_int_equal(gsfw_spec_check(spec, &err), GSFW_OK);
    assert_int_equal(gsfw_spec_bind(spec, DI, NULL, NULL, &err), GSFW_OK);
    gsfw_dmo *dmo = NULL;
    assert_int_equal(gsfw_spec_oracles(spec, &dmo, NULL, &err), GSFW_OK);
    int support[10], size;
    assert_int_equal(dmo->select(dmo->ctx, z, support, &size, NULL), 0);
    assert_int_equal(size, 10);
    for (int k = 0; k < 10; k++) assert_int_equal(support[k], 120 + k);
    const int run[3] = {7, 5, 6}, gap[3] = {5, 6, 8};
    assert_int_equal(dmo->contains(dmo->ctx, run, 3), 1);
    assert_int_equal(dmo->contains(dmo->ctx, gap, 3), 0);
    gsfw_dmo_free(dmo);
    gsfw_spec_free(spec);
}

/* The Rademacher matrix: entries +-1/sqrt(n) (columns of unit norm exactly), about half
 * of each sign, a function of the seed; recover measures through it. */
static void test_rademacher_entries(void **state)
{
    (void)state;
    enum { NR = 50, SIDE = 10, DR = SIDE * SIDE };
    gsfw_spec *spec = new_spec(GSFW_USES_SENSING);
    gsfw_err err;
    set_ok(spec, "sensing", "rademacher");
    set_ok(spec, "seed", "9");
    const gsfw_sensing_spec sizes = {.n = NR, .height = SIDE, .width = SIDE};
    gsfw_operator *op = NULL, *again = NULL;
    assert_int_equal(gsfw_spec_sensing(spec, &sizes, &op, &err), GSFW_OK);
    assert_int_equal(gsfw_spec_sensing(spec, &sizes, &again, &err), GSFW_OK);
    double e[DR] = {0}, col[NR], col2[NR];
    int positive = 0;
    for (int j = 0; j < DR; j++) {
        e[j] = 1.0;
        assert_int_equal(op->apply(op->ctx, e, col), 0);
        assert_int_equal(again->apply(again->ctx, e, col2), 0);
        e[j] = 0.0;
        double norm2 = 0.0;
        for (int i = 0; i < NR; i++) {
            assert_true(fabs(fabs(col[i]) * sqrt((double)NR) - 1.0) < 1e-15);
            assert_true(col[i] == col2[i]);
            positive += col[i] > 0;
            norm2 += col[i] * col[i];
        }
        assert_true(fabs(norm2 - 1.0) < 1e-12);
    }
    assert_true(positive > 0.45 * NR * DR && positive < 0.55 * NR * DR);
    gsfw_operator_free(op);
    gsfw_operator_free(again);
    /* y = A x + noise from the kind's seed, as gsfw recover measures */
    double x[DR] = {0}, y[NR], noise_sq;
    x[3] = 1.0;
    assert_int_equal(gsfw_spec_measure(spec, &sizes, x, 0.0, y, &noise_sq, &op, &err), GSFW_OK);
    assert_true(noise_sq == 0.0 && fabs(fabs(y[0]) * sqrt((double)NR) - 1.0) < 1e-15);
    gsfw_operator_free(op);
    gsfw_spec_free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_are_consistent),
        cmocka_unit_test(test_settings_defaults_from_rows),
        cmocka_unit_test(test_spec_parses_and_checks),
        cmocka_unit_test(test_spec_quotes_out_of_range_integers_exactly),
        cmocka_unit_test(test_own_entries_stay_in_their_spec),
        cmocka_unit_test(test_every_loss_matches_differences),
        cmocka_unit_test(test_every_step_rule_decreases_f),
        cmocka_unit_test(test_every_model_selects_sets_of_the_model),
        cmocka_unit_test(test_every_sensing_kind_is_linear),
        cmocka_unit_test(test_memory_estimates_grow_with_the_problem),
        cmocka_unit_test(test_squared_hinge),
        cmocka_unit_test(test_armijo_is_monotone),
        cmocka_unit_test(test_interval_finds_a_burst),
        cmocka_unit_test(test_rademacher_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
