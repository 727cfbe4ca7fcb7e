/* Radix sort of (key, id) pairs (sort_keys.h). */
#include "util/sort_keys.h"

#include <string.h>

void gsfw_sort_keys(int k, uint64_t *key, int *id, uint64_t *key_tmp, int *id_tmp)
{
    if (k < 2) return;
    /* all eight histograms in one pass over the keys */
    int count[8][256];
    memset(count, 0, sizeof count);
    for (int i = 0; i < k; i++) {
        const uint64_t u = key[i];
        for (int b = 0; b < 8; b++) count[b][(u >> (8 * b)) & 255]++;
    }
    uint64_t *src_k = key, *dst_k = key_tmp;
    int *src_i = id, *dst_i = id_tmp;
    for (int b = 0; b < 8; b++) {
        int *c = count[b];
        if (c[(src_k[0] >> (8 * b)) & 255] == k) continue; /* one byte value: order kept */
        int start = 0;
        for (int v = 0; v < 256; v++) {
            const int here = c[v];
            c[v] = start;
            start += here;
        }
        for (int i = 0; i < k; i++) {
            const int at = c[(src_k[i] >> (8 * b)) & 255]++;
            dst_k[at] = src_k[i];
            dst_i[at] = src_i[i];
        }
        uint64_t *tk = src_k;
        src_k = dst_k;
        dst_k = tk;
        int *ti = src_i;
        src_i = dst_i;
        dst_i = ti;
    }
    if (src_k != key) {
        memcpy(key, src_k, (size_t)k * sizeof *key);
        memcpy(id, src_i, (size_t)k * sizeof *id);
    }
}
