/* Rooted forests from parent arrays, and the quadtree of 2-D wavelet coefficients. The
 * children lists, a parents-first order and the subtree sizes are computed once here so
 * that the tree DMOs only read them. */
#include "graph/tree_internal.h"

#include <string.h>

void gsfw_tree_free(gsfw_tree *tree)
{
    if (!tree) return;
    free(tree->parent);
    free(tree->child_ptr);
    free(tree->child);
    free(tree->roots);
    free(tree->order);
    free(tree->size);
    free(tree);
}

int gsfw_tree_num_nodes(const gsfw_tree *tree) { return tree ? tree->n : 0; }

const int *gsfw_tree_parents(const gsfw_tree *tree) { return tree ? tree->parent : NULL; }

int gsfw_tree_num_roots(const gsfw_tree *tree) { return tree ? tree->num_roots : 0; }

/* Range and self-parent checks, then a walk up from every node: state 1 marks the nodes
 * of the current walk, 2 the nodes known to reach a root; meeting a 1 closes a cycle. */
static gsfw_error check_parents(int n, const int *parent, unsigned char *state, gsfw_err *err)
{
    for (int i = 0; i < n; i++) {
        int p = parent[i];
        if (p == i)
            return gsfw_fail(err, GSFW_ERR_GRAPH, "tree: node %d is its own parent", i);
        if (p < -1 || p >= n)
            return gsfw_fail(err, GSFW_ERR_GRAPH,
                             "tree: node %d has parent %d, outside 0..%d (-1 marks a root)", i,
                             p, n - 1);
    }
    for (int i = 0; i < n; i++) {
        int v = i;
        while (v >= 0 && state[v] == 0) {
            state[v] = 1;
            v = parent[v];
        }
        if (v >= 0 && state[v] == 1)
            return gsfw_fail(err, GSFW_ERR_GRAPH,
                             "tree: the parent array has a cycle through node %d (following "
                             "parents from node %d never reaches a root)", v, i);
        for (v = i; v >= 0 && state[v] == 1; v = parent[v]) state[v] = 2;
    }
    return GSFW_OK;
}

gsfw_error gsfw_tree_from_parents(int n, const int *parent, gsfw_tree **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "tree: output pointer is NULL");
    *out = NULL;
    if (n < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "tree: n = %d, a tree needs >= 1 node", n);
    if (!parent) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "tree: the parent array is NULL");
    unsigned char *state = gsfw_calloc_array((size_t)n, 1);
    if (!state) return gsfw_fail(err, GSFW_ERR_NOMEM, "tree: out of memory for %d nodes", n);
    gsfw_error rc = check_parents(n, parent, state, err);
    free(state);
    if (rc) return rc;

    gsfw_tree *t = calloc(1, sizeof *t);
    if (!t) return gsfw_fail(err, GSFW_ERR_NOMEM, "tree: out of memory for %d nodes", n);
    t->n = n;
    for (int i = 0; i < n; i++) t->num_roots += parent[i] < 0;
    t->parent = gsfw_malloc_array((size_t)n, sizeof(int));
    t->child_ptr = gsfw_calloc_array((size_t)n + 1, sizeof(int));
    t->child = gsfw_malloc_array((size_t)(n - t->num_roots) + 1, sizeof(int));
    t->roots = gsfw_malloc_array((size_t)t->num_roots, sizeof(int));
    t->order = gsfw_malloc_array((size_t)n, sizeof(int));
    t->size = gsfw_malloc_array((size_t)n, sizeof(int));
    if (!t->parent || !t->child_ptr || !t->child || !t->roots || !t->order || !t->size) {
        gsfw_tree_free(t);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "tree: out of memory for %d nodes", n);
    }
    memcpy(t->parent, parent, (size_t)n * sizeof(int));

    /* Children in CSR by counting; ids come in increasing order within each list. */
    for (int i = 0; i < n; i++)
        if (parent[i] >= 0) t->child_ptr[parent[i] + 1]++;
    for (int v = 0; v < n; v++) t->child_ptr[v + 1] += t->child_ptr[v];
    int *fill = t->size; /* borrowed as the fill cursor, rewritten below */
    for (int v = 0; v < n; v++) fill[v] = t->child_ptr[v];
    int r = 0;
    for (int i = 0; i < n; i++) {
        if (parent[i] >= 0)
            t->child[fill[parent[i]]++] = i;
        else
            t->roots[r++] = i;
    }

    /* Breadth-first order from the roots: every parent precedes its children. */
    int head = 0, tail = 0;
    for (r = 0; r < t->num_roots; r++) t->order[tail++] = t->roots[r];
    while (head < tail) {
        int v = t->order[head++];
        for (int k = t->child_ptr[v]; k < t->child_ptr[v + 1]; k++) t->order[tail++] = t->child[k];
    }
    for (int v = 0; v < n; v++) t->size[v] = 1;
    for (int k = n - 1; k >= 0; k--) {
        int v = t->order[k];
        if (parent[v] >= 0) t->size[parent[v]] += t->size[v];
    }
    *out = t;
    return GSFW_OK;
}

gsfw_error gsfw_tree_quadtree(int height, int width, gsfw_tree **out, gsfw_err *err)
{
    if (!out) return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "quadtree: output pointer is NULL");
    *out = NULL;
    if (height != width)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "quadtree: %dx%d is not square; the 2-D wavelet transform needs a "
                         "2^k x 2^k image", height, width);
    if (height < 1 || height > 32768 || (height & (height - 1)) != 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG,
                         "quadtree: side %d is not a power of two in 1..32768; the 2-D "
                         "wavelet transform needs a 2^k x 2^k image", height);
    int side = height, n = side * side;
    int *parent = gsfw_malloc_array((size_t)n, sizeof(int));
    if (!parent) return gsfw_fail(err, GSFW_ERR_NOMEM, "quadtree: out of memory for %d nodes", n);
    /* In GSL's non-standard layout the band of level l occupies the 2^l x 2^l blocks next
     * to the coarser square [0, 2^l)^2, so band-local (i, j) -> (2i.., 2j..) is the global
     * (r, c) -> (2r.., 2c..); the level-0 details (0,1), (1,0), (1,1) map to the root. */
    for (int r = 0; r < side; r++)
        for (int c = 0; c < side; c++) parent[r * side + c] = (r / 2) * side + c / 2;
    parent[0] = -1;
    gsfw_error rc = gsfw_tree_from_parents(n, parent, out, err);
    free(parent);
    return rc;
}
