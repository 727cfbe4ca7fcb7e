"""Bad input raises the documented exception with a message naming the problem."""
import warnings

import numpy as np
import pytest

import gsfw

rng = np.random.default_rng(0)
A = rng.standard_normal((20, 30))
y = A @ np.r_[np.ones(3), np.zeros(27)]
GRID = gsfw.Graph.grid(5, 6)


@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(A=A[0], y=y), ValueError, "A must be 2-D"),
    (dict(A=A, y=y[:-1]), ValueError, "y has 19 entries, expected 20"),
    (dict(A=np.where(np.eye(20, 30) > 0, np.nan, A), y=y), ValueError, "NaN|finite"),
    (dict(A=A, y=y, s=31), ValueError, "s 31 exceeds the dimension d = 30"),
    (dict(A=A, y=y, s=0), ValueError, "s must be between 1 and"),
    (dict(A=A, y=y, g=4), ValueError, "g 4 exceeds s 3"),
    (dict(A=A, y=y, model="nope"), ValueError, "unknown model 'nope'"),
    (dict(A=A, y=y, method="nope"), ValueError, "unknown method 'nope'"),
    (dict(A=A, y=y, step="nope"), ValueError, "unknown step rule 'nope'"),
    (dict(A=A, y=y, model="head"), ValueError, "needs a graph"),
    (dict(A=A, y=y, model="head", graph=gsfw.Graph.grid(5, 5)), ValueError,
     "graph has 25 nodes"),
    (dict(A=A, y=y, graph="grid"), TypeError, "graph must be a gsfw.Graph"),
    (dict(A=A, y=y, C=0), ValueError, "C must be > 0"),
    (dict(A=A, y=y, L=-1), ValueError, "L must be > 0"),
    (dict(A=A, y=y, tol=-1), ValueError, "tol must be > 0"),
    (dict(A=A, y=y, max_iter=-1), ValueError, "max_iter must be between 0 and"),
    (dict(A=A, y=y, option="III"), ValueError, r"option must be I or II \(or 1 or 2\), got 'III'"),
    (dict(A=A, y=y, option=3), ValueError, r"option must be I or II \(or 1 or 2\), got 3"),
    (dict(A=A, y=y, L_rule="exact"), ValueError, "L_rule must be spectral or atom"),
    (dict(A=A, y=y, x0=np.zeros(29)), ValueError, "x0 has 29 entries, expected 30"),
    (dict(A=A, y=y, x0=np.r_[5.0, np.zeros(29)]), ValueError, "x0"),
    (dict(A=A, y=y, x_true=np.full(30, np.inf)), ValueError, "x_true\\[0\\] is inf"),
    (dict(A=A, y=y, callback=3), TypeError, "callback must be callable"),
    (dict(A=A, y=y, method="iht", polish=True), ValueError, "polish belongs to the Frank-Wolfe methods, not to iht"),
    (dict(A=A, y=y, method="iht", L_rule="atom"), ValueError, "L_rule atom is a rule of the Frank-Wolfe family"),
    # the whole message, to its end: a literal %g (or any other wrong value) fails
    (dict(A=A, y=y, model="topk-approx", delta=1.5), ValueError,
     r"delta must be in \(0, 1\], got 1\.5$"),
])
def test_solve_rejects(kwargs, exc, match):
    kwargs.setdefault("s", 3)
    with pytest.raises(exc, match=match):
        gsfw.solve(**kwargs)


@pytest.mark.parametrize("args,kwargs,exc,match", [
    ((3, [[0, 3]]), {}, ValueError, "3"),
    ((3, [[0, 1]], [-1.0]), {}, ValueError, "cost"),
    ((3, [[0, 1]], [1.0, 2.0]), {}, ValueError, "costs has 2 entries, expected 1"),
    ((3, [[0, 1, 2]]), {}, ValueError, "\\(m, 2\\)"),
    ((3, [[0.5, 1]]), {}, TypeError, "integer"),
    ((3, [[0, 2 ** 40]]), {}, ValueError, "out of range"),
    ((-1, []), {}, ValueError, "n must be >= 0"),
    ((3.0, [[0, 1]]), {}, TypeError, "^n must be an integer, got float 3.0$"),
    ((2 ** 40, [[0, 1]]), {}, ValueError,
     r"^n must be in the int32 range \(.*\), got 1099511627776$"),
    ((3, np.zeros((2, 3), dtype=int)), {}, ValueError,
     r"edges must be an \(m, 2\) array of node ids, got an array of shape \(2, 3\)$"),
])
def test_graph_rejects(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        gsfw.Graph(*args, **kwargs)


def test_grid_names_its_arguments():
    with pytest.raises(TypeError, match="^h must be an integer, got float 2.0$"):
        gsfw.Graph.grid(2.0, 5)
    with pytest.raises(TypeError, match="^w must be an integer, got str '5'$"):
        gsfw.Graph.grid(2, "5")
    with pytest.raises(ValueError, match=r"^w must be in the int32 range"):
        gsfw.Graph.grid(2, 2 ** 40)


def test_pcst_fast_rejects():
    e, p, c = [[0, 1]], [1.0, 1.0], [1.0]
    with pytest.raises(ValueError, match="unknown pruning 'best'"):
        gsfw.pcst_fast(e, p, c, -1, 1, "best")
    with pytest.raises(ValueError, match="costs has 0 entries, expected 1"):
        gsfw.pcst_fast(e, p, [], -1, 1, "gw")
    with pytest.raises(ValueError, match="prize"):
        gsfw.pcst_fast(e, [1.0, -1.0], c, -1, 1, "gw")
    with pytest.raises(ValueError, match="only one output cluster"):
        gsfw.pcst_fast(e, p, c, 0, 0, "gw")
    with pytest.raises(ValueError, match="root 5 is out of range"):
        gsfw.pcst_fast(e, p, c, 5, 1, "gw")
    with pytest.raises(ValueError, match="root -2 is out of range"):
        gsfw.pcst_fast(e, p, c, -2, 1, "gw")
    with pytest.raises(ValueError, match="prizes has 3 entries, expected 2"):
        gsfw.pcsf(gsfw.Graph(2, e), [1.0, 1.0, 1.0])
    E = np.array([[0, 1], [1, 2], [2, 0]])
    with pytest.raises(ValueError, match=r"got an array of shape \(6,\)$"):
        gsfw.pcst_fast(E.ravel(), [1.0] * 3, [1.0] * 3, -1, 1, "gw")
    with pytest.raises(ValueError, match=r"got an array of shape \(2, 3\)$"):
        gsfw.pcst_fast(E.T, [1.0] * 3, [1.0] * 3, -1, 1, "gw")


def test_dmo_rejects():
    z = np.arange(30.0)
    with pytest.raises(ValueError, match="z\\[2\\] is nan"):
        gsfw.dmo(np.r_[1.0, 2.0, np.nan], "topk", 1)
    with pytest.raises(ValueError, match="unknown model"):
        gsfw.dmo(z, "best", 3)
    with pytest.raises(ValueError, match="needs a graph"):
        gsfw.dmo(z, "head", 3)
    with pytest.raises(ValueError, match="z has 30 entries, expected 25"):
        gsfw.head(z, gsfw.Graph.grid(5, 5), 3)
    with pytest.raises(ValueError, match="l1"):
        gsfw.dmo(z, "l1", 2)
    with pytest.raises(ValueError, match="squared overflows"):
        gsfw.head(np.r_[1e200, np.zeros(29)], GRID, 3)
    with pytest.raises(TypeError):
        gsfw.head(z, "grid", 3)
    with pytest.raises(ValueError, match=r"delta must be in \(0, 1\], got 2$"):
        gsfw.dmo(z, "topk-approx", 3, delta=2.0)


def test_objective_rejects():
    with pytest.raises(ValueError, match="d must be >= 1"):
        gsfw.solve(gsfw.Objective(0, len, len), s=1)
    with pytest.raises(TypeError, match="callable"):
        gsfw.solve(gsfw.Objective(3, 1, 2), s=1)


# Bad data is the caller's ValueError naming the input, not a RuntimeError blaming the
# library's callbacks or numpy's cast error without the argument's name.
@pytest.mark.parametrize("method", ["accfw", "iht", "graph-iht", "gen-mp"])
@pytest.mark.filterwarnings("ignore::gsfw.UnusedArgumentWarning")  # shared arguments
def test_zero_matrix_is_named(method):
    with pytest.raises(ValueError, match="got 0: is the data matrix zero"):
        gsfw.solve(np.zeros_like(A), y, model="head", s=3, graph=GRID, method=method,
                   max_iter=5)


def test_overflowing_data_and_parameters_are_named():
    with pytest.raises(ValueError, match="could not estimate L .got -?nan"):
        gsfw.solve(A * 1e306, y, s=3, max_iter=5)
    with pytest.raises(ValueError, match=r"L = 4.94066e-324 is too small \(1/L overflows\)"):
        gsfw.solve(A, y, s=3, L=5e-324, max_iter=5)
    with pytest.raises(ValueError, match="objective value is -?nan at a point with max"):
        gsfw.solve(A, y, s=3, C=1e308, max_iter=5)


def test_uncastable_arrays_name_their_argument():
    with pytest.raises(ValueError, match=r"^A must be an array of real numbers"):
        gsfw.solve(A.astype(object), y, s=3, max_iter=5)
    with pytest.raises(ValueError, match=r"^A must be an array of real numbers"):
        gsfw.solve(A + 1j, y, s=3, max_iter=5)
    with pytest.raises(ValueError, match=r"^z must be an array of real numbers"):
        gsfw.dmo(y + 1j, "topk", 3)
    with pytest.raises(ValueError, match="^y must be an array of real numbers"):
        gsfw.solve(A, y + 1j, s=3)
    complex_gradient = gsfw.Objective(3, lambda x: 0.0, lambda x: x + 1j)
    with pytest.raises(ValueError, match="^the Objective's gradient must be an array of real"):
        gsfw.solve(complex_gradient, s=1)


def test_unsigned_edges_are_range_checked():
    g = gsfw.Graph(3, np.array([[0, 1], [1, 2]], dtype=np.uint64))
    assert g.m == 2
    with pytest.raises(ValueError, match=r"edges\[1, 1\] = 18446744073709551615 is out of range"):
        gsfw.Graph(3, np.array([[0, 1], [1, 2**64 - 1]], dtype=np.uint64))


def test_seed_does_not_wrap():
    for seed in (2**64, 2**32, -1):
        with pytest.raises(ValueError, match="seed must be between 0 and"):
            gsfw.solve(A, y, s=3, seed=seed, max_iter=5)


# An out-of-range integer is quoted exactly (not "4.29497e+09"), and one beyond a double
# (10**400) is a ValueError naming the argument and its range, not numpy's OverflowError.
@pytest.mark.parametrize("kwargs,match", [
    (dict(seed=2**32), r"seed must be between 0 and 2147483647, got 4294967296$"),
    (dict(seed=2**64), r"seed must be between 0 and 2147483647, got 18446744073709551616$"),
    (dict(seed=2**53 + 1), r"seed must be between 0 and 2147483647, got 9007199254740993$"),
    (dict(seed=np.uint64(2**64 - 1)),
     r"seed must be between 0 and 2147483647, got 18446744073709551615$"),
    (dict(seed=-1), r"seed must be between 0 and 2147483647, got -1$"),
    (dict(s=2**31), r"s must be between 1 and 2147483647, got 2147483648$"),
    (dict(seed=10**400),
     r"seed must be between 0 and 2147483647, got 10{19}\.\.\.0000 \(401 digits\)$"),
    (dict(max_iter=10**400),
     r"max_iter must be between 0 and 100000000, got 10{19}\.\.\.0000 \(401 digits\)$"),
    (dict(max_iter=-10**400),
     r"max_iter must be between 0 and 100000000, got -10{18}\.\.\.0000 \(401 digits\)$"),
    (dict(C=10**400), r"C: '10{19}\.\.\.0000 \(401 digits\)' is too large for a double$"),
])
def test_out_of_range_integers_are_quoted_exactly(kwargs, match):
    kwargs.setdefault("s", 3)
    with pytest.raises(ValueError, match=match):
        gsfw.solve(A, y, max_iter=kwargs.pop("max_iter", 5), **kwargs)


def test_complex_adjacency_is_refused():
    sp = pytest.importorskip("scipy.sparse")
    M = sp.coo_matrix((np.array([1 + 1j, 2.0]), (np.array([0, 1]), np.array([1, 2]))),
                      shape=(3, 3))
    with pytest.raises(ValueError, match="complex weights"):
        gsfw.Graph.from_scipy(M)
    real = sp.coo_matrix((np.array([1 + 0j, 2.0]), (np.array([0, 1]), np.array([1, 2]))),
                         shape=(3, 3))
    assert gsfw.Graph.from_scipy(real).m == 2


# None is Python's "not given", so 0 is a value: refused as the command line refuses
# --L 0, with the message of a negative value (0 had been read as "not given": L=0
# estimated L, delta=0 ran the exact oracle, time_limit=0 ran without a limit).
@pytest.mark.parametrize("kwargs,match", [
    (dict(L=0), r"^L must be > 0, got 0$"),
    (dict(L=0.0), r"^L must be > 0, got 0$"),
    (dict(L=np.float64(0)), r"^L must be > 0, got 0$"),
    (dict(tol=0), r"^tol must be > 0, got 0$"),
    (dict(tol_rel=0), r"^tol_rel must be in \(0, 1\), got 0$"),
    (dict(time_limit=0), r"^time_limit must be > 0, got 0$"),
    (dict(time_limit=np.int64(0)), r"^time_limit must be > 0, got 0$"),
    (dict(model="topk-approx", delta=0), r"^delta must be in \(0, 1\], got 0$"),
    (dict(option="II", delta=0.0), r"^delta must be in \(0, 1\], got 0$"),
])
def test_zero_is_range_checked(kwargs, match):
    with pytest.raises(ValueError, match=match):
        gsfw.solve(A, y, s=3, max_iter=5, **kwargs)


def test_zero_is_range_checked_by_the_estimators_and_dmo():
    pytest.importorskip("sklearn")
    with pytest.raises(ValueError, match=r"^L must be > 0, got 0$"):
        gsfw.GraphSparseRegression(s=3, L=0).fit(A, y)
    with pytest.raises(ValueError, match=r"^time_limit must be > 0, got 0$"):
        gsfw.GraphSparseClassifier(s=3, time_limit=0).fit(A, np.sign(y))
    with pytest.raises(ValueError, match=r"^delta must be in \(0, 1\], got 0$"):
        gsfw.dmo(np.arange(30.0), "topk-approx", 3, delta=0)


def test_near_miss_zero_is_automatic():
    # in its range: 0 is automatic, as not giving it (and as --near-miss 0)
    kwargs = dict(model="head", graph=GRID, s=3, max_iter=20)
    given = gsfw.solve(A, y, near_miss=0, **kwargs)
    assert np.array_equal(given.x_last, gsfw.solve(A, y, **kwargs).x_last)


def test_arguments_nothing_reads_warn_in_the_command_line_words():
    z = np.arange(30.0)
    tree = gsfw.Tree(np.r_[-1, np.zeros(29, dtype=int)])
    cases = [
        (lambda: gsfw.solve(A, y, s=3, seed=3, max_iter=5),
         "seed is ignored by model topk (it is deterministic)"),
        (lambda: gsfw.solve(A, y, s=3, model="topk", graph=GRID, max_iter=5),
         "graph is ignored by model topk"),
        (lambda: gsfw.dmo(z, "topk", 3, graph=GRID), "graph is ignored by model topk"),
        (lambda: gsfw.dmo(z, "head", 3, graph=GRID, tree=tree), "tree is ignored by model head"),
    ]
    for call, message in cases:
        with pytest.warns(gsfw.UnusedArgumentWarning) as record:
            call()
        assert [str(w.message) for w in record] == [message]
        assert record[0].filename == __file__  # the caller's line, not the package's
    assert issubclass(gsfw.UnusedArgumentWarning, UserWarning)
    # what every entry reads: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gsfw.solve(A, y, s=3, model="head", graph=GRID, max_iter=5)
        gsfw.dmo(z, "tree", 3, tree=tree)


def test_a_graph_and_a_tree_need_a_model():
    tree = gsfw.Tree(np.r_[-1, np.zeros(29, dtype=int)])
    message = "^a graph and a tree are given but no model: name one"
    with pytest.raises(ValueError, match=message):
        gsfw.solve(A, y, s=3, graph=GRID, tree=tree, max_iter=5)
    with pytest.raises(ValueError, match=message):
        gsfw.dmo(np.arange(30.0), s=3, graph=GRID, tree=tree)
    pytest.importorskip("sklearn")
    with pytest.raises(ValueError, match=message):
        gsfw.GraphSparseRegression(s=3, graph=GRID, tree=tree).fit(A, y)
    with pytest.warns(gsfw.UnusedArgumentWarning, match="^graph is ignored by model tree$"):
        res = gsfw.solve(A, y, s=3, model="tree", graph=GRID, tree=tree, max_iter=5)
    assert res.status == "max_iter"


@pytest.mark.parametrize("call,match", [
    # registry names went to the library as C strings, cut at the NUL: 'fw\0x' ran fw
    (lambda: gsfw.solve(A, y, s=3, method="fw\0x", max_iter=5), r"^method .*NUL"),
    (lambda: gsfw.solve(A, y, s=3, model="topk\0", max_iter=5), r"^model .*NUL"),
    (lambda: gsfw.solve(A, y, s=3, step="line\0", max_iter=5), r"^step .*NUL"),
    (lambda: gsfw.dmo(np.ones(30), "topk\0", 3), r"^model .*NUL"),
    # these said only "embedded null character"
    (lambda: gsfw.pcst_fast([[0, 1]], [1.0, 1.0], [1.0], -1, 1, "gw\0", 0), r"^pruning .*NUL"),
    (lambda: gsfw.pcsf(GRID, np.ones(30), pruning="gw\0"), r"^pruning .*NUL"),
    (lambda: gsfw.Operator.sensing("dct\0", 4, 4, 4), r"^kind .*NUL"),
])
def test_names_with_a_nul_character_are_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()
