"""The estimators follow scikit-learn's conventions (check_estimator) and do what their
parameters say: intercept, radius from the data, sparse X, two-label classification,
warm start, time limit, cross-validation over s."""
import os
import sys
import warnings

import numpy as np
import pytest

import gsfw

sklearn = pytest.importorskip("sklearn")
sp = pytest.importorskip("scipy.sparse")
from sklearn.base import clone  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.multiclass import OneVsRestClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

ESTIMATORS = ["GraphSparseRegression", "GraphSparseClassifier", "GraphSparseRegressionCV"]


def data(seed=0, n=90, d=40, offset=0.0, noise=0.01):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    coef = np.zeros(d)
    coef[[2, 11, 30]] = [2.0, -1.5, 1.0]
    return X, X @ coef + offset + noise * rng.standard_normal(n), coef


@pytest.mark.parametrize("name", ESTIMATORS)
def test_check_estimator(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gsfw.BoundaryWarning)
        check_estimator(getattr(gsfw, name)())


def test_params_and_clone():
    graph = gsfw.Graph.grid(5, 8)
    est = gsfw.GraphSparseRegression(s=3, graph=graph, C=4.0, method="fw")
    params = est.get_params()
    assert params["s"] == 3 and params["graph"] is graph and params["model"] is None
    assert params["fit_intercept"] is True and params["C"] == 4.0
    twin = clone(est)
    assert twin.get_params() == params
    est.set_params(C=2.0, s=5)
    assert est.C == 2.0 and est.s == 5


def test_intercept_recovers_an_offset():
    X, y, coef = data(offset=5.0)
    est = gsfw.GraphSparseRegression(s=3).fit(X, y)
    assert np.flatnonzero(est.coef_).tolist() == [2, 11, 30]
    assert abs(est.intercept_ - 5.0) < 0.01 and est.score(X, y) > 0.9999
    assert np.allclose(est.predict(X), X @ est.coef_ + est.intercept_)
    plain = gsfw.GraphSparseRegression(s=3, fit_intercept=False).fit(X, y)
    assert plain.intercept_ == 0.0 and plain.score(X, y) < 0.5  # the offset is not fitted


def test_radius_from_the_data_and_boundary_warning():
    X, y, coef = data(noise=0.0)
    coef_norm = np.linalg.norm(coef)  # 2.69: above the former default C = 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", gsfw.BoundaryWarning)
        est = gsfw.GraphSparseRegression(s=3).fit(X, y)
    assert est.C_ > coef_norm and np.linalg.norm(est.coef_ - coef) < 1e-8 * coef_norm
    with pytest.warns(gsfw.BoundaryWarning, match="boundary of the ball .* C = 1"):
        small = gsfw.GraphSparseRegression(s=3, C=1.0).fit(X, y)
    assert np.linalg.norm(small.coef_) == pytest.approx(1.0)


def test_sparse_X_same_answer_as_dense():
    X, y, _ = data(3, offset=2.0)
    X[np.abs(X) < 0.8] = 0.0
    for fit_intercept in (True, False):
        dense = gsfw.GraphSparseRegression(s=3, fit_intercept=fit_intercept).fit(X, y)
        for fmt in ("csr", "csc", "coo"):
            sparse = gsfw.GraphSparseRegression(s=3, fit_intercept=fit_intercept).fit(
                sp.csr_matrix(X).asformat(fmt), y)
            assert np.abs(sparse.coef_ - dense.coef_).max() < 1e-10
            assert abs(sparse.intercept_ - dense.intercept_) < 1e-10
            assert np.allclose(sparse.predict(sp.csr_matrix(X)), dense.predict(X))
    # gsfw.solve takes scipy.sparse matrices directly, through the CSR operator
    a = gsfw.solve(sp.csr_matrix(X), y, s=3, C=5.0, max_iter=50)
    b = gsfw.solve(X, y, s=3, C=5.0, max_iter=50)
    assert np.abs(a.x - b.x).max() < 1e-10 and np.abs(a.x_best - b.x_best).max() < 1e-10


@pytest.mark.parametrize("labels", [("no", "yes"), (False, True), (-3, 7), (1.0, 2.0)])
def test_classifier_takes_any_two_labels(labels):
    X, score, _ = data(4, n=120)
    y = np.where(score > 0.3, labels[1], labels[0])
    clf = gsfw.GraphSparseClassifier(s=3).fit(X, y)
    assert clf.classes_.tolist() == sorted(labels)
    assert clf.score(X, y) > 0.9
    assert np.count_nonzero(clf.coef_) <= 3
    dec = clf.decision_function(X)
    proba = clf.predict_proba(X)
    assert proba.shape == (120, 2) and np.allclose(proba.sum(axis=1), 1.0)
    assert np.array_equal(clf.predict(X), clf.classes_[(dec > 0).astype(int)])
    assert np.allclose(proba[:, 1], 1.0 / (1.0 + np.exp(-dec)))
    assert np.allclose(np.exp(clf.predict_log_proba(X)), proba)


def test_classifier_refuses_more_than_two_classes():
    X, score, _ = data(5)
    y = np.digitize(score, [-1.0, 1.0])
    with pytest.raises(ValueError, match="two classes; y has 3 classes.*OneVsRest"):
        gsfw.GraphSparseClassifier(s=3).fit(X, y)
    ovr = OneVsRestClassifier(gsfw.GraphSparseClassifier(s=3)).fit(X, y)
    assert ovr.score(X, y) > 0.8


def test_classifier_on_separable_classes_stays_in_the_ball():
    X, score, _ = data(6)
    y = score > 0  # separable: the logistic loss has no minimiser
    for C in (4.0, 100.0):  # the library's own refit (polish) fails here; this one does not
        clf = gsfw.GraphSparseClassifier(s=3, C=C).fit(X, y)
        assert np.linalg.norm(clf.coef_) <= C * (1 + 1e-12) and np.count_nonzero(clf.coef_) <= 3
        assert clf.score(X, y) > (0.95 if C == 4.0 else 0.99)


def test_classifier_with_a_baseline_on_separable_classes_warns():
    X, score, _ = data(6)
    y = score > 0  # separable on the planted support: the logistic loss has no minimiser
    with pytest.warns(gsfw.UnboundedWarning, match="separates the "
                      "classes on its support") as got:
        clf = gsfw.GraphSparseClassifier(s=3, method="graph-sp").fit(X, y)
    assert issubclass(got[0].category, UserWarning) and got[0].filename == __file__
    assert clf.result_.status == "unbounded" and clf.score(X, y) == 1.0
    with warnings.catch_warnings():  # a Frank-Wolfe method stays in the ball: silent
        warnings.simplefilter("error", gsfw.UnboundedWarning)
        bounded = gsfw.GraphSparseClassifier(s=3, C=4.0).fit(X, y)
    assert bounded.result_.status != "unbounded"
    noisy = np.where(np.arange(len(y)) % 4 == 0, ~y, y)  # no support of 3 separates these
    with warnings.catch_warnings():
        warnings.simplefilter("error", gsfw.UnboundedWarning)
        gsfw.GraphSparseClassifier(s=3, method="graph-sp").fit(X, noisy)


@pytest.mark.parametrize("method", ["cosamp", "graph-cosamp", "graph-sp"])
def test_refit_baselines_with_an_intercept_on_separable_classes_fit(method):
    # separable with large margins: the refits drive every margin so high that the
    # intercept's 1-D problem is nearly flat, where its search once gave up ("no minimiser")
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 100))
    w = np.zeros(100)
    w[:5] = 3
    y = np.sign(X @ w)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        clf = gsfw.GraphSparseClassifier(s=5, model="topk", method=method,
                                         max_iter=30).fit(X, y)
    # CoSaMP's refits on merged supports (up to 15 columns, the planted 5 among them)
    # separate the classes: the run says so, and warns
    unbounded = [g for g in got if issubclass(g.category, gsfw.UnboundedWarning)]
    assert (clf.result_.status == "unbounded") == bool(unbounded)
    if method != "graph-sp":
        assert clf.result_.status == "unbounded"
    assert np.isfinite(clf.intercept_) and np.all(np.isfinite(clf.coef_))
    assert np.count_nonzero(clf.coef_) <= 5


def test_warm_start_continues_from_the_previous_fit():
    X, y, coef = data(7, noise=0.0)
    cold = gsfw.GraphSparseRegression(s=3, C=5.0, max_iter=2).fit(X, y)
    warm = gsfw.GraphSparseRegression(s=3, C=5.0, max_iter=2, warm_start=True)
    warm.fit(X, y)
    f_first = warm.result_.info["f_polished"]
    warm.fit(X, y)  # starts where the first fit ended: its (polished) coef_
    assert warm.result_.trace["f"][0] == pytest.approx(f_first, rel=1e-12)
    assert warm.result_.trace["f"][0] < cold.result_.trace["f"][0]
    # a previous answer that is not a set of the new model: a cold start, with a warning
    with pytest.warns(gsfw.ColdStartWarning, match="s, g, the graph or the model changed"):
        warm.set_params(s=1).fit(X, y)
    assert np.count_nonzero(warm.coef_) <= 1


def test_warm_start_without_polish_says_it_starts_cold():
    X, y, _ = data(7, noise=0.0)
    est = gsfw.GraphSparseRegression(s=3, C=5.0, max_iter=30, polish=False, warm_start=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the first fit has nothing to start from: silent
        est.fit(X, y)
    assert np.count_nonzero(est.coef_) > 3  # the best iterate: a convex combination
    with pytest.warns(gsfw.ColdStartWarning, match=r"polish=False .* starts from 0") as got:
        est.fit(X, y)
    assert issubclass(got[0].category, UserWarning) and got[0].filename == __file__
    assert est.result_.trace["f"][0] == pytest.approx(0.5 * float(np.sum((y - y.mean()) ** 2)))
    with warnings.catch_warnings():  # the CV path starts its fits warm itself: silent
        warnings.simplefilter("error", gsfw.ColdStartWarning)
        gsfw.GraphSparseRegressionCV(s_values=[2, 3], cv=2, polish=False, max_iter=30).fit(X, y)


def test_verbose_reaches_the_solver(capsys):
    X, y, _ = data(3)
    graph = gsfw.Graph.grid(5, 8)
    for name in ESTIMATORS:
        est = getattr(gsfw, name)(graph=graph, C=5.0, max_iter=5, verbose=True)
        assert est.get_params()["verbose"] is True
        est.fit(X, y > np.median(y) if name == "GraphSparseClassifier" else y)
        out = capsys.readouterr().out
        assert "gsfw solve: method accfw, model head, " in out, name  # the resolved model
        assert "after 5 iterations" in out, name
    gsfw.GraphSparseRegression(s=3, max_iter=5).fit(X, y)
    assert capsys.readouterr().out == ""


def test_time_limit_and_L_rule_reach_the_solver():
    X, y, _ = data(8)
    est = gsfw.GraphSparseRegression(s=3, C=5.0, max_iter=10 ** 7, time_limit=0.05,
                                     L_rule="spectral", method="fw", step="short").fit(X, y)
    assert est.result_.status == "time_limit"
    assert est.result_.info["L_source"] == "spectral"


def test_cross_validation_over_s():
    X, y, coef = data(9, n=120, d=60)
    cv = gsfw.GraphSparseRegressionCV(s_values=[1, 2, 3, 4, 6, 10], cv=4).fit(X, y)
    assert cv.mse_path_.shape == (6, 4)
    assert cv.s_ == 3 and np.flatnonzero(cv.coef_).tolist() == [2, 11, 30]
    assert cv.score(X, y) > 0.999
    default = gsfw.GraphSparseRegressionCV().fit(X, y)
    assert default.s_values_.tolist() == [1, 2, 3, 6, 10, 19, 33, 60]
    assert default.s_ in (3, 6)


def test_grid_search_and_graph_model():
    X, y, _ = data(1)
    search = GridSearchCV(gsfw.GraphSparseRegression(max_iter=100), {"s": [1, 3, 6]}, cv=3)
    search.fit(X, y)
    assert search.best_params_["s"] in (3, 6) and search.best_score_ > 0.99
    graph = gsfw.Graph.grid(5, 8)
    est = gsfw.GraphSparseRegression(s=6, g=3, graph=graph, max_iter=50).fit(X, y)
    assert est.result_.info["step"] == "agnostic" and est.result_.info["pcsf_calls"] > 0
    cos = gsfw.GraphSparseRegression(s=3, method="cosamp", max_iter=20).fit(X, y)
    assert np.count_nonzero(cos.coef_) <= 3 and cos.score(X, y) > 0.99


def test_not_fitted():
    from sklearn.exceptions import NotFittedError
    for name in ESTIMATORS:
        with pytest.raises(NotFittedError):
            getattr(gsfw, name)().predict(np.zeros((1, 3)))


# s_values are checked as s is (GraphSparseRegression(s=5.0) is a TypeError): 5.9 is not
# read as 5, True as 1 nor '3' as 3.
@pytest.mark.parametrize("s_values,match", [
    ([3.5, 5], r"^s_values\[0\] must be an integer, got float 3\.5$"),
    ([3, 5.9], r"^s_values\[1\] must be an integer, got float 5\.9$"),
    ([True, 5], r"^s_values\[0\] must be an integer, got bool True$"),
    (["3", 5], r"^s_values\[0\] must be an integer, got str '3'$"),
])
def test_cv_s_values_are_integers(s_values, match):
    X, y, _ = data(9, n=60)
    with pytest.raises(TypeError, match=match):
        gsfw.GraphSparseRegressionCV(s_values=s_values, cv=3).fit(X, y)
    cv = gsfw.GraphSparseRegressionCV(s_values=np.array([3, 2]), cv=3).fit(X, y)
    assert cv.s_values_.tolist() == [2, 3]


class NoFolds:
    """A splitter that must not be reached: the checks come before the folds."""

    def split(self, X, y=None, groups=None):
        raise AssertionError("the folds ran before s_values was checked")

    def get_n_splits(self, X=None, y=None, groups=None):
        return 3


# s_values lists the sparsities to try: a single integer (which LassoCV's alphas would
# read as a count) is a TypeError naming s_values, not "'int' object is not iterable";
# an entry out of 1..d is a ValueError naming s_values[k] (not s), also beyond int64
# (not numpy's OverflowError); all before any fold runs.
@pytest.mark.parametrize("s_values,exc,match", [
    (5, TypeError, r"^s_values must be a sequence of integers, the sparsities to try "
     r"\(s_values=\[5\] tries one\), got int 5$"),
    (np.int64(5), TypeError, r"^s_values must be a sequence of integers, .*, got int64 "),
    (np.asarray(5), TypeError, r"^s_values must be a sequence of integers, .*, got ndarray "),
    ("35", TypeError, r"^s_values must be a sequence of integers, .*, got str '35'$"),
    (2 ** 70, TypeError, r"^s_values must be a sequence of integers, .*, got int %d$" % 2 ** 70),
    ([3, 0], ValueError, r"^s_values\[1\] must be between 1 and d = 40 \(the number of "
     r"features\), got 0$"),
    ([41, 3], ValueError, r"^s_values\[0\] must be between 1 and d = 40 .*, got 41$"),
    ([3, 2 ** 70], ValueError, r"^s_values\[1\] must be between 1 .*, got %d$" % 2 ** 70),
    ([3, -2 ** 70], ValueError, r"^s_values\[1\] must be between 1 .*, got -%d$" % 2 ** 70),
    ([], ValueError, r"^s_values is empty$"),
])
def test_cv_s_values_is_a_sequence_in_range(s_values, exc, match):
    X, y, _ = data(9, n=60)
    with pytest.raises(exc, match=match):
        gsfw.GraphSparseRegressionCV(s_values=s_values, cv=NoFolds()).fit(X, y)
    cv = gsfw.GraphSparseRegressionCV(s_values=(40, 1, 40), cv=3, max_iter=5).fit(X, y)
    assert cv.s_values_.tolist() == [1, 40]


# With an intercept, a design whose every column is constant centres to zero, as an
# all-zero one does: coef_ 0 and intercept_ the mean of y (sklearn's answer), not an error
# about L nor coefficients fitted to the rounding residues of the centring.
@pytest.mark.parametrize("make", [
    lambda rng: np.ones((80, 50)),
    lambda rng: np.full((80, 50), 3.7),
    lambda rng: np.tile(rng.standard_normal(50), (80, 1)),
    lambda rng: sp.csr_matrix(np.ones((80, 50))),
    lambda rng: np.zeros((80, 50)),
])
def test_constant_design_fits_the_mean(make):
    rng = np.random.default_rng(4)
    X, y = make(rng), rng.standard_normal(80)
    est = gsfw.GraphSparseRegression(s=5).fit(X, y)
    assert not np.any(est.coef_) and est.result_ is None
    assert est.intercept_ == np.mean(y)
    assert np.array_equal(est.predict(X), np.full(80, np.mean(y)))


SEED_UNUSED = "seed is ignored by model topk (it is deterministic)"
GRAPH_UNUSED = "graph is ignored by model topk"


def unused_warnings(fit):
    """The gsfw.UnusedArgumentWarnings of fit(), every one recorded (no de-duplication
    by location): [(message, filename, lineno)]."""
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        fit()
    return [(str(w.message), w.filename, w.lineno) for w in got
            if issubclass(w.category, gsfw.UnusedArgumentWarning)]


# The library's warnings from the solves inside a fit (several solves per fit, one per
# fold and s in the cross-validation) point at the line calling fit, as gsfw.solve's
# point at its caller, and come once per distinct message per fit.
def test_library_warnings_point_at_the_fit_call_once_each():
    X, y, _ = data(2)
    labels = y > np.median(y)
    grid = gsfw.Graph.grid(5, 8)
    common = dict(model="topk", seed=5, max_iter=20)
    for est, target in ((gsfw.GraphSparseRegression(s=3, **common), y),
                        (gsfw.GraphSparseClassifier(s=3, **common), labels),
                        (gsfw.GraphSparseRegressionCV(s_values=[2, 3], cv=3, **common), y)):
        line = sys._getframe().f_lineno + 1  # the line of the fit call
        got = unused_warnings(lambda: est.fit(X, target))
        assert got == [(SEED_UNUSED, __file__, line)], type(est).__name__
    # two distinct messages: each once, in order
    cv = gsfw.GraphSparseRegressionCV(s_values=[1, 2, 3], cv=3, graph=grid, **common)
    got = unused_warnings(lambda: cv.fit(X, y))
    assert [(m, f) for m, f, _ in got] == [(SEED_UNUSED, __file__), (GRAPH_UNUSED, __file__)]
    # the user's filters decide when they are issued: "error" raises from fit, "ignore"
    # drops them, and other warnings pass unchanged
    with warnings.catch_warnings():
        warnings.simplefilter("error", gsfw.UnusedArgumentWarning)
        with pytest.raises(gsfw.UnusedArgumentWarning, match=r"^seed is ignored"):
            gsfw.GraphSparseRegressionCV(s_values=[2, 3], cv=3, **common).fit(X, y)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", gsfw.UnusedArgumentWarning)
        gsfw.GraphSparseRegression(s=3, C=0.01, **common).fit(X, y)
    assert [(w.category, w.filename) for w in got] == [(gsfw.BoundaryWarning, __file__)]
    with warnings.catch_warnings(record=True) as got:  # the cross-validation's final fit
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", gsfw.UnusedArgumentWarning)
        gsfw.GraphSparseRegressionCV(s_values=[2, 3], cv=3, C=0.01, **common).fit(X, y)
    assert [(w.category, w.filename) for w in got] == [(gsfw.BoundaryWarning, __file__)]
    # inside a pipeline or a grid search: at scikit-learn's line calling fit, not gsfw's
    package = os.path.dirname(gsfw.__file__) + os.sep
    for fit in (lambda: make_pipeline(gsfw.GraphSparseRegression(s=3, **common)).fit(X, y),
                lambda: GridSearchCV(gsfw.GraphSparseRegression(**common),
                                     {"s": [2, 3]}, cv=2).fit(X, y)):
        got = unused_warnings(fit)
        assert got and all(m == SEED_UNUSED and not f.startswith(package) for m, f, _ in got)


def test_estimators_warn_once_about_unused_arguments():
    X, y, _ = data(2)
    with pytest.warns(gsfw.UnusedArgumentWarning) as record:
        gsfw.GraphSparseRegression(s=3, model="topk", graph=gsfw.Graph.grid(5, 8)).fit(X, y)
    assert [str(w.message) for w in record] == ["graph is ignored by model topk"]
    with warnings.catch_warnings():  # delta is Option II's: the solve reads it
        warnings.simplefilter("error")
        gsfw.GraphSparseRegression(s=3, delta=0.5).fit(X, y)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_a_graph_or_tree_of_another_size_than_X_is_named(name):
    # the fit chose its radius with the model's oracle first, whose error named its
    # internal vector: "z has 39 entries, expected 40"
    X, y, _ = data(4, n=60, d=40)
    if name == "GraphSparseClassifier":
        y = y > 0
    extra = {"s_values": [2, 3], "cv": 2} if name.endswith("CV") else {"s": 3}
    est = getattr(gsfw, name)(graph=gsfw.Graph.grid(5, 8), **extra)
    with pytest.raises(ValueError, match=r"^the graph has 40 nodes but X has 39 features"):
        est.fit(X[:, :39], y)
    est = getattr(gsfw, name)(tree=gsfw.Tree.quadtree(8, 8), **extra)
    with pytest.raises(ValueError, match=r"^the tree has 64 nodes but X has 40 features"):
        est.fit(X, y)


@pytest.mark.parametrize("name", ["GraphSparseRegression", "GraphSparseClassifier"])
def test_an_s_above_the_feature_count_names_the_features(name):
    # the library's message, "s 2 exceeds the dimension d = 1", did not say that X is what
    # is short, in the words scikit-learn's check_fit2d_1feature looks for
    from sklearn.utils.estimator_checks import check_fit2d_1feature
    rng = np.random.default_rng(5)
    X = rng.standard_normal((30, 1))
    y = 2.0 * X[:, 0]
    if name == "GraphSparseClassifier":
        y = y > 0
    est = getattr(gsfw, name)(s=2)
    with pytest.raises(ValueError, match=r"s = 2 needs at least 2 features, but X has 1 "
                                         r"feature\(s\)"):
        est.fit(X, y)
    check_fit2d_1feature(name, est)


def test_default_s_is_the_one_l1_allows():
    # s defaults to 10 % of the features, but model l1 needs s = 1: with d = 40 the fit
    # failed with "model l1 needs s 1, got 4", an s the user never gave (check_estimator's
    # small d, where 10 % rounds up to 1, did not see it)
    X, y, _ = data(5, n=60, d=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gsfw.BoundaryWarning)
        est = gsfw.GraphSparseRegression(model="l1").fit(X, y)
        assert np.count_nonzero(est.coef_) <= 1
        clf = gsfw.GraphSparseClassifier(model="l1").fit(X, y > 0)
        assert np.count_nonzero(clf.coef_) <= 1
        cv = gsfw.GraphSparseRegressionCV(model="l1", cv=3).fit(X, y)
        assert cv.s_values_.tolist() == [1] and cv.s_ == 1
    with pytest.raises(ValueError, match="model l1 needs s 1, got 4"):  # a given s is checked
        gsfw.GraphSparseRegression(model="l1", s=4).fit(X, y)


# The classifier's intercept: where X^T t = 0 (t the +-1 labels) the fit took coef_ = 0
# as optimal and left intercept_ at 0, which holds only for balanced classes: with 7
# positives of 10 it predicted the minority class for every sample, probability 0.5.
@pytest.mark.parametrize("make", [
    lambda: np.zeros((10, 3)),
    lambda: sp.csr_matrix((10, 3)),
])
def test_classifier_on_a_zero_design_fits_the_class_frequencies(make):
    X, y = make(), np.r_[np.zeros(3), np.ones(7)]
    clf = gsfw.GraphSparseClassifier(s=1).fit(X, y)
    assert not np.any(clf.coef_)
    assert abs(clf.intercept_ - np.log(7 / 3)) < 1e-12
    assert clf.predict(X).tolist() == [1.0] * 10
    assert np.allclose(clf.predict_proba(X), [[0.3, 0.7]] * 10)
    plain = gsfw.GraphSparseClassifier(s=1, fit_intercept=False).fit(X, y)
    assert plain.intercept_ == 0.0 and not np.any(plain.coef_)


def test_classifier_fits_coef_where_only_the_intercept_hides_the_gradient():
    # X^T t = 0, but at the best intercept the gradient of the loss in coef is not 0
    X, y = np.array([[1.0], [0.0], [0.0], [1.0]]), np.array([1, 1, 1, 0])
    clf = gsfw.GraphSparseClassifier(s=1, C=5.0).fit(X, y)
    assert clf.coef_[0] < -1.0 and clf.intercept_ > 1.0 and clf.result_ is not None
    assert clf.predict_proba(X)[1, 1] > clf.predict_proba(X)[0, 1]  # x = 0 is more often 1


def test_C_is_the_radius_the_fit_used():
    # with C=None, an answer on the boundary of the last (for the classifier: the only)
    # ball grew C fourfold after that solve: C_ was 4x the radius result_ was solved in
    # (6.66 for 1.665 here), and the classifier's refit ran in that larger ball
    rng = np.random.default_rng(4)
    rng.integers(20, 80, size=2)  # (the draws before X of the search that found the case)
    X = rng.standard_normal((63, 28))
    noise = rng.standard_normal(63)
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.uniform(0, 1) * noise) > 0
    for polish in (False, True):
        auto = gsfw.GraphSparseClassifier(s=2, method="accfw", polish=polish).fit(X, y)
        assert np.linalg.norm(auto.result_.x) == pytest.approx(auto.C_, rel=1e-6)
        assert np.linalg.norm(auto.coef_) <= auto.C_ * (1 + 1e-9)
        given = gsfw.GraphSparseClassifier(s=2, method="accfw", polish=polish, C=auto.C_)
        assert np.array_equal(given.fit(X, y).coef_, auto.coef_)
