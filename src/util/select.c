/* Introselect on an index array under the "larger |z| first, then smaller index" order.
 *
 * Why introselect: quickselect with a median-of-3 pivot is fast on real inputs, but a
 * crafted input can make it quadratic. After 2*log2(n)+2 partition rounds we switch to
 * median-of-medians pivots (groups of 5), which keep at least ~3/10 of the range on each
 * side, so the worst case is linear too. Because the order is strict and total (indices
 * break ties), duplicate magnitudes need no three-way partition and the selected set does
 * not depend on the pivots. No allocation; recursion depth O(log n).
 *
 * When only values are wanted (the k-th largest |z|, sums of the k largest), a radix
 * selection on the magnitudes' bits replaces it: at most six passes, no recursion, the
 * caller's work array and an 8 KB histogram on the stack. */
#include "util/select.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Ranges this short are finished by insertion sort. */
#define GSFW_SELECT_SMALL 16

static void swap_int(int *a, int i, int j)
{
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Sort a[lo..hi) into rank order. */
static void insertion_sort(const double *z, int *a, int lo, int hi)
{
    for (int i = lo + 1; i < hi; i++) {
        int x = a[i];
        int j = i - 1;
        while (j >= lo && gsfw_abs_before(z, x, a[j])) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

/* Position (one of i, j, k) holding the median of the three entries. */
static int median3(const double *z, const int *a, int i, int j, int k)
{
    int ij = gsfw_abs_before(z, a[i], a[j]);
    int jk = gsfw_abs_before(z, a[j], a[k]);
    if (ij == jk) return j; /* i < j < k or k < j < i in rank order */
    int ik = gsfw_abs_before(z, a[i], a[k]);
    if (ij) return ik ? k : i; /* j is last: the median is the later of i, k */
    return ik ? i : k;         /* j is first: the median is the earlier of i, k */
}

/* Lomuto partition of a[lo..hi) around the entry at position p: entries ranking before
 * the pivot move left of it. Returns the pivot's final position. */
static int partition(const double *z, int *a, int lo, int hi, int p)
{
    swap_int(a, p, hi - 1);
    int pivot = a[hi - 1];
    int store = lo;
    for (int i = lo; i < hi - 1; i++)
        if (gsfw_abs_before(z, a[i], pivot)) swap_int(a, i, store++);
    swap_int(a, store, hi - 1);
    return store;
}

static void select_rank(const double *z, int *a, int lo, int hi, int r);

/* Median-of-medians pivot for a[lo..hi): sort each group of 5, gather the group medians
 * at the front of the range, select their median recursively. Returns its position. */
static int mom_pivot(const double *z, int *a, int lo, int hi)
{
    int groups = 0;
    for (int g = lo; g < hi; g += 5) {
        int e = hi - g > 5 ? g + 5 : hi;
        insertion_sort(z, a, g, e);
        swap_int(a, lo + groups, g + (e - g - 1) / 2);
        groups++;
    }
    int mid = lo + (groups - 1) / 2;
    select_rank(z, a, lo, lo + groups, mid);
    return mid;
}

/* Rearrange a[lo..hi) so that position r (lo <= r < hi) holds the entry of that rank,
 * with better-ranked entries before it and worse ones after it. */
static void select_rank(const double *z, int *a, int lo, int hi, int r)
{
    int budget = 2;
    for (int n = hi - lo; n > 1; n >>= 1) budget += 2;
    while (hi - lo > GSFW_SELECT_SMALL) {
        int p;
        if (budget > 0) {
            budget--;
            p = median3(z, a, lo, lo + (hi - lo) / 2, hi - 1);
        } else {
            p = mom_pivot(z, a, lo, hi);
        }
        int q = partition(z, a, lo, hi, p);
        if (q == r) return;
        if (r < q)
            hi = q;
        else
            lo = q + 1;
    }
    insertion_sort(z, a, lo, hi);
}

void gsfw_select_partition_abs(const double *z, int *idx, int n, int k)
{
    if (k <= 0 || k >= n) return; /* nothing to separate */
    select_rank(z, idx, 0, n, k - 1);
}

void gsfw_select_top_abs(const double *z, int d, int k, int *idx_work, int *out)
{
    for (int i = 0; i < d; i++) idx_work[i] = i;
    gsfw_select_partition_abs(z, idx_work, d, k);
    if (out != idx_work) memcpy(out, idx_work, (size_t)k * sizeof(int));
}

void gsfw_select_bottom_abs(const double *z, int d, int k, int *idx_work, int *out)
{
    for (int i = 0; i < d; i++) idx_work[i] = i;
    gsfw_select_partition_abs(z, idx_work, d, d - k);
    /* memmove: out may be idx_work, and the two ranges then overlap when 2k > d. */
    memmove(out, idx_work + (d - k), (size_t)k * sizeof(int));
}

/* ---------------------------------------------------------- values only */

/* Sort a short range a[lo..hi) descending (insertion sort). */
static void sort_desc(double *a, int lo, int hi)
{
    for (int i = lo + 1; i < hi; i++) {
        double x = a[i];
        int j = i - 1;
        while (j >= lo && a[j] < x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

/* The bits of a magnitude: for doubles >= 0 their order is that of the values. */
static inline uint64_t abs_bits(double x)
{
    x = fabs(x);
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

#define RADIX_BITS 11
#define RADIX_SIZE (1 << RADIX_BITS)

/* Radix selection on the bits of |z|: a histogram of the top 11 bits finds the bucket
 * that holds the k-th largest, the entries of that bucket are gathered and the next 11
 * bits decide among them, and so on: at most six passes, each without a comparison
 * branch, and after the first pass (which copies the bits into work) only the bucket's
 * entries are read. */
double gsfw_select_kth_abs(const double *z, int n, int k, double *work)
{
    if (n <= 0 || k <= 0) return 0.0;
    if (k > n) k = n;
    const unsigned mask = RADIX_SIZE - 1;
    int count[RADIX_SIZE];
    uint64_t prefix = 0;
    int shift = 64 - RADIX_BITS, m = n, rank = k; /* rank among the candidates, 1-based */
    memset(count, 0, sizeof count);
    for (int i = 0; i < n; i++) {
        const uint64_t u = abs_bits(z[i]);
        memcpy(&work[i], &u, sizeof u);
        count[(u >> shift) & mask]++;
    }
    for (;;) {
        int bucket = RADIX_SIZE - 1;
        while (count[bucket] < rank) rank -= count[bucket--];
        prefix |= (uint64_t)bucket << shift;
        /* the candidates: the entries of that bucket (they share the prefix) */
        int kept = 0;
        for (int i = 0; i < m; i++) {
            uint64_t u;
            memcpy(&u, &work[i], sizeof u);
            memcpy(&work[kept], &u, sizeof u);
            kept += (int)(((u >> shift) & mask) == (unsigned)bucket);
        }
        m = kept;
        if (m == 1 || shift == 0) break;
        shift = shift > RADIX_BITS ? shift - RADIX_BITS : 0;
        if (m <= GSFW_SELECT_SMALL) {
            /* few left: the bits stored are the magnitudes themselves, sort them */
            sort_desc(work, 0, m);
            return work[rank - 1];
        }
        memset(count, 0, sizeof count);
        for (int i = 0; i < m; i++) {
            uint64_t u;
            memcpy(&u, &work[i], sizeof u);
            count[(u >> shift) & mask]++;
        }
    }
    /* one candidate left, or every bit decided (the candidates are equal) */
    double t;
    memcpy(&t, m == 1 ? (const void *)&work[0] : (const void *)&prefix, sizeof t);
    return t;
}

double gsfw_select_top_abs_sum(const double *z, int n, int k, int squares, double *work)
{
    if (k <= 0 || n <= 0) return 0.0;
    if (k > n) k = n;
    const double t = gsfw_select_kth_abs(z, n, k, work);
    double sum = 0.0;
    int above = 0;
    for (int i = 0; i < n; i++) {
        const double v = fabs(z[i]);
        if (v > t) {
            sum += squares ? v * v : v;
            above++;
        }
    }
    const double tail = squares ? t * t : t;
    for (int j = above; j < k; j++) sum += tail;
    return sum;
}

void gsfw_sort_abs_small(const double *z, int *idx, int n)
{
    insertion_sort(z, idx, 0, n);
}

static void sift_down_ints(int *a, int root, int n)
{
    const int v = a[root];
    for (int child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && a[child + 1] > a[child]) child++;
        if (a[child] <= v) break;
        a[root] = a[child];
    }
    a[root] = v;
}

void gsfw_sort_ints(int *a, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--) sift_down_ints(a, i, n);
    for (int end = n - 1; end > 0; end--) {
        int t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down_ints(a, 0, end);
    }
}
