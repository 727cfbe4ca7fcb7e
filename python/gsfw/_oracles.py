"""One oracle call by model name: the model table the command line's --model uses."""
from . import _gsfw


def dmo(z, model, s, g=1, graph=None, delta=None, seed=0, tree=None):
    """Select a support S of the model maximising ||z_S|| (exactly or approximately).

    model: 'topk', 'topk-approx', 'l1', 'subgraph', 'head' or 'tail' (the graph models
    need graph, with one node per entry of z), 'tree' (g rooted subtrees) or
    'tree-connected' (need tree, a gsfw.Tree). delta: target of topk-approx and l1 in
    (0, 1] (default 1); seed: their random order. Returns the node ids, sorted, int64.
    """
    return _gsfw.dmo(z, model, int(s), int(g), graph, 1.0 if delta is None else float(delta),
                     int(seed), tree)


def head(z, graph, s, g=1):
    """Head projection over M(graph, s, g) (PCSF lambda-search): sorted int64 ids."""
    return _gsfw.dmo(z, "head", int(s), int(g), graph, 1.0, 0)


def tail(z, graph, s, g=1):
    """Tail projection over M(graph, s, g) (PCSF lambda-search): sorted int64 ids."""
    return _gsfw.dmo(z, "tail", int(s), int(g), graph, 1.0, 0)
