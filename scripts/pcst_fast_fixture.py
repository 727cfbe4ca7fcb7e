#!/usr/bin/env python3
"""Calls of pcst_fast's Python module on random graphs, for checking gsfw.pcst_fast against
the real thing: the same vertices and edges, in the same order, with the same dtypes.

    # write the fixture python/tests/test_pcst_fast_compat.py reads (needs the real module)
    PYTHONPATH=/path/to/pcst_fast scripts/pcst_fast_fixture.py write tests/data/pcst-fast-python.json

    # compare gsfw with the real module live on COUNT fresh calls (held out: another seed)
    PYTHONPATH=/path/to/pcst_fast:build/python/lib scripts/pcst_fast_fixture.py compare 20000 7

The real module is pcst_fast's own (fraenkel-lab/pcst_fast, built with pybind11); it is
needed only to write the fixture or to compare live, never by the test suite.

Instances: grids, random trees, paths, stars, complete graphs, Erdos-Renyi graphs (often
disconnected, with isolated nodes), preferential-attachment graphs (hubs, as protein
networks have) and multigraphs (parallel edges in both orientations); prizes uniform, small
integers (ties in prizes, costs and event times) or mostly zero; costs uniform, small
integers or unit; "near" instances whose prizes and costs are then moved by multiples of
4e-7, so that event times differ by less than the merge tolerance of 1e-6 (there the
tolerance decides, and pcst_fast's released 1e-6 and its older 1e-10 answer differently,
about 6 % of such calls); rooted (num_clusters = 1, as pcst_fast requires) or unrooted with 1 to 3
clusters; every pruning.
"""
import collections
import json
import sys

import numpy as np

PRUNINGS = ("none", "simple", "gw", "strong")
KINDS = ("grid", "tree", "path", "star", "complete", "er", "ba", "multi")


def preferential_attachment(n, rng):
    edges, degree = [(0, 1)], [1, 1]
    for v in range(2, n):
        k = min(v, int(rng.integers(1, 4)))
        for u in rng.choice(v, size=k, replace=False, p=np.asarray(degree, float) / sum(degree)):
            edges.append((int(u), v))
            degree[u] += 1
        degree.append(k)
    return edges


def graph(kind, rng, scale=1):
    """(n, edge list) of a random graph of the kind; scale > 1 makes it larger."""
    if kind == "grid":
        h, w = (int(v) * scale for v in rng.integers(2, 9, size=2))
        e = [(r * w + c, r * w + c + 1) for r in range(h) for c in range(w - 1)]
        return h * w, e + [(r * w + c, (r + 1) * w + c) for r in range(h - 1) for c in range(w)]
    n = int(rng.integers(2, 40)) * scale
    if kind == "tree":
        return n, [(int(rng.integers(0, i)), i) for i in range(1, n)]
    if kind == "path":
        return n, [(i, i + 1) for i in range(n - 1)]
    if kind == "star":
        return n + 1, [(0, i) for i in range(1, n + 1)]
    if kind == "complete":
        n = min(n, 10 * scale)
        return n, [(i, j) for i in range(n) for j in range(i + 1, n)]
    if kind == "er":
        p = rng.uniform(0.02, 0.3) / scale
        return n, [(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < p]
    if kind == "ba":
        return n + 3, preferential_attachment(n + 3, rng)
    if kind == "multi":
        n = min(n, 15 * scale)
        m = int(rng.integers(1, 3 * n))
        return n, [tuple(int(a) for a in rng.choice(n, 2, replace=False)) for _ in range(m)]
    raise ValueError(kind)


def values(size, style, rng):
    if style == "uniform":
        return np.round(rng.uniform(0, 10, size), 3)
    if style == "ties":
        return rng.integers(0, 4, size).astype(float)
    if style == "sparse":  # most prizes 0, as node scores of a few measured genes
        v = np.round(rng.exponential(5, size), 3)
        v[rng.random(size) < 0.7] = 0.0
        return v
    if style == "unit":
        return np.ones(size)
    raise ValueError(style)


def instance(rng, scale=1, near=False):
    kind = KINDS[rng.integers(len(KINDS))]
    n, e = graph(kind, rng, scale)
    prize_style = ("uniform", "ties", "sparse")[rng.integers(3)]
    cost_style = ("uniform", "ties", "unit")[rng.integers(3)]
    costs = values(len(e), cost_style, rng)
    if cost_style == "ties":
        costs += 1.0
    root = int(rng.integers(n)) if rng.random() < 0.4 else -1
    prizes = values(n, prize_style, rng)
    if near:
        prizes += rng.integers(0, 3, n) * 4e-7
        costs += rng.integers(0, 3, len(e)) * 4e-7
        prize_style += "~"
    return {"name": "%s/%s/%s+%s" % (kind, "rooted" if root >= 0 else "unrooted", prize_style,
                                     cost_style),
            "edges": [list(p) for p in e], "prizes": prizes.tolist(),
            "costs": costs.tolist(), "root": root,
            "num_clusters": 1 if root >= 0 else int(rng.integers(1, 4)),
            "pruning": PRUNINGS[rng.integers(4)]}


def call(pcst_fast, case):
    edges = np.asarray(case["edges"], dtype=np.int64).reshape(-1, 2)
    return pcst_fast(edges, np.asarray(case["prizes"]), np.asarray(case["costs"]), case["root"],
                     case["num_clusters"], case["pruning"], 0)


# pcst_fast's own tests (its src/test_pcst_fast.py): their calls, answered by the module
OWN_TESTS = [
    {"name": "pcst_fast/test_simple1", "edges": [[0, 1], [1, 2], [2, 3]],
     "prizes": [1.0, 1.0, 1.0, 1.0], "costs": [0.8, 1.8, 2.8], "root": -1, "num_clusters": 1,
     "pruning": "strong"},
    {"name": "pcst_fast/test_simple2", "edges": [[0, 1], [1, 2]], "prizes": [0.0, 5.0, 6.0],
     "costs": [3.0, 4.0], "root": 0, "num_clusters": 1, "pruning": "none"},
    {"name": "pcst_fast/test_num_clusters",
     "edges": [[0, 1], [1, 2], [1, 4], [2, 3], [2, 5], [3, 6]],
     "prizes": [100.0, 0.0, 0.0, 0.0, 100.0, 100.0, 100.0],
     "costs": [10.0, 100.0, 10.0, 10.0, 10.0, 10.0], "root": -1, "num_clusters": 2,
     "pruning": "strong"},
]


def write(path):
    import pcst_fast as real  # the real module, on PYTHONPATH
    rng = np.random.default_rng(2022)
    cases = [dict(c) for c in OWN_TESTS]
    cases += [instance(rng) for _ in range(600)] + [instance(rng, scale=4) for _ in range(16)]
    cases += [instance(rng, near=True) for _ in range(300)]
    cases += [instance(rng, scale=4, near=True) for _ in range(20)]
    for case in cases:
        vertices, edges = call(real.pcst_fast, case)
        case["dtype"] = str(vertices.dtype)
        case["expected_vertices"] = vertices.tolist()
        case["expected_edges"] = edges.tolist()
    with open(path, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases) + "\n]\n")
    print("%s: %d calls of pcst_fast" % (path, len(cases)))


def compare(count, seed):
    import pcst_fast as real
    import gsfw
    rng = np.random.default_rng(seed)
    tally = collections.Counter()
    for k in range(count):
        case = instance(rng, scale=4 if k % 50 == 0 else 1, near=k % 4 == 3)
        a, b = call(real.pcst_fast, case), call(gsfw.pcst_fast, case)
        key = case["name"].split("/")[1] + "/" + case["pruning"]
        same = (a[0].dtype == b[0].dtype and a[1].dtype == b[1].dtype
                and a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist())
        tally["calls"] += 1
        tally["identical"] += same
        tally[key] += same
        tally[key + " calls"] += 1
        if k % 4 == 3:
            tally["near"] += same
            tally["near calls"] += 1
        if not same:
            print("differs:", k, case["name"], case["pruning"], a, b)
    print("%d of %d calls identical (vertices, edges, order, dtypes)" % (tally["identical"],
                                                                        tally["calls"]))
    print("  near ties (event times closer than the merge tolerance): %d/%d"
          % (tally["near"], tally["near calls"]))
    for root in ("rooted", "unrooted"):
        print("  %-9s" % root + "  ".join("%s %d/%d" % (p, tally[root + "/" + p],
                                                        tally[root + "/" + p + " calls"])
                                          for p in PRUNINGS))
    return tally["identical"] == tally["calls"]


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(0 if compare(int(sys.argv[2]), int(sys.argv[3])) else 1)
    else:
        sys.exit(__doc__)
