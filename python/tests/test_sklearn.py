"""GraphSparseRegression follows scikit-learn's estimator conventions."""
import numpy as np
import pytest

import gsfw

sklearn = pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402


def data(seed=0, n=90, d=40):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    coef = np.zeros(d)
    coef[[2, 11, 30]] = [2.0, -1.5, 1.0]
    return X, X @ coef + 0.01 * rng.standard_normal(n), coef


def test_params_and_clone():
    graph = gsfw.Graph.grid(5, 8)
    est = gsfw.GraphSparseRegression(s=3, graph=graph, C=4.0, method="fw")
    params = est.get_params()
    assert params["s"] == 3 and params["graph"] is graph and params["model"] is None
    twin = clone(est)
    assert twin.get_params() == params
    est.set_params(C=2.0, s=5)
    assert est.C == 2.0 and est.s == 5


def test_fit_predict_score():
    X, y, coef = data()
    est = gsfw.GraphSparseRegression(s=3, C=5.0).fit(X, y)
    assert np.flatnonzero(est.coef_).tolist() == [2, 11, 30]
    assert est.n_iter_ == 300
    assert est.score(X, y) > 0.999
    assert np.allclose(est.predict(X), X @ est.coef_)


def test_grid_search_over_C_and_s():
    X, y, _ = data(1)
    search = GridSearchCV(gsfw.GraphSparseRegression(s=1, max_iter=100),
                          {"C": [0.5, 5.0], "s": [1, 3, 6]}, cv=3)
    search.fit(X, y)
    assert search.best_params_["C"] == 5.0
    assert search.best_params_["s"] in (3, 6)
    assert search.best_score_ > 0.99


def test_graph_model_default_and_baseline():
    X, y, _ = data(2, d=40)
    graph = gsfw.Graph.grid(5, 8)
    est = gsfw.GraphSparseRegression(s=6, g=3, graph=graph, C=5.0, max_iter=50).fit(X, y)
    assert est.result_.info["step"] == "agnostic"
    cos = gsfw.GraphSparseRegression(s=3, method="cosamp", max_iter=20).fit(X, y)
    assert np.count_nonzero(cos.coef_) <= 3 and cos.score(X, y) > 0.99


def test_not_fitted():
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        gsfw.GraphSparseRegression(s=2).predict(np.zeros((1, 3)))
