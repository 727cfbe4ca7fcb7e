"""The library's registry as Python sees it: the same lists as `gsfw help`, and every
method, step rule, loss and model listed is accepted by name."""
import subprocess

import numpy as np
import pytest

import gsfw
from gsfw import _gsfw

KINDS = ("methods", "models", "steps", "losses", "sensing", "bases")


@pytest.mark.parametrize("kind", KINDS)
def test_lists_agree_with_the_command_line(kind, gsfw_bin):
    listed = [row["name"] for row in _gsfw.registry(kind)]
    help_text = subprocess.run([gsfw_bin, "help", kind], check=True, capture_output=True,
                               text=True).stdout
    assert listed == [line.split()[0] for line in help_text.splitlines()]
    assert sum(row["default"] for row in _gsfw.registry(kind)) >= 1


def test_params_and_unknown_kind():
    names = [row["name"] for row in _gsfw.registry("params")]
    assert {"s", "max_iter", "huber_delta", "seed"} <= set(names)
    with pytest.raises(ValueError, match="unknown kind 'nope'"):
        _gsfw.registry("nope")


def problem():
    rng = np.random.default_rng(5)
    A = rng.standard_normal((40, 36)) / np.sqrt(40)
    x = np.zeros(36)
    x[[7, 8, 13, 14]] = [1.0, -0.5, 0.8, 0.6]
    return A, A @ x, np.where(A @ x >= 0, 1.0, -1.0)


@pytest.mark.parametrize("method", [row["name"] for row in _gsfw.registry("methods")])
def test_every_method_by_name(method):
    A, y, _ = problem()
    res = gsfw.solve(A, y, s=4, method=method, model="topk", max_iter=20, C=2.0)
    assert res.info["f_best"] < 0.5 * np.dot(y, y)


@pytest.mark.parametrize("step", [row["name"] for row in _gsfw.registry("steps")])
def test_every_step_rule_by_name(step):
    A, y, _ = problem()
    res = gsfw.solve(A, y, s=4, method="fw", step=step, max_iter=30, C=2.0)
    assert res.info["f_best"] < 0.5 * np.dot(y, y)


@pytest.mark.parametrize("loss", [row["name"] for row in _gsfw.registry("losses")])
def test_every_loss_by_name(loss):
    A, y, labels = problem()
    try:
        res = gsfw.solve(A, y, s=4, method="fw", loss=loss, max_iter=10)
    except ValueError as e:  # a classification loss wants labels
        assert "is not -1 or +1" in str(e)
        res = gsfw.solve(A, labels, s=4, method="fw", loss=loss, max_iter=10)
    assert np.isfinite(res.info["f_best"])


@pytest.mark.parametrize("row", _gsfw.registry("models"), ids=lambda r: r["name"])
def test_every_model_by_name(row):
    z = np.arange(64.0) % 7 - 3.0
    extra = {}
    if row["needs"] == "graph":
        extra["graph"] = gsfw.Graph.grid(8, 8)
    if row["needs"] == "tree":
        extra["tree"] = gsfw.Tree.quadtree(8, 8)
    s = 1 if "s=1" in row["reads"] else 4
    ids = gsfw.dmo(z, row["name"], s, **extra)
    assert 1 <= len(ids) <= 64 and len(set(ids)) == len(ids)


def test_head_near_miss_parameter():
    """near_miss reaches the head oracle: the automatic default is the band 0.2 (the same
    answer as near_miss=0.2), fewer PCSF runs than the full search (near_miss < 0), and a
    value outside [-1, 1] is refused."""
    rng = np.random.default_rng(0)
    A = rng.standard_normal((120, 400)) / np.sqrt(120)
    x = np.zeros(400)
    x[[20 * i + j for i in range(4) for j in range(6)]] = 1 / np.sqrt(24)
    y = A @ x
    common = dict(model="head", s=24, graph=gsfw.Graph.grid(20, 20), C=1, method="accfw",
                  max_iter=20)
    default = gsfw.solve(A, y, **common)
    off = gsfw.solve(A, y, near_miss=-1, **common)
    band = gsfw.solve(A, y, near_miss=0.2, **common)
    assert np.array_equal(default.x, band.x)
    assert default.info["pcsf_calls"] == band.info["pcsf_calls"]
    assert band.info["pcsf_calls"] < off.info["pcsf_calls"]
    with pytest.raises(ValueError, match="near_miss"):
        gsfw.solve(A, y, near_miss=2, **common)
