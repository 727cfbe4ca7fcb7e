/* The --tree flag of the tree models: "quadtree:HxW" (the coefficients of an H x W
 * wavelet transform) or a .npy file of parent ids (one per node, -1 for a root; int32,
 * int64 or float64 with integral values; 1-D, or 2-D with one row or column). */
#ifndef GSFW_CLI_TREE_LOAD_H
#define GSFW_CLI_TREE_LOAD_H

#include "gsfw.h"

/* Before any file is read: a tree model needs --tree, other models refuse it. Returns
 * CLI_OK or CLI_USAGE (message printed). */
int cli_check_tree_flag(const char *cmd, const gsfw_entry *model, const char *tree_spec);

/* Once the dimension d is known: build the tree of tree_spec (when given) with d nodes;
 * *tree is freed by the caller with gsfw_tree_free. A bad quadtree spelling is a usage
 * error (CLI_USAGE); a bad size, an unreadable or malformed file, an invalid parent
 * array or a node count other than d give CLI_FAIL. */
int cli_bind_tree(const char *cmd, const char *tree_spec, int d, gsfw_tree **tree);

/* Read the parent ids of a .npy file (see above); *parent freed with free(). */
int cli_read_parents(const char *cmd, const char *path, int **parent, int *n);

#endif
