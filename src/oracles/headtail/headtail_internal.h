/* The head / tail projection object, shared by the files of src/oracles/headtail/ (not
 * public API; docs/pcsf.md section 4):
 *  - headtail.c      the object: settings, checks, buffers, the projection's entry point;
 *  - headtail_util.c the helpers the files below share (headtail_util.h): a PCSF run,
 *                    the stored solution, order statistics, prize sums;
 *  - lambda_search.c the practical projection: the lambda-search for a size window;
 *  - size_repair.c   the practical projection's fallback when k(lambda) jumps over the
 *                    window: grow or prune the closest forests into it;
 *  - theory.c        the theory head and tail of Hegde, Indyk & Schmidt (2015);
 *  - headtail_dmo.c  both as DMOs (with the certified practical head).
 * Every buffer is allocated by gsfw_headtail_create; a projection allocates nothing (the
 * PCSF workspace reaches its size on the first call). */
#ifndef GSFW_HEADTAIL_INTERNAL_H
#define GSFW_HEADTAIL_INTERNAL_H

#include "core/internal.h"
#include "oracles/headtail/size_repair.h"

/* Near-miss mode (settings.near_miss): the lambdas of the last two calls relative to the
 * reference prize, centred (the lambda estimated to give the window's centre), and how
 * far each of the two predictors of the next one ("the last" and "the one before") has
 * erred lately. */
typedef struct {
    double log_rho[2];  /* newest first */
    double error[2];
    int count;          /* values remembered, at most 2 */
    int scored;         /* calls on which the predictors were scored */
} gsfw_lambda_memory;

struct gsfw_headtail {
    const gsfw_graph *g;
    gsfw_proj_settings st;
    gsfw_pcsf *ws;
    int ws_borrowed;   /* ws belongs to another projection (gsfw_dmo_headtail_share) */
    int n, m;
    double *prize;     /* n: z_i^2 */
    double *sprize;    /* n: scaled prizes (theory head) */
    double *cost;      /* m: base costs (theory: w + B/s) */
    double *scost;     /* m: scaled costs */
    int *nodes, *edges;        /* PCSF output of the last call */
    int nn, ne;
    int *keep_nodes, *keep_edges; /* a stored solution (lambda_hi / F_lo) */
    int keep_nn, keep_ne;
    double *value_work; /* n: selection scratch for order statistics */
    /* forest pruning scratch */
    int *adj_ptr;      /* n + 1 */
    int *adj_node, *adj_edge; /* 2n */
    int *label;        /* n */
    int *order;        /* n */
    int *tree_start;   /* n + 1 */
    double *tree_prize, *tree_cost; /* n */
    int *tree_rank;    /* n */
    int *tour_node, *tour_edge; /* 2n */
    int *stack, *stack_pos;     /* n */
    unsigned char *mark;        /* n */
    int *out;          /* n: pruned output (theory), best repair candidate (practical) */
    int calls;
    int refined;            /* first_calls no longer applies (the DMO's refine hook) */
    double lambda_prev;     /* lambda of the previous result */
    double rho_prev;        /* lambda_prev / the mean of the s_high largest prizes then */
    int have_prev;
    int prev_missed;        /* the previous result missed its window, not on a near miss
                             * (a jump in k, or the run budget ran out) */
    int jump_located;       /* the last warm search ended on a jump of k(lambda) located
                             * to its tolerance (the next one starts at its lambda) */
    double slope_prev;      /* d log k / d log lambda between the last two runs that
                             * differed (GSFW_HT_SLOPE before any; clamped to [-8, -0.5]);
                             * used by refined searches */
    double ref_now;         /* the current call's reference prize (0: none) */
    double near_miss;       /* settings.near_miss resolved (automatic: by the kind) */
    gsfw_lambda_memory memory; /* near-miss mode: the centred lambdas of past calls */
    int near_missed;        /* this call's search ended on a near miss */
    /* size repair (practical, repair_size = 1): the forests closest to the window seen by
     * this call's search, below (most nodes < s_low) and above (fewest nodes > s_high) */
    gsfw_size_repair *repair;
    int *below_nodes, *above_nodes, *above_edges; /* growth needs no edges */
    int below_nn, above_nn, above_ne; /* -1: none seen */
    int *cand;              /* n: a repair candidate */
};

/* The slope of log k(lambda) against log lambda that the search assumes where it has
 * measured none: k ~ lambda^-1.4 on grids. */
#define GSFW_HT_SLOPE (-1.4)

/* Automatic near-miss mode: the band of head projections. A second PCSF run costs more
 * than the size repair at every graph size measured (docs/benchmarks.md), and the
 * repaired answers solved as many problems or more. */
#define GSFW_HT_NEAR_MISS 0.2

/* Leave the first mode (first_calls) for full searches: 0, or 1 when the projection has
 * no first mode or has left it already (the DMO's refine hook). */
int gsfw_ht_refine(gsfw_headtail *ht);

/* The practical projection (lambda_search.c) and the theory versions (theory.c) of the
 * prizes in ht->prize: the support into ht->nodes / ht->nn, its forest into ht->edges. */
gsfw_error gsfw_ht_practical(gsfw_headtail *ht, gsfw_proj_info *info, gsfw_err *err);
gsfw_error gsfw_ht_theory(gsfw_headtail *ht, gsfw_proj_info *info, gsfw_err *err);

/* The size repair of the practical projection (size_repair.c): remember the current forest
 * when it is the closest to the window so far, and turn the closest ones into a support
 * in the window. */
void gsfw_ht_track_closest(gsfw_headtail *ht);
void gsfw_ht_repair_into_window(gsfw_headtail *ht);

/* Let borrower (a gsfw_dmo_headtail oracle) run its PCSF in owner's workspace instead of
 * its own, which is freed: a workspace grows to the largest instance it has seen and
 * carries nothing from one run to the next, so oracles that never run at the same time
 * (the levels of a multilevel solve, its head and tail) need one, sized for the largest
 * graph. owner must outlive borrower's runs. Both must be gsfw_dmo_headtail oracles. */
void gsfw_dmo_headtail_share(gsfw_dmo *owner, gsfw_dmo *borrower);

#endif
