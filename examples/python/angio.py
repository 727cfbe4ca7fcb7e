#!/usr/bin/env python3
"""Recover the angiogram (data/angio.npy, 100 x 100, 622 nonzero pixels in one connected
piece) from n = 2.5 s Gaussian measurements with DMO-AccFW over the head model of the
pixel grid, then polish (project onto the model and refit).

    .venv/bin/python examples/python/angio.py [out.png]

Prints the relative error of the polished answer and of the raw best iterate; with
matplotlib importable (Debian python3-matplotlib), saves truth / raw / polished images.
"""
import os
import sys

import numpy as np

import gsfw

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

img = np.load(os.path.join(ROOT, "data", "angio.npy"))
h, w = img.shape
x_true = img.ravel() / np.linalg.norm(img)
s = int(np.count_nonzero(x_true))
n = int(np.floor(2.5 * s))
rng = np.random.default_rng(0)
A = rng.standard_normal((n, h * w)) / np.sqrt(n)
y = A @ x_true

grid = gsfw.Graph.grid(h, w)
res = gsfw.solve(A, y, model="head", s=s, g=1, graph=grid, C=1.0, method="accfw",
                 max_iter=50, polish=True, x_true=x_true)


def rel_err(x):
    return np.linalg.norm(x - x_true) / np.linalg.norm(x_true)


print("status=%s iterations=%d nnz=%d rel_err=%.3g raw_nnz=%d raw_rel_err=%.3g time=%.2fs"
      % (res.status, res.iterations, np.count_nonzero(res.x), rel_err(res.x),
         np.count_nonzero(res.x_best), rel_err(res.x_best),
         res.info["setup_time"] + res.info["solve_time"] + res.info["polish_time"]))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib not installed: no figure (apt-get install python3-matplotlib)")
else:
    out = sys.argv[1] if len(sys.argv) > 1 else "angio_python.png"
    fig, axes = plt.subplots(1, 3, figsize=(9, 3.2))
    for ax, (title, x) in zip(axes, [("truth", x_true), ("AccFW, 50 iterations", res.x_best),
                                      ("polished", res.x)]):
        ax.imshow(np.abs(x).reshape(h, w), cmap="gray")
        ax.set_title(title)
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print("wrote", out)
