/* Thread safety, as gsfw.h promises it: objects may be used from several threads as long
 * as one object is not used by two solves at once, and inputs (a graph, the caller's
 * arrays) may be shared read-only. Eight threads run every kind of job at once, each
 * with its own objects, in a different order and several rounds, and every result must
 * be bit for bit the one of a sequential run: iterates, f values, calls counted, supports
 * and PCSF forests. The threads run first, before anything has been computed in the
 * process, so that one-time set-up done on first use would race too. A data race or
 * hidden global state in any solver, oracle, the head/tail search or the PCSF workspace
 * shows up as a difference, or as a report in the ThreadSanitizer build (make
 * test-tsan). */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <cmocka.h>

#include "gsfw.h"
#include "support/oracle_factory.h"
#include "support/planted.h"
#include "util/rng.h"

enum { SIDE = 12, D = SIDE * SIDE, N = 80, ITERS = 25, THREADS = 8, ROUNDS = 3 };
enum { CHORDS = 60, M_MAX = 2 * SIDE * (SIDE - 1) + CHORDS }; /* PCSF instance's edges */

/* Inputs shared by every thread, never written once built. */
static struct {
    gsfw_graph *grid;
    planted_problem prob;
    double z[D];                   /* a vector to project */
    int pcsf_m, *pcsf_u, *pcsf_v;  /* a random PCSF instance on D nodes */
    double *pcsf_cost, pcsf_prize[D];
} in;

typedef enum { JOB_SOLVE, JOB_PROJECT, JOB_PCSF } job_kind;

typedef struct {
    const char *name;
    job_kind kind;
    gsfw_method method;
    gsfw_option option;
    const char *model;           /* solve: head, subgraph, topk, topk-approx, l1 */
    const char *tail;            /* solve: tail oracle of the baselines, or NULL */
    gsfw_proj_kind proj_kind;    /* project */
    gsfw_proj_method proj_method;
} job;

static const job jobs[] = {
    {"accfw head", JOB_SOLVE, GSFW_METHOD_ACCFW, GSFW_OPTION_I, "head", NULL, 0, 0},
    {"fw head II", JOB_SOLVE, GSFW_METHOD_FW, GSFW_OPTION_II, "head", NULL, 0, 0},
    {"fw subgraph", JOB_SOLVE, GSFW_METHOD_FW, GSFW_OPTION_I, "subgraph", NULL, 0, 0},
    {"accfw topk-approx", JOB_SOLVE, GSFW_METHOD_ACCFW, GSFW_OPTION_II, "topk-approx", NULL,
     0, 0},
    {"fw l1", JOB_SOLVE, GSFW_METHOD_FW, GSFW_OPTION_II, "l1", NULL, 0, 0},
    {"graph-iht", JOB_SOLVE, GSFW_METHOD_GRAPH_IHT, GSFW_OPTION_I, "head", "tail", 0, 0},
    {"graph-cosamp", JOB_SOLVE, GSFW_METHOD_GRAPH_COSAMP, GSFW_OPTION_I, "head", "tail", 0, 0},
    {"cosamp", JOB_SOLVE, GSFW_METHOD_COSAMP, GSFW_OPTION_I, "topk", NULL, 0, 0},
    {"gen-mp", JOB_SOLVE, GSFW_METHOD_GEN_MP, GSFW_OPTION_I, "head", "tail", 0, 0},
    {"afw topk", JOB_SOLVE, GSFW_METHOD_AFW, GSFW_OPTION_I, "topk", NULL, 0, 0},
    {"pfw subgraph", JOB_SOLVE, GSFW_METHOD_PFW, GSFW_OPTION_I, "subgraph", NULL, 0, 0},
    {"bpcg head II", JOB_SOLVE, GSFW_METHOD_BPCG, GSFW_OPTION_II, "head", NULL, 0, 0},
    {"theory head", JOB_PROJECT, 0, 0, NULL, NULL, GSFW_PROJ_HEAD, GSFW_PROJ_THEORY},
    {"practical tail", JOB_PROJECT, 0, 0, NULL, NULL, GSFW_PROJ_TAIL, GSFW_PROJ_PRACTICAL},
    {"pcsf", JOB_PCSF, 0, 0, NULL, NULL, 0, 0},
};
enum { NJOBS = sizeof jobs / sizeof jobs[0] };

/* Everything a job produces; compared with memcmp (doubles included, so bit for bit). */
typedef struct {
    int ok;
    double x_last[D], x_best[D], f[ITERS + 1];
    long oracle_calls, pcsf_calls, gradient_calls;
    double lambda; /* projections: the last scale found */
    int iterations, callbacks, size;
    int ids[2 * D];                  /* projections: the two supports */
    int nodes[2][D], edges[2][M_MAX]; /* PCSF: the two forests */
    int n_nodes[2], n_edges[2];
} outcome;

static int count_iterates(const gsfw_iterate *it, const double *x, void *user)
{
    (void)it;
    (void)x;
    ++*(int *)user;
    return 0;
}

static void run_solve(const job *j, outcome *o)
{
    gsfw_objective *obj = NULL;
    gsfw_dmo *dmo = test_oracle(j->model, in.grid, 8);
    gsfw_dmo *tail = j->tail ? test_oracle(j->tail, in.grid, 8) : NULL;
    gsfw_iterate trace[ITERS + 1];
    if (gsfw_objective_least_squares(N, D, in.prob.A, GSFW_ROW_MAJOR, in.prob.y, &obj, NULL) ||
        !dmo || (j->tail && !tail))
        goto out;
    gsfw_result res = {.x_best = o->x_best, .x_last = o->x_last, .trace = trace, .trace_capacity = ITERS + 1, .trace_len = 0};
    gsfw_info info;
    if (gsfw_method_is_baseline(j->method)) {
        gsfw_baseline_settings bst;
        gsfw_baseline_settings_default(&bst);
        bst.method = j->method;
        bst.C = 1.0;
        bst.max_iter = ITERS;
        bst.x_true = in.prob.x_star;
        bst.callback = count_iterates;
        bst.callback_data = &o->callbacks;
        if (gsfw_baseline_solve(obj, dmo, tail, &bst, &res, &info, NULL)) goto out;
    } else {
        if (tail) goto out; /* only the baselines take a tail projection */
        gsfw_settings st;
        gsfw_settings_default(&st);
        st.method = j->method;
        st.option = j->option;
        st.C = 1.0;
        st.max_iter = ITERS;
        st.x_true = in.prob.x_star;
        st.callback = count_iterates;
        st.callback_data = &o->callbacks;
        if (gsfw_solve(obj, dmo, &st, &res, &info, NULL)) goto out;
    }
    for (int t = 0; t < res.trace_len; t++) o->f[t] = trace[t].f;
    o->oracle_calls = info.oracle_calls;
    o->pcsf_calls = gsfw_info_count(&info, "pcsf_calls");
    o->gradient_calls = info.gradient_calls;
    o->iterations = info.iterations;
    o->ok = 1;
out:
    gsfw_objective_free(obj);
    gsfw_dmo_free(dmo);
    gsfw_dmo_free(tail);
}

static void run_project(const job *j, outcome *o)
{
    gsfw_proj_settings ps;
    gsfw_proj_settings_default(&ps, j->proj_kind, 10, 2);
    ps.method = j->proj_method;
    gsfw_headtail *ht = NULL;
    gsfw_proj_info info;
    /* two projections, so that the second starts warm from the first */
    if (!gsfw_headtail_create(in.grid, &ps, &ht, NULL) &&
        !gsfw_headtail_project(ht, in.z, o->ids, &o->size, &info, NULL) &&
        !gsfw_headtail_project(ht, in.prob.x_star, o->ids + D, &o->size, &info, NULL)) {
        o->pcsf_calls = info.pcsf_calls;
        o->lambda = info.lambda;
        o->ok = 1;
    }
    gsfw_headtail_free(ht);
}

static void run_pcsf(outcome *o)
{
    gsfw_pcsf *ws = NULL;
    if (!gsfw_pcsf_create(&ws, NULL)) {
        /* two runs on one workspace: unrooted strong, then rooted gw */
        o->ok = !gsfw_pcsf_run(ws, D, in.pcsf_m, in.pcsf_u, in.pcsf_v, in.pcsf_prize,
                               in.pcsf_cost, -1, 3, GSFW_PRUNING_STRONG, o->nodes[0],
                               &o->n_nodes[0], o->edges[0], &o->n_edges[0], NULL) &&
                !gsfw_pcsf_run(ws, D, in.pcsf_m, in.pcsf_u, in.pcsf_v, in.pcsf_prize,
                               in.pcsf_cost, 5, 0, GSFW_PRUNING_GW, o->nodes[1],
                               &o->n_nodes[1], o->edges[1], &o->n_edges[1], NULL);
    }
    gsfw_pcsf_free(ws);
}

static void run_job(int k, outcome *o)
{
    memset(o, 0, sizeof *o);
    if (jobs[k].kind == JOB_SOLVE) run_solve(&jobs[k], o);
    if (jobs[k].kind == JOB_PROJECT) run_project(&jobs[k], o);
    if (jobs[k].kind == JOB_PCSF) run_pcsf(o);
}

static outcome expected[NJOBS];

typedef struct {
    int id;
    outcome *got;     /* ROUNDS x NJOBS: what this thread computed */
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < NJOBS; i++) {
            /* every thread walks the jobs from a different start and direction */
            int k = (w->id % 2 ? w->id + i : w->id + NJOBS - i) % NJOBS;
            run_job(k, &w->got[r * NJOBS + k]);
        }
    return NULL;
}

static void build_inputs(void)
{
    gsfw_rng rng;
    gsfw_rng_seed(&rng, 2024);
    assert_int_equal(gsfw_graph_grid(SIDE, SIDE, &in.grid, NULL), GSFW_OK);
    in.prob = planted_alloc(N, D, &rng);
    int block[6] = {26, 27, 28, 38, 39, 40};
    for (int k = 0; k < 6; k++) in.prob.x_star[block[k]] = 1.0 + 0.1 * k;
    planted_measure(&in.prob, 1.0);
    for (int i = 0; i < D; i++) in.z[i] = gsfw_rng_normal(&rng);
    /* PCSF: the grid's edges plus random chords, with ties (costs in {1, 2, 3}) */
    const int *grid_u, *grid_v, grid_m = gsfw_graph_edge_count(in.grid);
    gsfw_graph_edges(in.grid, &grid_u, &grid_v, NULL);
    in.pcsf_m = grid_m + CHORDS;
    assert_int_equal(in.pcsf_m, M_MAX);
    in.pcsf_u = malloc(in.pcsf_m * sizeof(int));
    in.pcsf_v = malloc(in.pcsf_m * sizeof(int));
    in.pcsf_cost = malloc(in.pcsf_m * sizeof(double));
    assert_true(in.pcsf_u && in.pcsf_v && in.pcsf_cost);
    for (int e = 0; e < in.pcsf_m; e++) {
        int chord = e >= grid_m;
        in.pcsf_u[e] = chord ? (int)(gsfw_rng_uniform(&rng) * D) : grid_u[e];
        in.pcsf_v[e] = chord ? (int)(gsfw_rng_uniform(&rng) * D) : grid_v[e];
        in.pcsf_cost[e] = 1.0 + (int)(gsfw_rng_uniform(&rng) * 3);
    }
    for (int i = 0; i < D; i++) in.pcsf_prize[i] = (int)(gsfw_rng_uniform(&rng) * 5);
}

static void free_inputs(void)
{
    gsfw_graph_free(in.grid);
    planted_free(&in.prob);
    free(in.pcsf_u);
    free(in.pcsf_v);
    free(in.pcsf_cost);
}

static void test_concurrent_runs_match_sequential(void **state)
{
    (void)state;
    build_inputs();
    /* first the threads, in a process that has not run anything yet */
    worker w[THREADS];
    pthread_t tid[THREADS];
    memset(w, 0, sizeof w);
    for (int t = 0; t < THREADS; t++) {
        w[t].id = t;
        w[t].got = malloc(ROUNDS * NJOBS * sizeof *w[t].got);
        assert_non_null(w[t].got);
        assert_int_equal(pthread_create(&tid[t], NULL, work, &w[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) assert_int_equal(pthread_join(tid[t], NULL), 0);

    /* then each job alone, twice: it must be deterministic (else the comparison below
     * would mean little) and produce something worth comparing */
    outcome *again = malloc(sizeof *again);
    assert_non_null(again);
    for (int k = 0; k < NJOBS; k++) {
        run_job(k, &expected[k]);
        if (!expected[k].ok) fail_msg("job '%s' failed when run alone", jobs[k].name);
        run_job(k, again);
        assert_memory_equal(again, &expected[k], sizeof *again);
    }
    free(again);
    assert_true(expected[0].callbacks == ITERS + 1 && expected[0].pcsf_calls > 0);
    const outcome *pc = &expected[NJOBS - 1];
    assert_true(pc->n_nodes[0] > 1 && pc->n_edges[0] > 0 && pc->n_nodes[1] > 1);

    int total = 0;
    for (int t = 0; t < THREADS; t++) {
        for (int k = 0; k < NJOBS; k++) {
            int differed = 0;
            for (int r = 0; r < ROUNDS; r++)
                differed += memcmp(&w[t].got[r * NJOBS + k], &expected[k], sizeof expected[k]) != 0;
            if (differed)
                fprintf(stderr, "thread %d: job '%s' differed from its sequential run in %d "
                        "of %d rounds\n", t, jobs[k].name, differed, ROUNDS);
            total += differed;
        }
        free(w[t].got);
    }
    free_inputs();
    assert_int_equal(total, 0);
}

int main(void)
{
    /* as gsfw.h advises for threaded callers (ctest sets OPENBLAS_NUM_THREADS=1 too;
     * with OpenBLAS's own threads as well this test takes about a minute instead of half
     * a second, with the same results) */
    openblas_set_num_threads(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_runs_match_sequential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
