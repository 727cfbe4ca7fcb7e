"""restarts=: warm restarts from the polished point, as gsfw solve --restarts."""
import subprocess

import numpy as np
import pytest

import gsfw
from conftest import image_problem


def mnist0(root):
    # MNIST 0 at ratio 2: one run's polished answer misses the support (rel_err 0.25-0.27
    # under the Prescott, Sandybridge, Haswell and SkylakeX kernels)
    return image_problem(root, "mnist_0", ratio=2.0, seed=6)


def test_restarts_find_the_support(root):
    A, y, x, s, g, h, w = mnist0(root)
    kw = dict(model="head", s=s, g=g, graph=gsfw.Graph.grid(h, w), polish=True, max_iter=300)
    one = gsfw.solve(A, y, **kw)
    more = gsfw.solve(A, y, restarts=10, **kw)
    assert np.linalg.norm(one.x - x) > 0.05
    assert np.linalg.norm(more.x - x) < 1e-10
    assert one.info["restarts"] == 0
    assert 1 <= more.info["restart_best"] <= more.info["restarts"] <= 10
    assert more.info["f_polished"] < one.info["f_polished"]
    # the first run is the same run
    assert np.array_equal(one.x_best, more.x_best)
    assert more.iterations == one.iterations


def test_restarts_agree_with_the_command_line(root, gsfw_bin, tmp_path):
    A, y, x, s, g, h, w = mnist0(root)
    np.save(tmp_path / "A.npy", A)
    np.save(tmp_path / "y.npy", y)
    cmd = [gsfw_bin, "solve", "--A", str(tmp_path / "A.npy"), "--y", str(tmp_path / "y.npy"),
           "--model", "head", "--s", str(s), "--g", str(g), "--graph", "grid:%dx%d" % (h, w),
           "--C", "1", "--method", "accfw", "--iters", "100", "--polish", "on",
           "--restarts", "4", "--restart-iters", "10",
           "--polished-out", str(tmp_path / "pol.npy")]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    res = gsfw.solve(A, y, model="head", s=s, g=g, graph=gsfw.Graph.grid(h, w), max_iter=100,
                     polish=True, restarts=4, restart_iters=10)
    assert np.max(np.abs(res.x_polished - np.load(tmp_path / "pol.npy"))) <= 1e-12
    assert "restarts=%d " % res.info["restarts"] in proc.stdout + " "


def test_restarts_need_polish(root):
    A, y, x, s, g, h, w = mnist0(root)
    with pytest.raises(ValueError, match="restarts needs polish"):
        gsfw.solve(A, y, model="topk", s=s, polish=False, restarts=3)
    with pytest.raises(ValueError, match="restarts"):
        gsfw.solve(A, y, model="topk", s=s, polish=True, restarts=-1)
