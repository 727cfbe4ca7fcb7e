"""gsfw: graph-structured Frank-Wolfe.

Minimise a smooth convex f(x) over conv{x : ||x||_2 <= C, supp(x) in M} where M is a
support model (s-sparse sets, unions of g connected subgraphs of a graph, ...), with the
DMO-FW / DMO-AccFW methods of Zhou & Sun (ICML 2022), their active-set variants and the
IHT / CoSaMP / Graph-IHT / Graph-CoSaMP / Gen-MP baselines; plus a pcst_fast-compatible
prize-collecting Steiner forest solver. See docs/python.md.
"""
from . import _gsfw
from ._graph import Graph
from ._operator import Operator
from ._oracles import dmo, head, tail
from ._pcsf import pcsf, pcst_fast
from ._solve import Objective, Result, solve
from ._tree import Tree
from ._estimator import GraphSparseRegression

__version__ = _gsfw.version()

__all__ = ["Graph", "GraphSparseRegression", "Objective", "Operator", "Result", "dmo", "head", "pcsf",
           "pcst_fast", "solve", "tail", "Tree", "__version__"]
