#!/bin/sh
# `make demo`: the main job on the bundled data — recover the angiogram (100 x 100,
# 622 nonzero pixels) from n = 2.5 s Gaussian measurements with DMO-AccFW and the PCSF
# head oracle, and write the recovered image, the pictures and the summary.
#
#   usage: experiments/demo.sh [BUILD_DIR]
#   env:   FIGURES=DIR also copies panel.png and convergence.png to DIR/angio_panel.png
#          and DIR/angio_convergence.png (FIGURES=docs/figures refreshes the README's)
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
out=results/demo
summary=$("$build/gsfw" recover --image "$root/data/angio.npy" --ratio 2.5 --method accfw \
    --iters 50 --seed 0 --out-dir "$out")
echo "$summary"
field() { echo "$summary" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
raw=$(field raw_rel_err)
echo "angio recovered from $(field n) measurements: relative error $(printf '%.3g' "$(field rel_err)")" \
    "${raw:+(last iterate $(printf '%.3g' "$raw"))}, solve $(field time_s) s + setup $(field setup_s) s"
echo "$summary" > "$out/summary.txt.tmp" && mv "$out/summary.txt.tmp" "$out/summary.txt"
echo "wrote $out/: panel.png (truth | recovered | error), convergence.png, recovered.png,"
echo "  recovered.npy, truth.png, trace.csv, summary.txt"
if [ -n "${FIGURES:-}" ]; then
    cp "$out/panel.png" "$FIGURES/angio_panel.png"
    cp "$out/convergence.png" "$FIGURES/angio_convergence.png"
    echo "copied panel.png and convergence.png to $FIGURES/"
fi
