#!/bin/sh
# Graph-sparse logistic regression on Fashion-MNIST against L1-logistic regression
# (docs/experiments-logistic.md). Two class pairs that differ by shape: sandal (-1) vs
# sneaker (+1), and T-shirt/top (-1) vs shirt (+1). For each pair and each s, gsfw solve
# --loss logistic --intercept --polish on with the connected-subgraph model (g regions of
# the 28 x 28 pixel grid) and the unstructured top-s model, its radius C chosen on a
# validation split; scikit-learn's L1-logistic regression (liblinear) at the same support
# sizes; held-out accuracy and fit times.
#
#   usage: experiments/fashion_logistic.sh [BUILD_DIR] [OUT_DIR]
#   env:   QUICK=1   a small run (2000 fitting images, s = 20 50 100, C = 3 10, 100 iterations)
#          S, G, CS, ITERS, N_TRAIN, METHOD override the lists and sizes (comma-separated lists;
#          N_TRAIN=0, the default, fits on all 10000 training images not held out)
#          FIG_S     s of the picture (default 50), FIG_G its number of regions (default 2)
#          STANDARDISE=1  centre and scale every pixel (fashion_prepare.py --standardise)
#
# Needs /usr/bin/python3 with numpy, scipy, scikit-learn and matplotlib and the Debian
# package dataset-fashion-mnist; run as root it installs the missing ones with apt-get.
# Writes OUT_DIR (default results/fashion): <pair>/ (fashion_compare.py's CSV files and
# weights), summary.md (the tables) and supports.png (the picture).
set -eu
build=${1:-build}
. "$(dirname "$0")/exp_common.sh"
out=${2:-results/fashion}
py=/usr/bin/python3
gsfw="$build/gsfw"
[ -x "$gsfw" ] || die "no gsfw executable in '$build' (run 'make' or pass the build dir)"

if [ "${QUICK:-0}" = 1 ]; then
    s_list=${S:-20,50,100}; g_list=${G:-1,2,4}; c_list=${CS:-3,10}
    iters=${ITERS:-100}; n_train=${N_TRAIN:-2000}; l1_grid=15
else
    s_list=${S:-10,20,50,100,200}; g_list=${G:-1,2,4}; c_list=${CS:-1,3,10,30}
    iters=${ITERS:-300}; n_train=${N_TRAIN:-0}; l1_grid=40
fi
method=${METHOD:-accfw}
fig_s=${FIG_S:-50}
fig_g=${FIG_G:-2}
std_flag=""
[ "${STANDARDISE:-0}" = 1 ] && std_flag=--standardise

# Debian packages the experiment needs (not the build or the test suite)
pkgs="dataset-fashion-mnist python3-numpy python3-scipy python3-sklearn python3-matplotlib"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    [ "$(id -u)" -eq 0 ] || die "missing Debian packages:$missing (apt-get install$missing)"
    echo "fashion: installing$missing" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >&2
fi

begin_output "$out"
start=$(date +%s)
# pair folder | class -1 | class +1
pairs="sandal-sneaker 5 7
tshirt-shirt 0 6"
printf '%s\n' "$pairs" | while read -r name neg pos; do
    "$py" "$exp_dir/fashion_prepare.py" --neg "$neg" --pos "$pos" --out "$tmp/data_$name" \
        --n-train "$n_train" --n-val 2000 --seed 0 $std_flag >&2
    "$py" "$exp_dir/fashion_compare.py" --data "$tmp/data_$name" --out "$tmp/$name" \
        --gsfw "$gsfw" --s "$s_list" --g "$g_list" --C "$c_list" --method "$method" \
        --iters "$iters" --l1-grid "$l1_grid" >&2
    cp "$tmp/data_$name/mean_neg.npy" "$tmp/data_$name/mean_pos.npy" "$tmp/$name/"
    rm -rf "$tmp/data_$name"
    echo "fashion: $name done ($(($(date +%s) - start)) s)" >&2
done

"$py" "$exp_dir/fashion_table.py" --results "$tmp" --pairs sandal-sneaker,tshirt-shirt \
    --command "${QUICK:+QUICK=$QUICK }${std_flag:+STANDARDISE=1 }experiments/fashion_logistic.sh" >"$tmp/summary.md"
"$py" "$exp_dir/fashion_plot.py" --results "$tmp" --pairs sandal-sneaker,tshirt-shirt \
    --s "$fig_s" --g "$fig_g" --out "$tmp/supports.png"

finish_output
echo "fashion: wrote $out/summary.md and $out/supports.png ($(($(date +%s) - start)) s)"
