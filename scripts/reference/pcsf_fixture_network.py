#!/usr/bin/env python3
"""Write the network fixture of tests/test_pcsf_reference.c
(tests/data/pcsf-reference-network.json): a preferential-attachment network of bench_pcsf
(`--graph network`: hubs, costs 0.5 + U[0,1), prizes SCALE*U[0,1), by default U[0,1),
where the forest keeps about a sixth of the nodes), with the outputs of
pcst_fast as released (merge tolerance 1e-6) for strong and GW pruning, stored as counts
and hashes as in pcsf_fixture_large.py.

The instance comes from `bench_pcsf --graph network --write-instance N FILE`, so the
generator is not re-implemented here; `instance_hash` is FNV-1a 64 over the edges' end
points (u then v of every edge, 4 bytes little-endian each), then the costs, then the
prizes (8 bytes little-endian each): the test checks it before it runs.

  PCST_DRIVER=REF/pcst_driver python3 scripts/reference/pcsf_fixture_network.py \\
      tests/data/pcsf-reference-network.json --bench-pcsf build/bench_pcsf --nodes 100000 \\
      --scale 1
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcsf_fuzz as fz  # noqa: E402
from pcsf_fixture_large import fnv1a64, ids_hash  # noqa: E402

DRIVER = os.environ.get("PCST_DRIVER", "pcst_driver")


def read_instance(path):
    with open(path) as f:
        header = f.readline()
        n, m = (int(x) for x in header.split()[:2])
        prizes = np.array([float(f.readline()) for _ in range(n)])
        rows = [f.readline().split() for _ in range(m)]
    ends = np.array([[int(r[0]), int(r[1])] for r in rows], dtype="<u4")
    costs = np.array([float(r[2]) for r in rows])
    return header, n, m, prizes, ends, costs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--bench-pcsf", default="build/bench_pcsf")
    ap.add_argument("--nodes", type=int, default=100000)
    ap.add_argument("--scale", type=float, default=1.0)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pcsf_network_")
    path = os.path.join(tmp, "net.txt")
    subprocess.run([a.bench_pcsf, "--graph", "network", "--scale", repr(a.scale),
                    "--write-instance", str(a.nodes), path], check=True)
    header, n, m, prizes, ends, costs = read_instance(path)
    h = fnv1a64(ends.tobytes())
    h = fnv1a64(np.ascontiguousarray(costs, dtype="<f8").tobytes(), h)
    h = fnv1a64(np.ascontiguousarray(prizes, dtype="<f8").tobytes(), h)
    with open(path) as f:
        body = f.read().split("\n", 1)[1]
    cases = []
    for pruning in ("strong", "gw"):
        drv = os.path.join(tmp, "net-%s.txt" % pruning)
        with open(drv, "w") as f:
            f.write("%d %d -1 1 %s\n" % (n, m, pruning))
            f.write(body)
        r = subprocess.run([DRIVER, drv], capture_output=True, text=True, check=True)
        nodes, edges = fz.parse_output(r.stdout)
        cases.append({"name": "network%d/%s" % (n, pruning),
                      "source": "bench_pcsf --graph network; pcst_fast "
                                "(fraenkel-lab/pcst_fast@25ab31a, tolerance 1e-6) through "
                                "scripts/reference/pcst_driver.cc",
                      "nodes": n, "edges": m, "prize_scale": a.scale,
                      "instance_hash": "%016x" % h, "root": -1,
                      "target_num_active_clusters": 1, "pruning": pruning,
                      "expected": {"nodes": len(nodes), "edges": len(edges),
                                   "hash": ids_hash(nodes, edges)}})
        os.remove(drv)
    os.remove(path)
    os.rmdir(tmp)
    with open(a.out, "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")
    for c in cases:
        print(c["name"], c["expected"])


if __name__ == "__main__":
    main()
