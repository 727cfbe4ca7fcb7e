/* Memory estimates of the pieces of a run (memory.h). */
#include "core/memory.h"

#include <string.h>

#include "core/internal.h"

double gsfw_memory_estimate(const char *piece, double a, double b)
{
    if (!strcmp(piece, "dense")) return a * b * (double)sizeof(double);
    /* per node the adjacency offsets; per edge both directions of the adjacency (node
     * and edge id), the edge list, a cost and the reader's arrays */
    if (!strcmp(piece, "graph")) return 8.0 * a + 56.0 * b + 4096.0;
    /* kept with the allocations it describes (src/oracles/headtail/) */
    if (!strcmp(piece, "pcsf")) return gsfw_headtail_memory(a, b);
    if (!strcmp(piece, "trace")) return (a + 1.0) * (double)sizeof(gsfw_iterate);
    /* per node a parent, child offset, child, order and subtree size (ints), a root id
     * and a mark byte (src/graph/tree.c), and the quadtree's parents before the copy */
    if (!strcmp(piece, "forest")) return 29.0 * a + 4096.0;
    return -1.0;
}
