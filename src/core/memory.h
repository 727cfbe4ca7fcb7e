/* What a run will allocate, estimated from its sizes before it allocates, so that the
 * command-line tools can refuse a run that cannot fit instead of being killed halfway
 * through. One call, so that the registry's per-entry estimates replace these in one
 * place. Not part of the public API. */
#ifndef GSFW_MEMORY_H
#define GSFW_MEMORY_H

/* Bytes of one piece of a run (doubles, so that no product overflows):
 *   "dense"  a x b matrix of doubles
 *   "graph"  gsfw_graph with a nodes and b edges (adjacency, edge lists, costs, and the
 *            reader's arrays it is built from)
 *   "pcsf"   one head or tail projection on such a graph (its copies of prizes and costs
 *            and the PCSF workspace)
 *   "trace"  a trace of a + 1 iterates (b unused)
 *   "forest" gsfw_tree (a rooted forest) with a nodes, as built from parents or as a
 *            quadtree (b unused)
 * -1 for an unknown piece. */
double gsfw_memory_estimate(const char *piece, double a, double b);

#endif
