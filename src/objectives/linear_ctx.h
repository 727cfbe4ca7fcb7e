/* The state of a linear objective (linear.c), shared with its restricted-solve toolbox
 * (restricted_solve.c) and with what both of them call (linear_common.c). Not part of
 * the public API. */
#ifndef GSFW_OBJECTIVES_LINEAR_CTX_H
#define GSFW_OBJECTIVES_LINEAR_CTX_H

#include "objectives/linear.h"
#include "objectives/restricted_ls.h"

/* What the callbacks return besides 0 (the code_text hook names them). */
enum {
    OP_FAILED = -1,
    REDUCER_FAILED = -2,
    NO_INTERCEPT = -3,
    BAD_ARGUMENT = -4,
    LAPACK_FAILED = -5
};

typedef struct {
    const gsfw_operator *A;
    gsfw_operator *owned; /* destroyed with the objective (convenience constructors) */
    const gsfw_loss_def *loss;
    gsfw_loss_params par;
    double param[GSFW_LOSS_MAX_PARAMS]; /* par.param points here */
    gsfw_reducer red;
    int intercept;
    int n, d;
    double *y;      /* n */
    double *z;      /* n: A x_c - y or A x_c */
    double *az;     /* n: A d */
    double b_c;     /* warm start of the intercept at x_c */
    double b_line;  /* warm start along the current direction */
    double b_other; /* warm start for uncached points and minimize_on */
    double *wn[4];  /* n-sized scratch */
    double *wd[5];  /* d-sized scratch */
    double *pn;     /* n + 2d: power iteration */
    unsigned char *mark; /* d: distinct-id check of minimize_on */
    double *dual;        /* n: Craig's dual variable, kept between minimize_on calls */
    int have_dual;
    double lipschitz;    /* cached, < 0 until computed */
    gsfw_restricted_ls support_ls; /* squared loss, cheap columns, one process: reserve's */
    int gathered;        /* 1 while support_ls.cols holds the current support's columns */
} lin_ctx;

/* The sum over processes of count doubles of buf (nothing for one process). */
static inline int gsfw_lin_reduce(const lin_ctx *c, double *buf, int count)
{
    if (!c->red.sum) return 0;
    return c->red.sum(c->red.ctx, buf, count) ? REDUCER_FAILED : 0;
}

/* The restricted-solve toolbox (restricted_solve.c): the objective's reserve and
 * minimize_on hooks. */
int gsfw_lin_reserve(void *ctx, int max_support);
int gsfw_lin_minimize_on(void *ctx, int k, const int *support, double *w, int max_iter,
                         double tol, double *f);

#endif
