// Times the reference pcst_fast on the grid instance of bench/bench_pcsf.c (H x H grid in
// gsfw's edge order, unit costs, prizes 4*U[0,1) from splitmix64 seeded 20220101,
// unrooted, one cluster, strong pruning), so that its time ratio between two sizes can be
// compared with gsfw's on the same machine. Only the solve is timed (construction + run),
// not the generation of the instance.
//
//   g++ -O3 -IREF/src scripts/reference/pcst_time_grid.cc REF/src/pcst_fast.cc -o REF/ptg
//   REF/ptg 500; REF/ptg 1000
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <utility>
#include <vector>

#include "pcst_fast.h"

using cluster_approx::PCSTFast;

static void quiet(const char *) {}

// The splitmix64 step of src/util/splitmix.h.
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double seconds()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long h = argc == 2 ? strtol(argv[1], &end, 10) : 0;
    if (argc != 2 || end == argv[1] || *end != '\0' || h < 1 || h > 10000) {
        fprintf(stderr, "usage: pcst_time_grid H   (1 <= H <= 10000)\n");
        return 2;
    }
    int n = (int)(h * h);
    std::vector<double> prizes(n);
    uint64_t state = 20220101ULL;
    for (int i = 0; i < n; i++)
        prizes[i] = 4.0 * std::ldexp((double)(splitmix64(&state) >> 11), -53);
    std::vector<std::pair<int, int> > edges;
    std::vector<double> costs;
    for (int r = 0; r < h; r++) {
        for (int c = 0; c < h; c++) {
            int i = (int)(r * h + c);
            if (c + 1 < h) edges.push_back(std::make_pair(i, i + 1));
            if (r + 1 < h) edges.push_back(std::make_pair(i, i + (int)h));
        }
    }
    costs.assign(edges.size(), 1.0);
    double t0 = seconds();
    std::vector<int> nodes, out_edges;
    PCSTFast algo(edges, prizes, costs, -1, 1, PCSTFast::kStrongPruning, 0, quiet);
    if (!algo.run(&nodes, &out_edges)) {
        fprintf(stderr, "pcst_time_grid: the reference failed\n");
        return 1;
    }
    printf("%ldx%ld seconds=%.3f nodes=%zu edges=%zu\n", h, h, seconds() - t0, nodes.size(),
           out_edges.size());
    return 0;
}
