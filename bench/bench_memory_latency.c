/* Memory latency of this machine, as the PCSF growth loop sees it (docs/pcsf.md, "Where
 * the ratio comes from"), in buffers allocated like the PCSF workspace (2 MB aligned,
 * advised for transparent huge pages). Every test is a dependent random pointer chase,
 * one 64-byte line per step, and prints nanoseconds per load.
 *
 * 1. Whole buffer: a chase over every line of a buffer of each size, so that nearly
 *    every load misses the caches: the cost of a miss at the 500x500 footprint (about
 *    100 MB) against the 1000x1000 one (about 380 MB).
 * 2. Spread: the same 20 000 lines (1.2 MB, which the caches hold) placed at random over
 *    regions of growing size and walked repeatedly: what a cache hit costs when its
 *    address translation does not fit the TLB. On a VM whose host maps guest memory with
 *    small pages, this grows steeply with the region. Then 320 000 lines (20 MB, more
 *    than the caches) walked as 16 independent chains, so that 16 loads can be in
 *    flight: the throughput of random loads, the regime of the PCSF heap's delete_min.
 * 3. --shared: whether the two CPUs share a cache that could hold lines fetched ahead by
 *    a helper thread: a thread on the second CPU walks a segment of a chain, then the
 *    main thread walks the same segment; printed next to a segment nobody has read
 *    (cold) and to the same segment read a second time by the main thread (self).
 *
 *   bench_memory_latency [--sizes 16,64,128,256,512] [--steps 5000000] [--shared]
 * (--sizes and --steps apply to the first test.)
 */
#define _GNU_SOURCE /* pthread_setaffinity_np */
#include "oracles/pcsf/pcsf_mem.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/splitmix.h"

#define LINE 64

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One cycle through all lines in a uniformly random order: each line holds the byte
 * offset of the next line of the order, the last one that of the first. Returns the
 * buffer or NULL. */
static char *make_chain(size_t lines, uint64_t seed)
{
    size_t *order = malloc(lines * sizeof *order);
    char *buf = gsfw_pcsf_big_alloc(lines, LINE);
    if (!order || !buf) {
        free(order);
        free(buf);
        return NULL;
    }
    gsfw_pcsf_populate(buf, lines * LINE);
    for (size_t i = 0; i < lines; i++) order[i] = i;
    uint64_t st = seed;
    for (size_t i = lines - 1; i > 0; i--) {
        size_t j = (size_t)(gsfw_splitmix64(&st) % (i + 1)); /* Fisher-Yates */
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < lines; i++)
        *(size_t *)(buf + order[i] * LINE) = order[(i + 1) % lines] * LINE;
    free(order);
    return buf;
}

/* Follow the chain for steps loads from offset at; returns where it stopped (so that
 * the loads cannot be optimised away). */
static size_t walk(const char *buf, size_t at, size_t steps)
{
    for (size_t i = 0; i < steps; i++) at = *(const size_t *)(buf + at);
    return at;
}

/* ------------------------------------------------------------ spread */

#define MAX_CHAINS 16
/* Each timed pass goes this many times round every chain (a pass of the cached set then
 * lasts milliseconds, not a fraction of one); the best of SPREAD_PASSES passes counts. */
#define ROUNDS_PER_PASS 8
#define SPREAD_PASSES 7

/* `chains` cycles through `lines` lines in all (lines a multiple of chains, at most the
 * region's lines): line i is chosen at random in the i-th of `lines` equal slices of the
 * first region_mb MB of buf, and the lines are visited in random order; head[c] gets the
 * first offset of cycle c. Returns 0 or -1 (out of memory). */
static int spread_chains(char *buf, size_t lines, size_t region_mb, int chains,
                         size_t *head, uint64_t *st)
{
    const size_t region_lines = (region_mb << 20) / LINE;
    size_t *at = malloc(lines * sizeof *at);
    if (!at) return -1;
    for (size_t i = 0; i < lines; i++) {
        size_t lo = i * region_lines / lines, hi = (i + 1) * region_lines / lines;
        at[i] = lo + (size_t)(gsfw_splitmix64(st) % (hi - lo)); /* hi > lo: lines <= region */
    }
    for (size_t i = lines - 1; i > 0; i--) {
        size_t j = (size_t)(gsfw_splitmix64(st) % (i + 1)), t = at[i];
        at[i] = at[j];
        at[j] = t;
    }
    size_t per = lines / (size_t)chains;
    for (int c = 0; c < chains; c++) {
        const size_t *cyc = at + (size_t)c * per;
        for (size_t i = 0; i < per; i++)
            *(size_t *)(buf + cyc[i] * LINE) = cyc[(i + 1) % per] * LINE;
        head[c] = cyc[0] * LINE;
    }
    free(at);
    return 0;
}

/* Advance every chain `steps` times, round robin: the loads of different chains are
 * independent, so up to `chains` of them can be in flight. */
static void walk_chains(const char *buf, size_t *head, int chains, size_t steps)
{
    for (size_t i = 0; i < steps; i++)
        for (int c = 0; c < chains; c++) head[c] = *(const size_t *)(buf + head[c]);
}

static const size_t spread_region_mb[] = {32, 64, 128, 256, 320, 384, 448, 512, 768, 1024};
#define SPREAD_REGIONS (sizeof spread_region_mb / sizeof spread_region_mb[0])

/* One row per region: ns per load, best of SPREAD_PASSES passes. buf holds the largest
 * region. */
static int spread_test(char *buf, size_t lines, int chains)
{
    if (chains < 1 || chains > MAX_CHAINS || lines % (size_t)chains != 0 ||
        lines > (spread_region_mb[0] << 20) / LINE) {
        fprintf(stderr, "bench_memory_latency: bad spread test (%zu lines, %d chains)\n",
                lines, chains);
        return 1;
    }
    printf("# %zu lines (%.1f MB) spread over a region, %d independent chain%s\n", lines,
           (double)(lines * LINE) / (1 << 20), chains, chains > 1 ? "s" : "");
    printf("%9s %10s\n", "region_mb", "ns/load");
    uint64_t st = 3;
    size_t head[MAX_CHAINS], per = lines / (size_t)chains;
    for (size_t k = 0; k < SPREAD_REGIONS; k++) {
        if (spread_chains(buf, lines, spread_region_mb[k], chains, head, &st)) {
            fprintf(stderr, "bench_memory_latency: out of memory\n");
            return 1;
        }
        walk_chains(buf, head, chains, per); /* bring the lines into the caches */
        double best = 1e30;
        for (int pass = 0; pass < SPREAD_PASSES; pass++) {
            double t0 = seconds();
            walk_chains(buf, head, chains, per * ROUNDS_PER_PASS);
            double t = seconds() - t0;
            if (t < best) best = t;
        }
        printf("%9zu %10.1f\n", spread_region_mb[k],
               1e9 * best / (double)(per * ROUNDS_PER_PASS * (size_t)chains));
        size_t x = 0;
        for (int c = 0; c < chains; c++) x ^= head[c];
        if (x == 1) puts(""); /* keeps the walks live (offsets are multiples of 64) */
    }
    return 0;
}

/* The spread tests share one buffer as large as the largest region. */
static int spread_tests(void)
{
    const size_t max_mb = spread_region_mb[SPREAD_REGIONS - 1];
    char *buf = gsfw_pcsf_big_alloc(max_mb << 20, 1);
    if (!buf) {
        fprintf(stderr, "bench_memory_latency: out of memory for %zu MB\n", max_mb);
        return 1;
    }
    gsfw_pcsf_populate(buf, max_mb << 20);
    /* a cached set, one load at a time: what translation adds to a cache hit */
    int rc = spread_test(buf, 20000, 1);
    /* a set larger than the caches, 16 loads in flight: the throughput of random loads,
     * the regime of the PCSF heap's delete_min */
    if (!rc) rc = spread_test(buf, 320000, MAX_CHAINS);
    free(buf);
    return rc;
}

/* ------------------------------------------------------------ --shared */

typedef struct {
    const char *buf;
    size_t from, steps;
    int cpu;
    int pinned; /* 1 when the thread runs on cpu */
    size_t end;
} helper_job;

static void *helper_walk(void *arg)
{
    helper_job *job = arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(job->cpu, &set);
    job->pinned = pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
    job->end = walk(job->buf, job->from, job->steps);
    return NULL;
}

/* Segments of SHARED_SEGMENT lines (320 KB) fit the private caches of one CPU, so that
 * the main thread's second walk ("self") shows what a cached segment costs. */
#define SHARED_SEGMENT 5000
#define SHARED_REPS 7

static int shared_test(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || sched_setaffinity(0, sizeof set, &set) != 0) {
        printf("# --shared: skipped (needs CPUs 0 and 1 to pin the two threads)\n");
        return 0;
    }
    const size_t lines = ((size_t)512 << 20) / LINE, seg = SHARED_SEGMENT;
    char *buf = make_chain(lines, 7);
    if (!buf) {
        fprintf(stderr, "bench_memory_latency: out of memory\n");
        return 1;
    }
    printf("# 512 MB chain, segments of %zu lines; ns per load of the main thread (CPU 0)\n",
           seg);
    printf("%8s %10s %10s\n", "cold", "helper", "self");
    size_t at = walk(buf, 0, lines / 2);
    int rc = 0;
    for (int rep = 0; rep < SHARED_REPS && rc == 0; rep++) {
        double t0 = seconds();
        size_t from = walk(buf, at, seg); /* a cold segment; the next one starts here */
        double cold = seconds() - t0;
        helper_job job = {buf, from, seg, 1, 0, 0};
        pthread_t th;
        if (pthread_create(&th, NULL, helper_walk, &job) != 0) {
            fprintf(stderr, "bench_memory_latency: cannot start a thread\n");
            rc = 1;
            break;
        }
        pthread_join(th, NULL);
        if (!job.pinned) {
            printf("# --shared: skipped (cannot pin the helper thread to CPU 1)\n");
            break;
        }
        t0 = seconds();
        size_t end = walk(buf, from, seg);
        double helped = seconds() - t0;
        t0 = seconds();
        size_t again = walk(buf, from, seg);
        double self = seconds() - t0;
        if (end != job.end || again != end) {
            fprintf(stderr, "bench_memory_latency: chain walks disagree\n");
            rc = 1;
            break;
        }
        printf("%8.1f %10.1f %10.1f\n", 1e9 * cold / (double)seg,
               1e9 * helped / (double)seg, 1e9 * self / (double)seg);
        at = walk(buf, end, 20 * seg); /* move on to lines nobody has read lately */
    }
    free(buf);
    return rc;
}

/* ------------------------------------------------------------ main */

#define MAX_SIZE_MB 8192L          /* per buffer of the first test */
#define MAX_STEPS 10000000000L

/* A decimal integer in [1, max] from s up to *end (digits only: no sign, no blanks).
 * Returns 0 or -1. */
static int parse_count(const char *s, long max, long *out, const char **end)
{
    if (*s < '0' || *s > '9') return -1;
    char *e;
    errno = 0;
    long v = strtol(s, &e, 10);
    if (errno == ERANGE || v < 1 || v > max) return -1;
    *out = v;
    *end = e;
    return 0;
}

/* "16,64,256": returns the number of sizes or -1. */
static int parse_sizes(const char *s, long *mb, int max)
{
    int k = 0;
    for (;;) {
        const char *end;
        if (k == max || parse_count(s, MAX_SIZE_MB, &mb[k], &end)) return -1;
        k++;
        if (*end == '\0') return k;
        if (*end != ',') return -1;
        s = end + 1;
    }
}

static int usage(void)
{
    fprintf(stderr,
            "usage: bench_memory_latency [--sizes 16,64,128,256,512] [--steps N] [--shared]\n"
            "  --sizes   buffer sizes in MB of the first test (1..%ld each, at most 32)\n"
            "  --steps   loads timed per size in the first test (default 5000000)\n"
            "  --shared  also run the two-CPU test\n",
            MAX_SIZE_MB);
    return 2;
}

int main(int argc, char **argv)
{
    long mb[32] = {16, 64, 128, 256, 512};
    int nsizes = 5, shared = 0;
    long steps = 5000000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            nsizes = parse_sizes(argv[++i], mb, 32);
            if (nsizes < 0) {
                fprintf(stderr, "bench_memory_latency: --sizes wants up to 32 MB values "
                                "like 16,64,256, each 1..%ld\n", MAX_SIZE_MB);
                return 2;
            }
        } else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
            const char *end;
            if (parse_count(argv[++i], MAX_STEPS, &steps, &end) || *end) {
                fprintf(stderr, "bench_memory_latency: --steps wants an integer 1..%ld\n",
                        MAX_STEPS);
                return 2;
            }
        } else if (!strcmp(argv[i], "--shared")) {
            shared = 1;
        } else {
            return usage();
        }
    }
    printf("# dependent random loads over every line of the buffer\n");
    printf("%8s %10s\n", "size_mb", "ns/load");
    for (int k = 0; k < nsizes; k++) {
        size_t lines = ((size_t)mb[k] << 20) / LINE;
        char *buf = make_chain(lines, 1);
        if (!buf) {
            fprintf(stderr, "bench_memory_latency: out of memory for %ld MB\n", mb[k]);
            return 1;
        }
        size_t at = walk(buf, 0, lines < (size_t)steps ? lines : (size_t)steps); /* warm-up */
        double t0 = seconds();
        at = walk(buf, at, (size_t)steps);
        double t = seconds() - t0;
        printf("%8ld %10.1f\n", mb[k], 1e9 * t / (double)steps);
        if (at == (size_t)-1) puts(""); /* keeps at live */
        free(buf);
    }
    if (spread_tests()) return 1;
    return shared ? shared_test() : 0;
}
