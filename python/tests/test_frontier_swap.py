"""The swap descent of experiments/frontier_swap.py: its closed-form swap residuals
against refits, and a descent that must end on the planted support."""
import importlib.util
import os

import numpy as np

from conftest import ROOT


def load_experiment():
    path = os.path.join(ROOT, "experiments", "frontier_swap.py")
    spec = importlib.util.spec_from_file_location("frontier_swap", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_swap_values_match_refits():
    assert load_experiment().check_swap_values()


def test_descent_keeps_the_model_and_finds_the_planted_support():
    fs = load_experiment()
    h = w = 8
    grid = fs.Grid(h, w)
    truth = [r * w + c for r in range(2, 5) for c in range(2, 5)]  # a 3 x 3 block
    rng = np.random.default_rng(3)
    xstar = np.zeros(h * w)
    xstar[truth] = 1.0 + rng.random(len(truth))
    n = 3 * len(truth)
    A = rng.standard_normal((n, h * w)) / np.sqrt(n)
    y = A @ xstar
    start = [r * w + c for r in range(4, 7) for c in range(4, 7)]  # overlaps in one pixel
    f0 = fs.fit(A, start, y)[3] @ fs.fit(A, start, y)[3]
    S, f = fs.swap_descent(A, y, start, grid, 1)
    assert len(S) == len(truth) and grid.pieces(S) == 1
    assert f <= f0
    assert sorted(S) == truth
    assert f <= 1e-20 * (y @ y)
