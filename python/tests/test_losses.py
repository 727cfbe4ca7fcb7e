"""solve over gsfw.Operator inputs and with the logistic and Huber losses."""
import numpy as np
import pytest

import gsfw

def problem(seed=0, n=200, d=60):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, d))
    x = np.zeros(d)
    x[[3, 7, 20]] = [2.0, -2.0, 1.5]
    return rng, A, x


def test_operator_and_array_agree():
    _, A, x = problem()
    y = A @ x
    ref = gsfw.solve(A, y, s=3, C=4.0, max_iter=100)
    for op in (gsfw.Operator.dense(A), gsfw.Operator.dense(np.asfortranarray(A), copy=False)):
        res = gsfw.solve(op, y, s=3, C=4.0, max_iter=100)
        assert np.max(np.abs(res.x_last - ref.x_last)) <= 1e-12
    # Huber with a threshold above every residual is the squared loss
    hub = gsfw.solve(A, y, s=3, C=4.0, max_iter=100, loss="huber", huber_delta=1e3)
    assert np.max(np.abs(hub.x_last - ref.x_last)) <= 1e-12


@pytest.mark.parametrize("method", ["cosamp", "graph-cosamp", "graph-sp"])
@pytest.mark.filterwarnings("ignore::gsfw.UnusedArgumentWarning")  # shared arguments
def test_baselines_on_separable_labels_are_unbounded(method):
    rng = np.random.default_rng(3)
    A = rng.standard_normal((40, 30))
    x = np.zeros(30)
    x[[2, 3, 4]] = [1.5, -2.0, 1.0]
    labels = np.where(A @ x >= 0, 1.0, -1.0)
    graph = gsfw.Graph.grid(5, 6)
    runs = [gsfw.solve(A, labels, s=4, graph=graph, model="subgraph", loss="logistic",
                       method=method, max_iter=iters, inner_iters=inner)
            for iters, inner in ((20, 10), (80, 50))]
    # graph-sp "converges", cosamp runs out of iterations: x grows with both
    assert [r.status for r in runs] == ["unbounded", "unbounded"]
    assert np.linalg.norm(runs[1].x) > np.linalg.norm(runs[0].x)
    noisy = labels.copy()
    noisy[::5] *= -1  # no support of 4 separates these
    res = gsfw.solve(A, noisy, s=4, graph=graph, model="subgraph", loss="logistic",
                     method=method, max_iter=80)
    assert res.status != "unbounded"
    squared = gsfw.solve(A, labels, s=4, graph=graph, model="subgraph", method=method,
                         max_iter=20)
    assert squared.status != "unbounded"


def test_logistic_recovers_support():
    rng, A, x = problem(1)
    labels = np.sign(A @ x + 0.3 * rng.standard_normal(A.shape[0]))
    res = gsfw.solve(A, labels, s=3, C=6.0, loss="logistic", method="fw", step="adaptive",
                     max_iter=300, polish=True)
    assert np.flatnonzero(res.x).tolist() == [3, 7, 20]
    assert res.trace["f"][-1] < res.trace["f"][0]
    # labels shifted by an offset: the intercept absorbs it
    shifted = np.sign(A @ x + 1.0 + 0.3 * rng.standard_normal(A.shape[0]))
    res = gsfw.solve(A, shifted, s=3, C=6.0, loss="logistic", intercept=True, method="fw",
                     step="adaptive", max_iter=300, polish=True)
    assert np.flatnonzero(res.x).tolist() == [3, 7, 20] and res.intercept > 0.3


def test_transform_operator_solve_and_release():
    op = gsfw.Operator.dct(64, 40, seed=2)
    x = np.zeros(64)
    x[[5, 40]] = [1.0, -0.5]
    res = gsfw.solve(op, op @ x, s=2, C=2.0, method="fw", step="line", max_iter=200,
                     polish=True)
    assert np.linalg.norm(res.x - x) < 1e-6
    with pytest.raises(ValueError, match="unknown loss 'hinge'"):
        gsfw.solve(op, op @ x, s=2, loss="hinge")
    with pytest.raises(ValueError, match="y has 3 entries"):
        gsfw.solve(op, np.ones(3), s=2)
    with pytest.raises(ValueError, match="intercept needs loss logistic"):
        gsfw.solve(op, op @ x, s=2, intercept=True)
    with pytest.raises(ValueError, match="not to a gsfw.Objective"):
        gsfw.solve(gsfw.Objective(3, len, len), s=1, loss="huber")
    assert np.allclose(op @ x, op.toarray() @ x)  # usable again after solves and errors



def test_fortran_ordered_A_is_borrowed_by_the_losses_over_operators():
    """A float64 array in Fortran order is used in place by the logistic and Huber losses
    (the solve holds one more reference to it than to a C-ordered one, which is copied,
    as a callback sees) and gives the C-ordered answer bit for bit. The squared loss keeps the
    library's own copy in both orders (the command line's objective)."""
    import sys
    _, A, x = problem(seed=4)
    y = A @ x
    labels = np.where(A @ x > 0, 1.0, -1.0)
    for loss, target, borrowed in (("logistic", labels, True), ("huber", y, True),
                                   ("ls", y, False)):
        held, answer = {}, {}
        for order in ("C", "F"):
            M = np.array(A, order=order)
            before = sys.getrefcount(M)
            seen = []

            def watch(it, info):
                seen.append(sys.getrefcount(M))
                return False
            res = gsfw.solve(M, target, s=4, max_iter=30, method="fw", loss=loss,
                             callback=watch)
            held[order] = max(seen) - before
            answer[order] = res.x_last
        assert held["F"] - held["C"] == (1 if borrowed else 0), loss
        assert np.array_equal(answer["F"], answer["C"]), loss
