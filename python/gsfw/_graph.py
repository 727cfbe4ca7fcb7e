"""gsfw.Graph: an immutable undirected graph, with converters from networkx and scipy."""
import numpy as np

from . import _gsfw
from ._checks import int32


class Graph(_gsfw.Graph):
    """Undirected graph over nodes 0..n-1.

    Graph(n, edges, costs=None): edges is an (m, 2) integer array, costs m non-negative
    numbers (None: unit costs). Edge order is kept (PCSF outputs refer to it).
    Properties: n, m, edges ((m, 2) int64), costs (float64 or None). Graphs made by
    from_networkx keep the node labels: .nodes (label of node i) and .index (label -> i).
    """

    nodes = None
    index = None

    def __init__(self, n, edges, costs=None):
        super().__init__(int32("n", n), edges, costs)

    @classmethod
    def grid(cls, h, w):
        """The h x w 4-neighbour grid, node r*w + c, unit costs; edges per node in
        row-major order: (i, i+1) if not in the last column, then (i, i+w) if not in the
        last row."""
        return cls._grid(int32("h", h), int32("w", w))

    @classmethod
    def from_networkx(cls, G, cost=None):
        """Graph of a networkx graph, with unit edge costs unless cost names an attribute.

        Node labels map to 0..n-1 in G.nodes order (kept as .nodes, label of node i, and
        .index, label -> i). cost=None (default): unit costs, whatever the edges carry
        (networkx's `weight`, and STRING-style confidences, measure strength, not the
        price of using an edge). cost='attr': the PCSF cost of each edge is that
        attribute, a number >= 0 every edge must have. Directed graphs are read as
        undirected: a pair of reciprocal edges u->v, v->u becomes one edge (with the
        larger cost), as from_scipy does; so do the parallel edges of a multigraph.
        Self-loops are dropped.
        """
        if not (hasattr(G, "nodes") and hasattr(G, "edges")):
            raise TypeError("G must be a networkx graph (with .nodes and .edges), got %s"
                            % type(G).__name__)
        if cost is not None and not isinstance(cost, str):
            raise TypeError("cost must be None (unit costs) or the name of an edge attribute, "
                            "got %s %r" % (type(cost).__name__, cost))
        nodes = list(G.nodes)
        index = {v: i for i, v in enumerate(nodes)}
        first = {}  # unordered pair -> (edge as first seen, cost); in G.edges order
        for u, v, data in G.edges(data=True):
            if u == v:
                continue  # a self-loop says nothing about connectivity
            a, b = index[u], index[v]
            c = 1.0
            if cost is not None:
                if cost not in data:
                    raise ValueError("edge (%r, %r) has no attribute %r (cost=%r needs it on "
                                     "every edge)" % (u, v, cost, cost))
                c = float(data[cost])
            key = (a, b) if a < b else (b, a)
            if key in first:
                c = max(c, first[key][1])
            first[key] = (first.get(key, ((a, b), c))[0], c)
        edges = np.asarray([e for e, _ in first.values()], dtype=np.int64).reshape(-1, 2)
        costs = (None if cost is None else
                 np.asarray([c for _, c in first.values()], dtype=np.float64))
        graph = cls(len(nodes), edges, costs)
        graph.nodes = nodes
        graph.index = index
        return graph

    @classmethod
    def from_scipy(cls, adjacency):
        """Graph of a square scipy.sparse adjacency matrix (or dense array): every entry
        (i, j) with i < j of the symmetrised pattern is one edge, its value the cost (the
        larger of A[i, j] and A[j, i] when both are stored). The pattern of a sparse
        matrix is its stored entries, explicit zeros included (an edge of cost 0, as
        scipy.sparse.csgraph and networkx read them; eliminate_zeros() drops them); that
        of a dense array its nonzeros. Diagonal entries are ignored."""
        try:
            import scipy.sparse as sp
        except ImportError as exc:  # pragma: no cover - scipy is optional
            raise ImportError("Graph.from_scipy needs scipy") from exc
        if sp.issparse(adjacency):
            A = sp.coo_matrix(adjacency)
        else:  # scipy would read any object, None included, as a 1 x 1 matrix
            dense = np.asarray(adjacency)
            if dense.dtype.kind not in "biufc":
                raise TypeError("adjacency must be a matrix of numbers, got %s"
                                % (type(adjacency).__name__ if dense.ndim == 0
                                   else "an array of dtype %s" % dense.dtype))
            if dense.ndim != 2:
                raise ValueError("adjacency must be a square 2-D matrix, got an array of "
                                 "shape %s" % (dense.shape,))
            A = sp.coo_matrix(dense)
        if A.shape[0] != A.shape[1]:
            raise ValueError("adjacency must be square, got shape %s" % (A.shape,))
        n = A.shape[0]
        rows, cols, vals = A.row.astype(np.int64), A.col.astype(np.int64), A.data
        off = rows != cols  # the diagonal (self-loops) says nothing about connectivity
        rows, cols, vals = rows[off], cols[off], vals[off]
        lo, hi = np.minimum(rows, cols), np.maximum(rows, cols)
        if np.iscomplexobj(vals):
            if np.any(np.imag(vals) != 0):
                raise ValueError("adjacency has complex weights; edge costs must be real")
            vals = np.real(vals)
        vals = np.asarray(vals, dtype=np.float64)
        # one edge per unordered pair: sort by (lo, hi) and keep the largest value
        order = np.lexsort((-vals, hi, lo))
        lo, hi, vals = lo[order], hi[order], vals[order]
        first = np.ones(lo.size, dtype=bool)
        first[1:] = (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
        edges = np.stack([lo[first], hi[first]], axis=1)
        return cls(n, edges, vals[first])

    def __repr__(self):
        return "gsfw.Graph(n=%d, m=%d%s)" % (self.n, self.m,
                                             "" if self.costs is None else ", weighted")

    # Graphs are immutable: copies may share the object.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_rebuild, (type(self), self.n, self.edges, self.costs, self.nodes))


def _rebuild(cls, n, edges, costs, nodes):
    graph = cls(n, edges, costs)
    if nodes is not None:
        graph.nodes = list(nodes)
        graph.index = {v: i for i, v in enumerate(graph.nodes)}
    return graph
