/* The oracles' own counters (gsfw_dmo_stats, gsfw_dmo.counters), found by name and summed
 * into gsfw_info: a counter of one oracle (the PCSF runs of a head projection) is no field
 * of the generic structs. */
#include "solvers/run.h"

#include <string.h>

long gsfw_dmo_count(const gsfw_dmo *dmo, const gsfw_dmo_stats *stats, const char *name)
{
    for (int k = 0; dmo && stats && name && k < GSFW_DMO_COUNTERS; k++)
        if (dmo->counters[k] && !strcmp(dmo->counters[k], name)) return stats->count[k];
    return 0;
}

long gsfw_info_count(const gsfw_info *info, const char *name)
{
    for (int k = 0; info && name && k < GSFW_DMO_COUNTERS; k++)
        if (info->counter_names[k] && !strcmp(info->counter_names[k], name))
            return info->counters[k];
    return 0;
}

/* Add count to the counter called name: its slot, or the first free one (a baseline's
 * head and tail oracles share theirs); with more names than slots it is not counted. */
static void add_named(gsfw_info *info, const char *name, long count)
{
    int slot = 0;
    while (slot < GSFW_DMO_COUNTERS && info->counter_names[slot] &&
           strcmp(info->counter_names[slot], name))
        slot++;
    if (slot == GSFW_DMO_COUNTERS) return;
    info->counter_names[slot] = name;
    info->counters[slot] += count;
}

void gsfw_info_add_counts(gsfw_info *info, const gsfw_dmo *dmo, const gsfw_dmo_stats *stats)
{
    for (int k = 0; k < GSFW_DMO_COUNTERS; k++)
        if (dmo->counters[k]) add_named(info, dmo->counters[k], stats->count[k]);
}

void gsfw_info_add_info_counts(gsfw_info *total, const gsfw_info *part)
{
    for (int k = 0; k < GSFW_DMO_COUNTERS; k++)
        if (part->counter_names[k]) add_named(total, part->counter_names[k], part->counters[k]);
}
