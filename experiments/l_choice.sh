#!/bin/sh
# Evidence for DMO-AccFW's default L in `gsfw recover`: L = 1 (the paper's runs), the
# spectral bound ||A||_2^2 (power iteration) and the curvature along the first atom, on
# angio (ratio 2.5, 50 iterations, seeds 0-2) and MNIST digit 7 (ratio 5, 300 iterations,
# seeds 0-4). Prints a markdown table of mean rel_err and mean solve time.
#   usage: experiments/l_choice.sh [BUILD_DIR]
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| image | ratio, iterations | L | mean L used | mean rel_err | mean solve time (s) |"
echo "|---|---|---|---|---|---|"
run() { # image ratio iters seeds label L
    for seed in $4; do
        "$build/gsfw" recover --image "$root/data/$1.npy" --ratio "$2" --method accfw --polish off \
            --iters "$3" --seed "$seed" --L "$6" --out-dir "$tmp/out" --no-plot
    done | awk -v img="$1" -v r="$2" -v it="$3" -v lab="$5" '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
          e += v["rel_err"]; t += v["time_s"]; l += v["L"]; n++ }
        END { printf "| %s | %s, %s | %s | %.3f | %.3g | %.3f |\n", img, r, it, lab, l / n, e / n, t / n }'
}
for spec in "1:1" "spectral:spectral (‖A‖₂²)" "atom:atom (first-atom curvature)"; do
    run angio 2.5 50 "0 1 2" "${spec#*:}" "${spec%%:*}"
done
for spec in "1:1" "spectral:spectral (‖A‖₂²)" "atom:atom (first-atom curvature)"; do
    run mnist_7 5 300 "0 1 2 3 4" "${spec#*:}" "${spec%%:*}"
done
