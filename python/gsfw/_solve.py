"""gsfw.solve: the Frank-Wolfe family and the baselines over a support model."""
import time

import numpy as np

from . import _gsfw
from ._checks import flag, integer, real, real_or_none, text

FW_METHODS = ("fw", "accfw", "afw", "pfw", "bpcg")
BASELINES = ("iht", "cosamp", "graph-iht", "graph-cosamp", "gen-mp")


class Objective:
    """A smooth convex objective written in Python, for gsfw.solve.

    Objective(d, value, gradient, value_grad=None): value(x) -> float, gradient(x) ->
    array of d floats, value_grad(x) -> (float, array) (optional, saves a call when both
    are needed). x is a fresh float64 array of d entries on every call. An exception
    raised by a callable stops the solve and comes out of gsfw.solve unchanged.
    """

    def __init__(self, d, value, gradient, value_grad=None):
        self.d = integer("d", d)
        self.value = value
        self.gradient = gradient
        self.value_grad = value_grad

    def _spec(self):
        return (self.d, self.value, self.gradient, self.value_grad)


class Result:
    """What gsfw.solve returns.

    x : the answer: the polished point when polish is on (the default of the
        Frank-Wolfe family), else the best iterate.
    x_best, x_last : the iterate of smallest f, and the last one.
    x_polished : the polished point, or None without polish.
    status : 'max_iter', 'time_limit', 'callback_stop', 'zero_direction' or 'converged'
        (tol or tol_rel reached).
    iterations : the index T of the last iterate.
    intercept : the fitted intercept b at x (loss='logistic', intercept=True), else None.
    trace : dict of arrays with one entry per iterate: iter, time_s, f, gap, gap_bound
        (the certified bound on f(x_t) - f*), est_err, support, step, active.
    info : dict of the solver's statistics: f_best, f_last, f_polished, gap_bound, L,
        L_source, step, delta, oracle_calls, pcsf_calls, gradient_calls, setup_time,
        solve_time, polish_time, ...
    """

    def __init__(self, raw):
        self.x_best = raw["x_best"]
        self.x_last = raw["x_last"]
        self.x_polished = raw["x_polished"]
        self.x = self.x_polished if self.x_polished is not None else self.x_best
        self.intercept = raw["intercept"]
        self.trace = raw["trace"]
        self.info = raw["info"]
        self.status = self.info["status"]
        self.iterations = self.info["iterations"]

    def __repr__(self):
        return "gsfw.Result(status=%r, iterations=%d, f_best=%.6g, nnz=%d)" % (
            self.status, self.iterations, self.info["f_best"], int(np.count_nonzero(self.x)))


def _option(option):
    if option in ("I", 1, "1"):
        return 1
    if option in ("II", 2, "2"):
        return 2
    raise ValueError("option must be 'I' or 'II', got %r" % (option,))


def _positive_or_none(name, value):
    """0 (the library's 'not given') for None, else a number that must be > 0."""
    value = real_or_none(name, value)
    if value is None:
        return 0.0
    if not value > 0:
        raise ValueError("%s must be > 0 (or None), got %r" % (name, value))
    return value


def _verbose_interval(verbose):
    """verbose: False/0 (quiet), True (a progress line every second) or a number of
    seconds between progress lines."""
    if isinstance(verbose, bool):
        return 1.0 if verbose else 0.0
    seconds = real("verbose", verbose)
    if not seconds >= 0:
        raise ValueError("verbose must be True, False or a number of seconds >= 0, got %r"
                         % (verbose,))
    return seconds


def is_sparse_matrix(A):
    """A scipy.sparse matrix or array, recognised without importing scipy."""
    return type(A).__module__.startswith("scipy.sparse") and hasattr(A, "tocoo")


def solve(A, y=None, *, model="topk", s, g=1, graph=None, C=1.0, method="accfw", option="I",
          L=None, L_rule=None, max_iter=300, tol=None, tol_rel=None, time_limit=None,
          x_true=None, callback=None, delta=None, step="auto", x0=None, polish=None, seed=0,
          loss="ls", huber_delta=1.0, intercept=False, tree=None, verbose=False):
    """Minimise f over D(C, M) = conv{x : ||x||_2 <= C, supp(x) in M}.

    The objective: f(x) = loss(A x, y) with
      A : an (n, d) array (float64 C- or Fortran-ordered arrays are used without a copy of
          their own; others are converted), a scipy.sparse matrix (through the library's
          sparse CSR operator) or a gsfw.Operator; or a gsfw.Objective (then y is unused);
      loss : 'ls' (0.5 ||A x - y||^2, the default), 'logistic' (labels y in {-1, +1};
          intercept=True also fits an unpenalised intercept b, returned as
          Result.intercept) or 'huber' (threshold huber_delta).
    The support model M: model 'topk' (default: at most s nonzeros), 'topk-approx', 'l1'
      (s = 1), 'subgraph', 'head', 'tail' (at most s nodes in at most g connected pieces
      of graph, a gsfw.Graph with d nodes), 'tree' or 'tree-connected' (rooted subtrees
      of tree, a gsfw.Tree with d nodes). C > 0 is the radius of the ball.
    The method: 'fw', 'accfw' (default), 'afw', 'pfw', 'bpcg' (the Frank-Wolfe family:
      step 'auto', 'agnostic', 'short', 'adaptive' or 'line'; option 'I' or 'II' with
      delta), or the baselines 'iht', 'cosamp', 'graph-iht', 'graph-cosamp', 'gen-mp'.
      L: smoothness constant (None: estimated by L_rule, 'atom' for the Frank-Wolfe
      family, 'spectral' for the baselines).
    Stopping: after max_iter iterations (default 300), time_limit seconds, when
      callback(info, x) returns True (called at every iterate with a dict of its
      figures and a copy of x), or, for the Frank-Wolfe family, when the certified bound
      gap_bound >= f(x_t) - f* falls to tol + tol_rel * gap_bound(x_0): tol is absolute,
      tol_rel relative to the bound at the start (scale-free: tol_rel = 1e-3 stops once
      the bound has shrunk a thousandfold). Oracles without a certified bound (NaN
      gap_bound) never stop this way.
    polish: end by projecting onto the model and refitting f on that support (scaled
      into the ball); Result.x is then the polished point. Default: on for the
      Frank-Wolfe family (as the estimators), except with loss='logistic' (on separable
      classes the refit has no minimiser; GraphSparseClassifier refits within the ball);
      not available for the baselines.
    x0: the starting point (in D). x_true: adds est_err = ||x_t - x_true|| to the trace.
    seed: seed of the randomised oracles. verbose: True prints a progress line every
      second (a number: every that many seconds) and a summary at the end.

    Returns a gsfw.Result. Raises TypeError for arguments of the wrong kind (s=4.5,
    s='4', s=True, a graph that is not a gsfw.Graph) and ValueError for values out of
    range, sizes that disagree and non-finite data, with a message naming the argument.
    """
    s = integer("s", s)
    g = integer("g", g)
    max_iter = integer("max_iter", max_iter)
    seed = integer("seed", seed)
    C = real("C", C)
    model, method, step, loss = (text(n, v) for n, v in (("model", model), ("method", method),
                                                        ("step", step), ("loss", loss)))
    if L_rule is not None:
        L_rule = text("L_rule", L_rule)
    baseline = method in BASELINES
    if polish is None:  # the logistic refit has no minimiser on separable classes
        polish = not baseline and loss != "logistic"
    polish = flag("polish", polish)
    interval = _verbose_interval(verbose)
    objective = None
    if isinstance(A, Objective):
        objective = A._spec()
        A = None
    elif is_sparse_matrix(A):
        from ._operator import Operator
        A = Operator.csr(A)
    if interval > 0:
        print("gsfw solve: method %s, model %s (s=%d, g=%d), C=%.6g, max_iter=%d"
              % (method, model, s, g, C, max_iter), flush=True)
    start = time.perf_counter()
    raw = _gsfw.solve(
        A=A, y=y, objective=objective, model=model, s=s, g=g, graph=graph, C=C, method=method,
        option=_option(option), L=_positive_or_none("L", L), L_rule=L_rule,
        max_iter=max_iter, tol=_positive_or_none("tol", tol),
        tol_rel=_positive_or_none("tol_rel", tol_rel),
        time_limit=_positive_or_none("time_limit", time_limit), x_true=x_true,
        callback=callback, delta=0.0 if delta is None else real("delta", delta), step=step,
        x0=x0, polish=polish, seed=seed, loss=loss, huber_delta=real("huber_delta", huber_delta),
        intercept=flag("intercept", intercept), tree=tree, verbose=interval)
    result = Result(raw)
    if interval > 0:
        info = result.info
        print("gsfw solve: %s after %d iterations, f_best %.6e, gap_bound %.3e, %d nonzeros, "
              "%.3g s" % (result.status, result.iterations, info["f_best"], info["gap_bound"],
                          int(np.count_nonzero(result.x)), time.perf_counter() - start),
              flush=True)
    return result
