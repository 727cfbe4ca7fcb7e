"""Python and the command line give the same answers on the same A and y, bit for bit.

Both call the same library with the same settings, so they make the same BLAS calls in
the same order; the command line runs as a child of this process and inherits its
environment, so OpenBLAS picks the same kernel (OPENBLAS_CORETYPE) and thread count
(OPENBLAS_NUM_THREADS) in both. Hence exact equality, whichever kernel that is."""
import os
import re
import subprocess
import warnings

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
    ("graph-sp", "head", []),
])
@pytest.mark.filterwarnings("ignore::gsfw.UnusedArgumentWarning")  # shared arguments
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
    assert np.array_equal(res.x_last, last) and np.array_equal(res.x_best, best)
    assert "iters=%d" % res.iterations in out
    # a Fortran-ordered copy of A reaches the library without a conversion and agrees too
    # (the least-squares objective works on its own column-major copy in both cases)
    res_f = gsfw.solve(np.asfortranarray(A), y, model=model, s=s, g=g,
                       graph=gsfw.Graph.grid(h, w), C=1.0, method=method, max_iter=iters,
                       **kwargs)
    assert np.array_equal(res_f.x_last, last)


@pytest.mark.parametrize("loss,extra", [("logistic", ["--intercept"]),
                                        ("huber", ["--huber-delta", "0.05"])])
def test_mnist7_losses_python_equals_cli(root, gsfw_bin, tmp_path, loss, extra):
    A, y, x_true, s, g, h, w = image_problem(root, "mnist_7", ratio=5.0, seed=3)
    if loss == "logistic":
        y = np.where(y > np.median(y), 1.0, -1.0)
    iters = 40
    last, best, out = cli_solve(gsfw_bin, tmp_path, A, y,
                                ["--model", "head", "--s", str(s), "--g", str(g), "--graph",
                                 "grid:%dx%d" % (h, w), "--C", "1", "--method", "fw", "--step",
                                 "adaptive", "--iters", str(iters), "--loss", loss] + extra)
    kwargs = {"intercept": True} if loss == "logistic" else {"huber_delta": 0.05}
    res = gsfw.solve(A, y, model="head", s=s, g=g, graph=gsfw.Graph.grid(h, w), C=1.0,
                     method="fw", step="adaptive", max_iter=iters, loss=loss, **kwargs)
    assert np.array_equal(res.x_last, last) and np.array_equal(res.x_best, best)
    if loss == "logistic":
        # The intercept is the root of a 1-D sum, found by Newton from a warm start that
        # depends on the object's earlier calls, to a relative step of 1e-12: two callers
        # agree to that step (and the rounding of the sum), not bit for bit.
        b = float(out.split(" intercept=")[1].split()[0])
        assert abs(res.intercept - b) <= 1e-12 * max(1.0, abs(b))
        assert "polished_intercept=" not in out
        # with polish, both report the intercept of the polished point
        out_p = cli_solve(gsfw_bin, tmp_path, A, y,
                          ["--model", "head", "--s", str(s), "--g", str(g), "--graph",
                           "grid:%dx%d" % (h, w), "--C", "1", "--method", "fw", "--step",
                           "adaptive", "--iters", str(iters), "--loss", loss, "--polish", "on"]
                          + extra)[2]
        res_p = gsfw.solve(A, y, model="head", s=s, g=g, graph=gsfw.Graph.grid(h, w), C=1.0,
                           method="fw", step="adaptive", max_iter=iters, loss=loss,
                           polish=True, **kwargs)
        b_p = float(out_p.split("polished_intercept=")[1].split()[0])
        assert abs(res_p.intercept - b_p) <= 1e-12 * max(1.0, abs(b_p))
        assert abs(b_p - b) > 1e-9  # the polished point has an intercept of its own
    else:
        assert res.intercept is None


def cli_run(gsfw_bin, args):
    return subprocess.run([gsfw_bin] + args, capture_output=True, text=True, check=False)


def python_spelling(text):
    """A command-line message in Python's words: --tol-rel is tol_rel, --model head is
    model head."""
    return re.sub(r"--([A-Za-z][A-Za-z-]*)", lambda m: m.group(1).replace("-", "_"), text)


def small_problem(tmp_path):
    rng = np.random.default_rng(5)
    A = rng.standard_normal((20, 30))
    y = A @ np.r_[np.ones(3), np.zeros(27)]
    np.save(tmp_path / "A.npy", A)
    np.save(tmp_path / "y.npy", y)
    return A, y, ["--A", str(tmp_path / "A.npy"), "--y", str(tmp_path / "y.npy"), "--s", "3",
                  "--C", "1", "--method", "accfw", "--iters", "5"]


# 0 is refused in the same words (Python had read it as "not given")
@pytest.mark.parametrize("name", ["L", "tol", "tol_rel", "time_limit", "delta"])
def test_zero_refused_as_on_the_command_line(gsfw_bin, tmp_path, name):
    A, y, args = small_problem(tmp_path)
    proc = cli_run(gsfw_bin, ["solve", "--model", "topk-approx", "--" + name.replace("_", "-"),
                              "0"] + args)
    assert proc.returncode == 2
    cli_message = proc.stderr.splitlines()[0]
    with pytest.raises(ValueError) as info:
        gsfw.solve(A, y, model="topk-approx", s=3, C=1.0, method="accfw", max_iter=5,
                   **{name: 0})
    assert python_spelling(cli_message) == "gsfw solve: %s" % info.value


# the options the model ignores: the same warnings, in the same words and order
def test_unused_arguments_warn_as_on_the_command_line(gsfw_bin, tmp_path):
    A, y, args = small_problem(tmp_path)
    proc = cli_run(gsfw_bin, ["solve", "--model", "topk", "--seed", "4", "--graph", "grid:5x6"]
                   + args)
    assert proc.returncode == 0, proc.stderr
    cli_warnings = [python_spelling(line.split(": warning: ", 1)[1])
                    for line in proc.stderr.splitlines() if ": warning: " in line]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        gsfw.solve(A, y, model="topk", s=3, C=1.0, method="accfw", max_iter=5, seed=4,
                   graph=gsfw.Graph.grid(5, 6))
    assert len(cli_warnings) == 2
    assert [str(w.message) for w in record] == cli_warnings
    assert all(w.category is gsfw.UnusedArgumentWarning for w in record)


# a projection below s: the warning of gsfw dmo and gsfw tail, from the same library text
@pytest.mark.parametrize("command", ["dmo", "tail"])
def test_short_support_warns_as_on_the_command_line(gsfw_bin, tmp_path, command):
    z = np.random.default_rng(6).standard_normal(100)
    np.save(tmp_path / "z.npy", z)
    (tmp_path / "edges.txt").write_text("0 1\n2 3\n3 4\n")
    graph = gsfw.Graph(100, [[0, 1], [2, 3], [3, 4]])
    args = ([command] + (["--model", "head"] if command == "dmo" else []) +
            ["--z", str(tmp_path / "z.npy"), "--s", "10", "--g", "2", "--edges",
             str(tmp_path / "edges.txt"), "--nodes", "100"])
    proc = cli_run(gsfw_bin, args)
    assert proc.returncode == 0, proc.stderr
    with pytest.warns(gsfw.ShortSupportWarning) as record:
        ids = (gsfw.dmo(z, "head", 10, g=2, graph=graph) if command == "dmo" else
               gsfw.tail(z, graph, 10, g=2))
    assert " ".join(map(str, ids)) == proc.stdout.strip()
    assert [str(w.message) for w in record] == [
        line.split(": warning: ", 1)[1] for line in proc.stderr.splitlines()]
    assert "below s = 10: the graph has no set of 10 nodes in 2 components" in str(
        record[0].message)
    with warnings.catch_warnings():  # a graph with sets of s nodes: no warning
        warnings.simplefilter("error")
        gsfw.head(z, gsfw.Graph.grid(10, 10), 10)
