"""gsfw.Tree: a rooted forest for the tree-sparse models."""
from . import _gsfw
from ._checks import int32
from ._registry import fill_doc


class Tree(_gsfw.Tree):
    """Rooted forest on nodes 0..n-1, for the models of gsfw.solve and gsfw.dmo that need
    a tree, whose oracles are exact (dynamic programming, O(n s)):
        {registry:models:tree}

    Tree(parents) with parents[i] = -1 for a root (cycles and out-of-range parents are
    refused). Properties n, num_roots, parents (int64). Tree.quadtree(h, w) is the tree
    of the coefficients of a 2-D wavelet transform of an h x w image, where large
    coefficients lie along root-to-leaf paths."""

    @classmethod
    def quadtree(cls, height, width):
        """The wavelet quadtree of a height x width image (height = width, a power of
        two), node r * width + c for the coefficient at row r, column c. The sizes are
        integers, checked as Graph.grid's (4.5, '8' or True raise TypeError)."""
        return cls._quadtree(int32("height", height), int32("width", width))

    def __repr__(self):
        return "gsfw.Tree(n=%d, roots=%d)" % (self.n, self.num_roots)

    # Trees are immutable: copies may share the object.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (type(self), (self.parents,))


Tree.__doc__ = fill_doc(Tree.__doc__)
