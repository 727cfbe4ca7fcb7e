#!/bin/sh
# The corpus's inputs, written deterministically into the current directory:
#
#   usage: inputs.sh SOURCE_DIR BUILD_DIR
#
# the README tour's data (BUILD_DIR/example_data), copies of data/*.npy and data/mnist_7.png,
# and what shell and awk derive from them: A.mtx (the entries of A.npy with |a| > 0.15),
# labels.npy (int8 signs of y, for the logistic loss), img16.npy (a 16 x 16 uint8 crop of
# mnist_7, for the power-of-two sensings and wavelet bases), heap400.npy (int32 parent ids
# of a binary heap on 400 nodes), one_px.npy (a 1 x 1 image), prizes.txt, grid10_short.txt (the 10 x 10 grid without
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

# npy DTYPE SHAPE FILE: integers on stdin (DTYPE |i1, |u1 or <i4; <f8: its bytes) to a
# version 1.0 .npy
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

# npy_f8 SHAPE FILE: numbers on stdin (normal doubles, 0 or nan) to a float64 .npy;
# awk computes the bytes: exponent e with 2^e <= v < 2^(e+1), 52 bits of mantissa
npy_f8() {
    awk '{ for (i = 1; i <= NF; i++) {
              if ($i == "nan") { printf "0 0 0 0 0 0 248 127 "; continue }
              v = $i + 0; hi = 0; lo = 0; sign = v < 0; v = sign ? -v : v
              if (v > 0) {
                  e = int(log(v) / log(2)); while (2 ^ e > v) e--; while (2 ^ (e + 1) <= v) e++
                  m = (v / 2 ^ e - 1) * 2 ^ 52  # an integer below 2^52
                  lo = m % 2 ^ 32; hi = sign * 2 ^ 31 + (e + 1023) * 2 ^ 20 + int(m / 2 ^ 32)
              }
              for (k = 0; k < 4; k++) { printf "%d ", lo % 256; lo = int(lo / 256) }
              for (k = 0; k < 4; k++) { printf "%d ", hi % 256; hi = int(hi / 256) } } }' |
        npy '<f8' "$1" "$2"
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
echo 200 | npy '|u1' '(1, 1)' one_px.npy
awk 'BEGIN { for (i = 0; i < 400; i++) printf "%d ", (i == 0) ? -1 : int((i - 1) / 2) }' </dev/null |
    npy '<i4' '(400,)' heap400.npy
f8 prizes.npy | awk 'BEGIN { print "# the prizes of graph.txt" } { printf "%.17g\n", $1 }' >prizes.txt
awk 'BEGIN { for (r = 0; r < 10; r++) for (c = 0; c < 10; c++) { i = r * 10 + c
          if (c < 9 && i + 1 != 99) print i, i + 1
          if (r < 9 && i + 10 != 99) print i, i + 10 } }' </dev/null >grid10_short.txt

# hostile inputs: sums of costs that overflow, byte-order marks, control bytes, empty
# prize files, entries whose squares overflow, a matrix so small that its curvature
# underflows, one with a NaN entry (A_nan.npy: A[0, 5])
printf '0 1 1e308\n1 2 1e308\n2 3 1e308\n' >costly.txt
echo 1 2 3 4 | npy_f8 '(4,)' z4.npy
printf '1\n2\n3\n4\n' >prizes4.txt
printf '\357\273\2770 1 1\n1 2 1\n2 3 1\n' >bom-edges.txt
printf '\357\273\2775\n0\n0\n5\n' >bom-prizes.txt
printf '0 1 1\n1 2 1\n2 3 1\n' >plain-edges.txt
printf '5\n0\n0\n5\n' >plain-prizes.txt
printf '1\n\033[31mred\n' >esc-prizes.txt
printf '0 1\n' >esc-edges.txt
: >empty-prizes.txt
npy_f8 '(0,)' empty-prizes.npy </dev/null
echo 1e154 1e154 1 1 1 1 | npy_f8 '(6,)' zbig.npy
echo 1e308 1e308 1e308 1e308 1 1 | npy_f8 '(6,)' zhuge.npy
f8 A.npy | head -n 320 | awk '{ printf "%.17g ", $1 * 1e-160 }' | npy_f8 '(20, 16)' A_tiny.npy
f8 A.npy | head -n 320 | awk 'BEGIN { print "%%MatrixMarket matrix coordinate real general"
                                       print 20, 16, 320 }
    { printf "%d %d %.17g\n", int((NR - 1) / 16) + 1, (NR - 1) % 16 + 1, $1 * 1e-160 }' >A_tiny.mtx
printf '1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0' | npy '|i1' '(20,)' y_tiny.npy
f8 A.npy | head -n 320 | awk '{ if (NR == 6) printf "nan "; else printf "%.17g ", $1 }' |
    npy_f8 '(20, 16)' A_nan.npy
