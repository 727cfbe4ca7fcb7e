/* Tree-sparse approximation of an image in an orthonormal wavelet basis.
 *
 * A 64 x 64 image (a bright disc on a smooth ramp) is analysed with the D4 wavelet
 * (theta = Psi^T x), then approximated with s coefficients in two ways: the s largest
 * (top-s, the best s-term approximation) and the best rooted subtree of the wavelet
 * quadtree (the exact tree DMO). Because Psi is orthonormal, the approximation error is
 * ||theta - theta_S||, so top-s is never worse; the tree support costs a little error and
 * in exchange is closed under "parent of", the structure tree-sparse recovery uses.
 *
 * Build after `make install`:
 *   cc tree_wavelet.c $(pkg-config --cflags --libs gsfw) -lm -o tree_wavelet
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gsfw.h"

enum { SIDE = 64, N = SIDE * SIDE, S = 300 };

/* ||x - Psi theta_S|| / ||x|| for the support S. */
static double relative_error(gsfw_operator *psi, const double *x, const double *theta,
                             const int *support, int size, double *theta_s, double *x_s)
{
    for (int i = 0; i < N; i++) theta_s[i] = 0.0;
    for (int k = 0; k < size; k++) theta_s[support[k]] = theta[support[k]];
    if (psi->apply(psi->ctx, theta_s, x_s)) return NAN;
    double num = 0.0, den = 0.0;
    for (int i = 0; i < N; i++) {
        num += (x[i] - x_s[i]) * (x[i] - x_s[i]);
        den += x[i] * x[i];
    }
    return sqrt(num / den);
}

int main(void)
{
    gsfw_err err;
    gsfw_operator *psi = NULL;
    gsfw_tree *tree = NULL;
    gsfw_dmo *topk = NULL, *rooted = NULL;
    if (gsfw_operator_wavelet2d(SIDE, "db4", &psi, &err) ||
        gsfw_tree_quadtree(SIDE, SIDE, &tree, &err) || gsfw_dmo_topk(N, S, &topk, &err) ||
        gsfw_dmo_tree_rooted(tree, S, &rooted, &err)) {
        fprintf(stderr, "tree_wavelet: %s\n", err.message);
        return 1;
    }
    static double x[N], theta[N], theta_s[N], x_s[N];
    static int s_top[S], s_tree[S];
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++) {
            double dr = r - 30.5, dc = c - 25.5;
            x[r * SIDE + c] = 0.3 + 0.004 * (r + c) + (dr * dr + dc * dc < 15.0 * 15.0 ? 0.6 : 0.0);
        }
    int n_top = 0, n_tree = 0;
    if (psi->adjoint(psi->ctx, x, theta) || topk->select(topk->ctx, theta, s_top, &n_top, NULL) ||
        rooted->select(rooted->ctx, theta, s_tree, &n_tree, NULL)) {
        fprintf(stderr, "tree_wavelet: a callback failed\n");
        return 1;
    }
    /* how many top-s coefficients lack their parent in the quadtree */
    const int *parent = gsfw_tree_parents(tree);
    static unsigned char in_top[N];
    for (int k = 0; k < n_top; k++) in_top[s_top[k]] = 1;
    int orphans = 0;
    for (int k = 0; k < n_top; k++) orphans += parent[s_top[k]] >= 0 && !in_top[parent[s_top[k]]];

    double e_top = relative_error(psi, x, theta, s_top, n_top, theta_s, x_s);
    double e_tree = relative_error(psi, x, theta, s_tree, n_tree, theta_s, x_s);
    printf("%dx%d image, D4 wavelet, s = %d coefficients of %d\n", SIDE, SIDE, S, N);
    printf("top-s:       relative error %.4f, %d coefficients without their parent\n", e_top,
           orphans);
    printf("rooted tree: relative error %.4f, a rooted subtree: %s\n", e_tree,
           rooted->contains(rooted->ctx, s_tree, n_tree) ? "yes" : "no");

    /* the properties this example relies on */
    int ok = n_top == S && n_tree == S && e_top <= e_tree + 1e-12 &&
             rooted->contains(rooted->ctx, s_tree, n_tree) == 1;
    gsfw_dmo_free(topk);
    gsfw_dmo_free(rooted);
    gsfw_tree_free(tree);
    gsfw_operator_free(psi);
    return ok ? 0 : 1;
}
