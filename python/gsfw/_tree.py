"""gsfw.Tree: a rooted forest for the tree-sparse models ('tree', 'tree-connected')."""
from . import _gsfw


class Tree(_gsfw.Tree):
    """Rooted forest on nodes 0..n-1: Tree(parents) with parents[i] = -1 for a root.
    Properties n, num_roots, parents (int64). Tree.quadtree(h, w) is the tree of the
    coefficients of a 2-D wavelet transform (docs/trees.md)."""

    @classmethod
    def quadtree(cls, height, width):
        """The wavelet quadtree of a height x width image (height = width, a power of
        two), node r * width + c for the coefficient at row r, column c."""
        return cls._quadtree(int(height), int(width))

    def __repr__(self):
        return "gsfw.Tree(n=%d, roots=%d)" % (self.n, self.num_roots)

    # Trees are immutable: copies may share the object.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (type(self), (self.parents,))
