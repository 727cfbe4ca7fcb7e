/* Stable sort of (key, id) pairs by unsigned 64-bit key: least-significant-digit radix
 * sort, eight passes of one byte, a pass skipped when every key has the same byte there.
 * O(k) time, no allocation (the caller gives the scratch), and stable: pairs with equal
 * keys keep their input order, so pairs listed by increasing id come out ordered by
 * (key, id). The bits of a double >= +0 order as the double does. */
#ifndef GSFW_UTIL_SORT_KEYS_H
#define GSFW_UTIL_SORT_KEYS_H

#include <stdint.h>

/* Sorts key[0..k) with id[0..k) alongside; key_tmp and id_tmp hold k each. */
void gsfw_sort_keys(int k, uint64_t *key, int *id, uint64_t *key_tmp, int *id_tmp);

#endif
