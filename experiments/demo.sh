#!/bin/sh
# `make demo`: the main job on the bundled data — recover the angiogram (100 x 100,
# 622 nonzero pixels) from n = 2.5 s Gaussian measurements with DMO-AccFW and the PCSF
# head oracle, and write the recovered image, the convergence plot and the summary.
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
out=results/demo
summary=$("$build/gsfw" recover --image "$root/data/angio.npy" --ratio 2.5 --method accfw \
    --iters 50 --seed 0 --out-dir "$out")
echo "$summary"
echo "$summary" > "$out/summary.txt.tmp" && mv "$out/summary.txt.tmp" "$out/summary.txt"
echo "wrote $out/recovered.png, truth.png, convergence.png, trace.csv, summary.txt"
