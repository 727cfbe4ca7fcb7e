"""gsfw.Operator: the library's linear operators A : R^d -> R^n."""
import math

import numpy as np

from . import _gsfw
from ._checks import int32, integral, real, text
from ._registry import fill_doc

SEED_MAX = 2 ** 64 - 1


def _seed(seed):
    """seed as the operators take it: its kind checked as gsfw.solve's seed (TypeError
    for bool, float or str), its range that of the C API's uint64_t seed, 0..2^64 - 1
    (wider than gsfw.solve's 0..2147483647): a ValueError beyond, where it would wrap
    (-1 and 2^64 - 1 gave the same matrix)."""
    seed = integral("seed", seed)
    if not 0 <= seed <= SEED_MAX:
        raise ValueError("seed must be between 0 and %d, got %d" % (SEED_MAX, seed))
    return seed


class Operator(_gsfw.Operator):
    """A linear operator A : R^d -> R^n of the library, for gsfw.solve(A, y, ...): dense
    (float64 or float32), sparse (CSR), n rows of the orthonormal DCT (1-D, 2-D) or
    Walsh-Hadamard transform, a Gaussian matrix generated on demand, or a sensing matrix
    of compressive-sensing recovery. Build one with the class methods below.

    Properties shape (n, d) and name; apply(x) = A x (also A @ x), adjoint(r) = A^T r,
    norm2() (an upper estimate of ||A||_2^2, or None), toarray(). Products run with the
    GIL held: an operator keeps scratch space and serves one thread (and one solve) at a
    time. Sizes, threads and seeds must be integers: another kind (8.5, '8', True) raises
    TypeError naming the argument, as gsfw.solve's arguments do. The ranges are the C
    API's: sizes and threads in the int32 range (ValueError naming the argument beyond;
    the library checks the rest), seeds in 0..2^64 - 1, its uint64_t seed (ValueError
    beyond), wider than gsfw.solve's seed (0..2147483647)."""

    @classmethod
    def dense(cls, A, copy=True, float32=False):
        """Dense matrix. copy=False uses a float64 C- or Fortran-ordered A in place (the
        operator keeps a reference; do not modify A while it lives); float32=True stores
        a float32 copy (half the memory, products to about 1e-6 relative)."""
        return cls._dense(A, copy=bool(copy), float32=bool(float32))

    @classmethod
    def csr(cls, matrix):
        """A scipy.sparse matrix (any format; duplicates summed) of real numbers."""
        return cls._from_sparse(matrix, "matrix")

    @classmethod
    def _from_sparse(cls, matrix, what):
        """csr(matrix), its errors naming the argument what (gsfw.solve's A)."""
        import scipy.sparse as sp
        coo = sp.coo_matrix(matrix)
        n, d = int32("n", coo.shape[0]), int32("d", coo.shape[1])
        if not np.can_cast(coo.dtype, np.float64, casting="safe"):
            # as a dense A of that dtype (not numpy's ComplexWarning and a lost imaginary part)
            raise ValueError("%s must be an array of real numbers (its dtype is %s)"
                             % (what, coo.dtype))
        return cls._csr(n, d, coo.row.astype(np.intc), coo.col.astype(np.intc),
                        np.asarray(coo.data, dtype=np.float64))

    @classmethod
    def dct(cls, d, n, seed=0):
        """n rows (chosen by seed) of the orthonormal DCT-II of length d."""
        return cls._dct(int32("d", d), int32("n", n), _seed(seed))

    @classmethod
    def dct2(cls, height, width, n, seed=0, threads=1):
        """n rows of the 2-D orthonormal DCT-II of a row-major height x width image.
        threads=2 computes half of every transform on a second thread (from 16384
        pixels on); the products are bit-identical for every thread count."""
        return cls._dct2(int32("height", height), int32("width", width),
                         int32("n", n), _seed(seed), int32("threads", threads))

    @classmethod
    def hadamard(cls, d, n, seed=0, threads=1):
        """n rows of the orthonormal Walsh-Hadamard matrix (d a power of two); threads
        as for dct2."""
        return cls._hadamard(int32("d", d), int32("n", n), _seed(seed),
                             int32("threads", threads))

    @classmethod
    def implicit_gaussian(cls, n, d, seed=0, sd=None, threads=1):
        """An n x d Gaussian matrix with entries sd * N(0, 1) (default sd = 1/sqrt(n))
        generated on demand, never stored. threads=2 regenerates half of the entries of
        each product on a second thread (from d = 16384 on); the products are
        bit-identical for every thread count."""
        n = int32("n", n)
        if sd is not None:
            sd = real("sd", sd)
        else:  # n <= 0 has no default (and no numpy warning): the library refuses the size
            sd = 1.0 / math.sqrt(n) if n > 0 else 1.0
        return cls._implicit_gaussian(n, int32("d", d), _seed(seed), sd,
                                      int32("threads", threads))

    @classmethod
    def sensing(cls, kind, n, height, width, seed=0, float32=False, threads=1):
        """The n x (height * width) sensing matrix of `gsfw recover` for an image, of
        one of the library's sensing kinds:
            {registry:sensing}
        float32=True stores an explicit matrix in single precision; threads=2 shares
        the transforms' work with a second thread (bit-identical products)."""
        return cls._sensing(text("kind", kind), int32("n", n), int32("height", height),
                            int32("width", width), _seed(seed), bool(float32),
                            int32("threads", threads))

    def __matmul__(self, x):
        return self.apply(x)

    def toarray(self):
        """The dense n x d matrix (d products with unit vectors; for small operators)."""
        n, d = self.shape
        out = np.empty((n, d))
        e = np.zeros(d)
        for j in range(d):
            e[j] = 1.0
            out[:, j] = self.apply(e)
            e[j] = 0.0
        return out

    def __repr__(self):
        return "gsfw.Operator(%r, shape=%s)" % (self.name, self.shape)


Operator.sensing.__func__.__doc__ = fill_doc(Operator.sensing.__func__.__doc__)
