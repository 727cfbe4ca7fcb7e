#!/usr/bin/python3
"""Where the limits are, in gsfw recover's units (ratio = n / s), for s nonzeros among d.

Usage: /usr/bin/python3 experiments/phase_bounds.py S D     one line of key=value fields
       /usr/bin/python3 experiments/phase_bounds.py --table  the l1 curves over s/d

* info_generic: with noiseless generic (e.g. Gaussian) measurements, s + 1 of them
  determine almost every vector with s nonzeros, whatever its support: ratio (s + 1) / s.
* info_every: 2 s measurements determine every such vector (no two s-sparse vectors share
  the measurements): ratio 2.
* l1: the Donoho-Tanner weak phase transition of l1 minimisation (basis pursuit) for
  signed s-sparse vectors, the cross-polytope's, computed as the statistical dimension of
  the descent cone of the l1 norm (Amelunxen, Lotz, McCoy & Tropp, "Living on the edge",
  2014, Prop. 4.5, which coincides with Donoho & Tanner's weak threshold as d grows):

      n / d = min over tau >= 0 of  rho (1 + tau^2) + 2 (1 - rho) J(tau),  rho = s / d,
      J(tau) = integral_tau^inf (u - tau)^2 phi(u) du = (1 + tau^2) Q(tau) - tau phi(tau)

  with phi the standard normal density and Q its upper tail.
* l1_nonneg: the same for nonnegative vectors with the constraint x >= 0 (the simplex /
  orthant transition): one tail instead of two, (1 - rho) J(tau).

The curves are asymptotic (d -> infinity at fixed s/d): at finite d the success rate
climbs from 0 to 1 over a band of width O(sqrt(d)) measurements around them
(experiments/l1_check.py measures a few points with an exact l1 solver).
"""
import sys

from scipy.optimize import minimize_scalar
from scipy.stats import norm


def tail_moment(tau):
    """J(tau) = E[(g - tau)_+^2] for g ~ N(0, 1)."""
    return (1 + tau * tau) * norm.sf(tau) - tau * norm.pdf(tau)


def l1_fraction(rho, tails=2):
    """n/d at the l1 phase transition for sparsity fraction rho = s/d."""
    if rho <= 0:
        return 0.0
    if rho >= 1:
        return 1.0
    f = lambda tau: rho * (1 + tau * tau) + tails * (1 - rho) * tail_moment(tau)
    res = minimize_scalar(f, bounds=(0.0, 20.0), method="bounded",
                          options={"xatol": 1e-12})
    return min(1.0, res.fun)


def bounds(s, d):
    rho = s / d
    return {
        "s": s, "d": d, "rho": rho,
        "info_generic": (s + 1) / s,
        "info_every": 2.0,
        "l1": l1_fraction(rho, 2) / rho,
        "l1_nonneg": l1_fraction(rho, 1) / rho,
    }


def main(argv):
    if len(argv) == 2 and argv[1] == "--table":
        print("rho,l1_n_over_d,l1_ratio,l1_nonneg_n_over_d,l1_nonneg_ratio")
        for k in range(1, 20):
            rho = k / 40
            a, b = l1_fraction(rho, 2), l1_fraction(rho, 1)
            print(f"{rho:.3f},{a:.6f},{a / rho:.6f},{b:.6f},{b / rho:.6f}")
        return
    if len(argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    b = bounds(int(argv[1]), int(argv[2]))
    print(" ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in b.items()))


if __name__ == "__main__":
    main(sys.argv)
