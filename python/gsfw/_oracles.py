"""One oracle call by model name: the library's model table (the CLI's --model)."""
from . import _gsfw
from ._registry import fill_doc


def dmo(z, model=None, s=None, g=None, graph=None, delta=None, seed=None, tree=None):
    """Select a support S of the model maximising ||z_S|| (exactly or approximately).

    z: d finite numbers. model: one of the library's models (graph: a gsfw.Graph with one
    node per entry of z; tree: a gsfw.Tree):
        {registry:models}
    model=None: {default-models}.
    s: the support size; g: components [1]; delta: target of the approximate oracles in
    (0, 1] [1]; seed: their random order [0]. None takes the library's default. Returns
    the selected node ids, sorted, as an int64 array.
    Raises TypeError for arguments of the wrong kind, ValueError for values out of range.
    Warns as gsfw dmo does: gsfw.UnusedArgumentWarning for an argument the model ignores,
    gsfw.ShortSupportWarning when a head or tail projection returns fewer than s nodes.
    """
    return _gsfw.dmo(z, model=model, s=s, g=g, graph=graph, delta=delta, seed=seed, tree=tree)


def head(z, graph, s, g=None):
    """Head projection of z over M(graph, s, g): at most about s nodes in at most g [1]
    connected pieces with large sum z_i^2 (PCSF lambda-search). Sorted int64 ids; a
    gsfw.ShortSupportWarning when they are fewer than s."""
    return _gsfw.dmo(z, model="head", s=s, g=g, graph=graph)


def tail(z, graph, s, g=None):
    """Tail projection of z over M(graph, s, g) (PCSF lambda-search): sorted int64 ids; a
    gsfw.ShortSupportWarning when they are fewer than s."""
    return _gsfw.dmo(z, model="tail", s=s, g=g, graph=graph)


dmo.__doc__ = fill_doc(dmo.__doc__)
