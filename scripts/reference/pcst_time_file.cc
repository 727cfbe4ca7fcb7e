// Times the reference pcst_fast on an instance file written by `bench_pcsf
// --write-instance` (or any file in pcst_driver.cc's format: "n m root clusters pruning",
// then n prizes, then m lines "u v cost"). Only the solve is timed (construction + run),
// not the reading of the file, as bench_pcsf times gsfw's.
//
//   g++ -O3 -IREF/pcst_fast scripts/reference/pcst_time_file.cc REF/pcst_fast/pcst_fast.cc
//     -o REF/pcst_time_file
//   build/bench_pcsf --graph network --write-instance 1000000 net.txt; REF/pcst_time_file net.txt
#include <cstdio>
#include <ctime>
#include <utility>
#include <vector>

#include "pcst_fast.h"

using cluster_approx::PCSTFast;

static void quiet(const char *) {}

static double seconds()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pcst_time_file INSTANCE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    int n = 0, m = 0, root = 0, clusters = 0;
    char pruning_name[64];
    if (fscanf(f, "%d %d %d %d %63s", &n, &m, &root, &clusters, pruning_name) != 5 || n < 0 ||
        m < 0) {
        fprintf(stderr, "pcst_time_file: bad header\n");
        return 2;
    }
    std::vector<double> prizes(n), costs(m);
    std::vector<std::pair<int, int> > edges(m);
    for (int i = 0; i < n; i++)
        if (fscanf(f, "%lf", &prizes[i]) != 1) {
            fprintf(stderr, "pcst_time_file: bad prize %d\n", i);
            return 2;
        }
    for (int e = 0; e < m; e++)
        if (fscanf(f, "%d %d %lf", &edges[e].first, &edges[e].second, &costs[e]) != 3) {
            fprintf(stderr, "pcst_time_file: bad edge %d\n", e);
            return 2;
        }
    fclose(f);
    PCSTFast::PruningMethod pruning = PCSTFast::parse_pruning_method(pruning_name);
    if (pruning == PCSTFast::kUnknownPruning) {
        fprintf(stderr, "pcst_time_file: unknown pruning '%s'\n", pruning_name);
        return 2;
    }
    double t0 = seconds();
    std::vector<int> nodes, out_edges;
    PCSTFast algo(edges, prizes, costs, root, clusters, pruning, 0, quiet);
    if (!algo.run(&nodes, &out_edges)) {
        fprintf(stderr, "pcst_time_file: the run failed\n");
        return 1;
    }
    printf("n=%d seconds=%.3f nodes=%zu edges=%zu\n", n, seconds() - t0, nodes.size(),
           out_edges.size());
    return 0;
}
