#!/usr/bin/env python3
"""Write the image-grid fixture of tests/test_pcsf.c: instances of pcsf_fuzz_images.py
(--recipe angio) on which the merge tolerances 1e-6 (pcst_fast as released) and 1e-10
(the original cluster_approx sources) give different outputs, with the outputs of both
references. The prizes go to one .npy per instance next to the JSON file.

  PCST_DRIVER=REF/pcst_driver PCST_DRIVER_1E10=REF/pcst_driver_1e-10 \\
      python3 scripts/reference/pcsf_fixture_images.py tests/data/pcsf-reference-images.json \\
      100:19 100:51 200:51
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcsf_fuzz as fz
import pcsf_fuzz_images as fi

DRIVERS = {"1e-06": os.environ.get("PCST_DRIVER", "pcst_driver"),
           "1e-10": os.environ.get("PCST_DRIVER_1E10", "pcst_driver_1e-10")}


def main():
    out = sys.argv[1]
    tmp = tempfile.mkdtemp()
    cases = []
    for spec in sys.argv[2:]:
        size, seed = (int(x) for x in spec.split(":"))
        inst = fi.gen(size, seed, "angio")
        drv = os.path.join(tmp, "inst.txt")
        fi.write_driver_input(inst, drv)
        npy = "pcsf-angio%d-seed%d.npy" % (size, seed)
        np.save(os.path.join(os.path.dirname(out), npy), inst["prizes"])
        expected = {}
        for tol, exe in DRIVERS.items():
            r = subprocess.run([exe, drv], capture_output=True, text=True, check=True)
            nodes, edges = fz.parse_output(r.stdout)
            expected[tol] = {"nodes": nodes, "edges": edges}
        if expected["1e-06"] == expected["1e-10"]:
            print("warning: %s gives the same output with both tolerances" % spec)
        cases.append({"name": "angio%d/seed%d" % (size, seed),
                      "source": "pcsf_fuzz_images.py --recipe angio, size %d, seed %d; "
                                "pcst_fast (fraenkel-lab/pcst_fast@25ab31a, tolerance 1e-6) and "
                                "its 09852a7 (tolerance 1e-10)" % (size, seed),
                      "height": size, "width": size, "cost": inst["cost"],
                      "prizes_npy": npy, "root": inst["root"],
                      "target_num_active_clusters": inst["g"], "pruning": inst["pruning"],
                      "expected": expected})
    with open(out, "w") as f:
        json.dump(cases, f, separators=(",", ":"))
        f.write("\n")
    print(len(cases), "cases,", os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
