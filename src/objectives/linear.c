/* Smooth losses over a linear operator A (n x d): f(x) = sum_i l((A x)_i; y_i), with the
 * full gsfw_objective interface on top of the operator's four products.
 *
 * The cache holds z = A x_c - y (squared, Huber) or z = A x_c (logistic) and, once a
 * direction d = cx x_c + u is set, A d = cx (z [+ y]) + A u (one apply_sparse): a line
 * search point costs O(n), a step one axpy, the gradient one adjoint.
 *
 * Every sum over rows (values, slopes, A^T g, the intercept's Newton sums, the
 * power-iteration inner products) goes through the reducer, so a process holding a block
 * of rows runs this same code. Sums over the d (replicated) coordinates do not. The
 * minimisation on a support (minimize_on: CGLS, Craig, QR, Newton-CG) is in
 * restricted_solve.c; the intercept's solve and the Lipschitz constant, which both
 * need, in linear_common.c (so that restricted_solve.c calls nothing in this file).
 *
 * Callbacks return 0 or: -1 an operator product failed, -2 the reducer failed, -3 the
 * intercept has no minimiser (every label of one sign), -4 bad arguments to minimize_on
 * or reserve, -5 LAPACK failed (the code_text hook names them). All memory is
 * allocated by the constructor, except the least-squares-on-a-support workspace, which
 * reserve allocates once before a solver's loop. */
#include "core/registry.h"
#include "operators/op_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "objectives/linear_common.h"
#include "util/vec.h"


/* z = A x - y (residual losses) or A x */
static int compute_z(lin_ctx *c, const double *x, double *z)
{
    if (c->loss->residual && gsfw_op_dense_residual(c->A, x, c->y, z)) return 0;
    if (c->A->apply(c->A->ctx, x, z)) return OP_FAILED;
    if (c->loss->residual)
        for (int i = 0; i < c->n; i++) z[i] -= c->y[i];
    return 0;
}

/* f and/or A^T l'(z + b) at a point whose z is given; gbuf: n scratch. */
static int eval_at(lin_ctx *c, const double *z, double *b, double *f, double *grad,
                   double *gbuf)
{
    double shift = 0.0;
    int rc;
    if (c->intercept) {
        if ((rc = gsfw_lin_solve_intercept(c, z, NULL, 0.0, b))) return rc;
        shift = *b;
    }
    if (f) {
        double v = c->loss->sum(&c->par, c->n, z, NULL, 0.0, shift, NULL);
        if (gsfw_lin_reduce(c, &v, 1)) return REDUCER_FAILED;
        *f = v;
    }
    if (grad) {
        const double *g = z;
        if (!c->loss->quadratic) {
            c->loss->deriv(&c->par, c->n, z, shift, gbuf, NULL);
            g = gbuf;
        }
        if (c->A->adjoint(c->A->ctx, g, grad)) return OP_FAILED;
        if (gsfw_lin_reduce(c, grad, c->d)) return REDUCER_FAILED;
    }
    return 0;
}

static int lin_value_grad(void *ctx, const double *x, double *f, double *grad)
{
    lin_ctx *c = ctx;
    int rc = compute_z(c, x, c->wn[0]);
    return rc ? rc : eval_at(c, c->wn[0], &c->b_other, f, grad, c->wn[1]);
}

static int lin_value(void *ctx, const double *x, double *f)
{
    return lin_value_grad(ctx, x, f, NULL);
}

static int lin_gradient(void *ctx, const double *x, double *grad)
{
    return lin_value_grad(ctx, x, NULL, grad);
}

static int lin_reset(void *ctx, const double *x)
{
    lin_ctx *c = ctx;
    return compute_z(c, x, c->z);
}

static int lin_cached_value_grad(void *ctx, double *f, double *grad)
{
    lin_ctx *c = ctx;
    return eval_at(c, c->z, &c->b_c, f, grad, c->wn[0]);
}

/* A d = cx A x_c + A u, with A x_c = z (+ y) from the cache. */
static int lin_set_direction(void *ctx, double cx, int nnz, const int *idx, const double *val)
{
    lin_ctx *c = ctx;
    if (cx != 0.0) {
        if (c->loss->residual)
            for (int i = 0; i < c->n; i++) c->az[i] = cx * (c->z[i] + c->y[i]);
        else
            for (int i = 0; i < c->n; i++) c->az[i] = cx * c->z[i];
    } else {
        memset(c->az, 0, (size_t)c->n * sizeof(double));
    }
    if (nnz > 0 && c->A->apply_sparse(c->A->ctx, nnz, idx, val, 1.0, c->az)) return OP_FAILED;
    c->b_line = c->b_c;
    return 0;
}

/* With an intercept, the slope is the partial derivative at b*(gamma) (envelope
 * theorem): the derivative through b vanishes at the minimiser. */
static int lin_along(void *ctx, double gamma, double *f, double *slope)
{
    lin_ctx *c = ctx;
    double shift = 0.0;
    if (c->intercept) {
        int rc = gsfw_lin_solve_intercept(c, c->z, c->az, gamma, &c->b_line);
        if (rc) return rc;
        shift = c->b_line;
    }
    double s[2];
    s[0] = c->loss->sum(&c->par, c->n, c->z, c->az, gamma, shift, &s[1]);
    if (gsfw_lin_reduce(c, s, 2)) return REDUCER_FAILED;
    if (f) *f = s[0];
    if (slope) *slope = s[1];
    return 0;
}

static int lin_step(void *ctx, double gamma)
{
    lin_ctx *c = ctx;
    if (gamma != 0.0) gsfw_vec_axpy(c->n, gamma, c->az, c->z);
    if (c->intercept) c->b_c = c->b_line;
    return 0;
}

/* Whether x separates the labels of a loss with an unseparated hook: no row of any
 * process with a margin <= 0 (at the intercept fitted at x). */
static int lin_no_minimiser(void *ctx, const double *x, int *out)
{
    lin_ctx *c = ctx;
    double *z = c->wn[0], shift = 0.0;
    int rc = compute_z(c, x, z);
    if (!rc && c->intercept) { /* from the warm start, which stays the solver's */
        shift = c->b_other;
        rc = gsfw_lin_solve_intercept(c, z, NULL, 0.0, &shift);
    }
    if (rc) return rc;
    double count = c->loss->unseparated(&c->par, c->n, z, shift);
    if (gsfw_lin_reduce(c, &count, 1)) return REDUCER_FAILED;
    *out = count == 0.0;
    return 0;
}

static const char *lin_code_text(int code)
{
    switch (code) {
    case OP_FAILED: return "an operator product failed";
    case REDUCER_FAILED: return "the reducer (the sum over processes) failed";
    case NO_INTERCEPT: return "the intercept's minimisation did not converge (labels of one "
                              "sign leave it without a minimiser)";
    case BAD_ARGUMENT: return "bad arguments (a support id out of range or repeated)";
    case LAPACK_FAILED: return "LAPACK's least-squares solve (dgelsy) failed";
    default: return NULL;
    }
}

static void lin_destroy(gsfw_objective *self)
{
    lin_ctx *c = self->ctx;
    if (c) {
        if (c->owned && c->owned->destroy) c->owned->destroy(c->owned);
        free(c->y);
        free(c->z);
        free(c->az);
        for (int i = 0; i < 4; i++) free(c->wn[i]);
        for (int i = 0; i < 5; i++) free(c->wd[i]);
        free(c->pn);
        free(c->mark);
        free(c->dual);
        gsfw_restricted_ls_free(&c->support_ls);
        free(c);
    }
    free(self);
}

/* The definition of the options' loss, or NULL. */
static const gsfw_loss_def *loss_of(const gsfw_loss_options *opt)
{
    return opt->def ? opt->def : gsfw_loss_builtin(opt->loss);
}

static gsfw_error check_inputs(const gsfw_operator *A, int n, const double *y,
                               const gsfw_loss_options *opt, gsfw_err *err)
{
    if (!A) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: the operator A is NULL");
    const char *name = A->name ? A->name : "?";
    if (A->n < 1 || A->d < 1)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "linear objective: the operator '%s' is "
                         "%d x %d; it must be at least 1 x 1", name, A->n, A->d);
    const char *missing = !A->apply ? "apply" : !A->adjoint ? "adjoint"
                          : !A->apply_sparse ? "apply_sparse"
                          : !A->adjoint_sparse ? "adjoint_sparse" : NULL;
    if (missing)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: the operator '%s' has "
                         "no %s hook", name, missing);
    if (!y) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: y is NULL");
    if (n != A->n)
        return gsfw_fail(err, GSFW_ERR_DIMENSION, "linear objective: y has %d entries but the "
                         "operator '%s' has %d rows", n, name, A->n);
    const gsfw_loss_def *loss = loss_of(opt);
    if (!loss)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: unknown loss %d "
                         "(squared = 0, logistic = 1, huber = 2)", (int)opt->loss);
    if (!loss->sum || !loss->deriv || loss->n_params < 0 ||
        loss->n_params > GSFW_LOSS_MAX_PARAMS || (loss->n_params > 0 && !loss->params))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: the loss '%s' lacks "
                         "%s", loss->name ? loss->name : "?",
                         !loss->sum ? "a sum function" : !loss->deriv ? "a deriv function"
                                                                    : "a valid params table");
    for (int k = 0; k < loss->n_params; k++) {
        const gsfw_param *p = &loss->params[k];
        double v = *(const double *)((const char *)opt + p->offset);
        char why[96];
        if (!isfinite(v))
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: %s must be finite, "
                             "got %g", p->name, v);
        if (gsfw_param_check(p, v, why, sizeof why))
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: %s %s, got %g",
                             p->name, why, v);
    }
    if (opt->intercept && !loss->intercept) {
        char with[160] = "";
        int count = 0;
        size_t used = 0;
        const gsfw_entry *e;
        for (int i = 0; (e = gsfw_registry_entry(GSFW_KIND_LOSS, i)); i++)
            if (((const gsfw_loss_def *)e->def)->intercept && used < sizeof with)
                used += (size_t)snprintf(with + used, sizeof with - used, "%s%s",
                                         count++ ? " and " : "", e->name);
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: an intercept is "
                         "supported for the %s loss%s only, not '%s'", with,
                         count > 1 ? "es" : "", gsfw_loss_display_name(loss));
    }
    int pos = 0, neg = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(y[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "linear objective: y[%d] is %g; y must "
                             "be finite", i, y[i]);
        const char *problem = loss->target_problem ? loss->target_problem(y[i]) : NULL;
        if (problem)
            return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: %s %s y[%d] = %g %s",
                             gsfw_loss_display_name(loss),
                             loss->target_word ? loss->target_word : "target", i, y[i], problem);
        pos += y[i] > 0;
        neg += y[i] < 0;
    }
    /* Checkable here for one process; a row block may legitimately hold one class. */
    if (opt->intercept && loss->two_classes && !opt->reducer.sum && (pos == 0 || neg == 0))
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: every label is %s, so "
                         "the intercept has no minimiser (it runs to %s infinity)",
                         pos ? "+1" : "-1", pos ? "+" : "-");
    return GSFW_OK;
}

static gsfw_error build(const gsfw_operator *A, gsfw_operator *owned, int n, const double *y,
                        const gsfw_loss_options *opt_in, gsfw_objective **out, gsfw_err *err)
{
    gsfw_loss_options defaults;
    gsfw_loss_options_default(&defaults);
    const gsfw_loss_options *opt = opt_in ? opt_in : &defaults;
    gsfw_error e = check_inputs(A, n, y, opt, err);
    if (e) return e;
    gsfw_objective *obj = calloc(1, sizeof *obj);
    lin_ctx *c = calloc(1, sizeof *c);
    if (!obj || !c) {
        free(obj);
        free(c);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory");
    }
    obj->ctx = c;
    obj->destroy = lin_destroy;
    c->owned = owned;
    c->A = A;
    c->n = n;
    c->d = A->d;
    c->loss = loss_of(opt);
    c->intercept = opt->intercept != 0;
    c->red = opt->reducer;
    c->lipschitz = -1.0;
    size_t nn = (size_t)n, dd = (size_t)c->d;
    int ok = (c->y = gsfw_malloc_array(nn, sizeof(double))) &&
             (c->z = gsfw_malloc_array(nn, sizeof(double))) &&
             (c->az = gsfw_calloc_array(nn, sizeof(double))) &&
             (c->pn = gsfw_malloc_array(nn + 2 * dd, sizeof(double))) &&
             (c->dual = gsfw_calloc_array(nn ? nn : 1, sizeof(double))) &&
             (c->mark = gsfw_calloc_array(dd, 1));
    for (int i = 0; ok && i < 4; i++) ok = (c->wn[i] = gsfw_malloc_array(nn, sizeof(double))) != NULL;
    for (int i = 0; ok && i < 5; i++) ok = (c->wd[i] = gsfw_malloc_array(dd, sizeof(double))) != NULL;
    if (!ok) {
        lin_destroy(obj);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory for a linear objective with %d "
                         "rows and %d columns", n, c->d);
    }
    memcpy(c->y, y, nn * sizeof(double));
    c->par.y = c->y;
    for (int k = 0; k < c->loss->n_params; k++)
        c->param[k] = *(const double *)((const char *)opt + c->loss->params[k].offset);
    c->par.param = c->param;
    /* the cache starts at x = 0 */
    for (int i = 0; i < n; i++) c->z[i] = c->loss->residual ? -c->y[i] : 0.0;

    obj->d = c->d;
    obj->value = lin_value;
    obj->gradient = lin_gradient;
    obj->value_grad = lin_value_grad;
    obj->reset = lin_reset;
    obj->cached_value_grad = lin_cached_value_grad;
    obj->set_direction = lin_set_direction;
    obj->along = lin_along;
    obj->step = lin_step;
    obj->lipschitz = gsfw_lin_lipschitz;
    obj->minimize_on = gsfw_lin_minimize_on;
    obj->reserve = gsfw_lin_reserve;
    obj->code_text = lin_code_text;
    if (c->loss->unseparated) obj->no_minimiser = lin_no_minimiser;
    obj->quadratic = c->loss->quadratic;
    obj->name = c->loss->name;
    *out = obj;
    return GSFW_OK;
}

gsfw_error gsfw_objective_linear(const gsfw_operator *A, int n, const double *y,
                                 const gsfw_loss_options *opt, gsfw_objective **out,
                                 gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: output pointer is NULL");
    *out = NULL;
    return build(A, NULL, n, y, opt, out, err);
}

gsfw_error gsfw_objective_linear_owning(gsfw_operator *owned, int n, const double *y,
                                        const gsfw_loss_options *opt, gsfw_objective **out,
                                        gsfw_err *err)
{
    gsfw_error e = out ? build(owned, owned, n, y, opt, out, err)
                       : gsfw_fail(err, GSFW_ERR_INVALID_ARG, "linear objective: output "
                                   "pointer is NULL");
    if (e && owned && owned->destroy) owned->destroy(owned);
    return e;
}

const gsfw_operator *gsfw_linear_operator(const void *ctx, const double **y)
{
    const lin_ctx *c = ctx;
    if (y) *y = c->y;
    return c->A;
}

gsfw_error gsfw_objective_intercept(gsfw_objective *obj, const double *x, double *b,
                                    gsfw_err *err)
{
    if (!obj || !b)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "intercept: %s is NULL",
                         !obj ? "the objective" : "the output b");
    if (obj->destroy != lin_destroy || !((lin_ctx *)obj->ctx)->intercept)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "intercept: the objective '%s' fits no "
                         "intercept (only logistic objectives built with intercept = 1 do)",
                         obj->name ? obj->name : "?");
    lin_ctx *c = obj->ctx;
    const double *z = c->z;
    double *warm = &c->b_c;
    if (x) {
        for (int j = 0; j < c->d; j++)
            if (!isfinite(x[j]))
                return gsfw_fail(err, GSFW_ERR_NONFINITE, "intercept: x[%d] is %g; x must be "
                                 "finite", j, x[j]);
        if (compute_z(c, x, c->wn[0]))
            return gsfw_fail(err, GSFW_ERR_CALLBACK, "intercept: the operator '%s' failed",
                             c->A->name ? c->A->name : "?");
        z = c->wn[0];
        warm = &c->b_other;
    }
    int rc = gsfw_lin_solve_intercept(c, z, NULL, 0.0, warm);
    if (rc == REDUCER_FAILED)
        return gsfw_fail(err, GSFW_ERR_CALLBACK, "intercept: the reducer failed");
    if (rc)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "intercept: no minimiser (every label "
                         "of one sign over all processes)");
    *b = *warm;
    return GSFW_OK;
}

double gsfw_objective_linear_memory(double n, double d)
{
    /* y, z, az, dual and four scratch vectors of n; five scratch vectors and the power
     * iteration's of d (and its n); the marks */
    return 8.0 * (9.0 * n + 7.0 * d) + d + 4096.0;
}
