"""Graphs from edge arrays, grids, networkx and scipy give the same oracle answers."""
import copy
import pickle

import numpy as np
import pytest

import gsfw


def random_graph(rng, n=40, p=0.15):
    edges = [(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < p]
    costs = rng.uniform(0.5, 2.0, size=len(edges))
    return np.asarray(edges, dtype=np.int64), costs


def test_grid_edge_order():
    g = gsfw.Graph.grid(2, 3)
    assert (g.n, g.m) == (6, 7)
    assert g.edges.tolist() == [[0, 1], [0, 3], [1, 2], [1, 4], [2, 5], [3, 4], [4, 5]]
    assert g.costs is None
    same = gsfw.Graph(6, g.edges)
    assert same.edges.tolist() == g.edges.tolist()


def test_properties_and_components():
    g = gsfw.Graph(5, np.array([[0, 1], [3, 4]]), [1.0, 2.5])
    assert g.n == 5 and g.m == 2
    assert g.costs.tolist() == [1.0, 2.5]
    assert g.components().tolist() == [0, 0, 1, 2, 2]
    empty = gsfw.Graph(3, [])
    assert empty.m == 0 and empty.edges.shape == (0, 2)


def test_networkx_matches_edge_array():
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(3)
    edges, costs = random_graph(rng)
    labels = ["node-%d" % (7 * i % 40) for i in range(40)]  # non-integer labels, shuffled
    G = nx.Graph()
    G.add_nodes_from(labels)
    for (u, v), c in zip(edges, costs):
        G.add_edge(labels[u], labels[v], weight=c)
    from_nx = gsfw.Graph.from_networkx(G, cost="weight")
    assert from_nx.nodes == labels and from_nx.index[labels[5]] == 5
    ref = gsfw.Graph(40, edges, costs)
    z = rng.standard_normal(40)
    for model in ("head", "tail", "subgraph"):
        assert gsfw.dmo(z, model, 8, 2, graph=from_nx).tolist() == \
            gsfw.dmo(z, model, 8, 2, graph=ref).tolist()
    a = gsfw.pcsf(from_nx, z ** 2)
    b = gsfw.pcsf(ref, z ** 2)
    assert a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist()


def test_networkx_unit_costs_unless_asked():
    nx = pytest.importorskip("networkx")
    G = nx.path_graph(5)
    g = gsfw.Graph.from_networkx(G)
    assert g.costs is None and g.edges.tolist() == [[0, 1], [1, 2], [2, 3], [3, 4]]
    # a `weight` (a strength in networkx and in STRING-like networks) is not a cost
    nx.set_edge_attributes(G, 0.9, "weight")
    nx.set_edge_attributes(G, {e: 2.5 for e in G.edges}, "price")
    assert gsfw.Graph.from_networkx(G).costs is None
    assert gsfw.Graph.from_networkx(G, cost="price").costs.tolist() == [2.5] * 4
    G.add_edge(4, 5)  # no price
    with pytest.raises(ValueError, match="edge \\(4, 5\\) has no attribute 'price'"):
        gsfw.Graph.from_networkx(G, cost="price")
    with pytest.raises(TypeError, match="cost must be None"):
        gsfw.Graph.from_networkx(G, cost=True)


def test_networkx_digraph_reciprocal_edges_are_one_edge():
    nx = pytest.importorskip("networkx")
    D = nx.DiGraph()
    D.add_edge("a", "b", c=1.0)
    D.add_edge("b", "a", c=3.0)
    D.add_edge("b", "c", c=2.0)
    g = gsfw.Graph.from_networkx(D, cost="c")
    assert g.m == 2 and g.edges.tolist() == [[0, 1], [1, 2]] and g.costs.tolist() == [3.0, 2.0]
    M = nx.MultiGraph([(0, 1), (1, 0), (1, 2)])
    assert gsfw.Graph.from_networkx(M).edges.tolist() == [[0, 1], [1, 2]]


def test_scipy_matches_edge_array():
    sp = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(4)
    edges, costs = random_graph(rng)
    n = 40
    A = sp.coo_matrix((np.concatenate([costs, costs]),
                       (np.concatenate([edges[:, 0], edges[:, 1]]),
                        np.concatenate([edges[:, 1], edges[:, 0]]))), shape=(n, n)).tocsr()
    from_sp = gsfw.Graph.from_scipy(A)
    order = np.lexsort((edges[:, 1], edges[:, 0]))
    ref = gsfw.Graph(n, edges[order], costs[order])
    assert from_sp.edges.tolist() == ref.edges.tolist()
    assert np.array_equal(from_sp.costs, ref.costs)
    z = rng.standard_normal(n)
    for model in ("head", "tail", "subgraph"):
        assert gsfw.dmo(z, model, 6, 1, graph=from_sp).tolist() == \
            gsfw.dmo(z, model, 6, 1, graph=ref).tolist()
    # an upper-triangular matrix gives the same graph
    upper = gsfw.Graph.from_scipy(sp.triu(A))
    assert upper.edges.tolist() == ref.edges.tolist()


def test_self_loops_are_dropped():
    sp = pytest.importorskip("scipy.sparse")
    nx = pytest.importorskip("networkx")
    adj = sp.csr_matrix(np.array([[1.0, 2.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 5.0]]))
    g = gsfw.Graph.from_scipy(adj)
    assert g.edges.tolist() == [[0, 1]] and g.costs.tolist() == [2.0]
    G = nx.Graph([(0, 0), (0, 1)])
    assert gsfw.Graph.from_networkx(G).edges.tolist() == [[0, 1]]


def test_copy_and_pickle():
    g = gsfw.Graph(4, [[0, 1], [2, 3]], [1.0, 2.0])
    assert copy.deepcopy(g) is g
    h = pickle.loads(pickle.dumps(g))
    assert h.edges.tolist() == g.edges.tolist() and h.costs.tolist() == g.costs.tolist()


def test_dmo_models():
    z = np.array([0.1, -3.0, 2.0, 0.5, -0.2, 1.0])
    assert gsfw.dmo(z, "topk", 3).tolist() == [1, 2, 5]
    assert gsfw.dmo(z, "l1", 1).tolist() == [1]
    approx = gsfw.dmo(z, "topk-approx", 3, delta=0.5, seed=1)
    assert len(approx) <= 3 and np.linalg.norm(z[approx]) >= 0.5 * np.linalg.norm(z[[1, 2, 5]])
    path = gsfw.Graph(6, [[i, i + 1] for i in range(5)])
    # connected: the best 3-node path holds nodes 1, 2 and one neighbour
    assert gsfw.dmo(z, "subgraph", 3, graph=path).tolist() in ([0, 1, 2], [1, 2, 3])
    h = gsfw.head(z, path, 3)
    t = gsfw.tail(z, path, 3)
    assert h.dtype == np.int64 and t.dtype == np.int64
    assert list(h) == sorted(h) and {1, 2} <= set(t.tolist())


@pytest.mark.parametrize("adjacency,exc,match", [
    # scipy reads any object as a 1 x 1 matrix: these gave a graph of one node, no edge
    (None, TypeError, r"^adjacency must be a matrix of numbers, got NoneType"),
    ("abc", TypeError, r"^adjacency must be a matrix of numbers, got str"),
    (5.0, ValueError, r"^adjacency must be a square 2-D matrix, got an array of shape \(\)"),
    ([0.0, 1.0], ValueError, r"^adjacency must be a square 2-D matrix, got .* shape \(2,\)"),
    (np.array([[None, 1], [1, None]]), TypeError, r"^adjacency must be a matrix of numbers"),
])
def test_scipy_refuses_what_is_not_an_adjacency_matrix(adjacency, exc, match):
    pytest.importorskip("scipy.sparse")
    with pytest.raises(exc, match=match):
        gsfw.Graph.from_scipy(adjacency)
    assert gsfw.Graph.from_scipy([[0, 1], [1, 0]]).m == 1  # a nested list is a matrix


@pytest.mark.parametrize("G", [None, "abc", [(0, 1)]])
def test_networkx_refuses_what_is_not_a_graph(G):
    # an AttributeError ("'NoneType' object has no attribute 'nodes'") named nothing
    with pytest.raises(TypeError, match=r"^G must be a networkx graph"):
        gsfw.Graph.from_networkx(G)


def test_scipy_explicit_zeros_are_edges_of_cost_zero():
    # as the docstring says (it had said "every nonzero"): the stored pattern of a sparse
    # matrix, as scipy.sparse.csgraph and networkx read it; a dense array's nonzeros
    sp = pytest.importorskip("scipy.sparse")
    M = sp.csr_matrix((np.array([1.0, 0.0, 1.0]), (np.array([0, 0, 1]), np.array([1, 2, 0]))),
                      shape=(3, 3))
    g = gsfw.Graph.from_scipy(M)
    assert g.edges.tolist() == [[0, 1], [0, 2]] and g.costs.tolist() == [1.0, 0.0]
    assert gsfw.Graph.from_scipy(M.toarray()).edges.tolist() == [[0, 1]]
    M.eliminate_zeros()
    assert gsfw.Graph.from_scipy(M).edges.tolist() == [[0, 1]]
