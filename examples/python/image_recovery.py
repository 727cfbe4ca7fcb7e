#!/usr/bin/env python3
"""Recover an image from few random measurements: the horse silhouette of scikit-image,
with gsfw (DMO-AccFW over the head model of the pixel grid) against Orthogonal Matching
Pursuit and the Lasso (scikit-learn), and a panel picture of the four images.

    .venv/bin/python examples/python/image_recovery.py [panel.png]

The silhouette (one connected piece of s pixels on a 48 x 48 canvas) is measured by
n = 2.5 s Gaussian projections y = A x*. OMP and the Lasso know that x* is sparse; gsfw
also knows that its support is connected on the grid, and recovers it exactly. The
panel (truth | gsfw | OMP | Lasso, one grey scale) is written with scikit-image.
"""
import sys
import time

import numpy as np
import skimage.data
import skimage.io
import skimage.transform
from sklearn.linear_model import Lasso, OrthogonalMatchingPursuit

import gsfw

# x*: the horse (dark on white in scikit-image) shrunk to 30 x 37 on a 48 x 48 canvas
horse = ~skimage.data.horse()
small = skimage.transform.resize(horse.astype(float), (30, 37), anti_aliasing=True) > 0.5
canvas = np.zeros((48, 48))
canvas[9:39, 6:43] = small
h, w = canvas.shape
x_true = canvas.ravel() / np.linalg.norm(canvas)
s = int(np.count_nonzero(x_true))
n = int(2.5 * s)
rng = np.random.default_rng(0)
A = rng.standard_normal((n, h * w)) / np.sqrt(n)
y = A @ x_true
print("horse: %d x %d pixels, s = %d nonzero in one piece, n = %d measurements" % (h, w, s, n))


def rel_err(x):
    return np.linalg.norm(x - x_true) / np.linalg.norm(x_true)


answers = {}
start = time.perf_counter()
res = gsfw.solve(A, y, model="head", s=s, g=1, graph=gsfw.Graph.grid(h, w), C=1.0,
                 max_iter=100)
answers["gsfw"] = res.x
print("gsfw (head model)  rel_err=%.2e  %.1f s" % (rel_err(res.x), time.perf_counter() - start))
start = time.perf_counter()
omp = OrthogonalMatchingPursuit(n_nonzero_coefs=s, fit_intercept=False).fit(A, y)
answers["OMP"] = omp.coef_
print("OMP                rel_err=%.2e  %.1f s" % (rel_err(omp.coef_), time.perf_counter() - start))
start = time.perf_counter()
lasso = Lasso(alpha=1e-5, fit_intercept=False, max_iter=10000).fit(A, y)
answers["Lasso"] = lasso.coef_
print("Lasso              rel_err=%.2e  %.1f s" % (rel_err(lasso.coef_),
                                                    time.perf_counter() - start))
assert rel_err(answers["gsfw"]) < 1e-8
assert rel_err(answers["gsfw"]) < min(rel_err(answers["OMP"]), rel_err(answers["Lasso"]))

# the panel: truth | gsfw | OMP | Lasso on one grey scale (0 .. max x*), 4 px apart
if len(sys.argv) > 1:
    top = x_true.max()
    tiles = [x_true] + [answers[k] for k in ("gsfw", "OMP", "Lasso")]
    gap = np.ones((h, 4))
    row = np.hstack(sum(([np.clip(t.reshape(h, w) / top, 0, 1), gap] for t in tiles), [])[:-1])
    big = np.kron(row, np.ones((4, 4)))  # 4x larger pixels
    skimage.io.imsave(sys.argv[1], (255 * big).astype(np.uint8), check_contrast=False)
    print("panel (truth | gsfw | OMP | Lasso) written to", sys.argv[1])
