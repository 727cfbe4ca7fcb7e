"""gsfw.pcst_fast is a drop-in for pcst_fast's Python module: the answers of the real module
(tests/data/pcst-fast-python.json, written by scripts/pcst_fast_fixture.py with pcst_fast
itself) in the same order and with the same dtypes, its argument rules and its verbosity."""
import json
import os

import numpy as np
import pytest

import gsfw


@pytest.fixture(scope="module")
def calls(root):
    with open(os.path.join(root, "tests", "data", "pcst-fast-python.json")) as f:
        return json.load(f)


def run(case):
    return gsfw.pcst_fast(np.asarray(case["edges"], dtype=np.int64).reshape(-1, 2),
                          np.asarray(case["prizes"]), np.asarray(case["costs"]), case["root"],
                          case["num_clusters"], case["pruning"], 0)


def test_fixture_covers_the_cases(calls):
    names = [c["name"] for c in calls]
    assert len(calls) >= 600
    # "~": prizes and costs moved by multiples of 4e-7, event times closer than the merge
    # tolerance (1e-6 in pcst_fast as released): there the tolerance decides the answer
    for word in ("rooted", "unrooted", "ties", "grid", "ba", "er", "multi", "~"):
        assert any(word in n for n in names), word
    assert {c["pruning"] for c in calls} == {"none", "simple", "gw", "strong"}


def test_same_answers_order_and_dtypes_as_pcst_fast(calls):
    differ = []
    for case in calls:
        vertices, edges = run(case)
        assert str(vertices.dtype) == str(edges.dtype) == case["dtype"] == "int32"
        if vertices.tolist() != case["expected_vertices"] or \
                edges.tolist() != case["expected_edges"]:
            differ.append(case["name"])
    assert not differ, "%d of %d calls differ from pcst_fast: %s" % (len(differ), len(calls),
                                                                     differ[:5])


def test_pcst_fast_own_tests_with_the_import_changed():
    """pcst_fast's src/test_pcst_fast.py, its assertions on gsfw (import gsfw as pcst_fast)."""
    import gsfw as pcst_fast
    nodes, edges = pcst_fast.pcst_fast([[0, 1], [1, 2], [2, 3]], [1.0, 1.0, 1.0, 1.0],
                                       [0.8, 1.8, 2.8], -1, 1, "strong", 0)
    np.testing.assert_array_equal(nodes, [0, 1])
    np.testing.assert_array_equal(edges, [0])
    nodes, edges = pcst_fast.pcst_fast([[0, 1], [1, 2]], [0.0, 5.0, 6.0], [3.0, 4.0], 0, 1,
                                       "none", 0)
    np.testing.assert_array_equal(sorted(nodes), [0, 1, 2])
    np.testing.assert_array_equal(sorted(edges), [0, 1])
    nodes, edges = pcst_fast.pcst_fast([[0, 1], [1, 2], [1, 4], [2, 3], [2, 5], [3, 6]],
                                       [100., 0., 0., 0., 100., 100., 100.],
                                       [10., 100., 10., 10., 10., 10.], -1, 2, "strong", 0)
    np.testing.assert_array_equal(sorted(nodes), [0, 1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(sorted(edges), [0, 2, 3, 4, 5])


def test_rooted_calls_take_one_cluster_as_pcst_fast():
    e, p, c = np.array([[0, 1], [1, 2]]), np.array([0., 5., 6.]), np.array([3., 4.])
    nodes, edges = gsfw.pcst_fast(e, p, c, 0, 1, "none", 0)
    assert nodes.tolist() == [1, 2, 0] and edges.tolist() == [1, 0]  # pcst_fast's order
    for clusters in (0, 2):
        with pytest.raises(ValueError, match="only one output cluster"):
            gsfw.pcst_fast(e, p, c, 0, clusters, "none", 0)


def test_inputs_pcst_fast_accepts():
    e, p, c = [[0, 1], [1, 2]], [0, 5, 6], [3, 4]  # lists of ints
    ref = gsfw.pcst_fast(e, p, c, -1, 1, "gw", 0)
    assert ref[0].tolist() == [1, 2] and ref[1].tolist() == [1]
    variants = [
        (np.array(e, dtype=np.int32), p, c, -1, 1, "gw", 0),
        (np.asfortranarray(e), np.array(p, dtype=np.float32), c, -1, 1, "gw", 0),
        (e, p, c, np.int64(-1), np.int32(1), b"gw", np.int64(0)),
        (e, p, c, -1, 1, "gw"),                                  # verbosity defaults to 0
    ]
    for args in variants:
        got = gsfw.pcst_fast(*args)
        assert got[0].tolist() == [1, 2] and got[1].tolist() == [1], args
    got = gsfw.pcst_fast(edges=e, prizes=p, costs=c, root=-1, num_clusters=1, pruning="gw")
    assert got[0].tolist() == [1, 2]


@pytest.mark.parametrize("args,exc,match", [
    ((-1.0, 1, "gw", 0), TypeError, "root must be an integer"),
    (("0", 1, "gw", 0), TypeError, "root must be an integer"),
    ((-1, 1.0, "gw", 0), TypeError, "num_clusters must be an integer"),
    ((-1, 1, "gw", 1.5), TypeError, "verbosity_level must be an integer"),
    ((-1, 1, 3, 0), TypeError, "pruning must be a string"),
    # beyond int32 pcst_fast's binding raises TypeError, and so does gsfw (no OverflowError)
    ((2 ** 31, 1, "gw", 0), TypeError, r"root must be an integer in the int32 range"),
    ((np.int64(-2 ** 31 - 1), 1, "gw", 0), TypeError, "root must be an integer in the int32"),
    ((-1, 2 ** 31, "gw", 0), TypeError, "num_clusters must be an integer in the int32 range"),
    ((-1, 1, "gw", 2 ** 63), TypeError, "verbosity_level must be an integer in the int32"),
])
def test_argument_types(args, exc, match):
    with pytest.raises(exc, match=match):
        gsfw.pcst_fast([[0, 1]], [1.0, 1.0], [1.0], *args)


def test_int32_extremes_pass_the_type_check():
    # in range: the library's own range check answers (the root is not a node)
    with pytest.raises(ValueError, match="root 2147483647 is out of range"):
        gsfw.pcst_fast([[0, 1]], [1.0, 1.0], [1.0], 2 ** 31 - 1, 1, "gw", 0)


def test_negative_num_clusters_is_a_value_error():
    # pcst_fast itself crashes (segmentation fault) on an unrooted call with num_clusters < 0
    with pytest.raises(ValueError, match="clusters -1 is negative"):
        gsfw.pcst_fast([[0, 1]], [1.0, 1.0], [1.0], -1, -1, "gw", 0)


def test_unsigned_edges_are_accepted():
    # pcst_fast's binding refuses uint64 edge arrays (TypeError); gsfw takes any integers
    e, p, c = np.array([[0, 1], [1, 2]], dtype=np.uint64), [0.0, 5.0, 6.0], [3.0, 4.0]
    got = gsfw.pcst_fast(e, p, c, -1, 1, "gw", 0)
    assert got[0].tolist() == [1, 2] and got[1].tolist() == [1]


def test_float_edges_are_a_type_error_as_in_pcst_fast():
    with pytest.raises(TypeError, match="integer node ids, got dtype float64"):
        gsfw.pcst_fast(np.array([[0.0, 1.0]]), [1.0, 1.0], [1.0], -1, 1, "gw", 0)
    # a list of floats too (pcst_fast converts it, truncating 0.5 to node 0)
    with pytest.raises(TypeError, match="integer node ids, got dtype float64"):
        gsfw.pcst_fast([[0.5, 1.0]], [1.0, 1.0], [1.0], -1, 1, "gw", 0)


def test_verbosity_prints_progress(capsys):
    e, p, c = [[0, 1], [1, 2]], [0.0, 5.0, 6.0], [3.0, 4.0]
    gsfw.pcst_fast(e, p, c, -1, 1, "gw", 0)
    assert capsys.readouterr().out == ""
    gsfw.pcst_fast(e, p, c, -1, 1, "gw", 1)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and "2 nodes and 1 edges selected" in out[0]
    gsfw.pcst_fast(e, p, c, 0, 1, "GW", 2)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "3 nodes, 2 edges, rooted at node 0, pruning gw" in out[0]


E4, P5, C4 = [[0, 1], [1, 2], [2, 3], [3, 4]], [5.0, 0, 6, 0, 3], [1.0, 2, 1, 5]


@pytest.mark.parametrize("edges,prizes,costs,match", [
    # pcst_fast's binding cannot convert these to its float64 arrays: TypeError
    (E4, np.array(P5, dtype=complex), C4, "^prizes must be an array of real numbers"),
    (E4, np.array(P5, dtype=object), C4, "^prizes must be an array of real numbers"),
    (E4, np.array(["5", "0", "6", "0", "3"]), C4, "^prizes must be an array of real numbers"),
    (E4, P5, np.array(C4, dtype=np.longdouble), "^costs must be an array of real numbers"),
    (E4, P5, np.array(C4, dtype=complex), "^costs must be an array of real numbers"),
    # nor these to its int64 edge array (before any check of the shape)
    (None, P5, C4, "^edges must hold integer node ids, got dtype object"),
    ("abc", P5, C4, "^edges must hold integer node ids, got dtype <U3"),
    (np.array([1.5, 2.5]), P5, C4, "^edges must hold integer node ids, got dtype float64"),
    (np.array([[0, 1, 2]], dtype=object), P5, C4, "^edges must hold integer node ids"),
])
def test_arrays_pcst_fast_cannot_convert_are_type_errors(edges, prizes, costs, match):
    with pytest.raises(TypeError, match=match):
        gsfw.pcst_fast(edges, prizes, costs, -1, 1, "gw", 0)


@pytest.mark.parametrize("edges,prizes,costs,match", [
    # converted, then of the wrong shape: ValueError, as in pcst_fast
    (5, P5, C4, r"^edges must be an \(m, 2\) array of node ids, got an array of shape \(\)$"),
    ([[]], P5, [], r"^edges must be an \(m, 2\) array .* shape \(1, 0\)$"),
    (np.zeros((4, 3), dtype=np.int64), P5, C4, r"shape \(4, 3\)$"),
    (E4, None, C4, "^prizes is None"),
    (E4, 5.0, C4, "^prizes must be 1-D"),
    (E4, P5, [[1.0, 2, 1, 5]], "^costs must be 1-D"),
    (E4, P5, C4[:3], "^costs has 3 entries, expected 4$"),
])
def test_arrays_of_the_wrong_shape_are_value_errors(edges, prizes, costs, match):
    with pytest.raises(ValueError, match=match):
        gsfw.pcst_fast(edges, prizes, costs, -1, 1, "gw", 0)


def test_integer_scalars_and_bytes_like_pruning_pcst_fast_takes():
    # pcst_fast's binding reads any integer (0-d integer arrays too: np.array(2), what
    # some numpy functions return) and any bytes-like pruning (bytearray too)
    ref = gsfw.pcst_fast(E4, P5, C4, 2, 1, "gw", 0)
    got = gsfw.pcst_fast(E4, P5, C4, np.array(2), np.array(1, dtype=np.uint8), bytearray(b"gw"),
                         np.array(0, dtype=np.int16))
    assert [a.tolist() for a in got] == [a.tolist() for a in ref]
    got = gsfw.pcst_fast(E4, P5, C4, np.array(-1), np.array(2), "gw", 0)
    assert [a.tolist() for a in got] == [[0, 1, 2, 4], [1, 0]]
    # still refused: what is not an integer (pcst_fast reads np.array(2.0) as 2, np.True_
    # as 1 and np.array([2]) as 2)
    for root in (np.array(2.0), np.array(True), np.array([2]), np.True_):
        with pytest.raises(TypeError, match="root must be an integer"):
            gsfw.pcst_fast(E4, P5, C4, root, 1, "gw", 0)


def test_bool_edges_and_ids_beyond_int32_are_refused():
    # deliberate differences (docs/python.md): pcst_fast converts a bool edge array to
    # node ids 0 and 1, and truncates 2**32 + 2 to node 2 (a forest over the wrong edge)
    with pytest.raises(TypeError, match="integer node ids, got dtype bool"):
        gsfw.pcst_fast(np.array([[True, False]]), [1.0, 2.0], [1.0], -1, 1, "gw", 0)
    for bad in (2 ** 32 + 2, -2 ** 32 + 2):
        with pytest.raises(ValueError, match="node id out of range"):
            gsfw.pcst_fast(np.array([[0, 1], [1, bad]]), [1.0, 1.0, 1.0], [1.0, 1.0], -1, 1,
                           "gw", 0)


def test_empty_edge_arrays_of_any_dtype_are_no_edges():
    # deliberate (docs/python.md): pcst_fast refuses [] (1-D) and an empty float array
    for edges in ([], np.zeros(0, dtype=np.int64), np.zeros((0, 2)), np.zeros((0, 2), bool)):
        got = gsfw.pcst_fast(edges, [1.0, 2.0], [], -1, 1, "gw", 0)
        assert [a.tolist() for a in got] == [[1], []]
    with pytest.raises(TypeError, match="verbosity_level must be an integer, got bool"):
        gsfw.pcst_fast([], [1.0, 2.0], [], -1, 1, "gw", True)


@pytest.mark.parametrize("level", [1, 2])
def test_verbose_calls_raise_the_errors_of_quiet_ones(level):
    # the progress line's len(prizes), len(costs) (graph.n, graph.m) ran first, so with
    # verbosity_level >= 1 a scalar or None raised "object of type 'float' has no len()"
    # (AttributeError for gsfw.pcsf's graph) in place of the ValueError naming it
    for prizes, costs, match in [(5.0, [1.0], "^prizes must be 1-D"),
                                 (None, [1.0], "^prizes is None"),
                                 ([1.0, 1.0], None, "^costs is None"),
                                 ([1.0, 1.0], 3.0, "^costs must be 1-D")]:
        with pytest.raises(ValueError, match=match):
            gsfw.pcst_fast([[0, 1]], prizes, costs, -1, 1, "gw", level)
    with pytest.raises(TypeError, match="^graph must be a gsfw.Graph, got NoneType"):
        gsfw.pcsf(None, [1.0, 1.0], verbosity_level=level)
    with pytest.raises(ValueError, match="^prizes must be 1-D"):
        gsfw.pcsf(gsfw.Graph(2, [[0, 1]]), 5.0, verbosity_level=level)
