"""scikit-learn estimators over graph-structured sparse supports: least squares
(GraphSparseRegression) and logistic regression (GraphSparseClassifier)."""
import contextlib
import math
import warnings

import numpy as np

try:
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import check_is_fitted
except ImportError as exc:  # pragma: no cover - scikit-learn is a Debian package here
    raise ImportError("gsfw's estimators need scikit-learn (Debian: python3-sklearn); "
                      "gsfw.solve works without it") from exc

from ._checks import INT32_MAX, integral_or_none, real_or_none
from ._graph import Graph
from ._gsfw import ShortSupportWarning, UnusedArgumentWarning
from ._operator import Operator
from ._oracles import dmo
from ._registry import default_model, entries, fill_doc, fixed
from ._solve import is_sparse_matrix, reads, solve
from ._tree import Tree

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data
except ImportError:
    def _validate_data(estimator, *args, **kwargs):
        return estimator._validate_data(*args, **kwargs)


class BoundaryWarning(UserWarning):
    """The fitted coefficients lie on the boundary of the ball ||coef|| <= C: the radius,
    not the data, decided their size."""


class ColdStartWarning(UserWarning):
    """warm_start=True, but the previous coef_ is not a point of the current model: the
    fit starts from 0."""


class UnboundedWarning(UserWarning):
    """A baseline method (status 'unbounded'): the fitted coef_ (or, for a method that
    refits on merged supports, its last refit) separates the classes on its support, so
    the logistic loss has no minimiser there and the baseline, which bounds no norm,
    returned coefficients whose size grows with its iterations."""


# The library's warnings, which the solves inside a fit emit (a fit runs several, a
# cross-validation one per fold and s): gathered, then issued once per fit.
LIBRARY_WARNINGS = (UnusedArgumentWarning, ShortSupportWarning)


@contextlib.contextmanager
def gathered_warnings(categories=None):
    """Within: the library's warnings (categories, default LIBRARY_WARNINGS) are gathered
    instead of shown; yields the list of the distinct ones, (category, text) in order of
    first appearance, for issue_gathered to issue at the line that called fit, each once.
    The user's filters apply when they are issued (an "error" filter raises then,
    "ignore" drops them); a fit that raises issues none (its exception says what went
    wrong). Other warnings are shown as they would be: filters, de-duplication and
    location unchanged (recording every warning, as catch_warnings(record=True) does,
    would re-issue those too)."""
    categories = LIBRARY_WARNINGS if categories is None else categories
    gathered = []
    with warnings.catch_warnings():
        show = warnings.showwarning

        def gather(message, category, filename, lineno, file=None, line=None):
            if issubclass(category, categories):
                if (category, str(message)) not in gathered:
                    gathered.append((category, str(message)))
            else:
                show(message, category, filename, lineno, file, line)
        warnings.showwarning = gather
        for category in categories:
            warnings.simplefilter("always", category)
        yield gathered


def issue_gathered(gathered, stacklevel):
    """Issue gathered_warnings()' list; stacklevel counts from the caller of this function
    (as warnings.warn's from its own caller: 2 points at the caller's caller)."""
    for category, message in gathered:
        warnings.warn(message, category, stacklevel=stacklevel + 1)


# C chosen from the data: the first radius is this multiple of the norm of a least-squares
# fit on the support the model's oracle picks from X^T y; while the answer lies on the
# ball's boundary the radius grows by GROWTH, at most ROUNDS times.
C_MARGIN = 2.0
C_GROWTH = 4.0
C_ROUNDS = 4
BOUNDARY_RTOL = 1e-7


def default_s(d):
    """s when not given: 10 % of the features (at least 1), as OrthogonalMatchingPursuit."""
    return max(1, int(math.ceil(0.1 * d)))


def pinned_s(model, graph, tree):
    """The s the model fixes (the registry's 's=1' of l1), else None; model None is the
    library's default for what graph and tree provide."""
    name = model if model is not None else default_model(graph is not None, tree is not None)
    return fixed("models", name, "s") if isinstance(name, str) else None


class _GraphSparseModel(BaseEstimator):
    """What the regressor and the classifier share: the model, the solve, the radius."""

    # C=None: grow the radius while the answer lies on the boundary (least squares: the
    # boundary means the ball shrank the fit; logistic: it is where the loss is smaller)
    _grow_radius = True
    # polish by the library's refit (least squares); the classifier refits in the ball
    _library_polish = True

    def __init__(self, s=None, g=None, graph=None, tree=None, model=None, C=None,
                 fit_intercept=True, method=None, max_iter=300, tol=None, tol_rel=None,
                 polish=True, option=None, L=None, L_rule=None, step=None, delta=None,
                 seed=None, warm_start=False, time_limit=None, verbose=False):
        self.s = s
        self.g = g
        self.graph = graph
        self.tree = tree
        self.model = model
        self.C = C
        self.fit_intercept = fit_intercept
        self.method = method
        self.max_iter = max_iter
        self.tol = tol
        self.tol_rel = tol_rel
        self.polish = polish
        self.option = option
        self.L = L
        self.L_rule = L_rule
        self.step = step
        self.delta = delta
        self.seed = seed
        self.warm_start = warm_start
        self.time_limit = time_limit
        self.verbose = verbose

    # -- the support model and the solver's arguments (None: the library's default)

    def _sparsity(self, d):
        s = integral_or_none("s", self.s)
        if s is not None and d < s <= INT32_MAX:
            # worded as scikit-learn's checks expect of an estimator that needs more
            # features than X has (an s outside the int range is the library's to name)
            raise ValueError("s = %d needs at least %d features, but X has %d feature(s)"
                             % (s, s, d))
        if s is None:
            s = pinned_s(self.model, self.graph, self.tree)
        return default_s(d) if s is None else s

    def _reads(self, parameter):
        """Whether the method reads the parameter (per the library's registry): polish and
        x0 belong to the Frank-Wolfe family, not to the baselines."""
        return reads("methods", self.method, parameter)

    def _solve_kwargs(self, d):
        kwargs = dict(model=self.model, s=self._sparsity(d), g=self.g, graph=self.graph,
                      tree=self.tree, method=self.method, max_iter=self.max_iter, L=self.L,
                      L_rule=self.L_rule, delta=self.delta, seed=self.seed,
                      time_limit=self.time_limit, option=self.option, step=self.step,
                      tol=self.tol, tol_rel=self.tol_rel, verbose=self.verbose)
        # False (not None) turns the polish off where gsfw.solve would polish by default
        kwargs["polish"] = (bool(self.polish) and self._library_polish if self._reads("polish")
                            else None)
        return kwargs

    def _oracle_support(self, z, kwargs):
        # an inner step of the fit, which warns as gsfw.solve does: the solve names the
        # arguments that go unused (this oracle alone would also call delta, which
        # Option II reads, unused), and says nothing of supports below s
        for what in ("graph", "tree"):  # as gsfw.solve says it, not as the oracle's z
            structure = kwargs[what]
            if isinstance(structure, (Graph, Tree)) and structure.n != len(z):
                raise ValueError("the %s has %d nodes but X has %d features (one node per "
                                 "feature)" % (what, structure.n, len(z)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnusedArgumentWarning)
            warnings.simplefilter("ignore", ShortSupportWarning)
            return dmo(z, kwargs["model"], min(kwargs["s"], len(z)), kwargs["g"],
                       kwargs["graph"], kwargs["delta"], kwargs["seed"], kwargs["tree"])

    # -- the fit, with the radius chosen from the data unless C is given

    def _fit_radius(self, A, target, columns, loss_kwargs, x0, d):
        """Solve over A (an Operator or array; None: the zero operator) for target:
        (gsfw.Result or None, radius). None when A^T target = 0: the gradient vanishes at
        0, which is then optimal (one sample with an intercept, a zero or, centred, a
        constant design, or a zero target); with a loss that fits an intercept, the
        gradient at the best intercept, A^T (target - mean(target)), must vanish."""
        kwargs = self._solve_kwargs(d)

        def adjoint(v):
            return (np.zeros(d) if A is None else
                    np.asarray(A.adjoint(v) if isinstance(A, Operator) else A.T @ v,
                               dtype=np.float64))
        z, fitted = adjoint(target), target
        if not np.any(z) and loss_kwargs.get("intercept"):
            # a fitted intercept: the gradient in coef at 0 is the one at the best
            # intercept, where the labels count centred (X^T t = 0 does not make 0
            # optimal when the classes are unbalanced); the radius fits them centred too
            fitted = target - np.mean(target)
            z = adjoint(fitted)
        C = real_or_none("C", self.C)
        auto = C is None
        if not np.any(z):
            return None, 1.0 if auto else C
        if auto:
            C = self._initial_radius(z, fitted, columns, kwargs)
            if x0 is not None:
                C = max(C, float(np.linalg.norm(x0)))
        elif x0 is not None and np.linalg.norm(x0) > C:
            x0 = x0 * (C / np.linalg.norm(x0))
        warm = x0 is not None  # the first round starts from the previous fit's coef_
        rounds = C_ROUNDS if auto and self._grow_radius else 1
        for k in range(rounds):
            result = self._solve_from(A, target, C, x0, kwargs, loss_kwargs, warm)
            # C stays the radius of the last solve (no growth after it): C_, the
            # boundary warning and the classifier's refit in the ball use it
            if k == rounds - 1 or not (auto and self._on_boundary(result, C)):
                break
            x0 = result.x  # feasible in the larger ball: the next round starts there
            warm = False
            C *= C_GROWTH
        return result, C

    def _solve_from(self, A, target, C, x0, kwargs, loss_kwargs, warm=False):
        if x0 is not None and self._reads("x0"):  # the baselines start from 0
            try:
                return solve(A, target, C=C, x0=x0, **kwargs, **loss_kwargs)
            except ValueError as exc:
                if "x0" not in str(exc):
                    raise
                # the start is not a set of this model: the fit starts from 0
                if warm:
                    self._warn_cold_start(exc)
        return solve(A, target, C=C, **kwargs, **loss_kwargs)

    def _warn_cold_start(self, exc):
        why = ("with polish=False coef_ is the best iterate, a convex combination of "
               "supports, which is seldom one set of the model; polish=True keeps coef_ on "
               "the model" if not self.polish else
               "s, g, the graph or the model changed since the previous fit")
        warnings.warn("%s: warm_start=True, but the previous coef_ is not a point of the "
                      "current model (%s; %s), so this fit starts from 0"
                      % (type(self).__name__, exc, why), ColdStartWarning, stacklevel=5)

    def _initial_radius(self, z, target, columns, kwargs):
        """C_MARGIN times the norm of the least-squares fit of target on the support the
        model's oracle selects from z = A^T target (1 when that fit is 0)."""
        support = self._oracle_support(z, kwargs)
        if len(support) == 0:
            return 1.0
        coef = np.linalg.lstsq(columns(support), target, rcond=None)[0]
        norm = float(np.linalg.norm(coef))
        return C_MARGIN * norm if norm > 0 and np.isfinite(norm) else 1.0

    @staticmethod
    def _on_boundary(result, C):
        return (result is not None
                and float(np.linalg.norm(result.x)) >= C * (1.0 - BOUNDARY_RTOL))

    def _previous_coef(self, d):
        if self.warm_start and getattr(self, "coef_", None) is not None:
            coef = np.ravel(self.coef_)
            if coef.shape[0] == d:
                return coef.copy()
        return None

    def _store(self, result, C, d):
        """coef_, C_, n_iter_ and result_ of a fit (result None: coef_ = 0, no solve)."""
        self.coef_ = np.zeros(d) if result is None else result.x
        self.result_ = result
        self.n_iter_ = 0 if result is None else int(result.iterations)
        self.C_ = C
        if result is not None and result.status == "unbounded":
            bounded = [e["name"] for e in entries("methods") if "polish" in e["reads"].split()]
            warnings.warn("%s: coef_ (or, for a method that refits on merged supports, "
                          "its last refit) separates the classes on its support, so the "
                          "loss has no minimiser there and method=%r, which bounds no norm, "
                          "returned coefficients whose size grows with max_iter; use a "
                          "Frank-Wolfe method (%s; None: the default), whose radius C "
                          "bounds them" % (type(self).__name__, self.method,
                                           ", ".join(bounded)),
                          UnboundedWarning, stacklevel=3)

    def _decision(self, X):
        check_is_fitted(self, "coef_")
        X = _validate_data(self, X, accept_sparse=["csr", "csc"], reset=False)
        return np.asarray(X @ np.ravel(self.coef_)).ravel() + self.intercept_


def design(X, fit_intercept):
    """(operator or array, column means or None, columns(S) -> dense centred columns).
    With fit_intercept, a design whose every column is constant centres to the zero
    operator: None then (the centred operator would leave rounding residues of B x -
    1 (mu . x), about 1e-16 of X, which a solve would fit, or whose L it would fail to
    estimate)."""
    sparse = is_sparse_matrix(X)
    if not fit_intercept:
        A = Operator.csr(X) if sparse else X
        mu = None
    else:
        mu = np.asarray(X.mean(axis=0), dtype=np.float64).ravel()
        top, bottom = X.max(axis=0), X.min(axis=0)  # equal where a column is constant
        if sparse:
            top, bottom = top.toarray(), bottom.toarray()
        if np.array_equal(top, bottom):
            A = None
        else:
            A = Operator._centered(Operator.csr(X) if sparse else Operator.dense(X, copy=False),
                                   mu)

    def columns(S):
        cols = X[:, S]
        cols = cols.toarray() if sparse else np.asarray(cols, dtype=np.float64)
        return cols - mu[S] if mu is not None else cols
    return A, mu, columns


class GraphSparseRegression(RegressorMixin, _GraphSparseModel):
    """Least squares y ~ X coef + intercept with coef supported on a model, in a ball.

    The model: one of gsfw.solve's models, with graph= (a gsfw.Graph: at most s nodes in
    at most g connected pieces) or tree= (a gsfw.Tree: rooted subtrees of at most s
    nodes) for those that need one. model=None takes the library's default:
        {default-models}.
    s defaults to 10 % of the features (1 for l1, which needs s = 1). The ball: ||coef||_2 <= C; C=None (default)
    chooses it from the data: twice the norm of a least-squares fit on the support the
    model's oracle selects from X^T y, grown fourfold (up to 4 times) while the answer
    lies on the ball's boundary. When the final answer lies on the boundary (C given, or the growth
    exhausted), a gsfw.BoundaryWarning says so: C then limits the fit.

    fit_intercept (default True): an unpenalised intercept, profiled out (the design is
    centred implicitly, so a scipy.sparse X stays sparse: it goes through the library's
    CSR operator). polish (default True): coef_ is the least-squares refit on the
    selected support. method, max_iter, tol, tol_rel, option, L, L_rule, step, delta,
    seed, time_limit, verbose: as gsfw.solve (verbose=True prints a progress line every
    second and a summary for each solve of the fit).

    warm_start (default False): fit starts from the previous coef_ (and radius) when it
    is a point of the current model. When it is not (s or the model changed, or
    polish=False left a best iterate with more nonzeros than the model allows), the fit
    starts from 0 and a ColdStartWarning (a UserWarning) says why. A warm start changes
    the answer, not the work: every fit runs its max_iter iterations unless tol or
    tol_rel stops it, and with the default step (the agnostic 2/(t+2) of the default
    method) the first Frank-Wolfe step is 1, which replaces the start by one extreme
    point. The start counts as iterate 0, the best iterate until one does better, and
    the polish (and restarts) begin from the best iterate, so a good start gives a good
    answer after few iterations.

    Attributes: coef_ (d,), intercept_ (float), C_ (the radius used), n_iter_, result_
    (the gsfw.Result of the final solve), n_features_in_.
    """

    def fit(self, X, y):
        """Fit on X (n, d) array or scipy.sparse matrix and y (n,); returns self."""
        with gathered_warnings() as gathered:  # the solves' warnings: once, at the caller
            X, y = _validate_data(self, X, y, accept_sparse=["csr", "csc"],
                                  dtype=np.float64, y_numeric=True)
            y = np.asarray(y, dtype=np.float64)
            A, mu, columns = design(X, self.fit_intercept)
            y_mean = float(np.mean(y)) if self.fit_intercept else 0.0
            target = y - y_mean
            result, C = self._fit_radius(A, target, columns, {},
                                         self._previous_coef(X.shape[1]), X.shape[1])
            self._store(result, C, X.shape[1])
            self.intercept_ = y_mean - float(mu @ self.coef_) if mu is not None else 0.0
            if self._on_boundary(result, C):
                warnings.warn("GraphSparseRegression: the coefficients lie on the boundary of "
                              "the ball ||coef|| <= C = %.6g, so C, not the data, set their "
                              "size; raise C%s" % (C, "" if self.C is None else
                                                   " or leave C=None to choose it from the data"),
                              BoundaryWarning, stacklevel=2)
        issue_gathered(gathered, 2)
        return self

    def predict(self, X):
        """X coef_ + intercept_."""
        return self._decision(X)


class GraphSparseClassifier(ClassifierMixin, _GraphSparseModel):
    """Logistic regression for two classes with coef supported on a model, in a ball.

    The same models, radius and solver settings as gsfw.GraphSparseRegression; the loss is
    the logistic loss sum_i log(1 + exp(-t_i (x_i . coef + b))) with t_i = +1 for
    classes_[1] and -1 for classes_[0] (any two labels: numbers, strings, booleans), and
    the intercept b (fit_intercept, default True) is fitted unpenalised by the library.
    C bounds ||coef||: for (nearly) separable classes the logistic loss keeps decreasing
    as the norm grows, so C acts as the regularisation; C=None chooses it from the data:
    twice the norm of a least-squares fit of the +-1 labels on the oracle's support (the
    answer usually lies on that boundary; no warning is given). A scipy.sparse X goes
    through the CSR operator. More than two classes: wrap it, e.g.
    sklearn.multiclass.OneVsRestClassifier(GraphSparseClassifier()). polish (default
    True): coef_ and intercept_ are refitted on the selected support, in the ball
    (result_ is the solve before that refit).

    Attributes: classes_, coef_ (d,), intercept_, C_, n_iter_, result_, n_features_in_.
    """

    _grow_radius = False
    _library_polish = False

    def fit(self, X, y):
        """Fit on X (n, d) array or scipy.sparse matrix and y (n,) with two labels."""
        with gathered_warnings() as gathered:  # the solves' warnings: once, at the caller
            X, y = _validate_data(self, X, y, accept_sparse=["csr", "csc"],
                                  dtype=np.float64)
            check_classification_targets(y)
            self.classes_, y_index = np.unique(y, return_inverse=True)
            if len(self.classes_) != 2:
                raise ValueError(
                    "GraphSparseClassifier separates two classes; y has %d class%s (%s)%s"
                    % (len(self.classes_), "" if len(self.classes_) == 1 else "es",
                       ", ".join(map(str, self.classes_[:5])), "" if len(self.classes_) < 2
                       else ": wrap it in sklearn.multiclass.OneVsRestClassifier"))
            labels = np.where(y_index == 1, 1.0, -1.0)
            A, _, columns = design(X, False)
            loss = dict(loss="logistic", intercept=bool(self.fit_intercept))
            result, C = self._fit_radius(A, labels, columns, loss,
                                         self._previous_coef(X.shape[1]), X.shape[1])
            self._store(result, C, X.shape[1])
            if not self.fit_intercept:
                self.intercept_ = 0.0
            elif result is None:  # coef_ = 0: the log-odds of the classes, the best intercept
                self.intercept_ = float(np.log(np.mean(labels > 0) / np.mean(labels < 0)))
            else:
                self.intercept_ = float(result.intercept)
            if result is not None and self.polish and self._reads("polish"):
                self._polish_in_ball(X, labels, result, C, loss)
        issue_gathered(gathered, 2)
        return self

    def _polish_in_ball(self, X, labels, result, C, loss):
        """coef_ and intercept_ refitted on the support the model's oracle selects from
        the best iterate, within the ball (the logistic loss may have no minimiser on a
        support when the classes are separable, so the refit keeps ||coef|| <= C)."""
        kwargs = self._solve_kwargs(X.shape[1])
        support = self._oracle_support(result.x_best, kwargs)
        if len(support) == 0:
            return
        cols = X[:, support]
        refit = solve(cols.toarray() if is_sparse_matrix(cols) else cols, labels, model="topk",
                      s=len(support), C=C, method=kwargs["method"], step=kwargs["step"],
                      max_iter=kwargs["max_iter"], time_limit=kwargs["time_limit"],
                      x0=result.x_best[support], polish=False, verbose=kwargs["verbose"],
                      **loss)
        self.coef_ = np.zeros(X.shape[1])
        self.coef_[support] = refit.x
        if self.fit_intercept:
            self.intercept_ = float(refit.intercept)

    def decision_function(self, X):
        """X coef_ + intercept_: > 0 predicts classes_[1]."""
        return self._decision(X)

    def predict(self, X):
        """classes_[1] where decision_function(X) > 0, else classes_[0]."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def predict_proba(self, X):
        """(n, 2): the probabilities of classes_[0] and classes_[1] (logistic model)."""
        p1 = 0.5 * (1.0 + np.tanh(0.5 * self.decision_function(X)))  # the logistic sigmoid
        return np.column_stack([1.0 - p1, p1])

    def predict_log_proba(self, X):
        """(n, 2): the logarithms of predict_proba's columns, computed without forming the
        probabilities (log(1 + exp(-t)) by logaddexp, exact for large |t|)."""
        t = self.decision_function(X)
        return np.column_stack([-np.logaddexp(0.0, t), -np.logaddexp(0.0, -t)])

    def _more_tags(self):
        return {"binary_only": True}


GraphSparseRegression.__doc__ = fill_doc(GraphSparseRegression.__doc__)

from ._estimator_cv import GraphSparseRegressionCV  # noqa: E402  (it builds on the above)
