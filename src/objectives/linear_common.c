/* What a linear objective (linear.c) and its restricted-solve toolbox
 * (restricted_solve.c) both compute over the whole operator: the intercept's 1-D
 * minimisation and the Lipschitz constant of the gradient. Kept below both files so that
 * linear.c -> restricted_solve.c -> here and linear.c -> here, with no call back up.
 * Every sum over rows goes through the reducer, as in linear.c. */
#include "objectives/linear_common.h"
#include "util/vec.h"

#include <math.h>

/* Power iteration (no norm2 hook): the Rayleigh quotient approaches ||A||_2^2 from below
 * at the rate (sigma_2/sigma_1)^2 per step; stopped at a 1e-6 relative change, the
 * remaining error is below 1% unless sigma_2/sigma_1 > 0.9999, hence the 1.01 margin. */
#define POWER_MAX_ITER 1000
#define POWER_TOL 1e-6
#define POWER_MARGIN 1.01
#define NEWTON_MAX_ITER 200  /* intercept: Newton/bisection steps */
#define NEWTON_TOL 1e-12     /* relative step size at convergence */

/* sum_i l'(t_i), in two parts (whole units, the rest: gsfw_loss_def.intercept_sums), and
 * sum_i l''(t_i), t = z + gamma dz + b: the loss's fused sums, or its derivatives row by
 * row */
static void intercept_sums(const lin_ctx *c, const double *z, const double *dz, double gamma,
                           double b, double s[3])
{
    if (c->loss->intercept_sums) {
        c->loss->intercept_sums(&c->par, c->n, z, dz, gamma, b, s);
        return;
    }
    gsfw_loss_params row = c->par;
    double g = 0.0, h = 0.0;
    for (int i = 0; i < c->n; i++) {
        double t = dz ? z[i] + gamma * dz[i] : z[i], gi, hi;
        row.y = c->par.y + i;
        c->loss->deriv(&row, 1, &t, b, &gi, &hi);
        g += gi;
        h += hi;
    }
    s[0] = 0.0;
    s[1] = g;
    s[2] = h;
}

/* b* = argmin_b sum_i l(z_i + gamma dz_i + b) (dz may be NULL), from the warm start *b.
 * phi(b) is convex: Newton steps, kept inside the bracket [lo, hi] that the signs of
 * phi' give (bisection when a step leaves it or is not half the step before the last, as
 * in Numerical Recipes' rtsafe; while one side is still open, doubling, and twice the
 * last step, at most the doubling's, when Newton's steps shrink by less than half). With
 * labels of one sign phi' never changes sign and the search fails. */
int gsfw_lin_solve_intercept(const lin_ctx *c, const double *z, const double *dz, double gamma,
                             double *b)
{
    double lo = -INFINITY, hi = INFINITY, x = isfinite(*b) ? *b : 0.0;
    double dx = INFINITY, dx_old = INFINITY; /* the last two step lengths */
    double newton_last = INFINITY;           /* the length of the last Newton step proposed */
    for (int it = 0; it < NEWTON_MAX_ITER; it++) {
        double parts[3], s[2];
        intercept_sums(c, z, dz, gamma, x, parts);
        if (gsfw_lin_reduce(c, parts, 3)) return REDUCER_FAILED;
        s[0] = parts[0] + parts[1]; /* phi', its units summed over every process first */
        s[1] = parts[2];            /* phi'' */
        if (s[0] == 0.0) {
            *b = x;
            return 0;
        }
        if (s[0] > 0)
            hi = x;
        else
            lo = x;
        double next = s[1] > 0 ? x - s[0] / s[1] : NAN;
        /* a Newton step below the tolerance has converged, even one that rounds to x
         * itself, which the bracket test below would refuse (x is now one of its ends) */
        if (fabs(next - x) <= NEWTON_TOL * (1.0 + fabs(x))) {
            *b = next;
            return 0;
        }
        /* Newton's step, unless it leaves the bracket or is too long: while a side is open,
         * longer than the doubling's (where every row's curvature has underflowed, huge
         * margins, it can land at 1e100, and bisecting back would take hundreds of steps);
         * inside a bracket, not half the step before the last (it creeps where phi' is
         * nearly exponential). Then bisection, or doubling while a side is open. */
        const int bracketed = isfinite(lo) && isfinite(hi);
        const double doubling = fmax(1.0, fabs(x)), newton = fabs(next - x);
        if (!(next > lo && next < hi) || newton > (bracketed ? 0.5 * dx_old : doubling))
            next = bracketed ? 0.5 * (lo + hi) : s[0] > 0 ? x - doubling : x + doubling;
        else if (!bracketed && newton > 0.5 * newton_last)
            /* Newton converging linearly towards the open side: on an exponential tail
             * (phi' ~ e^b, far from the rows of the other label) its steps stay about one
             * unit long, and a minimiser hundreds of units away took hundreds of steps.
             * Twice the last step instead brackets it in a few. */
            next = x + copysign(fmax(newton, fmin(2.0 * dx, doubling)), next - x);
        newton_last = newton;
        if (fabs(next - x) <= NEWTON_TOL * (1.0 + fabs(x))) {
            *b = next;
            return 0;
        }
        dx_old = dx;
        dx = fabs(next - x);
        x = next;
    }
    return NO_INTERCEPT;
}

/* Deterministic power iteration on A^T A through apply / adjoint (the start vector is
 * generic: orthogonal to the top singular vector only on a measure-zero set). */
static int power_iteration(lin_ctx *c, double *out)
{
    int n = c->n, d = c->d;
    double *u = c->pn, *v = c->pn + n, *w = c->pn + n + d;
    for (int j = 0; j < d; j++) v[j] = 1.0 + 0.5 * sin(1.0 + 0.7 * j);
    double nv = gsfw_vec_nrm2(d, v);
    gsfw_vec_scal(d, 1.0 / nv, v);
    double lambda = 0.0;
    for (int it = 0; it < POWER_MAX_ITER; it++) {
        if (c->A->apply(c->A->ctx, v, u) || c->A->adjoint(c->A->ctx, u, w)) return OP_FAILED;
        if (gsfw_lin_reduce(c, w, d)) return REDUCER_FAILED;
        double rq = gsfw_vec_dot(d, v, w);
        double nw = gsfw_vec_nrm2(d, w);
        if (nw == 0.0) {
            lambda = 0.0;
            break;
        }
        for (int j = 0; j < d; j++) v[j] = w[j] / nw;
        double prev = lambda;
        lambda = rq;
        if (it > 0 && fabs(lambda - prev) <= POWER_TOL * fabs(lambda)) break;
    }
    *out = lambda * POWER_MARGIN;
    return 0;
}

/* curvature * ||A||_2^2. A norm2 hook bounds this process's block; the blocks' sum bounds
 * the whole (||A v||^2 = sum_p ||A_p v||^2). */
int gsfw_lin_lipschitz(void *ctx, double *L)
{
    lin_ctx *c = ctx;
    if (c->lipschitz < 0) {
        double a2;
        int rc;
        if (c->A->norm2) {
            if (c->A->norm2(c->A->ctx, &a2)) return OP_FAILED;
            if (gsfw_lin_reduce(c, &a2, 1)) return REDUCER_FAILED;
        } else if ((rc = power_iteration(c, &a2))) {
            return rc;
        }
        c->lipschitz = c->loss->curvature * a2;
    }
    *L = c->lipschitz;
    return 0;
}
