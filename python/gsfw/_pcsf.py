"""Prize-collecting Steiner forest: pcst_fast's Python interface, and the native one."""
import time

import numpy as np

from . import _gsfw
from ._checks import integer, integer_or_none, text


def pcst_fast(edges, prizes, costs, root, num_clusters, pruning, verbosity_level=0):
    """Prize-collecting Steiner forest, as pcst_fast.pcst_fast (a drop-in replacement).

    Goemans-Williamson growth followed by a pruning, with pcst_fast's arguments, answers,
    output order and dtypes:

    edges : (m, 2) array-like of integer node ids (the graph is undirected).
    prizes : n numbers >= 0, one per node.
    costs : m numbers >= 0, one per edge.
    root : -1 for the unrooted problem, else the node the tree must contain. root,
        num_clusters and verbosity_level are integers: Python or numpy ones, or 0-d
        integer arrays.
    num_clusters : unrooted, the number of trees to keep; rooted, it must be 1 (the tree
        that contains the root), as in pcst_fast.
    pruning : 'none', 'simple', 'gw' or 'strong' (any case; bytes too).
    verbosity_level : 0 prints nothing; 1 prints one summary line after the run; 2 also
        one line with the input before it (to standard output, flushed).

    Returns (vertices, edges): int32 arrays of the selected node ids and of the indices
    of the selected edges into `edges`, in pcst_fast's order.

    Raises TypeError for a root, num_clusters or verbosity_level that is not an integer
    (or is a bool, or lies outside the int32 range), for edges that are not integers
    (a list of floats too, or None) and for prizes or costs that are not real numbers
    (complex, objects, strings), as pcst_fast does; ValueError for a negative or
    non-finite prize or cost, an edge endpoint or a root out of range, arrays of the
    wrong shape or length, a rooted call with num_clusters != 1, a negative num_clusters
    and an unknown pruning.
    """
    root = integer("root", _scalar(root))
    num_clusters = integer("num_clusters", _scalar(num_clusters))
    verbosity_level = integer("verbosity_level", _scalar(verbosity_level))
    if isinstance(pruning, (bytes, bytearray)):  # pcst_fast's binding takes these for a str
        pruning = pruning.decode()
    pruning = text("pruning", pruning)
    if root >= 0 and num_clusters != 1:
        raise ValueError("In the rooted case, only one output cluster is supported: "
                         "root = %d needs num_clusters = 1, got %d" % (root, num_clusters))
    target = 0 if root >= 0 else num_clusters
    n, m = _length(prizes), _length(costs)
    if verbosity_level < 1 or n is None or m is None:  # no length: the call says what's wrong
        return _gsfw.pcsf_arrays(edges, prizes, costs, root, target, pruning)
    return _verbose(lambda: _gsfw.pcsf_arrays(edges, prizes, costs, root, target, pruning),
                    verbosity_level, "%d nodes, %d edges" % (n, m), root, num_clusters,
                    pruning)


def _length(values):
    """len(values), or None for what has none (a number, None): not 1-D numbers, which
    the extension then refuses by name."""
    try:
        return len(values)
    except TypeError:
        return None


def _scalar(value):
    """A 0-d integer array as its integer (pcst_fast's binding reads one, and numpy
    returns them); anything else unchanged, for integer() to check."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu":
        return value.item()
    return value


def pcsf(graph, prizes, root=-1, num_clusters=None, pruning="strong", verbosity_level=0):
    """Prize-collecting Steiner forest over a gsfw.Graph, with its edge costs (unit costs
    when it has none): the solver of gsfw.pcst_fast without converting an edge array on
    every call.

    prizes: one number >= 0 per node. root: -1 (unrooted) or the node the tree must
    contain. num_clusters: trees to keep when unrooted (default 1); a rooted call keeps
    the one tree with the root (num_clusters None or 1). pruning: 'none', 'simple', 'gw'
    or 'strong' (default). verbosity_level: as for gsfw.pcst_fast.
    Returns (vertices, edges) as int32 arrays, as gsfw.pcst_fast does.
    """
    root = integer("root", root)
    num_clusters = integer_or_none("num_clusters", num_clusters)
    verbosity_level = integer("verbosity_level", verbosity_level)
    pruning = text("pruning", pruning)
    if num_clusters is None:
        num_clusters = 1
    if root >= 0 and num_clusters != 1:
        raise ValueError("a rooted PCSF keeps the one tree that contains the root: "
                         "num_clusters must be 1 (or None), got %d" % num_clusters)
    target = 0 if root >= 0 else num_clusters
    if verbosity_level < 1 or not isinstance(graph, _gsfw.Graph):  # the call refuses it
        return _gsfw.pcsf(graph, prizes, root, target, pruning)
    return _verbose(lambda: _gsfw.pcsf(graph, prizes, root, target, pruning),
                    verbosity_level, "%d nodes, %d edges" % (graph.n, graph.m), root,
                    num_clusters, pruning)


def _verbose(run, level, size, root, num_clusters, pruning):
    """Run with pcst_fast's verbosity: a summary line (level 1), the input first (2)."""
    what = ("rooted at node %d" % root if root >= 0
            else "unrooted, %d tree%s" % (num_clusters, "" if num_clusters == 1 else "s"))
    if level >= 2:
        print("gsfw pcsf: %s, %s, pruning %s" % (size, what, pruning.lower()), flush=True)
    start = time.perf_counter()
    vertices, edges = run()
    print("gsfw pcsf: %d nodes and %d edges selected (%s, pruning %s) in %.3g s"
          % (len(vertices), len(edges), what, pruning.lower(), time.perf_counter() - start),
          flush=True)
    return vertices, edges
