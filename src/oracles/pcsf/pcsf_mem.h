/* Memory helpers of the PCSF workspace (internal). */
#ifndef GSFW_PCSF_MEM_H
#define GSFW_PCSF_MEM_H

#include <stddef.h>

/* Allocation for large randomly accessed arrays: 2 MB aligned and advised for
 * transparent huge pages on Linux (TLB misses otherwise dominate on large instances).
 * Released with free(). */
void *gsfw_pcsf_big_alloc(size_t count, size_t size);

/* Map the pages of [begin, begin + bytes) in one system call (Linux: MADV_POPULATE_WRITE;
 * elsewhere a no-op). Contents are unchanged. */
void gsfw_pcsf_populate(void *begin, size_t bytes);

#endif
