/* The warning of `gsfw dmo --model head|tail` and `gsfw tail` when a projection returns
 * fewer than s nodes. With the size repair that happens only when the graph has no set of
 * s nodes in g connected pieces (the projection then returns the g pieces of largest
 * energy, whole), so the message says how many nodes its g largest components hold. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

static int cmp_desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y);
}

/* Nodes in the gc largest components of g, or -1 when out of memory. */
static long reachable_nodes(const gsfw_graph *g, int gc)
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
        for (int k = 0; k < count && k < gc; k++) total += sizes[k];
    }
    free(label);
    free(sizes);
    return total;
}

void cli_warn_short_support(const char *cmd, const char *what, const gsfw_graph *g, int size,
                            int s, int gc)
{
    if (size >= s) return;
    fprintf(stderr, "%s %s: warning: the %s projection returned %d node%s, below s = %d",
            cli_program(), cmd, what, size, size == 1 ? "" : "s", s);
    long reach = reachable_nodes(g, gc);
    if (reach >= 0 && reach < s) {
        if (gc == 1)
            fprintf(stderr, ": the graph has no set of %d nodes in 1 component (its largest "
                    "component has %ld node%s)", s, reach, reach == 1 ? "" : "s");
        else
            fprintf(stderr, ": the graph has no set of %d nodes in %d components (its %d "
                    "largest components have %ld nodes)", s, gc, gc, reach);
    }
    fputc('\n', stderr);
}
