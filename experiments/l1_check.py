#!/usr/bin/python3
"""l1 minimisation (basis pursuit) at a few ratios, to check the Donoho-Tanner curves of
phase_bounds.py at finite size.

Usage: /usr/bin/python3 experiments/l1_check.py --image FILE.npy [--ratios 2.5,3,3.5]
                                                [--trials 20] [--nonneg]
       /usr/bin/python3 experiments/l1_check.py --synthetic S D [...]

For each ratio and trial t (seed t): x* = the image at unit norm (--image), or a vector
with S random nonzeros of random sign (--synthetic: S N(0,1) values at random positions
among D); A with i.i.d. N(0, 1/n) entries from numpy's generator seeded with t,
n = floor(ratio * s); y = A x*. Basis pursuit min ||x||_1 s.t. A x = y, with x >= 0 too
under --nonneg, is solved exactly as a linear programme (scipy's HiGHS), and a trial
succeeds when ||x - x*|| <= 0.05 ||x*|| (gsfw's success criterion). Prints one CSV row
per ratio: ratio,n,trials,ok,median_rel_err and the predicted transition on stderr.
The matrices are numpy's, not gsfw recover's (statistically the same ensemble).
"""
import argparse
import os
import sys

import numpy as np
from scipy.optimize import linprog

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from phase_bounds import bounds  # noqa: E402


def basis_pursuit(A, y, nonneg):
    n, d = A.shape
    if nonneg:
        res = linprog(np.ones(d), A_eq=A, b_eq=y, bounds=(0, None), method="highs")
        return res.x if res.status == 0 else np.full(d, np.nan)
    # x = u - v, u, v >= 0: min 1'u + 1'v s.t. A u - A v = y
    res = linprog(np.ones(2 * d), A_eq=np.hstack([A, -A]), b_eq=y, bounds=(0, None),
                  method="highs")
    return res.x[:d] - res.x[d:] if res.status == 0 else np.full(d, np.nan)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--image")
    p.add_argument("--synthetic", nargs=2, type=int, metavar=("S", "D"))
    p.add_argument("--ratios", default="2.5,3,3.5")
    p.add_argument("--trials", type=int, default=20)
    p.add_argument("--nonneg", action="store_true")
    a = p.parse_args()
    if bool(a.image) == bool(a.synthetic):
        sys.exit("l1_check.py: give --image or --synthetic")
    if a.image:
        img = np.load(a.image).astype(np.float64).ravel()
        x_fixed = img / np.linalg.norm(img)
        s, d = int(np.count_nonzero(x_fixed)), x_fixed.size
    else:
        s, d = a.synthetic
    b = bounds(s, d)
    print(f"l1_check: s={s} d={d} predicted ratio {b['l1_nonneg' if a.nonneg else 'l1']:.3f}"
          f" ({'nonnegative' if a.nonneg else 'signed'} l1)", file=sys.stderr)
    print("ratio,n,trials,ok,median_rel_err")
    for ratio in (float(r) for r in a.ratios.split(",")):
        n = int(np.floor(ratio * s))
        errs = []
        for t in range(a.trials):
            rng = np.random.default_rng(t)
            if a.image:
                x = x_fixed
            else:
                x = np.zeros(d)
                x[rng.choice(d, s, replace=False)] = rng.standard_normal(s)
                x = np.abs(x) if a.nonneg else x
                x /= np.linalg.norm(x)
            A = rng.standard_normal((n, d)) / np.sqrt(n)
            errs.append(np.linalg.norm(basis_pursuit(A, A @ x, a.nonneg) - x))
        errs = np.array(errs)
        print(f"{ratio:g},{n},{a.trials},{int(np.sum(errs <= 0.05))},{np.median(errs):.3g}")


if __name__ == "__main__":
    main()
