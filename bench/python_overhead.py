#!/usr/bin/env python3
"""What the Python binding costs on top of the command-line tool, measured side by side.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/python_overhead.py [--build build] [--reps 5]

(with the package importable: `make python` then .venv/bin/python, or PYTHONPATH set to a
build of python/). Two comparisons, run alternately and reported as medians:

1. The angiogram solve (data/angio.npy, ratio 2.5, model head, AccFW, 50 iterations; the
   same A and y written to .npy for `gsfw solve`): process wall time of `gsfw solve` and
   wall time of gsfw.solve, each with 50 and with 0 iterations. The difference (the 50
   iterations) cancels the CLI's file loading and both copies of A; the 0-iteration
   figures show the fixed costs. Also the whole Python call against the CLI's own timer
   (setup_s + time_s), which leaves out the CLI's copy of A and so overstates the
   overhead.
2. The PCSF on the 1000 x 1000 grid (bench_pcsf's prizes, strong pruning, unrooted):
   gsfw.pcst_fast(edges, prizes, costs, ...) and gsfw.pcsf(Graph.grid(...), ...) wall
   times against `gsfw pcsf --stats`'s solve_s (workspace creation + run).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import gsfw  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def components(mask):
    h, w = mask.shape
    g = gsfw.Graph.grid(h, w)
    e = g.edges
    keep = mask.ravel()[e[:, 0]] & mask.ravel()[e[:, 1]]
    labels = gsfw.Graph(h * w, e[keep]).components()
    return len(np.unique(labels[mask.ravel()]))


def cli_figures(line):
    return {k: float(v) for k, v in re.findall(r"(\w+)=([-0-9.eE+]+)(?=\s|$)", line)}


def bench_angio(build, reps, tmp):
    img = np.load(os.path.join(ROOT, "data", "angio.npy"))
    h, w = img.shape
    x = img.ravel() / np.linalg.norm(img)
    s = int(np.count_nonzero(x))
    g = components(img != 0)
    n = int(np.floor(2.5 * s))
    rng = np.random.default_rng(0)
    A = rng.standard_normal((n, h * w)) / np.sqrt(n)
    y = A @ x
    np.save(os.path.join(tmp, "A.npy"), A)
    np.save(os.path.join(tmp, "y.npy"), y)
    iters = 50

    def cli_cmd(t):
        return [os.path.join(build, "gsfw"), "solve", "--A", os.path.join(tmp, "A.npy"), "--y",
                os.path.join(tmp, "y.npy"), "--model", "head", "--s", str(s), "--g", str(g),
                "--graph", "grid:%dx%d" % (h, w), "--C", "1", "--method", "accfw", "--iters",
                str(t), "--out", os.path.join(tmp, "x_cli.npy")]

    graph = gsfw.Graph.grid(h, w)
    wall = {("cli", 0): [], ("cli", iters): [], ("py", 0): [], ("py", iters): []}
    cli_work, py_lib = [], []
    for _ in range(reps):
        for t in (0, iters):
            t0 = time.perf_counter()
            out = subprocess.run(cli_cmd(t), check=True, capture_output=True, text=True).stdout
            wall[("cli", t)].append(time.perf_counter() - t0)
            if t:
                f = cli_figures(out)
                cli_work.append(f["setup_s"] + f["time_s"])
            t0 = time.perf_counter()
            res = gsfw.solve(A, y, model="head", s=s, g=g, graph=graph, C=1.0, method="accfw",
                             max_iter=t, polish=False)  # as the CLI's default
            wall[("py", t)].append(time.perf_counter() - t0)
            if t:
                py_lib.append(res.info["setup_time"] + res.info["solve_time"])
    x_cli = np.load(os.path.join(tmp, "x_cli.npy"))
    diff = float(np.max(np.abs(x_cli - res.x_last)))
    m = statistics.median
    W = {k: m(v) for k, v in wall.items()}
    cli_marg, py_marg = W[("cli", iters)] - W[("cli", 0)], W[("py", iters)] - W[("py", 0)]
    print("angio solve: A %d x %d, s=%d, g=%d, accfw, %d iterations, %d reps (medians)"
          % (n, h * w, s, g, iters, reps))
    print("  cli    wall: %d iters %7.3f s, 0 iters %7.3f s (load A.npy, copy, setup)"
          % (iters, W[("cli", iters)], W[("cli", 0)]))
    print("  python wall: %d iters %7.3f s, 0 iters %7.3f s (copy, setup)"
          % (iters, W[("py", iters)], W[("py", 0)]))
    print("  the %d iterations: cli %.3f s, python %.3f s: overhead %+.1f %%"
          % (iters, cli_marg, py_marg, 100 * (py_marg / cli_marg - 1)))
    print("  whole solve call against the cli's own timer (setup_s + time_s, which leaves out"
          " its copy of A): %.3f s vs %.3f s, %+.1f %%"
          % (W[("py", iters)], m(cli_work), 100 * (W[("py", iters)] / m(cli_work) - 1)))
    print("  library time inside the python call %.3f s; max |x_py - x_cli| = %.1e"
          % (m(py_lib), diff))


def bench_pcsf(build, reps, tmp):
    side = 1000
    prizes_path = os.path.join(tmp, "p.npy")
    subprocess.run([os.path.join(build, "bench_pcsf"), "--write-prizes", str(side),
                    prizes_path], check=True, capture_output=True)
    prizes = np.load(prizes_path)
    graph = gsfw.Graph.grid(side, side)
    edges = graph.edges
    costs = np.ones(graph.m)
    cmd = [os.path.join(build, "gsfw"), "pcsf", "--graph", "grid:%dx%d" % (side, side),
           "--prizes", prizes_path, "--pruning", "strong", "--stats"]
    cli, fast, native = [], [], []
    for _ in range(reps):
        err = subprocess.run(cmd, check=True, capture_output=True, text=True).stderr
        cli.append(float(re.search(r"solve_s=([0-9.]+)", err).group(1)))
        t0 = time.perf_counter()
        v1, e1 = gsfw.pcst_fast(edges, prizes, costs, -1, 1, "strong", 0)
        fast.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        v2, e2 = gsfw.pcsf(graph, prizes, pruning="strong")
        native.append(time.perf_counter() - t0)
    assert v1.tolist() == v2.tolist() and e1.tolist() == e2.tolist()
    m = statistics.median
    print("pcsf: %d x %d grid (%d nodes, %d edges), strong pruning, %d reps (medians)"
          % (side, side, graph.n, graph.m, reps))
    print("  cli solve_s                 %7.3f s" % m(cli))
    print("  gsfw.pcst_fast (arrays)     %7.3f s  %+6.1f %%" % (m(fast), 100 * (m(fast) / m(cli) - 1)))
    print("  gsfw.pcsf (Graph.grid)      %7.3f s  %+6.1f %%"
          % (m(native), 100 * (m(native) / m(cli) - 1)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    print("gsfw %s, Python %s, OPENBLAS_NUM_THREADS=%s" % (
        gsfw.__version__, sys.version.split()[0], os.environ.get("OPENBLAS_NUM_THREADS")))
    with tempfile.TemporaryDirectory() as tmp:
        bench_angio(args.build, args.reps, tmp)
        bench_pcsf(args.build, args.reps, tmp)


if __name__ == "__main__":
    main()
