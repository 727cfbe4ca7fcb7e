/* A DMO run on rank 0 and broadcast: the alternative to running the (deterministic)
 * oracle on every rank, measured in docs/mpi.md. */
#include "mpi/gsfw_mpi.h"

#include "core/internal.h"

#include <string.h>

typedef struct {
    gsfw_dmo *inner;
    MPI_Comm comm;
    int rank;
    int *msg; /* rc, size, the oracle's counts, then max_support ids */
} root_ctx;

enum { HEAD = 2 + GSFW_DMO_COUNTERS };

static int root_select(void *ctx, const double *z, int *support, int *size,
                       gsfw_dmo_stats *stats)
{
    root_ctx *c = ctx;
    int cap = c->inner->max_support;
    if (c->rank == 0) {
        gsfw_dmo_stats local = {{0}};
        int sz = 0;
        int rc = c->inner->select(c->inner->ctx, z, c->msg + HEAD, &sz, &local);
        c->msg[0] = rc;
        c->msg[1] = rc ? 0 : sz;
        for (int k = 0; k < GSFW_DMO_COUNTERS; k++) c->msg[2 + k] = (int)local.count[k];
    }
    /* the whole buffer: a message of known length needs no second broadcast */
    if (MPI_Bcast(c->msg, HEAD + cap, MPI_INT, 0, c->comm) != MPI_SUCCESS) return -1;
    if (c->msg[0]) return c->msg[0];
    *size = c->msg[1];
    memcpy(support, c->msg + HEAD, (size_t)c->msg[1] * sizeof(int));
    for (int k = 0; stats && k < GSFW_DMO_COUNTERS; k++) stats->count[k] += c->msg[2 + k];
    return 0;
}

static int root_reset(void *ctx)
{
    root_ctx *c = ctx;
    return c->inner->reset ? c->inner->reset(c->inner->ctx) : 0;
}

static int root_contains(void *ctx, const int *support, int size)
{
    root_ctx *c = ctx;
    return c->inner->contains(c->inner->ctx, support, size);
}

static void root_destroy(gsfw_dmo *self)
{
    if (!self) return;
    root_ctx *c = self->ctx;
    if (c) free(c->msg);
    free(c);
    free(self);
}

gsfw_error gsfw_mpi_dmo_root(gsfw_dmo *inner, MPI_Comm *comm, gsfw_dmo **out, gsfw_err *err)
{
    if (!out || !inner || !comm || !inner->select)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "rank-0 oracle: %s is NULL",
                         !out ? "out" : !inner ? "the oracle" : !comm ? "comm"
                                                  : "the oracle's select");
    *out = NULL;
    gsfw_dmo *dmo = calloc(1, sizeof *dmo);
    root_ctx *c = calloc(1, sizeof *c);
    int *msg = c ? gsfw_malloc_array((size_t)inner->max_support + HEAD, sizeof(int)) : NULL;
    if (!dmo || !c || !msg) {
        free(dmo);
        free(c);
        free(msg);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "rank-0 oracle: out of memory");
    }
    c->inner = inner;
    c->comm = *comm;
    c->msg = msg;
    MPI_Comm_rank(c->comm, &c->rank);
    *dmo = *inner;
    dmo->ctx = c;
    dmo->select = root_select;
    dmo->reset = root_reset;
    dmo->contains = inner->contains ? root_contains : NULL;
    dmo->destroy = root_destroy;
    *out = dmo;
    return GSFW_OK;
}
