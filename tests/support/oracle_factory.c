#include "oracle_factory.h"

#include <string.h>

gsfw_dmo *test_oracle(const char *model, const gsfw_graph *grid, int s)
{
    gsfw_dmo *d = NULL;
    gsfw_error e = GSFW_ERR_INVALID_ARG;
    if (!strcmp(model, "head")) e = gsfw_dmo_head(grid, s, 1, &d, NULL);
    if (!strcmp(model, "tail")) e = gsfw_dmo_tail(grid, s, 1, &d, NULL);
    if (!strcmp(model, "subgraph")) e = gsfw_dmo_subgraph(grid, s, 1, &d, NULL);
    if (!strcmp(model, "topk")) e = gsfw_dmo_topk(gsfw_graph_nodes(grid), s, &d, NULL);
    if (!strcmp(model, "topk-approx")) e = gsfw_dmo_topk_approx(gsfw_graph_nodes(grid), s, 0.7, 7, &d, NULL);
    if (!strcmp(model, "l1")) e = gsfw_dmo_l1(gsfw_graph_nodes(grid), 0.5, 11, &d, NULL);
    return e ? NULL : d;
}
