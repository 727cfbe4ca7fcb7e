"""Prize-collecting Steiner forest: pcst_fast's Python interface, and the native one."""
from . import _gsfw


def pcst_fast(edges, prizes, costs, root, num_clusters, pruning, verbosity_level=0):
    """Drop-in for pcst_fast.pcst_fast: the same arguments and results.

    edges: (m, 2) integer array; prizes: n numbers >= 0; costs: m numbers >= 0; root: a
    node or -1 (unrooted); num_clusters: trees to keep when unrooted (0 when rooted);
    pruning: 'none', 'simple', 'gw' or 'strong'. verbosity_level is accepted and ignored
    (gsfw prints nothing). Returns (vertices, edges): int64 arrays of node ids and of
    edge indices into `edges`.
    """
    return _gsfw.pcst_fast(edges, prizes, costs, int(root), int(num_clusters), str(pruning),
                           int(verbosity_level))


def pcsf(graph, prizes, root=-1, num_clusters=None, pruning="strong"):
    """PCSF over a gsfw.Graph with its edge costs (unit when it has none).

    num_clusters defaults to 1 for an unrooted problem (root = -1) and 0 for a rooted
    one. Returns (vertices, edges) as int64 arrays, like pcst_fast.
    """
    if num_clusters is None:
        num_clusters = 1 if root < 0 else 0
    return _gsfw.pcsf(graph, prizes, int(root), int(num_clusters), str(pruning))
