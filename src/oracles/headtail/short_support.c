/* The warning of a head or tail projection that returned fewer than s nodes (the command
 * line's gsfw dmo and gsfw tail, and Python's gsfw.dmo / head / tail print it). With the
 * size repair that happens only when the graph has no set of s nodes in g connected
 * pieces (the projection then returns the g pieces of largest energy, whole), so the
 * message says how many nodes its g largest components hold. */
#include "oracles/headtail/size_repair.h"

#include <stdio.h>

/* Nodes in the gc largest components of g, as the size repair counts them (*used: how
 * many components that is, at most gc), or -1 when out of memory. */
static long reachable_nodes(const gsfw_graph *g, int gc, int *used)
{
    gsfw_size_repair *r;
    if (gsfw_size_repair_create(g, &r, NULL) != GSFW_OK) return -1;
    const int ncomp = gsfw_size_repair_components(r);
    *used = gc < ncomp ? gc : ncomp;
    const long total = gsfw_size_repair_reachable(r, gc);
    gsfw_size_repair_free(r);
    return total;
}

int gsfw_proj_short_support_text(const gsfw_graph *graph, const char *what, int size, int s,
                                 int g, char *buf, size_t cap)
{
    if (!buf || !cap) return 0;
    buf[0] = '\0';
    if (size >= s || !graph) return 0;
    int used = snprintf(buf, cap, "the %s projection returned %d node%s, below s = %d",
                        what ? what : "head", size, size == 1 ? "" : "s", s);
    int pieces = 0;
    long reach = g > 0 ? reachable_nodes(graph, g, &pieces) : -1;
    if (used < 0 || (size_t)used >= cap || reach < 0 || reach >= s) return 1;
    char *tail = buf + used;
    const size_t room = cap - (size_t)used;
    if (g == 1)
        snprintf(tail, room, ": the graph has no set of %d nodes in 1 component (its largest "
                 "component has %ld node%s)", s, reach, reach == 1 ? "" : "s");
    else if (pieces < g) /* fewer components than asked: all of them */
        snprintf(tail, room, ": the graph has no set of %d nodes in %d components (its %d "
                 "component%s %s %ld node%s in all)", s, g, pieces, pieces == 1 ? "" : "s",
                 pieces == 1 ? "has" : "have", reach, reach == 1 ? "" : "s");
    else
        snprintf(tail, room, ": the graph has no set of %d nodes in %d components (its %d "
                 "largest components have %ld nodes)", s, g, g, reach);
    return 1;
}
