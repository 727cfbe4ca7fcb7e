"""Tree-sparse models from Python: gsfw.Tree, dmo and solve with model='tree'."""
import itertools
import pickle

import numpy as np
import pytest

import gsfw


def subtree_best(parents, z, s):
    """Brute force: the rooted subtree (closed under parent, containing a root) of at most
    s nodes maximising sum z_i^2."""
    n = len(parents)
    best, best_set = -1.0, None
    for k in range(1, s + 1):
        for S in itertools.combinations(range(n), k):
            Sset = set(S)
            if all(parents[i] == -1 or parents[i] in Sset for i in S) and \
                    sum(parents[i] == -1 for i in S) == 1:
                v = float(np.sum(z[list(S)] ** 2))
                if v > best:
                    best, best_set = v, sorted(S)
    return best, best_set


def test_tree_properties_and_errors():
    t = gsfw.Tree([-1, 0, 0, 1, 1, 2])
    assert (t.n, t.num_roots) == (6, 1)
    assert t.parents.tolist() == [-1, 0, 0, 1, 1, 2]
    assert pickle.loads(pickle.dumps(t)).parents.tolist() == t.parents.tolist()
    q = gsfw.Tree.quadtree(8, 8)
    assert q.n == 64 and q.parents[0] == -1 and q.parents[9] == 0  # (1,1) -> (0,0)
    with pytest.raises(ValueError, match="cycle|parent"):
        gsfw.Tree([1, 0])
    with pytest.raises(ValueError, match="power of two"):
        gsfw.Tree.quadtree(6, 6)


def test_tree_parent_ids_are_range_checked_before_narrowing():
    # a cast to int would wrap 2^32 to node 0 and 2^32 - 1 to -1 (a root)
    for bad in (2**32, 2**32 - 1, 2**31, -2):
        with pytest.raises(ValueError, match=r"parents\[1\] = %d is out of range" % bad):
            gsfw.Tree(np.array([-1, bad], dtype=np.int64))
    with pytest.raises(ValueError, match=r"parents\[1\] = 4294967296 is out of range"):
        gsfw.Tree(np.array([1, 2**32], dtype=np.uint64))
    assert gsfw.Tree(np.array([-1, 0, 1], dtype=np.int32)).parents.tolist() == [-1, 0, 1]
    assert gsfw.Tree(np.array([-1, 0, 1], dtype=np.int64)).parents.tolist() == [-1, 0, 1]


def test_tree_dmo_matches_brute_force():
    parents = [-1, 0, 0, 1, 1, 2, 2, 3, 5]
    t = gsfw.Tree(parents)
    rng = np.random.default_rng(4)
    for _ in range(20):
        z = rng.standard_normal(9)
        for s in (1, 3, 5):
            got = gsfw.dmo(z, "tree", s, tree=t)
            best, _ = subtree_best(parents, z, s)
            assert float(np.sum(z[got] ** 2)) == pytest.approx(best, rel=1e-12)
    with pytest.raises(ValueError, match="needs a tree"):
        gsfw.dmo(np.ones(9), "tree", 3)
    with pytest.raises(ValueError, match="z has 8 entries, expected 9"):
        gsfw.dmo(np.ones(8), "tree", 3, tree=t)


def test_solve_with_tree_model():
    t = gsfw.Tree.quadtree(8, 8)
    x = np.zeros(64)
    x[[0, 1, 2, 9]] = [2.0, 1.0, -1.0, 0.5]  # a rooted subtree
    rng = np.random.default_rng(5)
    A = rng.standard_normal((30, 64))
    res = gsfw.solve(A, A @ x, model="tree", s=4, tree=t, C=3.0, method="fw", step="line",
                     max_iter=300, polish=True)
    assert np.linalg.norm(res.x - x) < 1e-8
    with pytest.raises(ValueError, match="tree has 64 nodes"):
        gsfw.solve(A[:, :60], A[:, :60] @ x[:60], model="tree", s=4, tree=t)
    est = gsfw.GraphSparseRegression(s=4, tree=t, C=3.0, method="fw", step="line").fit(A, A @ x)
    assert est.result_.info["oracle_calls"] > 0 and np.linalg.norm(est.coef_ - x) < 1e-8


@pytest.mark.parametrize("height,width,exc,match", [
    (4.5, 4.5, TypeError, r"^height must be an integer, got float 4\.5$"),
    (8, 8.0, TypeError, r"^width must be an integer, got float 8\.0$"),
    ("8", 8, TypeError, r"^height must be an integer, got str '8'$"),
    (True, True, TypeError, r"^height must be an integer, got bool True$"),
    (2 ** 40, 2 ** 40, ValueError, r"^height must be in the int32 range"),
])
def test_quadtree_sizes_are_integers(height, width, exc, match):
    # as Graph.grid's: 4.5 is not read as 4 (a 4 x 4 quadtree), '8' not parsed, True not 1
    with pytest.raises(exc, match=match):
        gsfw.Tree.quadtree(height, width)
    assert gsfw.Tree.quadtree(np.int64(4), np.int32(4)).n == 16


@pytest.mark.parametrize("parents,match", [
    (None, r"^parents must be a 1-D array of parent ids .* got an array of shape \(\)$"),
    (5, r"^parents must be a 1-D array of parent ids .* got an array of shape \(\)$"),
    ([[-1, 0]], r"^parents must be a 1-D array of parent ids .* shape \(1, 2\)$"),
])
def test_tree_parents_of_the_wrong_shape_are_named(parents, match):
    # not numpy's "object of too small depth for desired array", which names nothing
    with pytest.raises(ValueError, match=match):
        gsfw.Tree(parents)
