#!/usr/bin/env python3
"""Moving from pcst_fast to gsfw: change the import, keep every call.

    .venv/bin/python examples/python/pcst_fast_migration.py

    # before:  from pcst_fast import pcst_fast
    from gsfw import pcst_fast

gsfw.pcst_fast takes pcst_fast's arguments with its rules (edges (m, 2), prizes (n),
costs (m), root -1 for unrooted, num_clusters: the trees to keep, 1 for a rooted call,
pruning 'none' | 'simple' | 'gw' | 'strong', verbosity_level) and returns what it
returns: (vertices, edges) as int32 arrays, in the same order, edges being indices into
the input list. Code written as `import pcst_fast; pcst_fast.pcst_fast(...)` switches
with `import gsfw as pcst_fast`. gsfw.pcsf is the same solver over a gsfw.Graph, for
repeated calls on one graph.
"""
import numpy as np

import gsfw
from gsfw import pcst_fast

# A small network: a path 0-1-2-3 with a costly branch 1-4.
edges = np.array([[0, 1], [1, 2], [2, 3], [1, 4]])
prizes = np.array([5.0, 0.0, 1.0, 6.0, 0.5])
costs = np.array([1.0, 1.0, 1.0, 3.0])

vertices, chosen = pcst_fast(edges, prizes, costs, -1, 1, "strong", 0)
print("unrooted, strong pruning: vertices", vertices, "edges", chosen, vertices.dtype)
assert vertices.dtype == np.int32
assert sorted(vertices.tolist()) == [0, 1, 2, 3] and sorted(chosen.tolist()) == [0, 1, 2]

# Rooted at node 4: the tree must contain it. As in pcst_fast, a rooted call asks for
# one cluster (num_clusters = 1).
vertices, chosen = pcst_fast(edges, prizes, costs, 4, 1, "gw", 0)
print("rooted at 4, gw pruning:  vertices", vertices, "edges", chosen)
assert 4 in vertices.tolist()

# verbosity_level 1 prints a summary line, as pcst_fast prints its progress.
pcst_fast(edges, prizes, costs, -1, 2, "gw", 1)

# The native spelling: a graph object built once and reused (no conversion per call).
graph = gsfw.Graph(5, edges, costs)
v2, e2 = gsfw.pcsf(graph, prizes, pruning="strong")
assert v2.tolist() == pcst_fast(edges, prizes, costs, -1, 1, "strong", 0)[0].tolist()
print("gsfw.pcsf agrees:", v2)
