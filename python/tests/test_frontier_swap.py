"""The swap descent of experiments/frontier_swap.py: its closed-form swap residuals
against refits, and the pieces limit along a descent."""
import importlib.util
import os

import numpy as np
import pytest

from conftest import ROOT


def load_experiment():
    path = os.path.join(ROOT, "experiments", "frontier_swap.py")
    spec = importlib.util.spec_from_file_location("frontier_swap", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_swap_values_match_refits():
    assert load_experiment().check_swap_values()


@pytest.mark.parametrize("seed", range(4))
def test_descent_lowers_f_within_the_pieces_limit(seed):
    fs = load_experiment()
    h = w = 8
    grid = fs.Grid(h, w)
    # two 2 x 2 blocks one column apart; the start joins the first block to half of
    # the second through that column, so reaching the truth means splitting it in two
    truth = sorted(r * w + c for r in (1, 2) for c in (1, 2, 4, 5))
    start = [r * w + c for r in (1, 2) for c in (1, 2, 3, 4)]
    rng = np.random.default_rng(seed)
    xstar = np.zeros(h * w)
    xstar[truth] = 1.0 + rng.random(len(truth))
    n = 3 * len(truth)
    A = rng.standard_normal((n, h * w)) / np.sqrt(n)
    y = A @ xstar
    yy = y @ y

    def residual(S):
        r = fs.fit(A, S, y)[3]
        return r @ r

    for g in (1, 2):
        trace = []
        S, f = fs.swap_descent(A, y, start, grid, g, trace=trace)
        steps = [start] + trace
        assert all(len(T) == len(truth) for T in steps)
        assert all(grid.pieces(T) <= g for T in steps)
        values = [residual(T) for T in steps]
        assert all(a > b for a, b in zip(values, values[1:]))
        if g == 1:
            assert sorted(S) != truth and f > 1e-6 * yy
        else:
            assert sorted(S) == truth and f <= 1e-20 * yy
