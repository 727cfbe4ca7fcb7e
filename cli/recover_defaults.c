#include "recover_defaults.h"

#include "gsfw.h"

int cli_recover_default_iters(int method)
{
    switch (method) {
    case GSFW_METHOD_FW: return 500;
    case GSFW_METHOD_COSAMP:
    case GSFW_METHOD_GRAPH_COSAMP: return 50;
    default: return 300;
    }
}
