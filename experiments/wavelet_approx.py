#!/usr/bin/python3
"""Best S-term approximations of an image in the orthonormal 2-D Haar basis: the PSNR
ceilings of the tree experiment's recoveries (a recovery with s = S cannot beat them).

Usage: /usr/bin/python3 experiments/wavelet_approx.py GSFW IMAGE.npy S [S ...]

For each S prints the PSNR (gsfw recover's definition: the image scaled to unit l2 norm,
peak = its largest |pixel|) of the best S-term approximation (the S largest coefficients)
and of the best rooted subtree of S nodes of the quadtree (selected by `GSFW dmo --model
tree --tree quadtree:NxN`). The coefficients are in the layout of GSL's non-standard 2-D
transform (the Mallat pyramid: at every level, rows then columns of the coarse block).
"""
import math
import os
import subprocess
import sys
import tempfile

import numpy as np


def haar2(img):
    """Orthonormal non-standard 2-D Haar analysis, coarse block top-left."""
    c = img.astype(np.float64).copy()
    n = c.shape[0]
    while n > 1:
        for axis in (1, 0):
            blk = c[:n, :n]
            a = blk.take(range(0, n, 2), axis=axis)
            b = blk.take(range(1, n, 2), axis=axis)
            out = np.concatenate(((a + b) / math.sqrt(2), (a - b) / math.sqrt(2)), axis=axis)
            c[:n, :n] = out
        n //= 2
    return c


def psnr(err2, peak, d):
    return 10 * math.log10(peak * peak / (err2 / d)) if err2 > 0 else math.inf


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__.strip().splitlines()[3])
    gsfw, path, sizes = argv[1], argv[2], [int(s) for s in argv[3:]]
    img = np.load(path)
    side = img.shape[0]
    x = img / np.linalg.norm(img)
    peak, d = np.abs(x).max(), x.size
    theta = haar2(x).ravel()
    total = float(theta @ theta)
    order = np.sort(theta * theta)[::-1]
    with tempfile.TemporaryDirectory() as tmp:
        z = os.path.join(tmp, "theta.npy")
        np.save(z, theta)
        for s in sizes:
            top = psnr(total - order[:s].sum(), peak, d)
            sel = subprocess.run([gsfw, "dmo", "--model", "tree", "--tree",
                                  f"quadtree:{side}x{side}", "--z", z, "--s", str(s)],
                                 check=True, capture_output=True, text=True).stdout.split()
            idx = np.array([int(i) for i in sel])
            tree = psnr(total - float(theta[idx] @ theta[idx]), peak, d)
            print(f"{os.path.basename(path)} S={s} best_topS_psnr={top:.2f} "
                  f"best_tree_psnr={tree:.2f}")


if __name__ == "__main__":
    main(sys.argv)
