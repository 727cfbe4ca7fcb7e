"""gsfw.solve: the Frank-Wolfe family and the baselines over a support model."""
import numpy as np

from . import _gsfw

FW_METHODS = ("fw", "accfw", "afw", "pfw", "bpcg")
BASELINES = ("iht", "cosamp", "graph-iht", "graph-cosamp", "gen-mp")


class Objective:
    """A smooth convex objective written in Python.

    Objective(d, value, gradient, value_grad=None): value(x) -> float, gradient(x) ->
    array of d floats, value_grad(x) -> (float, array) (optional, saves a call when both
    are needed). x is a fresh float64 array of d entries on every call. An exception
    raised by a callable stops the solve and comes out of gsfw.solve unchanged.
    """

    def __init__(self, d, value, gradient, value_grad=None):
        self.d = int(d)
        self.value = value
        self.gradient = gradient
        self.value_grad = value_grad

    def _spec(self):
        return (self.d, self.value, self.gradient, self.value_grad)


class Result:
    """What gsfw.solve returns.

    x: the answer (the polished point with polish=True, else the best iterate);
    x_best, x_last, x_polished (None without polish); status ('max_iter', 'time_limit',
    'callback_stop', 'zero_direction', 'converged'); iterations; intercept (the logistic
    intercept b at x with intercept=True, else None); trace: dict of arrays
    (iter, time_s, f, gap, gap_bound, est_err, support, step, active), one entry per
    iterate; info: dict of the solver's statistics (f_best, gap_bound, L, oracle_calls,
    solve_time, ...).
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
    if value is None:
        return 0.0
    value = float(value)
    if not value > 0:
        raise ValueError("%s must be > 0 (or None), got %r" % (name, value))
    return value


def solve(A, y=None, *, model="topk", s, g=1, graph=None, C=1.0, method="accfw", option="I",
          L=None, L_rule=None, max_iter=300, tol=None, time_limit=None, x_true=None,
          callback=None, delta=None, step="auto", x0=None, polish=False, seed=0, loss="ls",
          huber_delta=1.0, intercept=False, tree=None, restarts=0, restart_iters=20):
    """Minimise f over D(C, M) = conv{x : ||x|| <= C, supp(x) in M}.

    A: an (n, d) array or a gsfw.Operator, with f = loss(A x, y): loss 'ls' (0.5 ||A x -
    y||^2, the default), 'logistic' (labels y in {-1, +1}) or 'huber' (threshold
    huber_delta; intercept=True fits the logistic loss's unpenalised intercept b, returned
    as Result.intercept); float64 C- or Fortran-ordered arrays are passed without a copy
    of their own. Or a gsfw.Objective (y then unused).
    model, s, g, graph, tree: the support model (see gsfw.dmo). method: fw, accfw (default),
    afw, pfw, bpcg, or a baseline iht, cosamp, graph-iht, graph-cosamp, gen-mp.
    L: smoothness constant (None: estimated by L_rule, 'atom' for the Frank-Wolfe family,
    'spectral' for the baselines). step: auto, agnostic, short, adaptive, line.
    tol: stop when the certified bound on f(x) - f* is below tol. x0: starting point.
    polish: end by projecting onto the model and refitting on that support.
    restarts (with polish): at most this many warm restarts from the polished point, rounds
    of restart_iters AccFW iterations with line search; the best polished point is kept
    (info['restarts'] rounds were run, info['restart_best'] is the one returned).
    callback(it, x): called per iterate with a dict of its figures; True stops the run.
    Returns a gsfw.Result.
    """
    objective = None
    if isinstance(A, Objective):
        objective = A._spec()
        A = None
    raw = _gsfw.solve(
        A=A, y=y, objective=objective, model=str(model), s=int(s), g=int(g), graph=graph,
        C=float(C), method=str(method), option=_option(option),
        L=_positive_or_none("L", L), L_rule=L_rule, max_iter=int(max_iter),
        tol=_positive_or_none("tol", tol), time_limit=_positive_or_none("time_limit", time_limit),
        x_true=x_true, callback=callback,
        delta=0.0 if delta is None else float(delta), step=str(step), x0=x0,
        polish=bool(polish), seed=int(seed), loss=str(loss), huber_delta=float(huber_delta),
        intercept=bool(intercept), tree=tree, restarts=int(restarts),
        restart_iters=int(restart_iters))
    return Result(raw)
