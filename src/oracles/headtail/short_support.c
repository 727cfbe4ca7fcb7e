/* The warning of a head or tail projection that returned fewer than s nodes (the command
 * line's gsfw dmo and gsfw tail, and Python's gsfw.dmo / head / tail print it). With the
 * size repair that happens only when the graph has no set of s nodes in g connected
 * pieces (the projection then returns the g pieces of largest energy, whole), so the
 * message says how many nodes its g largest components hold. */
#include "core/internal.h"

#include <stdio.h>
#include <stdlib.h>

static int cmp_desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y);
}

/* Nodes in the gc largest components of g (*used: how many there are, at most gc), or
 * -1 when out of memory. */
static long reachable_nodes(const gsfw_graph *g, int gc, int *used)
{
    int n = gsfw_graph_nodes(g);
    int *label = malloc((size_t)n * sizeof *label);
    int *sizes = calloc((size_t)n, sizeof *sizes);
    int count = 0;
    long total = -1;
    if (label && sizes && gsfw_graph_components(g, label, &count, NULL) == GSFW_OK) {
        for (int i = 0; i < n; i++) sizes[label[i]]++;
        qsort(sizes, (size_t)count, sizeof *sizes, cmp_desc);
        total = 0;
        *used = 0;
        for (int k = 0; k < count && k < gc; k++, ++*used) total += sizes[k];
    }
    free(label);
    free(sizes);
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
