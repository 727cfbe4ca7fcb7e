"""Objectives written in Python, callbacks, exceptions raised inside them."""
import numpy as np
import pytest

import gsfw


def logistic_problem(seed=0, n=600, d=60, k=5):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, d))
    x_true = np.zeros(d)
    support = np.sort(rng.choice(d, k, replace=False))
    x_true[support] = rng.choice([-2.0, 2.0], k)
    p = 1.0 / (1.0 + np.exp(-(A @ x_true)))
    b = np.where(rng.random(n) < p, 1.0, -1.0)

    def value(x):
        return float(np.mean(np.logaddexp(0.0, -b * (A @ x))))

    def gradient(x):
        m = b * (A @ x)
        return -(A.T @ (b * 0.5 * (1.0 - np.tanh(0.5 * m)))) / n

    def value_grad(x):
        m = b * (A @ x)
        return (float(np.mean(np.logaddexp(0.0, -m))),
                -(A.T @ (b * 0.5 * (1.0 - np.tanh(0.5 * m)))) / n)

    return value, gradient, value_grad, x_true, support


def test_logistic_converges_and_recovers_support():
    value, gradient, value_grad, x_true, support = logistic_problem()
    d = x_true.size
    C = 1.5 * np.linalg.norm(x_true)
    obj = gsfw.Objective(d, value, gradient, value_grad)
    res = gsfw.solve(obj, model="topk", s=5, C=C, method="fw", step="adaptive", max_iter=400,
                     polish=True)
    f = res.trace["f"]
    assert f[-1] < 0.5 * f[0]
    # the certified bound closes on the minimum over D(C, M)
    assert res.info["gap_bound"] < 0.02 * f[0]
    ref = gsfw.solve(obj, model="topk", s=5, C=C, method="fw", step="adaptive", max_iter=3000)
    assert res.info["f_best"] - ref.info["f_best"] <= 0.02 * ref.info["f_best"]
    # the bound is certified: no point of D does better than f_best - gap_bound
    assert ref.info["f_best"] >= res.info["f_best"] - res.info["gap_bound"]
    assert np.flatnonzero(res.x_polished).tolist() == support.tolist()
    # without value_grad the same run (value and gradient called separately)
    res2 = gsfw.solve(gsfw.Objective(d, value, gradient), model="topk", s=5, C=C,
                      method="fw", step="adaptive", max_iter=400)
    assert np.allclose(res2.x_best, res.x_best, atol=1e-10)


class Marker(Exception):
    pass


@pytest.mark.parametrize("where", ["value", "gradient", "value_grad", "callback"])
def test_exception_inside_callable_comes_out_unchanged(where):
    value, gradient, value_grad, _, _ = logistic_problem(n=50, d=20)
    exc = Marker("raised by " + where)
    calls = {"n": 0}

    def bomb(fn):
        def wrapped(*args):
            calls["n"] += 1
            if calls["n"] >= 3:
                raise exc
            return fn(*args)
        return wrapped

    fns = {"value": value, "gradient": gradient, "value_grad": value_grad}
    callback = None
    if where == "callback":
        callback = bomb(lambda it, x: False)
    else:
        fns[where] = bomb(fns[where])
        if where != "value_grad":  # else the solver only calls value_grad
            fns["value_grad"] = None
    obj = gsfw.Objective(20, fns["value"], fns["gradient"], fns["value_grad"])
    with pytest.raises(Marker) as info:
        gsfw.solve(obj, s=3, C=1.0, method="fw", max_iter=50, callback=callback)
    assert info.value is exc
    # the interpreter is in a clean state afterwards
    res = gsfw.solve(gsfw.Objective(20, value, gradient), s=3, C=1.0, method="fw", max_iter=5)
    assert res.iterations == 5


def test_bad_gradient_shape_is_reported():
    obj = gsfw.Objective(4, lambda x: 0.0, lambda x: np.zeros(3))
    with pytest.raises(ValueError, match=r"gradient returned an array of shape \(3,\); "
                                         r"expected shape \(4,\)$"):
        gsfw.solve(obj, s=2, max_iter=3, method="fw")
    obj = gsfw.Objective(4, lambda x: 0.0, lambda x: np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"gradient returned an array of shape \(2, 2\)"):
        gsfw.solve(obj, s=2, max_iter=3, method="fw")
    obj = gsfw.Objective(4, lambda x: 0.0, lambda x: None)
    with pytest.raises(ValueError, match=r"^Objective gradient returned None; expected an "
                                         r"array of 4 entries$"):
        gsfw.solve(obj, s=2, max_iter=3, method="fw")


def test_nan_value_at_zero_blames_the_objective_not_c():
    obj = gsfw.Objective(4, lambda x: float("nan"), lambda x: np.zeros(4))
    with pytest.raises(ValueError, match="objective value is -?nan at x = 0, where C plays "
                                         "no part") as info:
        gsfw.solve(obj, s=2, max_iter=3, method="fw")
    assert "smaller C" not in str(info.value)


def test_callback_sees_iterates_and_stops():
    rng = np.random.default_rng(1)
    A = rng.standard_normal((30, 40))
    y = A @ np.r_[np.ones(3), np.zeros(37)]
    seen = []

    def cb(it, x):
        seen.append((it["iter"], it["f"], x.copy()))
        return it["iter"] == 7

    res = gsfw.solve(A, y, s=3, C=2.0, max_iter=100, callback=cb)
    assert res.status == "callback_stop" and res.iterations == 7
    assert [t for t, _, _ in seen] == list(range(8))
    assert np.allclose([f for _, f, _ in seen], res.trace["f"])
    assert np.array_equal(seen[-1][2], res.x_last)


def test_trace_and_info_fields():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((30, 40))
    x = np.zeros(40)
    x[:3] = 1.0
    res = gsfw.solve(A, A @ x, s=3, C=2.0, max_iter=20, x_true=x, polish=True)
    assert set(res.trace) == {"iter", "time_s", "f", "gap", "gap_bound", "est_err", "support",
                              "step", "active"}
    assert res.trace["iter"].tolist() == list(range(21))
    assert np.all(np.isfinite(res.trace["est_err"]))
    assert res.x is res.x_polished
    assert res.info["L_source"] == "atom" and res.info["polished_size"] == 3
    assert np.linalg.norm(res.x - x) < 1e-8
    no_polish = gsfw.solve(A, A @ x, s=3, C=2.0, max_iter=20, polish=False)
    assert no_polish.x_polished is None and no_polish.x is no_polish.x_best
    # polish is on by default for the Frank-Wolfe family, as in the estimators: at most s
    # nonzeros (the best iterate, a convex combination of atoms, has more)
    default = gsfw.solve(A, A @ x, s=3, C=2.0, max_iter=20)
    assert default.x is default.x_polished and np.count_nonzero(default.x) <= 3
    assert np.count_nonzero(default.x_best) > 3
    assert gsfw.solve(A, A @ x, s=3, max_iter=5, method="iht").x_polished is None
    assert gsfw.solve(A, np.sign(A @ x), s=3, max_iter=5, loss="logistic").x_polished is None


def test_warm_start_and_tol():
    rng = np.random.default_rng(5)
    A = rng.standard_normal((40, 50))
    x = np.zeros(50)
    x[[3, 9]] = [1.0, -1.0]
    y = A @ x
    first = gsfw.solve(A, y, s=2, C=2.0, max_iter=30, polish=True)
    again = gsfw.solve(A, y, s=2, C=2.0, max_iter=30, x0=first.x_polished, step="line",
                       method="fw", tol=1e-9)
    assert again.status == "converged"
    assert again.info["f_best"] <= first.info["f_polished"] + 1e-12


@pytest.mark.parametrize("returned,got", [("a", "str 'a'"), (1 + 1j, r"complex \(1\+1j\)"),
                                          (None, "NoneType None")])
def test_a_value_that_is_not_a_number_is_named(returned, got):
    # Python's own "must be real number, not str" named neither the Objective nor value
    def grad(x):
        return 2 * x
    for objective in (gsfw.Objective(4, lambda x: returned, grad),
                      gsfw.Objective(4, lambda x: returned, grad, lambda x: (returned, grad(x)))):
        with pytest.raises(TypeError, match=r"^Objective value returned %s; expected a real "
                                            r"number$" % got):
            gsfw.solve(objective, s=2, L=2.0, max_iter=3)
