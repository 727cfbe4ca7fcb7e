#!/bin/sh
# Recover's defaults on megapixel images the megapixel path was not developed on
# (scripts/make_heldout_images.py: blocky, thick strokes, thin curves, letters, fragmented
# edges). One recovery per image and seed, one process at a time, each under
# /usr/bin/time -v; prints a markdown table (also written to OUT_DIR/table.md).
#
#   bench/heldout.sh [BUILD_DIR] [OUT_DIR]        (defaults: build, results/heldout)
#
# Environment (all optional):
#   RATIO     measurements per nonzero (default 3)
#   SENSING   recover's --sensing (default dct)
#   SEEDS     seeds per image (default "0")
#   IMAGES    names among angio_1000 mnist3_1024 curves_1024 text_1024 coins_1024
#             (default: all five)
#   EXTRA     more recover options (e.g. "--threads 2")
#
# Needs python3-skimage for the images (made once into OUT_DIR/images).
set -eu
build=${1:-build}
out=${2:-results/heldout}
root=$(cd "$(dirname "$0")/.." && pwd)
ratio=${RATIO:-3}
sensing=${SENSING:-dct}
seeds=${SEEDS:-0}
images=${IMAGES:-angio_1000 mnist3_1024 curves_1024 text_1024 coins_1024}
extra=${EXTRA:-}
for exe in "$build/gsfw" /usr/bin/time; do
    [ -x "$exe" ] || { echo "$0: $exe is missing (make; apt-get install time)" >&2; exit 1; }
done
mkdir -p "$out/images"
for name in $images; do
    [ -f "$out/images/$name.npy" ] || {
        /usr/bin/python3 "$root/scripts/make_heldout_images.py" "$out/images" >/dev/null
        break
    }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
field() { tr ' ' '\n' <"$2" | sed -n "s/^$1=//p" | head -n 1; }
load0=$(cut -d' ' -f1-3 /proc/loadavg)
rows=$tmp/rows
: >"$rows"
for name in $images; do
    for seed in $seeds; do
        # shellcheck disable=SC2086 # $extra is a list of options
        if ! /usr/bin/time -v "$build/gsfw" recover --image "$out/images/$name.npy" \
            --sensing "$sensing" --ratio "$ratio" --seed "$seed" --no-plot $extra \
            --out-dir "$tmp/rec" >"$tmp/s" 2>"$tmp/t"; then
            # the row stays (a run that cannot finish is a result); say why on stderr
            echo "$0: $name seed $seed: $(grep -v -e '^[[:space:]]' -e '^Command ' "$tmp/t" | head -n 1)" >&2
            echo "status=error" >"$tmp/s"
        fi
        s=$tmp/s
        mb=$(awk '/Maximum resident set size/ {printf "%.0f", $NF / 1024}' "$tmp/t")
        echo "| $name | $seed | $(field d "$s") | $(field s "$s") | $(field g "$s") | $(field method "$s") | $(field oracle_calls "$s") | $(field pcsf_calls "$s") | $(field time_s "$s") | $mb | $(field rel_err "$s") | $(field status "$s") |" | tee -a "$rows" >&2
    done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
{
    echo "bench/heldout.sh on $(date -u '+%Y-%m-%d %H:%M UTC'): --sensing $sensing --ratio $ratio $extra; load average $load0 at the start, $load1 at the end."
    echo
    echo "| image | seed | pixels | s | g | method | projections | PCSF runs | solve s | peak MB | rel_err | status |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
    cat "$rows"
} >"$out/table.md"
cat "$out/table.md"
