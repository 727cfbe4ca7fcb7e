"""Python and the command line give the same answers on the same A and y."""
import os
import subprocess

import numpy as np
import pytest

import gsfw
from conftest import image_problem


def cli_solve(gsfw_bin, tmp_path, A, y, args):
    np.save(tmp_path / "A.npy", A)
    np.save(tmp_path / "y.npy", y)
    cmd = [gsfw_bin, "solve", "--A", str(tmp_path / "A.npy"), "--y", str(tmp_path / "y.npy"),
           "--out", str(tmp_path / "last.npy"), "--best-out", str(tmp_path / "best.npy")] + args
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return np.load(tmp_path / "last.npy"), np.load(tmp_path / "best.npy"), proc.stdout


@pytest.mark.parametrize("method,model,extra", [
    ("accfw", "head", []),
    ("fw", "subgraph", ["--step", "line"]),
    ("bpcg", "topk", []),
    ("graph-iht", "head", []),
])
def test_mnist7_python_equals_cli(root, gsfw_bin, tmp_path, method, model, extra):
    A, y, x_true, s, g, h, w = image_problem(root, "mnist_7", ratio=5.0, seed=7)
    iters = 60
    last, best, out = cli_solve(gsfw_bin, tmp_path, A, y,
                                ["--model", model, "--s", str(s), "--g", str(g), "--graph",
                                 "grid:%dx%d" % (h, w), "--C", "1", "--method", method,
                                 "--iters", str(iters)] + extra)
    kwargs = {"step": extra[1]} if extra else {}
    res = gsfw.solve(A, y, model=model, s=s, g=g, graph=gsfw.Graph.grid(h, w), C=1.0,
                     method=method, max_iter=iters, **kwargs)
    assert np.max(np.abs(res.x_last - last)) <= 1e-12
    assert np.max(np.abs(res.x_best - best)) <= 1e-12
    assert "iters=%d" % res.iterations in out
    # a Fortran-ordered copy of A reaches the library without a conversion and agrees too
    res_f = gsfw.solve(np.asfortranarray(A), y, model=model, s=s, g=g,
                       graph=gsfw.Graph.grid(h, w), C=1.0, method=method, max_iter=iters,
                       **kwargs)
    assert np.max(np.abs(res_f.x_last - last)) <= 1e-12
