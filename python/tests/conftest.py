"""Shared fixtures: the repository root and the command-line tool (for the agreement
tests; GSFW_BIN overrides build/gsfw)."""
import os

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def gsfw_bin():
    path = os.environ.get("GSFW_BIN") or os.path.join(ROOT, "build", "gsfw")
    if not os.access(path, os.X_OK):
        pytest.skip("the command-line tool %s is not built (cmake --build build)" % path)
    return path


def support_components(mask, h, w):
    """Connected components (4-neighbour) of the pixels where mask is set."""
    seen = np.zeros_like(mask, dtype=bool)
    count = 0
    for r0 in range(h):
        for c0 in range(w):
            if not mask[r0, c0] or seen[r0, c0]:
                continue
            count += 1
            stack = [(r0, c0)]
            seen[r0, c0] = True
            while stack:
                r, c = stack.pop()
                for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= rr < h and 0 <= cc < w and mask[rr, cc] and not seen[rr, cc]:
                        seen[rr, cc] = True
                        stack.append((rr, cc))
    return count


def image_problem(root, name, ratio, seed=0):
    """x* = the image flattened and scaled to unit norm, A Gaussian N(0, 1/n) with
    n = floor(ratio * s), y = A x*; returns (A, y, x*, s, g, h, w)."""
    img = np.load(os.path.join(root, "data", name + ".npy"))
    h, w = img.shape
    x = img.ravel() / np.linalg.norm(img)
    s = int(np.count_nonzero(x))
    g = support_components(img != 0, h, w)
    n = int(np.floor(ratio * s))
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, h * w)) / np.sqrt(n)
    return A, A @ x, x, s, g, h, w
