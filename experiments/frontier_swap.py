#!/usr/bin/python3
"""Swap descent below the restarts' phase transition: an experiment on gsfw recover's problem.

Usage: python experiments/frontier_swap.py IMAGE.npy RATIO [--seeds 0:19] [--starts 100]
                                           [--slack 0]
       python experiments/frontier_swap.py --check   (the swap values against refits)
       (with the gsfw package importable, e.g. .venv/bin/python after `make python`)

The problem is recover's (x* = the image scaled to unit norm, s its nonzeros, g their
connected pieces on the 4-neighbour grid, n = floor(RATIO s) noiseless measurements
through A with i.i.d. N(0, 1/n) entries); A is drawn by numpy (default_rng(seed)), so a
seed's instance is not recover's, only one of the same kind.

Per seed:
  1. recover's default solve through the library (head model, polish, tol_rel 1e-3,
     10 warm restarts);
  2. if its answer does not fit y exactly: best-swap descent from its support, then up to
     --starts random connected starts, each followed by the descent, until one fits.
The descent replaces one node of the support S by a neighbour outside it, keeping |S|
and at most g connected pieces (or no more than the start's, when it has more), taking
the swap that lowers the least-squares residual f(S) = min_w ||y - A_S w||^2 the most,
until no swap lowers it. All swaps are scored
exactly at once: with w and r the fit and residual on S, G = A_S^T A_S and
u_j = A_S G^-1 e_j / sqrt(G^-1_jj) (the part of column j outside the other columns'
span, normalised), f(S - j + k) = f + a_j^2 - (c_k + b_jk a_j)^2 / (e_k + b_jk^2) with
a_j = w_j / sqrt(G^-1_jj), c_k = a_k^T r, e_k = ||a_k - P_S a_k||^2, b_jk = u_j^T a_k.
A random start grows a connected set of s nodes from the largest entry of |A^T y| times
exp(N(0, 1/4)) noise, always adding the largest neighbour.
With n > s, a support whose fit leaves no residual (f <= 1e-20 ||y||^2) is, for
generic A, the true one, so the search can stop there; success is rel_err <= 0.05.
--slack m searches supports of n - m nodes instead of s (a support of fewer than n
nodes fits y exactly when it contains the true one, so a superset would be enough).

One CSV row per seed: seed,rel_err_default,rel_err,starts,cpu_s,ok (cpu_s: the whole
seed, process CPU time; one BLAS thread advised: OPENBLAS_NUM_THREADS=1).
"""
import argparse
import heapq
import sys
import time

import numpy as np


class Grid:
    def __init__(self, h, w):
        self.h, self.w = h, w

    def neighbours(self, i):
        r, c = divmod(i, self.w)
        if r > 0:
            yield i - self.w
        if r < self.h - 1:
            yield i + self.w
        if c > 0:
            yield i - 1
        if c < self.w - 1:
            yield i + 1

    def pieces(self, nodes):
        rest, count = set(nodes), 0
        while rest:
            count += 1
            stack = [rest.pop()]
            while stack:
                for v in self.neighbours(stack.pop()):
                    if v in rest:
                        rest.remove(v)
                        stack.append(v)
        return count


def fit(A, S, y):
    Q, R = np.linalg.qr(A[:, S])
    w = np.linalg.solve(R, Q.T @ y)
    return Q, R, w, y - A[:, S] @ w


def swap_values(A, y, S, K):
    """f(S) and F[j, k] = f(S - S[j] + K[k]) for every j and k, from one fit on S."""
    Q, R, w, r = fit(A, S, y)
    f = float(r @ r)
    AK = A[:, K]
    outside = AK - Q @ (Q.T @ AK)
    e = (outside * outside).sum(0)
    c = AK.T @ r
    Rinv = np.linalg.inv(R)
    Ginv = Rinv @ Rinv.T
    scale = np.sqrt(np.diag(Ginv))
    B = ((A[:, S] @ Ginv) / scale).T @ AK
    a = w / scale
    F = f + a[:, None] ** 2 - (c[None, :] + B * a[:, None]) ** 2 / (e[None, :] + B ** 2)
    return f, F


def check_swap_values():
    """The closed form against a refit for every swap of a random instance."""
    rng = np.random.default_rng(7)
    n, d = 30, 60
    A, y = rng.standard_normal((n, d)), rng.standard_normal(n)
    S, K = list(range(0, 40, 2)), list(range(1, 60, 2))  # even ids in S, odd ones out
    f, F = swap_values(A, y, S, K)
    worst = 0.0
    for j in range(len(S)):
        for k in range(len(K)):
            T = S[:j] + S[j + 1:] + [K[k]]
            r = fit(A, T, y)[3]
            worst = max(worst, abs(F[j, k] - r @ r) / (r @ r))
    # and a swap that fits exactly: y from the support S - S[3] + K[5]
    T = S[:3] + S[4:] + [K[5]]
    y = A[:, T] @ rng.standard_normal(len(T))
    f, F = swap_values(A, y, S, K)
    exact = abs(F[3, 5]) <= 1e-12 * (y @ y) and int(np.argmin(F)) == 3 * len(K) + 5
    print(f"swap values against refits: largest relative difference {worst:.2e}; the "
          f"exact swap scores {F[3, 5] / (y @ y):.1e} of ||y||^2"
          + ("" if exact else " (not the smallest)"))
    return worst < 1e-9 and exact


def swap_descent(A, y, S, grid, g, max_swaps=1000, trace=None):
    """The descent from S; trace (a list) receives every support it moves to."""
    S, yy = list(S), float(y @ y)
    for _ in range(max_swaps):
        inside = set(S)
        K = sorted({v for u in S for v in grid.neighbours(u) if v not in inside})
        f, F = swap_values(A, y, S, K)
        if f <= 1e-20 * yy:
            return S, f
        pieces = grid.pieces(S)
        for t in np.argsort(F, axis=None):
            if F.flat[t] >= f * (1 - 1e-9):
                return S, f
            j, k = divmod(int(t), len(K))
            T = S[:j] + S[j + 1:] + [K[k]]
            if grid.pieces(T) <= max(g, pieces):
                S = T
                if trace is not None:
                    trace.append(S)
                break
        else:
            return S, f
    return S, f


def grow(z, S, size, grid):
    """S extended to size nodes, always by the neighbour of largest z."""
    S = list(S) or [int(np.argmax(z))]
    inside = set(S)
    frontier = [(-z[v], v) for u in S for v in grid.neighbours(u) if v not in inside]
    heapq.heapify(frontier)
    while len(S) < size and frontier:
        _, v = heapq.heappop(frontier)
        if v in inside:
            continue
        inside.add(v)
        S.append(v)
        for u in grid.neighbours(v):
            if u not in inside:
                heapq.heappush(frontier, (-z[u], u))
    return S


def random_start(z, size, grid):
    return grow(z, [], size, grid)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("image")
    ap.add_argument("ratio", type=float)
    ap.add_argument("--seeds", default="0:19")
    ap.add_argument("--starts", type=int, default=100)
    ap.add_argument("--slack", type=int, default=0)
    if "--check" in sys.argv[1:]:
        sys.exit(0 if check_swap_values() else 1)
    o = ap.parse_args()
    try:
        import gsfw
    except ImportError:
        sys.exit("frontier_swap: needs the gsfw package (make python, then run it with "
                 ".venv/bin/python)")
    img = np.load(o.image).astype(float)
    h, w = img.shape
    d = h * w
    xstar = img.ravel() / np.linalg.norm(img)
    grid = Grid(h, w)
    support = np.flatnonzero(xstar)
    s, g = len(support), grid.pieces(support.tolist())
    n = int(np.floor(o.ratio * s))
    size = n - o.slack if o.slack > 0 else s
    if not s <= size < n:
        ap.error(f"supports of {size} nodes with n = {n} measurements and s = {s}: the "
                 "ratio must exceed 1 and --slack stay below n - s")
    lo, _, hi = o.seeds.partition(":")
    lo, hi = int(lo), int(hi or lo)
    graph = gsfw.Graph.grid(h, w)
    print("seed,rel_err_default,rel_err,starts,cpu_s,ok")
    ok = 0
    for seed in range(lo, hi + 1):
        t0 = time.process_time()
        rng = np.random.default_rng(seed)
        A = rng.standard_normal((n, d)) / np.sqrt(n)
        y = A @ xstar
        yy = float(y @ y)
        res = gsfw.solve(A, y, model="head", s=s, g=g, graph=graph, C=1.0, tol_rel=1e-3,
                         restarts=10)
        x1 = np.asarray(res.x)
        err1 = float(np.linalg.norm(x1 - xstar))
        best_f, best_S = float(np.sum((y - A @ x1) ** 2)), np.flatnonzero(x1).tolist()
        starts, noise = 0, np.random.default_rng(1000 + seed)
        if best_f > 1e-20 * yy:
            z = np.abs(A.T @ y)
            if size > len(best_S):
                best_S = grow(z, best_S, size, grid)
            elif len(best_S) >= n:  # a fit needs fewer columns than rows
                best_S = [int(v) for v in np.argsort(-np.abs(x1))[:size]]
            best_S, best_f = swap_descent(A, y, best_S, grid, g)
            while best_f > 1e-20 * yy and starts < o.starts:
                starts += 1
                S0 = random_start(z * np.exp(0.5 * noise.standard_normal(d)), size, grid)
                S, f = swap_descent(A, y, S0, grid, g)
                if f < best_f:
                    best_S, best_f = S, f
        x = np.zeros(d)
        x[best_S] = fit(A, best_S, y)[2]
        err = float(np.linalg.norm(x - xstar))
        ok += err <= 0.05
        print(f"{seed},{err1:.3g},{err:.3g},{starts},{time.process_time() - t0:.2f},"
              f"{int(err <= 0.05)}", flush=True)
    print(f"# {o.image} ratio {o.ratio}: n {n}, s {s}, g {g}: {ok} of {hi - lo + 1} ok")


if __name__ == "__main__":
    main()
