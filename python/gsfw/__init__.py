"""gsfw: graph-structured Frank-Wolfe.

Minimise a smooth convex f(x) over conv{x : ||x||_2 <= C, supp(x) in M}, where M is a
support model (s-sparse sets, unions of g connected subgraphs of a graph, rooted
subtrees), with the DMO-FW / DMO-AccFW methods of Zhou & Sun (ICML 2022), their
active-set variants and the IHT / CoSaMP / Graph-IHT / Graph-CoSaMP / Gen-MP baselines;
plus a drop-in for pcst_fast (prize-collecting Steiner forest) and scikit-learn
estimators.

    gsfw.solve(A, y, model=..., s=...)      the solvers (help(gsfw.solve))
    gsfw.pcst_fast(...), gsfw.pcsf(...)     prize-collecting Steiner forest
    gsfw.GraphSparseRegression, GraphSparseClassifier, GraphSparseRegressionCV
    gsfw.Graph, gsfw.Tree, gsfw.Operator, gsfw.Objective, gsfw.dmo, gsfw.head, gsfw.tail
    gsfw.UnusedArgumentWarning, gsfw.ShortSupportWarning (UserWarnings, as the CLI warns)

The estimators load scikit-learn when first used, so `import gsfw` stays light.
"""
from . import _gsfw
from ._gsfw import ShortSupportWarning, UnusedArgumentWarning
from ._graph import Graph
from ._operator import Operator
from ._oracles import dmo, head, tail
from ._pcsf import pcsf, pcst_fast
from ._solve import Objective, Result, solve
from ._tree import Tree

__version__ = _gsfw.version()

_ESTIMATORS = ("GraphSparseRegression", "GraphSparseClassifier", "GraphSparseRegressionCV",
               "BoundaryWarning", "ColdStartWarning", "UnboundedWarning")

__all__ = ["Graph", "Objective", "Operator", "Result", "ShortSupportWarning", "Tree",
           "UnusedArgumentWarning", "dmo", "head", "pcsf", "pcst_fast", "solve", "tail",
           "__version__"] + list(_ESTIMATORS)


def __getattr__(name):
    # the estimators import scikit-learn (about 0.3 s): only when they are asked for
    if name in _ESTIMATORS:
        from . import _estimator
        value = getattr(_estimator, name)
        globals()[name] = value
        return value
    raise AttributeError("module 'gsfw' has no attribute %r" % name)


def __dir__():
    return sorted(set(globals()) | set(_ESTIMATORS))
