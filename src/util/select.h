/* Linear-time selection of the entries of largest magnitude.
 *
 * Every DMO starts from "the k largest |z_i|" (top-s oracle, the seeds of the subgraph
 * oracle, App. C's S*), so this is written once, without sorting: introselect (median-of-3
 * quickselect, switching to median-of-medians pivots when the partitions stop shrinking),
 * O(n) expected and O(n) worst case, no allocation.
 *
 * Rank order. Index i ranks before j when |z_i| > |z_j|, or |z_i| == |z_j| and i < j.
 * This is a strict total order, so "the k best" is a unique set whatever pivots are
 * chosen: results are reproducible and ties (equal magnitudes, zeros, +-0) are broken
 * towards smaller indices. z must not contain NaN (the order is then undefined; the
 * routines stay memory-safe but the result is meaningless). The DMOs check this first.
 */
#ifndef GSFW_SELECT_H
#define GSFW_SELECT_H

/* 1 if index a ranks strictly before index b in the order above. */
static inline int gsfw_abs_before(const double *z, int a, int b)
{
    double za = z[a] < 0 ? -z[a] : z[a];
    double zb = z[b] < 0 ? -z[b] : z[b];
    return za > zb || (za == zb && a < b);
}

/* Rearrange idx[0..n) (distinct indices into z, any order) so that idx[0..k) hold the k
 * best-ranked of them and idx[k..n) the rest; 0 <= k <= n. The order inside each part
 * is unspecified but is a deterministic function of (z, the input order of idx). */
void gsfw_select_partition_abs(const double *z, int *idx, int n, int k);

/* The k indices of largest |z_i| among 0..d-1 (1 <= k <= d), written to out[0..k) in
 * unspecified but deterministic order (a function of z only). idx_work: d ints of
 * scratch; out may be idx_work itself (the result is then its first k entries). */
void gsfw_select_top_abs(const double *z, int d, int k, int *idx_work, int *out);

/* The k indices of smallest |z_i| (the complement of the top d-k), same conventions. */
void gsfw_select_bottom_abs(const double *z, int d, int k, int *idx_work, int *out);

/* The k-th largest |z_i| (k is clamped to 1..n; 0 when n or k is 0) and the sum of the
 * k largest |z_i| (squares: z_i^2). Only values are needed, so the selection runs on a
 * copy of the magnitudes (work: n doubles, not overlapping z; an 8 KB histogram on the
 * stack), several times faster than ranking indices. The sum is canonical: the entries
 * above the k-th largest value t are added in index order, then t (t^2) for each of the
 * remaining places, so its bits are a function of z and k alone. */
double gsfw_select_kth_abs(const double *z, int n, int k, double *work);
double gsfw_select_top_abs_sum(const double *z, int n, int k, int squares, double *work);

/* Sort idx[0..n) into rank order (largest |z| first). Insertion sort: for short lists
 * (reporting, tests); O(n^2). */
void gsfw_sort_abs_small(const double *z, int *idx, int n);

/* Sort a[0..n) ascending in place: heapsort, O(n log n) worst case, no allocation (glibc's
 * qsort allocates a buffer for arrays above 1 KB, which a projection must not do). */
void gsfw_sort_ints(int *a, int n);

#endif
