# Type stubs of gsfw's public API (PEP 561; the package ships py.typed).
from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

ArrayLike = npt.ArrayLike
FloatArray = npt.NDArray[np.float64]
IdArray = npt.NDArray[np.int64]
Id32Array = npt.NDArray[np.int32]
Callback = Callable[[Dict[str, Any], FloatArray], Optional[bool]]

class Graph:
    nodes: Optional[List[Hashable]]
    index: Optional[Dict[Hashable, int]]
    def __init__(self, n: int, edges: ArrayLike, costs: Optional[ArrayLike] = ...) -> None: ...
    @property
    def n(self) -> int: ...
    @property
    def m(self) -> int: ...
    @property
    def edges(self) -> IdArray: ...
    @property
    def costs(self) -> Optional[FloatArray]: ...
    def components(self) -> IdArray: ...
    @classmethod
    def grid(cls, h: int, w: int) -> "Graph": ...
    @classmethod
    def from_networkx(cls, G: Any, cost: Optional[str] = ...) -> "Graph": ...
    @classmethod
    def from_scipy(cls, adjacency: Any) -> "Graph": ...

class Tree:
    def __init__(self, parents: ArrayLike) -> None: ...
    @property
    def n(self) -> int: ...
    @property
    def num_roots(self) -> int: ...
    @property
    def parents(self) -> IdArray: ...
    @classmethod
    def quadtree(cls, height: int, width: int) -> "Tree": ...

class Operator:
    @property
    def shape(self) -> Tuple[int, int]: ...
    @property
    def name(self) -> str: ...
    def apply(self, x: ArrayLike) -> FloatArray: ...
    def adjoint(self, r: ArrayLike) -> FloatArray: ...
    def norm2(self) -> Optional[float]: ...
    def toarray(self) -> FloatArray: ...
    def __matmul__(self, x: ArrayLike) -> FloatArray: ...
    @classmethod
    def dense(cls, A: ArrayLike, copy: bool = ..., float32: bool = ...) -> "Operator": ...
    @classmethod
    def csr(cls, matrix: Any) -> "Operator": ...
    @classmethod
    def dct(cls, d: int, n: int, seed: int = ...) -> "Operator": ...
    @classmethod
    def dct2(cls, height: int, width: int, n: int, seed: int = ...,
             threads: int = ...) -> "Operator": ...
    @classmethod
    def hadamard(cls, d: int, n: int, seed: int = ..., threads: int = ...) -> "Operator": ...
    @classmethod
    def implicit_gaussian(cls, n: int, d: int, seed: int = ...,
                          sd: Optional[float] = ..., threads: int = ...) -> "Operator": ...
    @classmethod
    def sensing(cls, kind: str, n: int, height: int, width: int, seed: int = ...,
                float32: bool = ..., threads: int = ...) -> "Operator": ...

class Objective:
    d: int
    value: Callable[[FloatArray], float]
    gradient: Callable[[FloatArray], ArrayLike]
    value_grad: Optional[Callable[[FloatArray], Tuple[float, ArrayLike]]]
    def __init__(self, d: int, value: Callable[[FloatArray], float],
                 gradient: Callable[[FloatArray], ArrayLike],
                 value_grad: Optional[Callable[[FloatArray], Tuple[float, ArrayLike]]] = ...
                 ) -> None: ...

class Result:
    x: FloatArray
    x_best: FloatArray
    x_last: FloatArray
    x_polished: Optional[FloatArray]
    status: str
    iterations: int
    intercept: Optional[float]
    trace: Dict[str, np.ndarray]
    info: Dict[str, Any]

def solve(A: Union[ArrayLike, Operator, Objective, Any], y: Optional[ArrayLike] = ..., *,
          model: Optional[str] = ..., s: int, g: Optional[int] = ...,
          graph: Optional[Graph] = ..., C: Optional[float] = ..., method: Optional[str] = ...,
          option: Union[str, int, None] = ..., L: Optional[float] = ...,
          L_rule: Optional[str] = ..., max_iter: int = ..., tol: Optional[float] = ...,
          tol_rel: Optional[float] = ..., time_limit: Optional[float] = ...,
          x_true: Optional[ArrayLike] = ..., callback: Optional[Callback] = ...,
          delta: Optional[float] = ..., step: Optional[str] = ...,
          x0: Optional[ArrayLike] = ..., polish: Optional[bool] = ...,
          seed: Optional[int] = ..., loss: Optional[str] = ...,
          huber_delta: Optional[float] = ..., intercept: Optional[bool] = ...,
          tree: Optional[Tree] = ..., verbose: Union[bool, float] = ...,
          **parameters: Union[int, float, bool, str]) -> Result: ...

def dmo(z: ArrayLike, model: Optional[str] = ..., s: Optional[int] = ...,
        g: Optional[int] = ..., graph: Optional[Graph] = ..., delta: Optional[float] = ...,
        seed: Optional[int] = ..., tree: Optional[Tree] = ...) -> IdArray: ...
def head(z: ArrayLike, graph: Graph, s: int, g: Optional[int] = ...) -> IdArray: ...
def tail(z: ArrayLike, graph: Graph, s: int, g: Optional[int] = ...) -> IdArray: ...

def pcst_fast(edges: ArrayLike, prizes: ArrayLike, costs: ArrayLike, root: int,
              num_clusters: int, pruning: Union[str, bytes, bytearray],
              verbosity_level: int = ...) -> Tuple[Id32Array, Id32Array]: ...
def pcsf(graph: Graph, prizes: ArrayLike, root: int = ..., num_clusters: Optional[int] = ...,
         pruning: str = ..., verbosity_level: int = ...) -> Tuple[Id32Array, Id32Array]: ...

class BoundaryWarning(UserWarning): ...
class ColdStartWarning(UserWarning): ...
class UnboundedWarning(UserWarning): ...
class UnusedArgumentWarning(UserWarning): ...
class ShortSupportWarning(UserWarning): ...

class _GraphSparseModel:
    s: Optional[int]
    g: Optional[int]
    graph: Optional[Graph]
    tree: Optional[Tree]
    model: Optional[str]
    C: Optional[float]
    fit_intercept: bool
    method: Optional[str]
    max_iter: int
    tol: Optional[float]
    tol_rel: Optional[float]
    polish: bool
    option: Union[str, int, None]
    L: Optional[float]
    L_rule: Optional[str]
    step: Optional[str]
    delta: Optional[float]
    seed: Optional[int]
    warm_start: bool
    time_limit: Optional[float]
    verbose: Union[bool, float]
    coef_: FloatArray
    intercept_: float
    C_: float
    n_iter_: int
    n_features_in_: int
    result_: Optional[Result]
    def __init__(self, s: Optional[int] = ..., g: Optional[int] = ...,
                 graph: Optional[Graph] = ..., tree: Optional[Tree] = ...,
                 model: Optional[str] = ..., C: Optional[float] = ...,
                 fit_intercept: bool = ..., method: Optional[str] = ..., max_iter: int = ...,
                 tol: Optional[float] = ..., tol_rel: Optional[float] = ...,
                 polish: bool = ..., option: Union[str, int, None] = ...,
                 L: Optional[float] = ..., L_rule: Optional[str] = ...,
                 step: Optional[str] = ..., delta: Optional[float] = ...,
                 seed: Optional[int] = ..., warm_start: bool = ...,
                 time_limit: Optional[float] = ...,
                 verbose: Union[bool, float] = ...) -> None: ...
    def get_params(self, deep: bool = ...) -> Dict[str, Any]: ...
    def set_params(self, **params: Any) -> Any: ...
    def score(self, X: Any, y: ArrayLike, sample_weight: Optional[ArrayLike] = ...) -> float: ...

class GraphSparseRegression(_GraphSparseModel):
    def fit(self, X: Any, y: ArrayLike) -> "GraphSparseRegression": ...
    def predict(self, X: Any) -> FloatArray: ...

class GraphSparseClassifier(_GraphSparseModel):
    classes_: np.ndarray
    def fit(self, X: Any, y: ArrayLike) -> "GraphSparseClassifier": ...
    def decision_function(self, X: Any) -> FloatArray: ...
    def predict(self, X: Any) -> np.ndarray: ...
    def predict_proba(self, X: Any) -> FloatArray: ...
    def predict_log_proba(self, X: Any) -> FloatArray: ...

class GraphSparseRegressionCV(GraphSparseRegression):
    s_values: Optional[Sequence[int]]
    cv: Any
    s_: int
    s_values_: IdArray
    mse_path_: FloatArray
    def __init__(self, s_values: Optional[Sequence[int]] = ..., cv: Any = ...,
                 g: Optional[int] = ..., graph: Optional[Graph] = ...,
                 tree: Optional[Tree] = ..., model: Optional[str] = ...,
                 C: Optional[float] = ..., fit_intercept: bool = ...,
                 method: Optional[str] = ..., max_iter: int = ..., tol: Optional[float] = ...,
                 tol_rel: Optional[float] = ..., polish: bool = ...,
                 option: Union[str, int, None] = ..., L: Optional[float] = ...,
                 L_rule: Optional[str] = ..., step: Optional[str] = ...,
                 delta: Optional[float] = ..., seed: Optional[int] = ...,
                 warm_start: bool = ..., time_limit: Optional[float] = ...,
                 verbose: Union[bool, float] = ...) -> None: ...
    def fit(self, X: Any, y: ArrayLike) -> "GraphSparseRegressionCV": ...
