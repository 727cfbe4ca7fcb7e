#!/usr/bin/env python3
"""Moving from pcst_fast to gsfw: change the import, keep the call.

    .venv/bin/python examples/python/pcst_fast_migration.py

    # before:  from pcst_fast import pcst_fast
    from gsfw import pcst_fast

The arguments and results are those of pcst_fast's Python module: edges (m, 2), prizes
(n), costs (m), root (-1 for unrooted), num_clusters, pruning ('none', 'simple', 'gw',
'strong'), verbosity_level; it returns (vertices, edges) as int64 arrays, edges being
indices into the input list. gsfw.pcsf is the same solver over a gsfw.Graph.
"""
import numpy as np

from gsfw import pcst_fast

import gsfw

# A small instance: a path 0-1-2-3 with a costly branch 1-4.
edges = np.array([[0, 1], [1, 2], [2, 3], [1, 4]])
prizes = np.array([5.0, 0.0, 1.0, 6.0, 0.5])
costs = np.array([1.0, 1.0, 1.0, 3.0])

vertices, chosen = pcst_fast(edges, prizes, costs, -1, 1, "strong", 0)
print("unrooted, strong pruning: vertices", sorted(vertices.tolist()),
      "edges", sorted(chosen.tolist()))
assert sorted(vertices.tolist()) == [0, 1, 2, 3] and sorted(chosen.tolist()) == [0, 1, 2]

# Rooted at node 4: the tree must contain it (num_clusters = 0 as in pcst_fast).
vertices, chosen = pcst_fast(edges, prizes, costs, 4, 0, "gw", 0)
print("rooted at 4, gw pruning:  vertices", sorted(vertices.tolist()),
      "edges", sorted(chosen.tolist()))
assert 4 in vertices.tolist()

# The native spelling: a graph object built once and reused (no conversion per call).
graph = gsfw.Graph(5, edges, costs)
v2, e2 = gsfw.pcsf(graph, prizes, pruning="strong")
assert sorted(v2.tolist()) == [0, 1, 2, 3]
print("gsfw.pcsf agrees:", sorted(v2.tolist()))
