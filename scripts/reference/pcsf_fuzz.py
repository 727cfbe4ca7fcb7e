#!/usr/bin/env python3
"""Differential fuzzer: `gsfw pcsf` against the reference pcst_fast, compiled with
pcst_driver.cc (see README.md in this folder; the reference is not part of gsfw).

Usage (from the repository root, after `make`):
  PCST_DRIVER=/path/to/pcst_driver python3 scripts/reference/pcsf_fuzz.py --count 44000 --seed 1
  PCST_DRIVER=... python3 scripts/reference/pcsf_fuzz.py --replay FILE   # rerun one instance

Environment: PCST_DRIVER (the reference driver, required), GSFW_BIN (default build/gsfw),
FUZZ_OUT (where summaries, reference timeouts and shrunk mismatches go; default
results/pcsf-fuzz).

Instance file format (also what the driver reads):
  n m root num_clusters pruning
  n prizes (one per line)
  m lines "u v cost"
Anything after that is ignored by the driver (mismatch files append '#' lines).
"""
import argparse
import collections
import json
import math
import multiprocessing as mp
import os
import random
import subprocess
import sys
import tempfile

REF = os.environ.get("PCST_DRIVER", "pcst_driver")
GSFW = os.environ.get("GSFW_BIN", "build/gsfw")
# The reference's merge tolerance, passed to gsfw as --tolerance: 1e-6 for pcst_fast as
# released (fraenkel-lab HEAD, PyPI), 1e-10 for the original cluster_approx sources.
TOL = os.environ.get("PCST_TOLERANCE", "1e-6")
OUTDIR = os.environ.get("FUZZ_OUT", "results/pcsf-fuzz")
WORKDIR = os.path.join(OUTDIR, "work")
PRUNINGS = ["none", "simple", "gw", "strong"]
TIMEOUT = 5.0

STRUCTURES = ["grid", "er_sparse", "er_dense", "disconnected", "tree", "path",
              "star", "multigraph", "tiny", "grid_big", "er_medium"]
VALUEMODES = ["uniform", "int012", "halfint", "allequal_unitcost", "zeros",
              "magnitude", "mixed_scale", "intsmall", "dyadic", "prize_cost_tie"]


# ----------------------------------------------------------------------------
# instance generation

def grid_edges(h, w):
    """The h x w grid's edges, row-major ids, per node first right then down (the edge
    order of gsfw_graph_grid and of the reference's benchmark grids)."""
    edges = []
    for i in range(h * w):
        r, c = divmod(i, w)
        if c + 1 < w:
            edges.append((i, i + 1))
        if r + 1 < h:
            edges.append((i, i + w))
    return edges


def random_edges(rng, n, p):
    """Erdos-Renyi G(n, p), each edge in a random direction."""
    edges = []
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                edges.append((u, v) if rng.random() < 0.5 else (v, u))
    return edges


def gen_structure(rng, kind):
    """Return (n, list of (u, v)) edges."""
    edges = []
    if kind == "grid":
        h = rng.randint(2, 12)
        w = rng.randint(2, 12)
        n = h * w
        edges = grid_edges(h, w)
    elif kind == "er_sparse":
        n = rng.randint(2, 40)
        p = rng.uniform(0.02, 2.5 / max(n, 2))
        edges = random_edges(rng, n, p)
    elif kind == "er_dense":
        n = rng.randint(2, 25)
        p = rng.uniform(0.4, 1.0)
        edges = random_edges(rng, n, p)
    elif kind == "disconnected":
        k = rng.randint(2, 5)
        n = 0
        for _ in range(k):
            sz = rng.randint(1, 8)
            base = n
            n += sz
            sub = rng.choice(["er", "tree", "path"])
            if sub == "er":
                p = rng.uniform(0.2, 0.9)
                for u in range(sz):
                    for v in range(u + 1, sz):
                        if rng.random() < p:
                            edges.append((base + u, base + v))
            else:
                for v in range(1, sz):
                    u = rng.randrange(v) if sub == "tree" else v - 1
                    edges.append((base + u, base + v))
        n += rng.randint(0, 3)  # isolated nodes
    elif kind == "tree":
        n = rng.randint(1, 40)
        for v in range(1, n):
            edges.append((rng.randrange(v), v))
    elif kind == "path":
        n = rng.randint(1, 30)
        for v in range(1, n):
            edges.append((v - 1, v))
    elif kind == "star":
        n = rng.randint(2, 30)
        c = rng.randrange(n)
        for v in range(n):
            if v != c:
                edges.append((c, v) if rng.random() < 0.5 else (v, c))
    elif kind == "multigraph":
        n = rng.randint(1, 15)
        m = rng.randint(0, 3 * n)
        for _ in range(m):
            u = rng.randrange(n)
            if rng.random() < 0.2:
                v = u  # self loop
            else:
                v = rng.randrange(n)
            edges.append((u, v))
        # explicit parallel copies
        for e in list(edges):
            if rng.random() < 0.3:
                edges.append(e if rng.random() < 0.5 else (e[1], e[0]))
    elif kind == "grid_big":
        h = rng.randint(13, 30)
        w = rng.randint(13, 30)
        n = h * w
        edges = grid_edges(h, w)
    elif kind == "er_medium":
        n = rng.randint(41, 150)
        p = rng.uniform(1.0, 4.0) / n
        edges = random_edges(rng, n, p)
    elif kind == "tiny":
        n = rng.randint(1, 5)
        m = rng.randint(0, 6)
        for _ in range(m):
            edges.append((rng.randrange(n), rng.randrange(n)))
    else:
        raise ValueError(kind)
    # random relabeling of edge order sometimes
    if rng.random() < 0.3:
        rng.shuffle(edges)
    return n, edges


def gen_values(rng, mode, count, what):
    if count == 0:
        return []
    if mode == "uniform":
        hi = rng.choice([1.0, 3.0, 10.0])
        return [rng.uniform(0, hi) for _ in range(count)]
    if mode == "int012":
        return [float(rng.choice([0, 1, 2])) for _ in range(count)]
    if mode == "intsmall":
        hi = rng.randint(1, 6)
        return [float(rng.randint(0, hi)) for _ in range(count)]
    if mode == "halfint":
        return [rng.randint(0, 8) / 2.0 for _ in range(count)]
    if mode == "allequal_unitcost":
        if what == "cost":
            return [1.0] * count
        v = rng.choice([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 0.25])
        return [v] * count
    if mode == "zeros":
        pz = rng.uniform(0.3, 0.9)
        base = rng.choice(["uniform", "int"])
        out = []
        for _ in range(count):
            if rng.random() < pz:
                out.append(0.0)
            elif base == "uniform":
                out.append(rng.uniform(0, 3))
            else:
                out.append(float(rng.randint(1, 3)))
        return out
    if mode == "dyadic":
        # multiples of 1/8: exact in binary, many exact ties in event times
        return [rng.randint(0, 24) / 8.0 for _ in range(count)]
    if mode == "prize_cost_tie":
        # prizes and costs from one tiny set so that deactivation times and
        # edge events coincide (cost c, prize c/2, c, 2c ...)
        base = rng.choice([1.0, 2.0, 3.0, 0.5])
        return [base * rng.choice([0, 0.5, 1, 1, 2]) for _ in range(count)]
    if mode == "magnitude":
        return [10.0 ** rng.uniform(-6, 6) for _ in range(count)]
    if mode == "mixed_scale":
        # mostly moderate values, with a few very small / very large
        out = []
        for _ in range(count):
            r = rng.random()
            if r < 0.15:
                out.append(10.0 ** rng.uniform(-6, -2))
            elif r < 0.3:
                out.append(10.0 ** rng.uniform(2, 6))
            elif r < 0.4:
                out.append(0.0)
            else:
                out.append(rng.uniform(0, 5))
        return out
    raise ValueError(mode)


def gen_instance(seed):
    rng = random.Random(seed)
    kind = STRUCTURES[seed % len(STRUCTURES)]
    mode = VALUEMODES[(seed // len(STRUCTURES)) % len(VALUEMODES)]
    n, edges = gen_structure(rng, kind)
    pmode = mode
    cmode = mode
    if mode == "allequal_unitcost":
        pass
    elif rng.random() < 0.2:
        # decouple: unit costs with these prizes, or these costs with equal prizes
        if rng.random() < 0.5:
            cmode = "allequal_unitcost"
        else:
            pmode = "allequal_unitcost"
    prizes = gen_values(rng, pmode, n, "prize")
    costs = gen_values(rng, cmode, len(edges), "cost")
    pruning = PRUNINGS[(seed // (len(STRUCTURES) * len(VALUEMODES))) % 4]
    if n > 0 and rng.random() < 0.35:
        root = rng.randrange(n)
        g = 0
    else:
        root = -1
        r = rng.random()
        if r < 0.05:
            g = 0
        elif r < 0.1:
            g = n + rng.randint(0, 2)
        else:
            g = rng.randint(1, 4)
    return {"n": n, "edges": [list(e) for e in edges], "costs": costs,
            "prizes": prizes, "root": root, "g": g, "pruning": pruning,
            "structure": kind, "values": mode, "seed": seed}


# ----------------------------------------------------------------------------
# running

def fmt(x):
    return repr(float(x))


def instance_text(inst):
    lines = ["%d %d %d %d %s" % (inst["n"], len(inst["edges"]), inst["root"],
                                 inst["g"], inst["pruning"])]
    lines += [fmt(p) for p in inst["prizes"]]
    lines += ["%d %d %s" % (u, v, fmt(c))
              for (u, v), c in zip(inst["edges"], inst["costs"])]
    return "\n".join(lines) + "\n"


def parse_output(out):
    nodes = edges = None
    for line in out.splitlines():
        if line.startswith("nodes:"):
            nodes = sorted(int(t) for t in line[6:].split())
        elif line.startswith("edges:"):
            edges = sorted(int(t) for t in line[6:].split())
    if nodes is None or edges is None:
        return None
    return nodes, edges


def run_both(inst, tmpdir, timeout=TIMEOUT):
    """Returns dict with status in {match, mismatch, ref_timeout, ref_error,
    gsfw_timeout, gsfw_error} and outputs."""
    inst_path = os.path.join(tmpdir, "inst.txt")
    e_path = os.path.join(tmpdir, "edges.txt")
    p_path = os.path.join(tmpdir, "prizes.txt")
    with open(inst_path, "w") as f:
        f.write(instance_text(inst))
    with open(e_path, "w") as f:
        for (u, v), c in zip(inst["edges"], inst["costs"]):
            f.write("%d %d %s\n" % (u, v, fmt(c)))
    with open(p_path, "w") as f:
        for p in inst["prizes"]:
            f.write(fmt(p) + "\n")
    res = {}
    try:
        r = subprocess.run([REF, inst_path], capture_output=True, text=True,
                           timeout=timeout)
        res["ref_rc"] = r.returncode
        res["ref_out"] = r.stdout
        res["ref_err"] = r.stderr
    except subprocess.TimeoutExpired:
        res["status"] = "ref_timeout"
        res["ref_out"] = "(timeout after %gs)" % timeout
    cmd = [GSFW, "pcsf", "--edges", e_path, "--prizes", p_path,
           "--root", str(inst["root"]), "--clusters", str(inst["g"]),
           "--pruning", inst["pruning"], "--tolerance", TOL]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
        res["gsfw_rc"] = r.returncode
        res["gsfw_out"] = r.stdout
        res["gsfw_err"] = r.stderr
    except subprocess.TimeoutExpired:
        res["status"] = ("ref_timeout_gsfw_timeout"
                         if res.get("status") == "ref_timeout"
                         else "gsfw_timeout")
        return res
    if res.get("status") == "ref_timeout":
        return res
    if res["ref_rc"] != 0:
        res["status"] = "ref_error" if res["gsfw_rc"] != 0 else "ref_error_gsfw_ok"
        return res
    if res["gsfw_rc"] != 0:
        res["status"] = "gsfw_error"
        return res
    a = parse_output(res["ref_out"])
    b = parse_output(res["gsfw_out"])
    if a is None or b is None:
        res["status"] = "parse_error"
        return res
    res["ref_sets"] = a
    res["gsfw_sets"] = b
    if a == b:
        res["status"] = "match"
    else:
        diff = []
        if a[0] != b[0]:
            diff.append("nodes")
        if a[1] != b[1]:
            diff.append("edges")
        res["status"] = "mismatch"
        res["diff"] = "+".join(diff)
    return res


_tmpdir = None


def worker_init():
    global _tmpdir
    _tmpdir = tempfile.mkdtemp(prefix="fuzz_", dir=WORKDIR)


def worker(seed):
    inst = gen_instance(seed)
    res = run_both(inst, _tmpdir)
    return inst, res


# ----------------------------------------------------------------------------
# shrinking

def is_failing(inst, tmpdir, want_status):
    res = run_both(inst, tmpdir)
    return res["status"] == want_status, res


def remove_node(inst, k):
    n = inst["n"]
    if n <= 1:
        return None
    if inst["root"] == k:
        return None
    new = dict(inst)
    keep = [i for i, (u, v) in enumerate(inst["edges"]) if u != k and v != k]
    remap = lambda x: x - 1 if x > k else x
    new["edges"] = [[remap(inst["edges"][i][0]), remap(inst["edges"][i][1])]
                    for i in keep]
    new["costs"] = [inst["costs"][i] for i in keep]
    new["prizes"] = inst["prizes"][:k] + inst["prizes"][k + 1:]
    new["n"] = n - 1
    new["root"] = remap(inst["root"]) if inst["root"] >= 0 else -1
    if inst["root"] < 0 and inst["g"] > new["n"] and inst["g"] > 1:
        new["g"] = new["n"]
    return new


def remove_edge(inst, i):
    new = dict(inst)
    new["edges"] = inst["edges"][:i] + inst["edges"][i + 1:]
    new["costs"] = inst["costs"][:i] + inst["costs"][i + 1:]
    return new


def simpler_values(vals):
    """Candidate simplifications for a value list (one value at a time)."""
    out = []
    for i, x in enumerate(vals):
        for cand in (0.0, 1.0, float(round(x)), round(x, 2), round(x, 4)):
            if cand != x and cand >= 0:
                v = list(vals)
                v[i] = float(cand)
                out.append(v)
    return out


def shrink(inst, want_status, tmpdir, budget=4000):
    cur = inst
    steps = 0
    progress = True
    while progress and steps < budget:
        progress = False
        # remove nodes
        k = cur["n"] - 1
        while k >= 0 and steps < budget:
            cand = remove_node(cur, k)
            steps += 1
            if cand is not None and is_failing(cand, tmpdir, want_status)[0]:
                cur = cand
                progress = True
            k -= 1
        # remove edges
        i = len(cur["edges"]) - 1
        while i >= 0 and steps < budget:
            cand = remove_edge(cur, i)
            steps += 1
            if is_failing(cand, tmpdir, want_status)[0]:
                cur = cand
                progress = True
            i -= 1
        # smaller g
        if cur["root"] < 0 and cur["g"] > 1:
            cand = dict(cur)
            cand["g"] = cur["g"] - 1
            steps += 1
            if is_failing(cand, tmpdir, want_status)[0]:
                cur = cand
                progress = True
        # simplify values
        for key in ("prizes", "costs"):
            changed = True
            while changed and steps < budget:
                changed = False
                for v in simpler_values(cur[key]):
                    cand = dict(cur)
                    cand[key] = v
                    steps += 1
                    if is_failing(cand, tmpdir, want_status)[0]:
                        cur = cand
                        changed = True
                        progress = True
                        break
    return cur


def gsfw_cmd_text(inst):
    return ("%s pcsf --edges EDGES --prizes PRIZES --root %d --clusters %d "
            "--pruning %s --tolerance %s" % (GSFW, inst["root"], inst["g"], inst["pruning"], TOL))


def write_reproducer(path, inst, res, note):
    with open(path, "w") as f:
        f.write(instance_text(inst))
        f.write("# %s\n" % note)
        f.write("# structure=%s values=%s seed=%s\n" % (
            inst.get("structure"), inst.get("values"), inst.get("seed")))
        f.write("# status: %s %s\n" % (res.get("status"), res.get("diff", "")))
        f.write("# reference (driver):\n")
        for line in (res.get("ref_out") or "").splitlines():
            f.write("#   " + line + "\n")
        if res.get("ref_err"):
            f.write("#   stderr: " + res["ref_err"].strip() + "\n")
        f.write("# gsfw:\n")
        for line in (res.get("gsfw_out") or "").splitlines():
            f.write("#   " + line + "\n")
        if res.get("gsfw_err"):
            f.write("#   stderr: " + res["gsfw_err"].strip() + "\n")
        f.write("# gsfw command: %s\n" % gsfw_cmd_text(inst))
        f.write("# (EDGES = the m 'u v cost' lines above, PRIZES = the n prize"
                " lines above)\n")


def read_instance(path):
    with open(path) as f:
        toks = []
        for line in f:
            if line.startswith("#"):
                break
            toks += line.split()
    n, m, root, g, pr = int(toks[0]), int(toks[1]), int(toks[2]), int(toks[3]), toks[4]
    prizes = [float(t) for t in toks[5:5 + n]]
    rest = toks[5 + n:]
    edges, costs = [], []
    for i in range(m):
        edges.append([int(rest[3 * i]), int(rest[3 * i + 1])])
        costs.append(float(rest[3 * i + 2]))
    return {"n": n, "edges": edges, "costs": costs, "prizes": prizes,
            "root": root, "g": g, "pruning": pr}


# ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=24000)
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-shrink", type=int, default=3,
                    help="instances shrunk per mismatch category")
    ap.add_argument("--replay", help="rerun one instance file and print both")
    args = ap.parse_args()

    os.makedirs(WORKDIR, exist_ok=True)
    if args.replay:
        inst = read_instance(args.replay)
        d = tempfile.mkdtemp(prefix="replay_", dir=WORKDIR)
        res = run_both(inst, d)
        print("status:", res["status"], res.get("diff", ""))
        print("ref :", (res.get("ref_out") or "").strip().replace("\n", " | "))
        print("gsfw:", (res.get("gsfw_out") or "").strip().replace("\n", " | "))
        return

    seeds = range(args.seed, args.seed + args.count)
    stats = collections.defaultdict(collections.Counter)
    mism = collections.defaultdict(list)
    done = 0
    with mp.Pool(args.workers, initializer=worker_init) as pool:
        for inst, res in pool.imap_unordered(worker, seeds, chunksize=16):
            st = res["status"]
            rooted = "rooted" if inst["root"] >= 0 else "unrooted"
            for key in ("structure:" + inst["structure"],
                        "values:" + inst["values"],
                        "pruning:" + inst["pruning"],
                        "root:" + rooted,
                        "ALL"):
                stats[key][st] += 1
            if st.startswith("ref_timeout"):
                tdir = os.path.join(OUTDIR, "ref_timeouts")
                os.makedirs(tdir, exist_ok=True)
                write_reproducer(os.path.join(tdir, "seed%d.txt" % inst["seed"]),
                                 inst, res, "reference timed out (skipped)")
            if st not in ("match", "ref_timeout", "ref_error",
                          "ref_timeout_gsfw_timeout"):
                cat = "%s_%s_%s" % (st, res.get("diff", "x"), inst["pruning"])
                mism[cat].append((inst, res))
            done += 1
            if done % 2000 == 0:
                print("... %d done: %s" % (done, dict(stats["ALL"])),
                      flush=True)

    print("\n=== results (seeds %d..%d) ===" % (args.seed,
                                                 args.seed + args.count - 1))
    allst = sorted({s for c in stats.values() for s in c})
    hdr = "%-28s %7s " % ("group", "total") + " ".join("%12s" % s for s in allst)
    print(hdr)
    for key in sorted(stats):
        c = stats[key]
        print("%-28s %7d " % (key, sum(c.values())) +
              " ".join("%12d" % c[s] for s in allst))

    summary = {"stats": {k: dict(v) for k, v in stats.items()},
               "mismatch_categories": {k: len(v) for k, v in mism.items()}}
    with open(os.path.join(OUTDIR, "fuzz_summary.json"), "w") as f:
        json.dump(summary, f, indent=1)

    if not mism:
        print("\nNo mismatches.")
        return
    print("\n=== mismatch categories ===")
    d = tempfile.mkdtemp(prefix="shrink_", dir=WORKDIR)
    rawdir = os.path.join(OUTDIR, "raw_mismatches")
    os.makedirs(rawdir, exist_ok=True)
    for cat, items in sorted(mism.items()):
        print("%s: %d instances (seeds %s)" % (
            cat, len(items), [i["seed"] for i, _ in items[:10]]))
        for inst, res in items:
            write_reproducer(os.path.join(rawdir, "seed%d_%s.txt" % (
                inst["seed"], cat)), inst, res, "raw (unshrunk) " + cat)
        # shrink a few, keep smallest
        best = None
        cands = sorted(items, key=lambda t: (t[0]["n"] + len(t[0]["edges"])))
        for inst, res in cands[:args.max_shrink]:
            s = shrink(inst, res["status"], d)
            size = s["n"] + len(s["edges"])
            if best is None or size < best[0]:
                best = (size, s)
        s = best[1]
        ok, res = is_failing(s, d, items[0][1]["status"])
        path = os.path.join(OUTDIR, "mismatch_%s.txt" % cat.replace(
            "mismatch_", "", 1))
        write_reproducer(path, s, res, "shrunk reproducer for " + cat)
        print("   shrunk to n=%d m=%d -> %s" % (s["n"], len(s["edges"]), path))


if __name__ == "__main__":
    main()
