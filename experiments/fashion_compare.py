#!/usr/bin/python3
"""Graph-sparse logistic regression (gsfw solve) against L1-logistic regression
(scikit-learn, liblinear) on one two-class problem written by fashion_prepare.py.

gsfw: for every s, every model (subgraph with g connected regions of the 28 x 28 grid, and
topk, unstructured s-sparse, as a control) and every radius C of the grid, one
`gsfw solve --loss logistic --intercept --polish on` on the fitting part; the polished w
(support of at most s pixels, in the model, norm <= C) is scored on the validation part
and the C with the best validation accuracy is kept (ties: the smaller C). Its test
accuracy is reported.

The intercept of the polished w is recomputed here: `gsfw solve` reports b at the
unpolished best iterate, and the polished w is a different point. b(w) is the same
profiled intercept the library fits, argmin_b sum_i log(1 + exp(-y_i (x_i.w + b))) on the
fitting part, found by a bracketed root search on its derivative.

L1: LogisticRegression(penalty="l1", solver="liblinear") for a log-spaced grid of its C
on the fitting part; for every s the C whose support size is closest to s (ties: the
smaller support) is reported: held-out accuracy as fitted, and "L1 + refit", an
L2-logistic regression (lbfgs) on that support alone with its C chosen on the validation
part from a small grid -- the counterpart of gsfw's polish. liblinear penalises the
intercept like a weight of a constant feature; intercept_scaling=10 makes that penalty
negligible. A dense L2-logistic regression on all 784 pixels is the reference.

Writes OUT/gsfw_runs.csv (every fit), OUT/l1_path.csv (every L1 fit), OUT/chosen.csv
(one row per (method, s): the reported fits), OUT/w_<label>_s<S>.npy (their weights) and
OUT/meta.txt.
"""
import argparse
import csv
import os
import subprocess
import sys
import time

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

L2_GRID = [0.01, 0.1, 1.0, 10.0, 100.0]


def profiled_intercept(u, y):
    """argmin_b sum log(1 + exp(-y (u + b))) (labels of both signs, so it exists)."""
    def slope(b):
        return -np.sum(y * expit(-y * (u + b)))
    lo, hi = -1.0, 1.0
    while slope(lo) > 0:
        lo *= 2
    while slope(hi) < 0:
        hi *= 2
    return brentq(slope, lo, hi, xtol=1e-12)


def accuracy(X, y, w, b):
    pred = np.where(X @ w + b > 0, 1, -1)
    return float(np.mean(pred == y))


def summary_fields(line):
    out = {}
    for tok in line.split():
        if "=" in tok:
            k, v = tok.split("=", 1)
            out[k] = v
    return out


def run_gsfw(a, data, model_args, s, C, w_path):
    cmd = [a.gsfw, "solve", "--A", os.path.join(data, "train_X.npy"),
           "--y", os.path.join(data, "train_y.npy"), "--loss", "logistic", "--intercept",
           "--s", str(s), "--C", repr(C), "--method", a.method, "--iters", str(a.iters),
           "--polish", "on", "--polished-out", w_path] + model_args
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"fashion_compare: {' '.join(cmd)} failed ({proc.returncode}): {proc.stderr}")
    return summary_fields(proc.stdout), wall


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", required=True, help="folder written by fashion_prepare.py")
    p.add_argument("--out", required=True)
    p.add_argument("--gsfw", required=True, help="the gsfw executable")
    p.add_argument("--s", default="10,20,50,100,200", help="numbers of selected pixels")
    p.add_argument("--g", default="1,2,4", help="numbers of connected regions")
    p.add_argument("--C", default="1,3,10,30", help="gsfw radii tried on the validation part")
    p.add_argument("--method", default="accfw")
    p.add_argument("--iters", type=int, default=300)
    p.add_argument("--l1-grid", type=int, default=40, help="L1 C values, log-spaced")
    p.add_argument("--no-topk", action="store_true", help="skip the unstructured control")
    p.add_argument("--parts", default="gsfw,l1",
                   help="gsfw and/or l1 (L1, L1 + refit and the dense reference); "
                        "chosen.csv gets the rows of the parts run")
    a = p.parse_args()
    s_list = [int(v) for v in a.s.split(",")]
    g_list = [int(v) for v in a.g.split(",") if v]
    C_list = [float(v) for v in a.C.split(",")]
    os.makedirs(a.out, exist_ok=True)

    load = lambda k: (np.load(os.path.join(a.data, f"{k}_X.npy")),
                      np.load(os.path.join(a.data, f"{k}_y.npy")).astype(np.int64))
    (Xtr, ytr), (Xva, yva), (Xte, yte) = load("train"), load("val"), load("test")
    chosen = []

    parts = set(a.parts.split(","))
    if "gsfw" in parts:
        gsfw_part(a, Xtr, ytr, Xva, yva, Xte, yte, s_list, g_list, C_list, chosen)
    if "l1" in parts:
        l1_part(a, Xtr, ytr, Xva, yva, Xte, yte, s_list, chosen)

    cols = ["method", "s", "C", "nnz", "val_acc", "test_acc", "solve_s", "wall_s", "grid_wall_s"]
    with open(os.path.join(a.out, "chosen.csv"), "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(cols)
        for r in chosen:
            wr.writerow([r[k] for k in cols])
    with open(os.path.join(a.out, "meta.txt"), "w") as f:
        f.write(f"train={Xtr.shape[0]} val={Xva.shape[0]} test={Xte.shape[0]} method={a.method} "
                f"iters={a.iters} C_grid={a.C} l1_grid={a.l1_grid}\n")


def gsfw_part(a, Xtr, ytr, Xva, yva, Xte, yte, s_list, g_list, C_list, chosen):
    models = [(f"subgraph-g{g}", ["--model", "subgraph", "--g", str(g), "--graph", "grid:28x28"])
              for g in g_list]
    if not a.no_topk:
        models.append(("topk", ["--model", "topk"]))
    scratch = os.path.join(a.out, "scratch_w.npy")
    with open(os.path.join(a.out, "gsfw_runs.csv"), "w", newline="") as f:
        runs = csv.writer(f)
        runs.writerow(["method", "s", "C", "nnz", "norm", "intercept", "train_acc", "val_acc",
                       "test_acc", "f_best", "f_polished", "solve_s", "wall_s"])
        for label, margs in models:
            for s in s_list:
                best = None
                total_wall = 0.0
                for C in C_list:
                    fields, wall = run_gsfw(a, a.data, margs, s, C, scratch)
                    total_wall += wall
                    w = np.load(scratch)
                    b = profiled_intercept(Xtr @ w, ytr)
                    row = dict(method=label, s=s, C=C, nnz=int(np.count_nonzero(w)),
                               norm=float(np.linalg.norm(w)), intercept=b,
                               train_acc=accuracy(Xtr, ytr, w, b), val_acc=accuracy(Xva, yva, w, b),
                               test_acc=accuracy(Xte, yte, w, b), f_best=float(fields["f_best"]),
                               f_polished=float(fields["f_polished"]),
                               solve_s=float(fields["setup_s"]) + float(fields["time_s"]),
                               wall_s=wall)
                    runs.writerow([row[k] for k in ["method", "s", "C", "nnz", "norm", "intercept",
                                                    "train_acc", "val_acc", "test_acc", "f_best",
                                                    "f_polished", "solve_s", "wall_s"]])
                    f.flush()
                    if best is None or row["val_acc"] > best[0]["val_acc"]:
                        best = (row, w)
                row, w = best
                row = dict(row, grid_wall_s=total_wall)
                chosen.append(row)
                np.save(os.path.join(a.out, f"w_{label}_s{s}.npy"), w)
                print(f"fashion_compare: {label} s={s}: C={row['C']:g} nnz={row['nnz']} "
                      f"val={row['val_acc']:.4f} test={row['test_acc']:.4f} "
                      f"({row['wall_s']:.2f} s per fit)", flush=True)
    os.remove(scratch)


def l1_part(a, Xtr, ytr, Xva, yva, Xte, yte, s_list, chosen):
    path = []
    for C in np.logspace(-3.5, 0.5, a.l1_grid):
        t0 = time.perf_counter()
        m = LogisticRegression(penalty="l1", solver="liblinear", C=C, intercept_scaling=10.0,
                               max_iter=1000).fit(Xtr, ytr)
        t = time.perf_counter() - t0
        w, b = m.coef_.ravel().copy(), float(m.intercept_[0])
        path.append(dict(C=float(C), nnz=int(np.count_nonzero(w)), w=w, b=b, fit_s=t,
                         train_acc=accuracy(Xtr, ytr, w, b), val_acc=accuracy(Xva, yva, w, b),
                         test_acc=accuracy(Xte, yte, w, b)))
    with open(os.path.join(a.out, "l1_path.csv"), "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["C", "nnz", "train_acc", "val_acc", "test_acc", "fit_s"])
        for r in path:
            wr.writerow([r["C"], r["nnz"], r["train_acc"], r["val_acc"], r["test_acc"], r["fit_s"]])

    for s in s_list:
        r = min(path, key=lambda r: (abs(r["nnz"] - s), r["nnz"]))
        chosen.append(dict(method="l1", s=s, C=r["C"], nnz=r["nnz"], val_acc=r["val_acc"],
                           test_acc=r["test_acc"], wall_s=r["fit_s"], solve_s=r["fit_s"],
                           grid_wall_s=sum(q["fit_s"] for q in path)))
        np.save(os.path.join(a.out, f"w_l1_s{s}.npy"), r["w"])
        # refit on the L1 support (the counterpart of gsfw's polish)
        S = np.flatnonzero(r["w"])
        if S.size == 0:
            continue
        best = None
        for C2 in L2_GRID:
            t0 = time.perf_counter()
            m = LogisticRegression(C=C2, solver="lbfgs", max_iter=5000).fit(Xtr[:, S], ytr)
            t = time.perf_counter() - t0
            w = np.zeros(Xtr.shape[1])
            w[S] = m.coef_.ravel()
            b = float(m.intercept_[0])
            cand = dict(method="l1-refit", s=s, C=C2, nnz=int(S.size), val_acc=accuracy(Xva, yva, w, b),
                        test_acc=accuracy(Xte, yte, w, b), wall_s=r["fit_s"] + t,
                        solve_s=r["fit_s"] + t, grid_wall_s=0.0)
            if best is None or cand["val_acc"] > best["val_acc"]:
                best = cand
        chosen.append(best)

    # --- dense reference ---
    best = None
    for C2 in L2_GRID:
        t0 = time.perf_counter()
        m = LogisticRegression(C=C2, solver="lbfgs", max_iter=5000).fit(Xtr, ytr)
        t = time.perf_counter() - t0
        w, b = m.coef_.ravel(), float(m.intercept_[0])
        cand = dict(method="l2-dense", s=Xtr.shape[1], C=C2, nnz=int(np.count_nonzero(w)),
                    val_acc=accuracy(Xva, yva, w, b), test_acc=accuracy(Xte, yte, w, b),
                    wall_s=t, solve_s=t, grid_wall_s=0.0)
        if best is None or cand["val_acc"] > best["val_acc"]:
            best = cand
    chosen.append(best)


if __name__ == "__main__":
    main()
