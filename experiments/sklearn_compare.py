#!/usr/bin/python3
"""gsfw recover against scikit-learn's sparse solvers on the same problem.

Dumps the exact problem `gsfw recover --image IMAGE --ratio R --seed N` solves
(build/dump_problem: A, y, x*), fits scikit-learn's Lasso, LassoLars and
OrthogonalMatchingPursuit (n_nonzero_coefs = s) on it, and runs gsfw recover's default
(head model, polish, stop once the certified bound has dropped by 1e-3), the same
with --tol-rel 1e-2, and with the graph-free top-s model (--model topk --tol-rel 1e-2). Each solver is
timed REPEATS times (default 5) and the best time is kept: for scikit-learn the wall time
of fit(), for gsfw the solve plus polish time it reports (time_s + polish_s; drawing A
is not counted on either side). rel_err = ||x - x*|| / ||x*||.

    usage: /usr/bin/python3 experiments/sklearn_compare.py [--build build]
           [--image data/mnist_7.npy] [--ratio 5] [--seed 0] [--repeats 5] [--out DIR]

Needs numpy and scikit-learn (Debian: python3-sklearn); prints a markdown table and writes
DIR/sklearn_compare.csv when --out is given. Set OPENBLAS_NUM_THREADS=1 for a
single-thread comparison (both sides use OpenBLAS).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso, LassoLars, OrthogonalMatchingPursuit


def rel_err(x, xs):
    return float(np.linalg.norm(x - xs) / np.linalg.norm(xs))


def f1(x, xs):
    p, t = x != 0, xs != 0
    tp = np.sum(p & t)
    return float(2 * tp / (np.sum(p) + np.sum(t))) if tp else 0.0


def best_fit(make, A, y, repeats):
    best, model = float("inf"), None
    for _ in range(repeats):
        m = make()
        t0 = time.perf_counter()
        m.fit(A, y)
        best = min(best, time.perf_counter() - t0)
        model = m
    return best, model.coef_


def gsfw_recover(build, image, ratio, seed, repeats, workdir, flags):
    best, fields = float("inf"), None
    for _ in range(repeats):
        line = subprocess.run(
            [os.path.join(build, "gsfw"), "recover", "--image", image, "--ratio", str(ratio),
             "--seed", str(seed), "--out-dir", workdir, "--no-plot"] + flags,
            check=True, capture_output=True, text=True).stdout
        kv = dict(item.split("=", 1) for item in line.split())
        t = float(kv["time_s"]) + float(kv["polish_s"])
        if t < best:
            best, fields = t, kv
    return best, fields


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--image", default="data/mnist_7.npy")
    ap.add_argument("--ratio", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        info = subprocess.run(
            [os.path.join(a.build, "dump_problem"), "--image", a.image, "--ratio", str(a.ratio),
             "--seed", str(a.seed), "--out-dir", tmp],
            check=True, capture_output=True, text=True).stdout
        dims = dict(item.split("=", 1) for item in info.split())
        A, y, xs = (np.load(os.path.join(tmp, f)) for f in ("A.npy", "y.npy", "xstar.npy"))
        s = int(dims["s"])
        rows = []
        warnings.simplefilter("ignore", ConvergenceWarning)
        solvers = [
            ("sklearn Lasso(alpha=1e-4)",
             lambda: Lasso(alpha=1e-4, fit_intercept=False, max_iter=100000, tol=1e-8)),
            ("sklearn Lasso(alpha=1e-6)",
             lambda: Lasso(alpha=1e-6, fit_intercept=False, max_iter=100000, tol=1e-10)),
            ("sklearn LassoLars(alpha=1e-6)",
             lambda: LassoLars(alpha=1e-6, fit_intercept=False, max_iter=2000)),
            (f"sklearn OrthogonalMatchingPursuit(n_nonzero_coefs={s})",
             lambda: OrthogonalMatchingPursuit(n_nonzero_coefs=s, fit_intercept=False)),
        ]
        for name, make in solvers:
            t, x = best_fit(make, A, y, a.repeats)
            rows.append((name, t, rel_err(x, xs), f1(x, xs), int(np.sum(x != 0))))
        for flags in ([], ["--tol-rel", "1e-2"], ["--model", "topk", "--tol-rel", "1e-2"]):
            t, kv = gsfw_recover(a.build, a.image, a.ratio, a.seed, a.repeats,
                                 os.path.join(tmp, "recover"), flags)
            name = "gsfw recover" + ("".join(" " + f for f in flags) if flags else
                                     " (default: head, polish, tol-rel 1e-3)")
            rows.append((name + f" [{kv['iters']} iterations]", t, float(kv["rel_err"]),
                         float(kv["support_f1"]), int(kv["nnz"])))

    print(f"{os.path.basename(a.image)}, ratio {a.ratio:g}: n = {dims['n']}, d = {dims['d']}, "
          f"s = {s}, seed {a.seed}; best of {a.repeats} runs; load average "
          f"{os.getloadavg()[0]:.1f}")
    print()
    print("| solver | time (s) | rel_err | support F1 | nnz |")
    print("|---|---|---|---|---|")
    for name, t, e, f, nz in rows:
        print(f"| {name} | {t:.4f} | {e:.2e} | {f:.3f} | {nz} |")
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "sklearn_compare.csv"), "w") as fh:
            fh.write("solver,time_s,rel_err,support_f1,nnz\n")
            for name, t, e, f, nz in rows:
                fh.write(f"\"{name}\",{t:.6f},{e:.6g},{f:.6f},{nz}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
