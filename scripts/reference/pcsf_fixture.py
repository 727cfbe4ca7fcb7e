#!/usr/bin/env python3
"""Write a JSON fixture of random PCSF instances with the reference's outputs, in the
schema of tests/data/pcsf-peer-tests.json: instances of pcsf_fuzz.gen_instance, two per
(structure, values, pruning) combination, at most MAXN nodes each; instances on which the
reference fails or runs past 5 s are skipped.

  PCST_DRIVER=/path/to/pcst_driver python3 scripts/reference/pcsf_fixture.py 3000001 \
      tests/data/pcsf-reference-random.json
"""
import collections, json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcsf_fuzz as fuzz

MAXN = 120
PER = 2
base = int(sys.argv[1]) if len(sys.argv) > 1 else 3000001
out = sys.argv[2] if len(sys.argv) > 2 else "pcsf-reference-random.json"
have = collections.Counter()
cases = []
combos = len(fuzz.STRUCTURES) * len(fuzz.VALUEMODES) * len(fuzz.PRUNINGS)
seed = base
tmp = tempfile.mkdtemp()
while len(cases) < combos * PER and seed < base + 200 * combos:
    inst = fuzz.gen_instance(seed)
    seed += 1
    key = (inst["structure"], inst["values"], inst["pruning"])
    if have[key] >= PER or inst["n"] > MAXN or inst["n"] == 0:
        continue
    path = os.path.join(tmp, "i.txt")
    with open(path, "w") as f:
        f.write(fuzz.instance_text(inst))
    try:
        r = subprocess.run([fuzz.REF, path], capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        continue
    if r.returncode != 0:
        continue
    res = fuzz.parse_output(r.stdout)
    if res is None:
        continue
    have[key] += 1
    cases.append({
        "name": "random/%s/%s/%s/seed%d" % (inst["structure"], inst["values"], inst["pruning"], inst["seed"]),
        "source": "pcst_fast (fraenkel-lab/pcst_fast@09852a7) on instance seed %d of scripts/reference/pcsf_fuzz.py" % inst["seed"],
        "n_nodes": inst["n"],
        "edges": inst["edges"],
        "prizes": [float(p) for p in inst["prizes"]],
        "costs": [float(c) for c in inst["costs"]],
        "root": inst["root"],
        "target_num_active_clusters": inst["g"],
        "pruning": inst["pruning"],
        "expected_nodes": res[0],
        "expected_edges": res[1],
    })
with open(out, "w") as f:
    json.dump(cases, f, separators=(",", ":"))
    f.write("\n")
print(len(cases), "cases,", os.path.getsize(out), "bytes; last seed", seed - 1)
