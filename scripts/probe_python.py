"""Robustness probe of the Python package (scripts/probe.sh): bad data, bad parameters
and wrapping integers, one table row each: the case, the exception expected, what came,
and ok or BAD. Exit status 1 when a row is BAD.

    PYTHONPATH=build/python/lib python3 scripts/probe_python.py
"""
import re
import sys
import warnings

import numpy as np

import gsfw

rng = np.random.default_rng(0)
A = rng.standard_normal((30, 50))
y = A @ np.r_[np.ones(3), np.zeros(47)]
GRID = gsfw.Graph.grid(5, 10)
rows = []


def case(name, expected, pattern, call):
    """expected: the exception type; pattern: a regular expression its message matches."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            call()
        got, good = "no exception", False
    except Exception as exc:  # noqa: BLE001 - the probe records whatever comes
        got = "%s: %s" % (type(exc).__name__, str(exc).splitlines()[0][:90])
        good = type(exc) is expected and re.search(pattern, str(exc)) is not None
    rows.append((name, expected.__name__, got, "ok" if good else "BAD"))


for method in ("accfw", "iht", "graph-iht", "gen-mp"):
    case("all-zero A, " + method, ValueError, "data matrix zero",
         lambda m=method: gsfw.solve(np.zeros_like(A), y, model="head", s=3, graph=GRID,
                                     method=m, max_iter=5))
case("A * 1e306", ValueError, "could not estimate L",
     lambda: gsfw.solve(A * 1e306, y, s=3, max_iter=5))
case("L = 5e-324", ValueError, "L = .* is too small",
     lambda: gsfw.solve(A, y, s=3, L=5e-324, max_iter=5))
case("C = 1e308", ValueError, "smaller C",
     lambda: gsfw.solve(A, y, s=3, C=1e308, max_iter=5))
case("delta = 2 (solve)", ValueError, r"delta must be in \(0, 1\], got 2$",
     lambda: gsfw.solve(A, y, s=3, model="topk-approx", delta=2.0, max_iter=5))
case("delta = 2 (dmo)", ValueError, r"delta must be in \(0, 1\], got 2$",
     lambda: gsfw.dmo(y, "topk-approx", 3, delta=2.0))
case("object-dtype A", ValueError, "^A must be an array of real numbers",
     lambda: gsfw.solve(A.astype(object), y, s=3, max_iter=5))
case("complex A", ValueError, "^A must be an array of real numbers",
     lambda: gsfw.solve(A + 1j, y, s=3, max_iter=5))
case("complex z (dmo)", ValueError, "^z must be an array of real numbers",
     lambda: gsfw.dmo(y + 1j, "topk", 3))
case("uint64 edge id 2^64 - 1", ValueError, r"edges\[0, 1\] = 18446744073709551615",
     lambda: gsfw.Graph(3, np.array([[0, 2**64 - 1]], dtype=np.uint64)))
case("Tree parent 2^32", ValueError, r"parents\[1\] = 4294967296 is out of range",
     lambda: gsfw.Tree(np.array([-1, 2**32])))
case("Tree parent 2^32 - 1", ValueError, r"parents\[1\] = 4294967295 is out of range",
     lambda: gsfw.Tree(np.array([-1, 2**32 - 1])))
for seed in (2**64, 2**32, -1):
    case("seed = %d" % seed, ValueError, "seed must be between 0 and",
         lambda sd=seed: gsfw.solve(A, y, s=3, seed=sd, max_iter=5))
for s in (4.5, "4", True):
    case("s = %r" % (s,), TypeError, "s",
         lambda v=s: gsfw.solve(A, y, s=v, max_iter=5))
try:
    import scipy.sparse as sp
    M = sp.coo_matrix((np.array([1 + 1j, 2.0]), (np.array([0, 1]), np.array([1, 2]))),
                      shape=(3, 3))
    case("Graph.from_scipy, complex weights", ValueError, "complex weights",
         lambda: gsfw.Graph.from_scipy(M))
except ImportError:
    rows.append(("Graph.from_scipy, complex weights", "ValueError", "scipy missing", "skipped"))

width = max(len(r[0]) for r in rows)
print("| %-*s | expected | outcome | got |" % (width, "case"))
print("|%s|---|---|---|" % ("-" * (width + 2)))
for name, expected, got, outcome in rows:
    print("| %-*s | %s | %s | %s |" % (width, name, expected, outcome, got.replace("|", "/")))
bad = sum(r[3] == "BAD" for r in rows)
print("python probe: %d cases, %d bad" % (len(rows), bad))
sys.exit(1 if bad else 0)
