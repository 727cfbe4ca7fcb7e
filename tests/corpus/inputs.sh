#!/bin/sh
# The corpus's inputs, written deterministically into the current directory:
#
#   usage: inputs.sh SOURCE_DIR BUILD_DIR
#
# the README tour's data (BUILD_DIR/example_data), copies of data/*.npy and data/mnist_7.png,
# and what shell and awk derive from them: A.mtx (the entries of A.npy with |a| > 0.15),
# labels.npy (int8 signs of y, for the logistic loss), img16.npy (a 16 x 16 uint8 crop of
# mnist_7, for the power-of-two sensings and wavelet bases), heap400.npy (int32 parent ids
# of a binary heap on 400 nodes), prizes.txt, grid10_short.txt (the 10 x 10 grid without
# node 99's edges) and y_short.npy (119 entries).
set -eu
src=$1
build=$2
"$build/example_data" . >/dev/null
for f in mnist_7.npy mnist_7.png tree_z.npy tree_parents.npy tree_quadtree_z.npy; do
    cp "$src/data/$f" .
done

# float64 payload of an .npy file, one number a line (the project's files have 128-byte
# headers)
f8() { od -An -v -t f8 -j 128 "$1" | tr -s ' ' '\n' | sed '/^$/d'; }

# npy DTYPE SHAPE FILE: integers on stdin (DTYPE |i1, |u1 or <i4) to a version 1.0 .npy
npy() {
    awk -v dtype="$1" -v shape="$2" '
        function byte(v) { v = (v + 256) % 256; return sprintf("\\%03o", v) }
        BEGIN { size = (dtype == "<i4") ? 4 : 1 }
        { for (i = 1; i <= NF; i++) {
              v = $i + 0
              if (v < 0) v += 256 ^ size
              for (k = 0; k < size; k++) { out = out byte(v % 256); v = int(v / 256) } } }
        END {
            h = "{'"'"'descr'"'"': '"'"'" dtype "'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': " shape ", }"
            while ((10 + length(h) + 1) % 64) h = h " "
            len = length(h) + 1
            printf "\\223NUMPY\\001\\000%s%s%s\\n%s\n", byte(len % 256), byte(int(len / 256)), h, out
        }' | { IFS= read -r esc; printf "$esc"; } >"$3"
}

f8 A.npy | awk 'BEGIN { rows = 120; cols = 400 }
    { i = int((NR - 1) / cols) + 1; j = (NR - 1) % cols + 1
      if ($1 > 0.15 || $1 < -0.15) { r[++nnz] = i " " j " " $1 } }
    END { print "%%MatrixMarket matrix coordinate real general"
          print rows, cols, nnz
          for (k = 1; k <= nnz; k++) print r[k] }' >A.mtx
f8 y.npy | awk '{ print ($1 >= 0) ? 1 : -1 }' | npy '|i1' '(120,)' labels.npy
f8 y.npy | sed 1d | awk '{ printf "%d ", ($1 >= 0) ? 1 : -1 }' | npy '|i1' '(119,)' y_short.npy
f8 mnist_7.npy | awk '{ r = int((NR - 1) / 28); c = (NR - 1) % 28
      if (r >= 6 && r < 22 && c >= 6 && c < 22) printf "%d ", int($1 * 255 + 0.5) }' |
    npy '|u1' '(16, 16)' img16.npy
awk 'BEGIN { for (i = 0; i < 400; i++) printf "%d ", (i == 0) ? -1 : int((i - 1) / 2) }' </dev/null |
    npy '<i4' '(400,)' heap400.npy
f8 prizes.npy | awk 'BEGIN { print "# the prizes of graph.txt" } { printf "%.17g\n", $1 }' >prizes.txt
awk 'BEGIN { for (r = 0; r < 10; r++) for (c = 0; c < 10; c++) { i = r * 10 + c
          if (c < 9 && i + 1 != 99) print i, i + 1
          if (r < 9 && i + 10 != 99) print i, i + 10 } }' </dev/null >grid10_short.txt
