// Driver for the reference pcst_fast, for scripts/reference (not built with gsfw).
// Input file: n m root num_clusters pruning ; n prizes ; m lines "u v cost"
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <stdexcept>
#include "pcst_fast.h"

using cluster_approx::PCSTFast;

static void noop(const char*) {}

int main(int argc, char** argv) {
  if (argc != 2) { fprintf(stderr, "usage: driver FILE\n"); return 2; }
  FILE* f = fopen(argv[1], "r");
  if (!f) { perror("open"); return 2; }
  int n, m, root, g; char pr[64];
  if (fscanf(f, "%d %d %d %d %63s", &n, &m, &root, &g, pr) != 5) { fprintf(stderr, "bad header\n"); return 2; }
  std::vector<double> prizes(n), costs(m);
  std::vector<std::pair<int,int> > edges(m);
  for (int i = 0; i < n; ++i) if (fscanf(f, "%lf", &prizes[i]) != 1) { fprintf(stderr, "bad prize\n"); return 2; }
  for (int i = 0; i < m; ++i) if (fscanf(f, "%d %d %lf", &edges[i].first, &edges[i].second, &costs[i]) != 3) { fprintf(stderr, "bad edge\n"); return 2; }
  fclose(f);
  PCSTFast::PruningMethod p = PCSTFast::parse_pruning_method(pr);
  if (p == PCSTFast::kUnknownPruning) { fprintf(stderr, "bad pruning\n"); return 2; }
  std::vector<int> rn, re;
  try {
    PCSTFast algo(edges, prizes, costs, root, g, p, 0, noop);
    if (!algo.run(&rn, &re)) { fprintf(stderr, "run failed\n"); return 1; }
  } catch (std::exception& e) { fprintf(stderr, "exception: %s\n", e.what()); return 1; }
  printf("nodes:");
  for (size_t i = 0; i < rn.size(); ++i) printf(" %d", rn[i]);
  printf("\nedges:");
  for (size_t i = 0; i < re.size(); ++i) printf(" %d", re[i]);
  printf("\n");
  return 0;
}
