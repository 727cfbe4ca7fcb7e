"""gsfw.pcst_fast reproduces pcst_fast on the reference and peer fixtures."""
import json
import os

import numpy as np
import pytest

import gsfw

FIXTURES = ["pcsf-reference-random.json", "pcsf-peer-tests.json"]


def load(root, name):
    with open(os.path.join(root, "tests", "data", name)) as f:
        return json.load(f)


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture_cases(root, name):
    cases = load(root, name)
    assert cases
    for c in cases:
        edges = np.asarray(c["edges"], dtype=np.int64).reshape(-1, 2)
        nodes, eidx = gsfw.pcst_fast(edges, np.asarray(c["prizes"], dtype=np.float64),
                                     np.asarray(c["costs"], dtype=np.float64), c["root"],
                                     c["target_num_active_clusters"], c["pruning"], 0)
        assert nodes.dtype == np.int64 and eidx.dtype == np.int64
        assert sorted(nodes.tolist()) == sorted(c["expected_nodes"]), c["name"]
        assert sorted(eidx.tolist()) == sorted(c["expected_edges"]), c["name"]


def test_lists_are_accepted_like_pcst_fast():
    nodes, edges = gsfw.pcst_fast([[0, 1], [1, 2]], [0.0, 5.0, 6.0], [3.0, 4.0], -1, 1, "gw", 0)
    assert nodes.tolist() == [1, 2] and edges.tolist() == [1]


def test_native_spelling_matches(root):
    for c in load(root, "pcsf-peer-tests.json"):
        edges = np.asarray(c["edges"], dtype=np.int64).reshape(-1, 2)
        costs = np.asarray(c["costs"], dtype=np.float64)
        graph = gsfw.Graph(c["n_nodes"], edges, costs)
        a = gsfw.pcst_fast(edges, c["prizes"], costs, c["root"], c["target_num_active_clusters"],
                           c["pruning"])
        b = gsfw.pcsf(graph, c["prizes"], root=c["root"],
                      num_clusters=c["target_num_active_clusters"], pruning=c["pruning"])
        assert a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist(), c["name"]


def test_rooted_default_clusters():
    graph = gsfw.Graph(3, [[0, 1], [1, 2]], [3.0, 4.0])
    nodes, edges = gsfw.pcsf(graph, [0.0, 5.0, 6.0], root=0, pruning="none")
    assert sorted(nodes.tolist()) == [0, 1, 2] and sorted(edges.tolist()) == [0, 1]
