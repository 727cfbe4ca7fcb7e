"""gsfw.solve: the Frank-Wolfe family and the baselines over a support model."""
import time

import numpy as np

from . import _gsfw
from ._checks import integer, real
from ._registry import fill_doc, reads


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
    status : 'max_iter', 'time_limit', 'callback_stop', 'zero_direction', 'converged'
        (tol or tol_rel reached), 'stalled' (graph-sp: f stopped falling) or 'unbounded'
        (a baseline whose answer separates the labels of a logistic loss, which then has
        no minimiser: the baselines bound no norm, so x grows with the iterations; use a
        Frank-Wolfe method, whose radius C bounds it).
    iterations : the index T of the last iterate.
    intercept : the fitted intercept b at x (intercept=True with a loss that fits one),
        else None.
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


def default_polish(method, loss):
    """On for the methods that polish (the Frank-Wolfe family), except with a loss that
    fits an intercept to two classes (one that reads intercept, per the registry): on
    separable classes its refit on a support has no minimiser."""
    return reads("methods", method, "polish") and not reads("losses", loss, "intercept")


def is_sparse_matrix(A):
    """A scipy.sparse matrix or array, recognised without importing scipy."""
    return type(A).__module__.startswith("scipy.sparse") and hasattr(A, "tocoo")


def solve(A, y=None, *, model=None, s, g=None, graph=None, C=None, method=None,
          option=None, L=None, L_rule=None, max_iter=300, tol=None, tol_rel=None,
          time_limit=None, x_true=None, callback=None, delta=None, step=None, x0=None,
          polish=None, seed=None, loss=None, huber_delta=None, intercept=None, tree=None,
          verbose=False, **parameters):
    """Minimise f over D(C, M) = conv{x : ||x||_2 <= C, supp(x) in M}.

    An argument left at None takes the library's default (given in brackets).

    The objective f(x) = loss(A x, y):
      A : an (n, d) array (float64 C- or Fortran-ordered arrays are used without a copy of
          their own; others are converted), a scipy.sparse matrix (through the library's
          sparse CSR operator) or a gsfw.Operator; or a gsfw.Objective (then y is unused).
      loss : one of the library's losses:
          {registry:losses}
        The two-class losses take labels y in {-1, +1}; with them intercept=True also
        fits an unpenalised intercept b, returned as Result.intercept. huber_delta [1]:
        the threshold of the Huber loss.
    The feasible set: the ball ||x||_2 <= C [1] and the support model M:
      model : one of the library's models (graph: a gsfw.Graph with d nodes; tree: a
          gsfw.Tree with d nodes; g [1]: the number of pieces or subtrees):
          {registry:models}
        model=None: {default-models}.
        delta: target of the approximate oracles; seed [0]: their random order.
    The method, one of the library's methods:
          {registry:methods}
      The Frank-Wolfe family (the methods that read step and polish) takes a step rule:
          {registry:steps}
      and option 'I' or 'II' ['I']. L: smoothness constant [estimated by L_rule: 'atom'
      for the Frank-Wolfe family, 'spectral' for the baselines].
    Stopping: after max_iter iterations (300), after time_limit seconds, when
      callback(info, x) returns True (it is called at every iterate with a dict of its
      figures and a copy of x), or, for the Frank-Wolfe family, when the certified bound
      gap_bound >= f(x_t) - f* falls to tol + tol_rel * gap_bound(x_0): tol is absolute,
      tol_rel relative to the bound at the start (scale-free: tol_rel = 1e-3 stops once
      the bound has shrunk a thousandfold). Oracles without a certified bound (NaN
      gap_bound) never stop this way.
    polish: end by projecting onto the model and refitting f on that support (scaled
      into the ball); Result.x is then the polished point. Default: on for the
      Frank-Wolfe family (as the estimators), except with a two-class loss that fits an
      intercept (on separable classes the refit has no minimiser; GraphSparseClassifier
      refits within the ball); the baselines do not polish.
    x0: the starting point (in D, its support a set of the model), iterate 0: it stays
      the best iterate until one does better, and the polish and restarts start from
      the best iterate. With the default step (agnostic for fw and accfw) the first step
      is 1 and replaces x0 by one extreme point, so x0 improves the answer reached in a
      given number of iterations rather than saving iterations. x_true: adds
      est_err = ||x_t - x_true|| to the trace. verbose: True prints a progress line every
      second (a number: every that many seconds) and a summary at the end.
    restarts [0] (with polish): at most this many warm restarts from the polished point,
      rounds of restart_iters [20] AccFW iterations with line search; the best polished
      point is kept (info['restarts'] rounds were run, info['restart_best'] is the one
      returned).
    Further keywords are the library's other settings (polish_iters, max_active, lazy,
    inner_iters, reference_compat; gsfw._gsfw.registry('params') lists them).

    Returns a gsfw.Result. Raises TypeError for an argument of the wrong kind (s=4.5,
    s='4', s=True, C='1', a graph that is not a gsfw.Graph) and ValueError for a value
    out of range (0 included: L=0, tol=0 or time_limit=0, as the command line's --L 0),
    sizes that disagree or non-finite data, with a message naming it. An argument that
    nothing chosen reads is ignored with a gsfw.UnusedArgumentWarning (seed or a graph
    with the topk model), or raises ValueError where the command line refuses it too
    (step or polish with a baseline, huber_delta without the huber loss); so does a
    graph and a tree without a model.
    """
    interval = _verbose_interval(verbose)
    if polish is None:
        polish = True if default_polish(method, loss) else None
    if isinstance(A, Objective):
        parameters["objective"] = A._spec()
        A = None
    elif is_sparse_matrix(A):
        from ._operator import Operator
        A = Operator._from_sparse(A, "A")
    start = time.perf_counter()
    # verbose: the extension prints the header (the method and model it resolved) once
    # the arguments are checked, so that a call it refuses prints nothing
    raw = _gsfw.solve(
        A=A, y=y, model=model, s=s, g=g, graph=graph, C=C, method=method, option=option, L=L,
        L_rule=L_rule, max_iter=max_iter, tol=tol, tol_rel=tol_rel, time_limit=time_limit,
        x_true=x_true, callback=callback, delta=delta, step=step, x0=x0, polish=polish,
        seed=seed, loss=loss, huber_delta=huber_delta, intercept=intercept, tree=tree,
        verbose=interval, **parameters)
    result = Result(raw)
    if interval > 0:
        info = result.info
        print("gsfw solve: %s after %d iterations, f_best %.6e, gap_bound %.3e, %d nonzeros, "
              "%.3g s" % (result.status, result.iterations, info["f_best"], info["gap_bound"],
                          int(np.count_nonzero(result.x)), time.perf_counter() - start),
              flush=True)
    return result


solve.__doc__ = fill_doc(solve.__doc__)
