"""gsfw.Operator: every kind agrees with its dense matrix."""
import warnings

import numpy as np
import pytest

import gsfw


def check_products(op, M, tol):
    """op @ x and op.adjoint(r) against numpy's products. Whatever order either side sums
    in, a product of m terms is off by at most (m + 2) u |M| |x| entrywise (u = 2^-53, or
    2^-24 for float32 with the rounding of M and x), so by (m + 2) u ||M||_F ||x|| in norm:
    1e-14 covers m <= 11 in double (1.5e-15), 1e-6 in float32 (7.7e-7)."""
    rng = np.random.default_rng(1)
    n, d = M.shape
    assert op.shape == (n, d)
    x, r = rng.standard_normal(d), rng.standard_normal(n)
    scale = np.linalg.norm(M) * max(np.linalg.norm(x), np.linalg.norm(r))
    assert np.linalg.norm(op @ x - M @ x) <= tol * scale
    assert np.linalg.norm(op.adjoint(r) - M.T @ r) <= tol * scale


def test_dense_layouts_and_float32():
    M = np.random.default_rng(0).standard_normal((7, 11))
    check_products(gsfw.Operator.dense(M), M, 1e-14)
    check_products(gsfw.Operator.dense(np.asfortranarray(M), copy=False), M, 1e-14)
    check_products(gsfw.Operator.dense(M[:, ::2]), M[:, ::2], 1e-14)  # strided: converted
    check_products(gsfw.Operator.dense(M.astype(np.float32)), M.astype(np.float32), 1e-14)
    f32 = gsfw.Operator.dense(M, float32=True)
    assert f32.name == "dense-f32"
    check_products(f32, M, 1e-6)


def test_csr_matches_scipy():
    sp = pytest.importorskip("scipy.sparse")
    S = sp.random(9, 13, density=0.3, random_state=2, format="csr")
    op = gsfw.Operator.csr(S)
    assert op.name == "csr"
    check_products(op, S.toarray(), 1e-14)


def test_transforms_have_orthonormal_rows():
    for op in (gsfw.Operator.dct(32, 9, seed=3), gsfw.Operator.dct2(4, 8, 9, seed=3),
               gsfw.Operator.hadamard(32, 9, seed=3)):
        M = op.toarray()
        assert np.abs(M @ M.T - np.eye(9)).max() < 1e-12, op.name
        assert op.norm2() == pytest.approx(1.0)
        check_products(op, M, 1e-13)


def test_implicit_gaussian_and_sensing():
    op = gsfw.Operator.implicit_gaussian(40, 60, seed=5)
    M = op.toarray()
    check_products(op, M, 1e-13)
    assert np.array_equal(M, gsfw.Operator.implicit_gaussian(40, 60, seed=5).toarray())
    assert 0.8 < M.std() * np.sqrt(40) < 1.2
    assert gsfw.Operator.sensing("dct", 10, 4, 8).shape == (10, 32)


def test_transform_threads_bit_identical():
    """threads=2 gives each transform a worker thread; the products are the same bits."""
    rng = np.random.default_rng(3)
    for make in (lambda t: gsfw.Operator.dct2(129, 131, 4000, seed=2, threads=t),
                 lambda t: gsfw.Operator.hadamard(1 << 15, 5000, seed=2, threads=t),
                 lambda t: gsfw.Operator.sensing("dct-signs", 4000, 128, 160, seed=2,
                                                 threads=t),
                 lambda t: gsfw.Operator.implicit_gaussian(31, 20000, seed=2, threads=t)):
        one, two = make(1), make(2)
        x = rng.standard_normal(one.shape[1])
        r = rng.standard_normal(one.shape[0])
        assert np.array_equal(one.apply(x), two.apply(x))
        assert np.array_equal(one.adjoint(r), two.adjoint(r))
    with pytest.raises(ValueError, match="threads"):
        gsfw.Operator.dct2(8, 8, 4, threads=0)
    with pytest.raises(ValueError, match="threads"):
        gsfw.Operator.sensing("dct", 10, 4, 8, threads=65)
    # seeds are 64-bit here (the registry's seed parameter of gsfw recover stops at 2^31 - 1)
    big = gsfw.Operator.sensing("dct", 10, 4, 8, seed=2**40, threads=2)
    assert not np.array_equal(big.toarray(), gsfw.Operator.sensing("dct", 10, 4, 8).toarray())


def test_operator_errors():
    with pytest.raises(ValueError, match="power of two"):
        gsfw.Operator.hadamard(15, 4)
    with pytest.raises(ValueError, match="x has 3 entries, expected 4"):
        gsfw.Operator.dense(np.ones((2, 4))).apply(np.ones(3))
    with pytest.raises(ValueError, match="2-D"):
        gsfw.Operator.dense(np.ones(3))
    with pytest.raises(ValueError):
        gsfw.Operator.sensing("fourier", 10, 4, 8)


# The factories check their arguments as gsfw.solve does, by kind before range: a float,
# a string or a bool is not silently truncated, parsed or read as 1.
@pytest.mark.parametrize("make,match", [
    (lambda: gsfw.Operator.dct(16.9, 8), r"^d must be an integer, got float 16\.9$"),
    (lambda: gsfw.Operator.dct(16, 8.5), r"^n must be an integer, got float 8\.5$"),
    (lambda: gsfw.Operator.dct("16", 8), r"^d must be an integer, got str '16'$"),
    (lambda: gsfw.Operator.dct(16, True), r"^n must be an integer, got bool True$"),
    (lambda: gsfw.Operator.dct2(4, 4.0, 8), r"^width must be an integer"),
    (lambda: gsfw.Operator.hadamard(16, 4, threads=1.9), r"^threads must be an integer"),
    (lambda: gsfw.Operator.dct(16, 8, seed=1.5), r"^seed must be an integer, got float 1\.5$"),
    (lambda: gsfw.Operator.implicit_gaussian(4, 8, seed=True), r"^seed must be an integer"),
    (lambda: gsfw.Operator.implicit_gaussian(4, 8, sd="1"), r"^sd must be a number"),
    (lambda: gsfw.Operator.sensing(b"dct", 10, 4, 8), r"^kind must be a string"),
    (lambda: gsfw.Operator.sensing("dct", 10, 4, 8.0), r"^width must be an integer"),
])
def test_factories_check_kinds(make, match):
    with pytest.raises(TypeError, match=match):
        make()


# Sizes and threads beyond the int32 range: a ValueError naming the argument, as
# gsfw.Graph's (one helper), not the extension's OverflowError that names none.
@pytest.mark.parametrize("make,name", [
    (lambda: gsfw.Operator.dct(2**40, 4), "d"),
    (lambda: gsfw.Operator.dct(16, -2**31 - 1), "n"),
    (lambda: gsfw.Operator.dct2(2**31, 4, 8), "height"),
    (lambda: gsfw.Operator.hadamard(16, 4, threads=2**40), "threads"),
    (lambda: gsfw.Operator.implicit_gaussian(2**40, 8), "n"),
    (lambda: gsfw.Operator.implicit_gaussian(4, 8, threads=np.int64(2**40)), "threads"),
    (lambda: gsfw.Operator.sensing("dct", 10, 4, 2**40), "width"),
])
def test_factories_name_sizes_beyond_int32(make, name):
    with pytest.raises(ValueError, match=r"^%s must be in the int32 range "
                       r"\(-2147483648\.\.2147483647\), got -?\d+$" % name):
        make()


def test_implicit_gaussian_without_rows_is_the_library_error_alone():
    # the default sd = 1/sqrt(n) is not computed for n <= 0: no numpy RuntimeWarning
    # (divide by zero, invalid value) before the library's ValueError
    for n in (0, -3):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(ValueError, match=r"at least 1 x 1, got %d x 8$" % n):
                gsfw.Operator.implicit_gaussian(n, 8)


def test_operator_seeds_do_not_wrap():
    for seed in (-1, 2**64, 2**64 + 7):
        with pytest.raises(ValueError, match=r"^seed must be between 0 and "
                           r"18446744073709551615, got %d$" % seed):
            gsfw.Operator.implicit_gaussian(4, 8, seed=seed)
    top = gsfw.Operator.implicit_gaussian(4, 8, seed=2**64 - 1).toarray()
    assert not np.array_equal(top, gsfw.Operator.implicit_gaussian(4, 8, seed=0).toarray())
    assert gsfw.Operator.dct(16, 8, seed=np.uint64(2**64 - 1)).shape == (8, 16)


def test_seed_range_documented_as_the_c_apis(root):
    # the factories check a seed's kind as gsfw.solve does, but take the C API's uint64_t
    # range, wider than gsfw.solve's seed: the docstring and docs/python.md say both
    big = 2**40
    assert gsfw.Operator.dct(16, 8, seed=big).shape == (8, 16)
    with pytest.raises(ValueError, match=r"^seed must be between 0 and 2147483647"):
        gsfw.solve(np.eye(4), np.ones(4), s=1, model="topk-approx", seed=big)
    doc = " ".join(gsfw.Operator.__doc__.split())
    assert "seeds in 0..2^64 - 1, its uint64_t seed" in doc, doc
    assert "wider than gsfw.solve's seed (0..2147483647)" in doc, doc
    with open("%s/docs/python.md" % root) as f:
        text = " ".join(f.read().split())
    assert ("`uint64_t` seed (beyond, `ValueError` rather than a wrapped seed), wider than "
            "`gsfw.solve`'s `seed` (0..2147483647" in text)


def test_csr_refuses_complex_entries_and_huge_sizes_by_name():
    # complex entries lost their imaginary parts (numpy's ComplexWarning only), where a
    # dense complex A raises ValueError; 2^31 columns raised an unnamed OverflowError
    sp = pytest.importorskip("scipy.sparse")
    M = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 2.0]]) + 1j)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=r"^matrix must be an array of real numbers"):
        gsfw.Operator.csr(M)
    with pytest.raises(ValueError, match=r"^A must be an array of real numbers"):
        gsfw.solve(M, rng.standard_normal(2), s=1, max_iter=2)
    with pytest.raises(ValueError, match=r"^d must be in the int32 range"):
        gsfw.Operator.csr(sp.csr_matrix((3, 2 ** 31)))
