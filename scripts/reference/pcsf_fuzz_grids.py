#!/usr/bin/env python3
"""Differential test on larger grids (30..90 per side, up to 8 100 nodes) with tied
values: the pairing heaps then hold thousands of parts, so their tie order is exercised
far beyond the small instances of pcsf_fuzz.py. Same environment as pcsf_fuzz.py.

  PCST_DRIVER=/path/to/pcst_driver python3 scripts/reference/pcsf_fuzz_grids.py FIRST END
"""
import collections
import multiprocessing as mp
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcsf_fuzz as fz

def gen(seed):
    """A seeded H x W grid (row-major ids, right then down edges) with tied values."""
    rng = random.Random(seed)
    h = rng.randint(30, 90); w = rng.randint(30, 90)
    n = h * w
    edges = [list(e) for e in fz.grid_edges(h, w)]
    mode = ["int012", "halfint", "allequal_unitcost", "dyadic", "uniform", "intsmall"][seed % 6]
    prizes = fz.gen_values(rng, mode, n, "prize")
    costs = fz.gen_values(rng, mode if rng.random() < 0.5 else "allequal_unitcost", len(edges), "cost")
    pruning = fz.PRUNINGS[(seed // 6) % 4]
    if rng.random() < 0.3:
        root, g = rng.randrange(n), 0
    else:
        root, g = -1, rng.randint(1, 6)
    return {"n": n, "edges": edges, "costs": costs, "prizes": prizes, "root": root, "g": g,
            "pruning": pruning, "structure": "biggrid", "values": mode, "seed": seed}

d = None


def init():
    global d
    d = tempfile.mkdtemp(prefix="grids_")


def work(seed):
    inst = gen(seed)
    r = fz.run_both(inst, d, timeout=20)
    return seed, inst["values"], inst["pruning"], r["status"], r.get("diff", "")



if __name__ == "__main__":
    a, b = int(sys.argv[1]), int(sys.argv[2])
    c = collections.Counter()
    with mp.Pool(2, initializer=init) as pool:
        for seed, vals, pr, st, diff in pool.imap_unordered(work, range(a, b), chunksize=4):
            c[st] += 1
            if st not in ("match", "ref_timeout"):
                print("MISMATCH", seed, vals, pr, st, diff, flush=True)
    print(dict(c))
