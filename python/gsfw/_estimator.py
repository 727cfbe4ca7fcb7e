"""A scikit-learn regressor over graph-structured sparse supports."""
import numpy as np

from ._solve import BASELINES, solve

try:  # scikit-learn is optional: the estimator works without it
    from sklearn.base import BaseEstimator, RegressorMixin
except ImportError:  # pragma: no cover - exercised only without scikit-learn
    import inspect

    class BaseEstimator:
        """get_params / set_params by scikit-learn's conventions."""

        @classmethod
        def _get_param_names(cls):
            sig = inspect.signature(cls.__init__)
            return sorted(p.name for p in sig.parameters.values()
                          if p.name != "self" and p.kind != p.VAR_KEYWORD)

        def get_params(self, deep=True):
            return {name: getattr(self, name) for name in self._get_param_names()}

        def set_params(self, **params):
            valid = self._get_param_names()
            for key, value in params.items():
                if key not in valid:
                    raise ValueError("invalid parameter %r for %s" % (key, type(self).__name__))
                setattr(self, key, value)
            return self

    class RegressorMixin:
        """score(X, y) = R^2."""

        def score(self, X, y, sample_weight=None):
            y = np.asarray(y, dtype=np.float64)
            pred = self.predict(X)
            w = np.ones_like(y) if sample_weight is None else np.asarray(sample_weight)
            ss_res = np.sum(w * (y - pred) ** 2)
            ss_tot = np.sum(w * (y - np.average(y, weights=w)) ** 2)
            return 1.0 - ss_res / ss_tot if ss_tot > 0 else 0.0


class GraphSparseRegression(RegressorMixin, BaseEstimator):
    """Least squares y ~ X coef over coefficients supported on a model: s-sparse (model
    'topk', the default without a graph) or s nodes in g connected pieces of a graph
    (model 'head', the default with one) or a subtree of a gsfw.Tree (model 'tree', the
    default with tree=), in the ball of radius C.

    fit(X, y) runs gsfw.solve; coef_ is the polished answer (polish=True) or the best
    iterate, n_iter_ the iterations run, result_ the full gsfw.Result.
    """

    def __init__(self, s, g=1, graph=None, C=1.0, method="accfw", max_iter=300, model=None,
                 polish=True, option="I", L=None, step="auto", tol=None, delta=None, seed=0,
                 tree=None):
        self.s = s
        self.g = g
        self.graph = graph
        self.C = C
        self.method = method
        self.max_iter = max_iter
        self.model = model
        self.polish = polish
        self.option = option
        self.L = L
        self.step = step
        self.tol = tol
        self.delta = delta
        self.seed = seed
        self.tree = tree

    def fit(self, X, y):
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError("X must be 2-D (n_samples, n_features), got %d dimensions" % X.ndim)
        model = self.model or ("head" if self.graph is not None
                               else "tree" if self.tree is not None else "topk")
        baseline = self.method in BASELINES
        kwargs = {}
        if not baseline:
            kwargs = dict(polish=self.polish, option=self.option, step=self.step, tol=self.tol)
        res = solve(X, y, model=model, s=self.s, g=self.g, graph=self.graph, C=self.C,
                    method=self.method, max_iter=self.max_iter, L=self.L, delta=self.delta,
                    seed=self.seed, tree=self.tree, **kwargs)
        self.coef_ = res.x
        self.n_iter_ = res.iterations
        self.n_features_in_ = X.shape[1]
        self.result_ = res
        return self

    def predict(self, X):
        if not hasattr(self, "coef_"):
            try:
                from sklearn.exceptions import NotFittedError
            except ImportError:  # pragma: no cover
                NotFittedError = AttributeError
            raise NotFittedError("this GraphSparseRegression is not fitted yet; call fit first")
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.coef_.shape[0]:
            raise ValueError("X has shape %s; expected (n_samples, %d)"
                             % (X.shape, self.coef_.shape[0]))
        return X @ self.coef_
