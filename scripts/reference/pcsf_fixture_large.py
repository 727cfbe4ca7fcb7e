#!/usr/bin/env python3
"""Write the large-grid fixture of tests/test_pcsf_reference.c
(tests/data/pcsf-reference-large.json): grids of 10^4..10^5 nodes with the outputs of both
references (pcst_fast as released, merge tolerance 1e-6, and the original sources,
1e-10), stored as counts and hashes instead of id lists.

Instances:
- bench_pcsf's grid, H x H (--bench-size, default 316): unit costs, prizes 4*U[0,1) from
  the splitmix64 generator seeded with 20220101 (src/util/splitmix.h; the prizes are
  taken from `bench_pcsf --write-prizes`, so the generator is not re-implemented here),
  unrooted, one cluster, once with strong and once with GW pruning. Nothing is stored
  but the outputs: the test generates the prizes again;
- the image grids SIZE:SEED of `pcsf_fuzz_images.py --recipe angio` (unit costs,
  unrooted, one cluster, strong pruning): numpy's generator is not reproduced in C, so
  the prizes go to tests/data/pcsf-angioSIZE-seedSEED.npy beside the JSON file.

Per instance and tolerance the JSON file holds the number of nodes and of edges of the
output and `hash`: FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over
the output's node ids in increasing order, then its edge ids in increasing order, each id
as 4 bytes little-endian, written as 16 lowercase hex digits. `prizes_hash` is the same
hash over the prizes, each as the 8 bytes little-endian of its IEEE-754 double: the test
checks it before it runs, so a generator or file that changed is not taken for an engine
that did.

  PCST_DRIVER=REF/pcst_driver PCST_DRIVER_1E10=REF/pcst_driver_1e-10 \\
      python3 scripts/reference/pcsf_fixture_large.py tests/data/pcsf-reference-large.json \\
      --bench-pcsf build/bench_pcsf 200:51

If the module `pcst_fast` as released can be imported (PYTHONPATH=its build), its
outputs at tolerance 1e-6 are checked to equal the driver's too. Needs numpy.
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
import pcsf_fuzz_images as fi  # noqa: E402

DRIVERS = {"1e-06": os.environ.get("PCST_DRIVER", "pcst_driver"),
           "1e-10": os.environ.get("PCST_DRIVER_1E10", "pcst_driver_1e-10")}
SOURCE = ("pcst_fast (fraenkel-lab/pcst_fast@25ab31a, tolerance 1e-6) and its 09852a7 "
          "(tolerance 1e-10) through scripts/reference/pcst_driver.cc")
FNV_OFFSET, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3


def fnv1a64(data, h=FNV_OFFSET):
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def ids_hash(nodes, edges):
    h = fnv1a64(struct.pack("<%dI" % len(nodes), *sorted(nodes)))
    h = fnv1a64(struct.pack("<%dI" % len(edges), *sorted(edges)), h)
    return "%016x" % h


def prizes_hash(prizes):
    return "%016x" % fnv1a64(np.ascontiguousarray(prizes, dtype="<f8").tobytes())


def python_module():
    try:
        import pcst_fast
    except ImportError:
        return None
    return pcst_fast


def grid_edges(h, w):
    """The grid's edges in gsfw's order (per node in row-major order, right, then down),
    as pcsf_fuzz_images.write_driver_input writes them."""
    ids = np.arange(h * w).reshape(h, w)
    right = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], 1)
    down = np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], 1)
    keys = np.concatenate([right[:, 0] * 2, down[:, 0] * 2 + 1])
    return np.concatenate([right, down])[np.argsort(keys, kind="stable")]


def outputs(inst, tmp, module):
    drv = os.path.join(tmp, "inst.txt")
    fi.write_driver_input(inst, drv)
    res = {}
    for tol, exe in DRIVERS.items():
        r = subprocess.run([exe, drv], capture_output=True, text=True, check=True)
        nodes, edges = fz.parse_output(r.stdout)
        res[tol] = (nodes, edges)
    os.remove(drv)
    if module is not None:
        edges = grid_edges(inst["h"], inst["w"])
        costs = np.full(len(edges), inst["cost"])
        vn, ve = module.pcst_fast(edges, inst["prizes"], costs, inst["root"], inst["g"],
                                  inst["pruning"], 0)
        if (sorted(vn.tolist()), sorted(ve.tolist())) != res["1e-06"]:
            sys.exit("the module pcst_fast and the 1e-6 driver disagree")
    return {tol: {"nodes": len(n), "edges": len(e), "hash": ids_hash(n, e)}
            for tol, (n, e) in res.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("images", nargs="*", help="SIZE:SEED of the angio recipe")
    ap.add_argument("--bench-pcsf", default="build/bench_pcsf")
    ap.add_argument("--bench-size", type=int, default=316)
    a = ap.parse_intermixed_args()
    module = python_module()
    tmp = tempfile.mkdtemp(prefix="pcsf_large_")
    cases = []
    h = a.bench_size
    pz = os.path.join(tmp, "bench.npy")
    subprocess.run([a.bench_pcsf, "--write-prizes", str(h), pz], check=True)
    prizes = np.load(pz).ravel()
    for pruning in ("strong", "gw"):
        inst = {"h": h, "w": h, "prizes": prizes, "cost": 1.0, "root": -1, "g": 1,
                "pruning": pruning}
        cases.append({"name": "bench%d/%s" % (h, pruning),
                      "source": "bench_pcsf's grid (prizes 4*U[0,1), splitmix64 seed "
                                "20220101); " + SOURCE,
                      "height": h, "width": h, "cost": 1.0,
                      "prizes": {"splitmix64": 20220101, "scale": 4.0},
                      "prizes_hash": prizes_hash(prizes), "root": -1,
                      "target_num_active_clusters": 1, "pruning": pruning,
                      "expected": outputs(inst, tmp, module)})
    for spec in a.images:
        size, seed = (int(x) for x in spec.split(":"))
        inst = fi.gen(size, seed, "angio")
        npy = "pcsf-angio%d-seed%d.npy" % (size, seed)
        np.save(os.path.join(os.path.dirname(os.path.abspath(a.out)), npy), inst["prizes"])
        expected = outputs(inst, tmp, module)
        if expected["1e-06"] == expected["1e-10"]:
            print("warning: %s gives the same output with both tolerances" % spec)
        cases.append({"name": "angio%d/seed%d" % (size, seed),
                      "source": "pcsf_fuzz_images.py --recipe angio, size %d, seed %d; %s"
                                % (size, seed, SOURCE),
                      "height": size, "width": size, "cost": inst["cost"],
                      "prizes": {"npy": npy}, "prizes_hash": prizes_hash(inst["prizes"]),
                      "root": inst["root"], "target_num_active_clusters": inst["g"],
                      "pruning": inst["pruning"], "expected": expected})
    for c in cases:
        print(c["name"], " ".join("%s: %d nodes %d edges %s" % (t, x["nodes"], x["edges"],
                                                                 x["hash"])
                                  for t, x in c["expected"].items()))
    print("checked against the module pcst_fast too" if module else
          "the module pcst_fast was not found: not checked against it")
    with open(a.out, "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")
    print(len(cases), "cases,", os.path.getsize(a.out), "bytes")


if __name__ == "__main__":
    main()
